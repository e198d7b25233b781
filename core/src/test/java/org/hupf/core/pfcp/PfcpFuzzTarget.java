package org.hupf.core.pfcp;

import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.pfcp.codec.IeFields;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.PfcpMessage;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.onlab.packet.Ip4Address;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Jazzer target: any datagram through the PFCP request handler (decoder, typed requests, session editor,
 * translator, session manager), from one of four sources picked by the input's hash: the associated SMF
 * (twice as often), its address on another port, or a stranger whose address no allowlist entry names.
 * Jazzer reports any exception that escapes as a finding, and so is any change a stranger's datagram makes
 * to sessions or associations.
 */
public final class PfcpFuzzTarget {

    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 8805);
    private static final InetSocketAddress STRANGER = new InetSocketAddress("127.0.0.3", 8805);
    private static final List<InetSocketAddress> SOURCES = List.of(PEER, PEER, new InetSocketAddress("127.0.0.1",
                                                                                                 40000), STRANGER);
    private static final SessionManager SESSIONS;
    private static final PfcpHandler HANDLER;
    private static long now;

    static {
        Ip4Address n3 = Ip4Address.valueOf("192.168.0.1");
        InMemoryUpfDevice device = new InMemoryUpfDevice("fuzz", 4096);
        SessionManager m = new SessionManager(new InMemorySessionStore(), new SessionTranslator(n3, 0, Map.of(), 10),
                                              new ResourcePool(4096, 4096), () -> List.of(device), n3);
        // 10.0.0.1 is the CP Node ID of the seed vectors (tests/pfcp/gen_vectors.py), here sent from PEER.
        PfcpConfig cfg = new PfcpConfig("127.0.0.1", 0, "127.0.0.1", Set.of("127.0.0.1", "10.0.0.1@127.0.0.1"), 0,
                                        3000, 3, 0, 1000);
        SESSIONS = m;
        HANDLER = new PfcpHandler(cfg, m, new UsageReporter(m, () -> now), 1, new PfcpStats());
        // Associate first so that session messages reach the session code.
        for (String node : List.of("127.0.0.1", "10.0.0.1")) {
            byte[] setup = PfcpCodec.encode(PfcpMessage.node(MessageType.ASSOCIATION_SETUP_REQUEST, 1, List.of(
                    IeFields.NODE_ID.encode(NodeId.of(node)), IeFields.RECOVERY_TIME_STAMP.encode(1L))));
            HANDLER.handle(PEER, setup, setup.length, 0);
        }
    }

    private PfcpFuzzTarget() {
    }

    /**
     * Jazzer's entry point.
     *
     * @param data one datagram
     */
    public static void fuzzerTestOneInput(byte[] data) {
        // A fresh timestamp per input: no answer comes from the response cache, every input is handled.
        now += 120_000;
        HANDLER.evictResponses(now);
        InetSocketAddress from = SOURCES.get(Math.floorMod(Arrays.hashCode(data), SOURCES.size()));
        // What an earlier input started in the background (a peer's sessions being deleted) must not count.
        while (SESSIONS.bulkDeletionsInProgress() > 0) {
            Thread.onSpinWait();
        }
        List<Object> before = from == STRANGER ? state() : null;
        HANDLER.handle(from, data, data.length, now);
        if (before != null && !before.equals(state())) {
            throw new IllegalStateException("a datagram from " + STRANGER + " changed the state: " + before + " -> "
                                                    + state());
        }
    }

    private static List<Object> state() {
        Set<String> associations = new HashSet<>();
        HANDLER.associations().forEach(a -> associations.add(a + "/" + a.recoveryTimeStamp));
        return List.of(new HashSet<>(SESSIONS.store().all()), associations);
    }
}
