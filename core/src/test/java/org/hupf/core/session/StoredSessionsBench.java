package org.hupf.core.session;

import org.hupf.api.session.PfcpSession;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfInterface;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a restarted session core costs before it can answer, at N stored sessions: {@link SessionManager}'s
 * constructor (allocations and indexes), then {@link SessionManager#trackStoredSessions} (every session translated
 * and reference-counted), which the constructor did itself before and a restarted host now runs once PFCP answers.
 * CPU time of the calling thread (the machine's load does not enter it), rounds in one JVM over the same store. Not a
 * unit test: run {@code java -cp <core test classpath> org.hupf.core.session.StoredSessionsBench [sessions] [rounds]}.
 */
public final class StoredSessionsBench {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final Ip4Prefix UE_POOL = Ip4Prefix.valueOf("10.248.0.0/13");
    private static final Set<UpfInterface> INTERFACES = Set.of(
            UpfInterface.builder().setPrefix(Ip4Prefix.valueOf(N3, 32)).setAccess().build(),
            UpfInterface.builder().setPrefix(UE_POOL).setCore().build());

    private StoredSessionsBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        InMemorySessionStore store = new InMemorySessionStore();
        InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 4L * n);
        try (SessionManager first = manager(store, device, n)) {
            for (int i = 0; i < n; i++) {
                first.establish(draft(i));
            }
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[] constructed = new double[rounds];
        double[] tracked = new double[rounds];
        int entities = 0;
        for (int r = 0; r < rounds; r++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            try (SessionManager m = manager(store, device, n)) {
                long t1 = cpu.getCurrentThreadCpuTime();
                m.trackStoredSessions();
                long t2 = cpu.getCurrentThreadCpuTime();
                constructed[r] = (t1 - t0) / 1e9;
                tracked[r] = (t2 - t1) / 1e9;
                entities = m.entityCount();
            }
        }
        System.out.printf("%d sessions (%d entities), %d rounds; CPU s min/median/max: constructor %s, tracking %s%n",
                          n, entities, rounds, spread(constructed), spread(tracked));
    }

    private static SessionManager manager(InMemorySessionStore store, InMemoryUpfDevice device, int n) {
        SessionManager m = new SessionManager(store, new SessionTranslator(N3, 0, Map.of(), 10),
                                              new ResourcePool(4 * n, 4 * n), () -> List.of(device), N3);
        m.setInterfaces(INTERFACES);
        return m;
    }

    /** The restart bench's session: an uplink with F-TEID CHOOSE, a downlink to one of 64 gNBs. */
    private static PfcpSession draft(int i) {
        return StoredSessionsTest.draft(Ip4Address.valueOf(UE_POOL.address().toInt() + 1 + i),
                                        Ip4Address.valueOf(0xc0a80100 + i % 64), i);
    }

    private static String spread(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format("%.2f/%.2f/%.2f", s[0], s[s.length / 2], s[s.length - 1]);
    }
}
