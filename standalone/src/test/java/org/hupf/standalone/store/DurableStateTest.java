package org.hupf.standalone.store;

import org.hupf.api.Association;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.store.KeptResponse;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.onlab.packet.Ip4Address;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The standalone host's durable state: what is committed is there after a reopen, and after a kill -9
 * of a process in the middle of writing, every change it had acknowledged is there.
 */
public class DurableStateTest {

    private static final long START = 3_900_000_000L;

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    static PfcpSession session(long seid) {
        Ip4Address ue = Ip4Address.valueOf(0x0afa0000 + (int) seid);
        Pdr ul = new Pdr(1, 100, Pdr.ACCESS, 0x1000L + seid, Ip4Address.valueOf("192.168.0.1"), true, 1, ue,
                         List.of(), null, 0, null, 1L, List.of(), List.of());
        Pdr dl = new Pdr(2, 100, Pdr.CORE, null, null, false, null, ue, List.of(), null, null, null, 2L, List.of(),
                         List.of());
        return new PfcpSession(seid, 1000 + seid, "10.0.0.1", "smf", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                                      2L, new Far(2, Far.FORW, Far.ACCESS, 0x100L + seid,
                                                  Ip4Address.valueOf("192.168.1.10"), null)),
                               Map.of(), Map.of(), Map.of("ctr:1", (int) seid, "ctr:2", (int) seid + 1));
    }

    @Test
    public void sessionsAssociationsAndRecoveryTimeStampSurviveAReopen() throws Exception {
        Path dir = tmp.getRoot().toPath().resolve("state");
        Association smf = new Association("smf", new InetSocketAddress("127.0.0.2", 8805), 77, 1234);
        try (DurableState s = DurableState.open(dir, 0, START)) {
            assertFalse(s.restored());
            assertEquals(START, s.recoveryTimeStamp());
            s.sessions().put(session(1));
            s.sessions().put(session(2));
            s.sessions().remove(2);
            s.associations().put(smf);
        }
        try (DurableState s = DurableState.open(dir, 0, START + 60)) {
            assertTrue(s.restored());
            assertEquals("a host that kept its state keeps its Recovery Time Stamp", START, s.recoveryTimeStamp());
            assertEquals(session(1), s.sessions().get(1));
            assertNull(s.sessions().get(2));
            assertEquals(1, s.sessions().all().size());
            Association a = s.associations().get("smf");
            assertTrue(org.hupf.core.store.AssociationStore.same(smf, a));
            assertFalse("another association of the Node ID is not removed",
                        s.associations().remove(new Association("smf", smf.peer, 78, 1234)));
            assertTrue(s.associations().remove(a));
            s.sessions().remove(1);
        }
        try (DurableState s = DurableState.open(dir, 0, START + 120)) {
            assertFalse("an empty state is a fresh start", s.restored());
            assertEquals(START + 120, s.recoveryTimeStamp());
        }
    }

    @Test
    public void everyAcknowledgedSessionSurvivesKill9() throws Exception {
        Path dir = tmp.getRoot().toPath().resolve("crash");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                                           DurableStateWriter.class.getName(), dir.toString(), "100000")
                .redirectErrorStream(true).start();
        long acknowledged = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                                                                         StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null && acknowledged < 700) {
                assertTrue("writer said: " + line, line.startsWith("committed "));
                acknowledged = Long.parseLong(line.substring(10));
            }
            child.destroyForcibly(); // SIGKILL: mid-commit, no shutdown hook, no close
            child.waitFor();
        }
        assertTrue(acknowledged >= 700);
        try (DurableState s = DurableState.open(dir, 0, START)) {
            for (long seid = 1; seid <= acknowledged; seid++) {
                assertNotNull("acknowledged session " + seid + " lost", s.sessions().get(seid));
                assertEquals(session(seid), s.sessions().get(seid));
            }
        }
    }

    @Test
    public void responsesKeptWithTheirChangesSurviveAReopenUntilPruned() throws Exception {
        Path dir = tmp.getRoot().toPath().resolve("responses");
        try (DurableState s = DurableState.open(dir, 0, START)) {
            s.sessions().put(session(1), new KeptResponse("/127.0.0.2:8805/7/50", new byte[] {1, 2, 3}, 1_000));
            s.sessions().put(session(2), new KeptResponse("/127.0.0.2:8805/8/50", new byte[] {4}, 1_000));
            s.sessions().remove(2, new KeptResponse("/127.0.0.2:8805/9/54", new byte[] {5, 6}, 2_000));
            s.sessions().put(session(3));
        }
        try (DurableState s = DurableState.open(dir, 0, START)) {
            List<KeptResponse> kept = s.sessions().keptResponses();
            assertEquals(List.of("/127.0.0.2:8805/7/50", "/127.0.0.2:8805/8/50", "/127.0.0.2:8805/9/54"),
                         kept.stream().map(r -> r.key()).collect(Collectors.toList()));
            assertArrayEquals(new byte[] {1, 2, 3}, kept.get(0).bytes);
            assertEquals(2_000, kept.get(2).atMillis);
            assertEquals(2, s.sessions().all().size());
            s.sessions().pruneResponses(1_500, 10);
            assertEquals(List.of("/127.0.0.2:8805/9/54"),
                         s.sessions().keptResponses().stream().map(r -> r.key()).collect(Collectors.toList()));
            s.sessions().put(session(4), new KeptResponse("/127.0.0.2:8805/10/50", new byte[] {7}, 2_000));
            s.sessions().pruneResponses(0, 1);
            assertEquals("the oldest go beyond the bound", List.of("/127.0.0.2:8805/10/50"),
                         s.sessions().keptResponses().stream().map(r -> r.key()).collect(Collectors.toList()));
            s.sessions().removeAll(List.of(1L, 3L));
        }
        try (DurableState s = DurableState.open(dir, 0, START)) {
            assertEquals(List.of(4L), s.sessions().all().stream().map(x -> x.upSeid).collect(Collectors.toList()));
            assertEquals(1, s.sessions().keptResponses().size());
        }
    }

    @Test(expected = IllegalArgumentException.class)
    public void negativeSyncPeriodIsRefused() throws Exception {
        DurableState.open(tmp.getRoot().toPath(), -1, START);
    }
}
