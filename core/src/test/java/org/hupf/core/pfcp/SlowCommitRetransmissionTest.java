package org.hupf.core.pfcp;

import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.pfcp.codec.Ie;
import org.hupf.core.pfcp.codec.IeFields;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.PfcpMessage;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.FTeid;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.UeIpAddress;
import org.hupf.core.session.SessionManager;
import org.hupf.core.store.InMemoryAssociationStore;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * TS 29.244 §6.4 with a store whose commit is a slow round trip (ONOS's Raft-replicated map under load): a
 * retransmission of an establishment gets its original's answer for the whole window after that answer was sent,
 * however long the commit took, and is never carried out again (a second execution finds the CP F-SEID in use:
 * cause 64).
 */
public class SlowCommitRetransmissionTest {

    private static final InetSocketAddress SMF = new InetSocketAddress("127.0.0.1", 8805);
    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final long WINDOW_MS = 60_000;
    /** The SMF's retransmission timer. */
    private static final long T1_MS = 3_000;

    /** ONOS's store's contract: reads see a change at once, its commit completes later (here when released). */
    private static final class SlowCommitStore implements SessionStore {
        final InMemorySessionStore sessions = new InMemorySessionStore();
        final CompletableFuture<Void> commit = new CompletableFuture<>();
        /** The response the change under way is committed with, once every device took the change. */
        final CompletableFuture<KeptResponse> committing = new CompletableFuture<>();
        /** Whether commits wait for {@link #commit}; when not, they complete at once. */
        volatile boolean holding = true;

        @Override
        public PfcpSession get(long upSeid) {
            return sessions.get(upSeid);
        }

        @Override
        public void put(PfcpSession session) {
            sessions.put(session);
        }

        @Override
        public PfcpSession remove(long upSeid) {
            return sessions.remove(upSeid);
        }

        @Override
        public Collection<PfcpSession> all() {
            return sessions.all();
        }

        @Override
        public CompletableFuture<Void> putCommitted(PfcpSession session, KeptResponse response) {
            sessions.put(session);
            if (!holding) {
                return CompletableFuture.completedFuture(null);
            }
            committing.complete(response);
            return commit;
        }
    }

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final SlowCommitStore store = new SlowCommitStore();
    private final PfcpStats stats = new PfcpStats();
    private final SessionManager sessions;
    private final PfcpHandler handler;
    private final byte[] establish;

    public SlowCommitRetransmissionTest() throws Exception {
        sessions = new SessionManager(store, new SessionTranslator(N3, 0, Map.of(), 10),
                                              new ResourcePool(1024, 1024),
                                              () -> List.of(new InMemoryUpfDevice("test", 1024)), N3);
        PfcpConfig cfg = new PfcpConfig("127.0.0.1", 0, "127.0.0.9", Set.of("127.0.0.1"), 0, 3000, 3, WINDOW_MS,
                                        1000);
        handler = new PfcpHandler(cfg, sessions, new UsageReporter(sessions, clock::get), 1, stats,
                                  new InMemoryAssociationStore(),
                                  clock::get);
        establish = establishment(2, 800_000, "10.250.0.1");
    }

    private CompletableFuture<byte[]> send(byte[] datagram) {
        return handler.handleAsync(SMF, datagram, datagram.length, clock.get());
    }

    private static int cause(byte[] response) throws Exception {
        return PfcpCodec.decode(response, response.length).require(IeType.CAUSE).reader().u8();
    }

    /** An establishment of one uplink PDR (F-TEID CHOOSE) forwarding to the core. */
    private static byte[] establishment(int seq, long cpSeid, String ue) throws Exception {
        Inet4Address addr = (Inet4Address) InetAddress.getByName(ue);
        Ie pdr = Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 1), Ie.u32(IeType.PRECEDENCE, 100),
                            Ie.grouped(IeType.PDI, Ie.u8(IeType.SOURCE_INTERFACE, 0),
                                       IeFields.F_TEID.encode(new FTeid(0, null, true, null)),
                                       IeFields.UE_IP_ADDRESS.encode(new UeIpAddress(addr, false, false))),
                            Ie.u32(IeType.FAR_ID, 1));
        Ie far = Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.u8(IeType.APPLY_ACTION, 0x02),
                            Ie.grouped(IeType.FORWARDING_PARAMETERS, Ie.u8(IeType.DESTINATION_INTERFACE, 1)));
        return PfcpCodec.encode(PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, seq, List.of(
                IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")),
                IeFields.F_SEID.encode(new FSeid(cpSeid, (Inet4Address) InetAddress.getByName("127.0.0.1"), null)),
                pdr, far)));
    }

    /** Associates the SMF and sends the establishment; returns its answer to come once every device took it. */
    private CompletableFuture<byte[]> establishUntilCommitting() throws Exception {
        byte[] setup = PfcpCodec.encode(PfcpMessage.node(MessageType.ASSOCIATION_SETUP_REQUEST, 1, List.of(
                IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")), Ie.u32(IeType.RECOVERY_TIME_STAMP, 3_900_000_000L))));
        assertEquals(Cause.REQUEST_ACCEPTED, cause(send(setup).join()));
        CompletableFuture<byte[]> original = send(establish);
        store.committing.get(10, TimeUnit.SECONDS);
        return original;
    }

    private long counted(String counter) {
        return stats.snapshot().getOrDefault(counter, 0L);
    }

    /** The SMF lost the answer: its retransmissions get it again until the window after it was sent ends. */
    @Test
    public void aRetransmissionAfterASlowCommitGetsTheAnswerForTheWindowAfterItWasSent() throws Exception {
        CompletableFuture<byte[]> original = establishUntilCommitting();
        KeptResponse committed = store.committing.join();
        clock.addAndGet(WINDOW_MS - 10_000);
        store.commit.complete(null);
        byte[] answer = original.join();
        assertEquals(Cause.REQUEST_ACCEPTED, cause(answer));
        assertArrayEquals("the store keeps the bytes sent", committed.bytes, answer);

        long sent = clock.get();
        for (long after : new long[] {3_000, WINDOW_MS}) {
            clock.set(sent + after);
            handler.evictResponses(clock.get());
            byte[] again = send(establish).join();
            assertEquals("cause, " + after + " ms after the answer", Cause.REQUEST_ACCEPTED, cause(again));
            assertArrayEquals(answer, again);
        }
        assertEquals(2, counted("rx.retransmission"));
        assertEquals(0, counted("reject.cause_" + Cause.REQUEST_REJECTED));
        assertEquals(1, store.all().size());
    }

    /**
     * The SMF's host is starved and its socket drops every answer: it retransmits every T1 for longer than the
     * window, and each retransmission gets the original's answer, never a second execution.
     */
    @Test
    public void anSmfStillRetransmittingPastTheWindowStillGetsTheAnswer() throws Exception {
        CompletableFuture<byte[]> original = establishUntilCommitting();
        store.commit.complete(null);
        byte[] answer = original.join();
        int retransmissions = (int) (3 * WINDOW_MS / T1_MS);
        for (int i = 0; i < retransmissions; i++) {
            clock.addAndGet(T1_MS);
            handler.evictResponses(clock.get());
            byte[] again = send(establish).join();
            assertArrayEquals("retransmission " + (i + 1), answer, again);
        }
        assertEquals(retransmissions, counted("rx.retransmission"));
        assertEquals(0, counted("reject.cause_" + Cause.REQUEST_REJECTED));
        assertEquals(1, store.all().size());
    }

    /**
     * Over the PFCP socket: the retransmissions of an establishment under way are dropped, not queued behind it to
     * be answered together once it is (a burst of copies that a starved SMF's socket drops, answers included).
     */
    @Test
    public void theSocketsRetransmissionsOfAnEstablishmentUnderWayAreDroppedNotQueued() throws Exception {
        PfcpConfig cfg = new PfcpConfig("127.0.0.1", 0, "127.0.0.9", Set.of("127.0.0.1"), 0, 3000, 3, WINDOW_MS,
                                        60_000);
        try (PfcpAgent agent = new PfcpAgent(cfg, sessions);
             DatagramSocket smf = new DatagramSocket(0, SMF.getAddress())) {
            smf.setSoTimeout(10_000);
            InetSocketAddress upf = new InetSocketAddress(SMF.getAddress(), agent.port());
            exchange(smf, upf, PfcpCodec.encode(PfcpMessage.node(MessageType.ASSOCIATION_SETUP_REQUEST, 1, List.of(
                    IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")),
                    Ie.u32(IeType.RECOVERY_TIME_STAMP, 3_900_000_000L)))));
            smf.send(new DatagramPacket(establish, establish.length, upf));
            store.committing.get(10, TimeUnit.SECONDS);
            int copies = 3;
            for (int i = 0; i < copies; i++) {
                smf.send(new DatagramPacket(establish, establish.length, upf));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (agent.stats().get("rx.retransmission_in_progress") < copies && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(copies, agent.stats().get("rx.retransmission_in_progress"));
            store.commit.complete(null);
            assertEquals(Cause.REQUEST_ACCEPTED, cause(receive(smf)));
            assertArrayEquals(store.committing.join().bytes, exchange(smf, upf, establish));
            assertEquals(1, agent.stats().get("rx.retransmission"));
        }
    }

    /**
     * The answer is sent by the thread that completed the change; the loop releases the request's lane at its next
     * burst. A retransmission read in between (the SMF got the answer's copy before, lost the answer, retried at
     * once) gets the answer, not a drop that would cost the SMF a T1 more. The loop is held in the middle of a
     * burst to make the window certain.
     */
    @Test
    public void aRetransmissionReadBeforeTheAnsweredLaneIsReleasedGetsTheAnswer() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        PfcpLoop.Sorter holdOnAnEmptyDatagram = (peer, datagram) -> {
            if (datagram.length == 0) {
                held.countDown();
                awaitQuietly(release);
                return null;
            }
            try {
                return PfcpCodec.header(datagram, datagram.length);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        try (PfcpLoop loop = new PfcpLoop(new InetSocketAddress(SMF.getAddress(), 0), handler, stats,
                                          holdOnAnEmptyDatagram);
             DatagramSocket smf = new DatagramSocket(0, SMF.getAddress())) {
            smf.setSoTimeout(10_000);
            InetSocketAddress upf = new InetSocketAddress(SMF.getAddress(), loop.port());
            byte[] setup = PfcpCodec.encode(PfcpMessage.node(MessageType.ASSOCIATION_SETUP_REQUEST, 1, List.of(
                    IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")),
                    Ie.u32(IeType.RECOVERY_TIME_STAMP, 3_900_000_000L))));
            InetSocketAddress smfAddress = new InetSocketAddress(SMF.getAddress(), smf.getLocalPort());
            assertEquals(Cause.REQUEST_ACCEPTED,
                         cause(handler.handleAsync(smfAddress, setup, setup.length, clock.get()).join()));
            smf.send(new DatagramPacket(establish, establish.length, upf));
            store.committing.get(10, TimeUnit.SECONDS);
            smf.send(new DatagramPacket(new byte[0], 0, upf));
            assertTrue("the loop took the empty datagram", held.await(10, TimeUnit.SECONDS));
            store.commit.complete(null);
            byte[] answer = receive(smf);
            assertEquals(Cause.REQUEST_ACCEPTED, cause(answer));
            smf.send(new DatagramPacket(establish, establish.length, upf));
            release.countDown();
            assertArrayEquals(answer, receive(smf));
            assertEquals(1, counted("rx.retransmission"));
            assertEquals(0, counted("rx.retransmission_in_progress"));
        }
        assertEquals(1, store.all().size());
    }

    /**
     * A session's second message waits in its lane for the first one's answer; the loop, asleep in its select when
     * that answer is sent from another thread (here the commit's), is woken to start it.
     */
    @Test(timeout = 60_000)
    public void aLoopAsleepInItsSelectIsWokenToStartTheSessionsNextMessage() throws Exception {
        AtomicInteger sorted = new AtomicInteger();
        PfcpLoop.Sorter counting = (peer, datagram) -> {
            sorted.incrementAndGet();
            try {
                return PfcpCodec.header(datagram, datagram.length);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        try (PfcpLoop loop = new PfcpLoop(new InetSocketAddress(SMF.getAddress(), 0), handler, stats, counting);
             DatagramSocket smf = new DatagramSocket(0, SMF.getAddress())) {
            smf.setSoTimeout(10_000);
            InetSocketAddress upf = new InetSocketAddress(SMF.getAddress(), loop.port());
            InetSocketAddress smfAddress = new InetSocketAddress(SMF.getAddress(), smf.getLocalPort());
            byte[] setup = PfcpCodec.encode(PfcpMessage.node(MessageType.ASSOCIATION_SETUP_REQUEST, 1, List.of(
                    IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")),
                    Ie.u32(IeType.RECOVERY_TIME_STAMP, 3_900_000_000L))));
            assertEquals(Cause.REQUEST_ACCEPTED,
                         cause(handler.handleAsync(smfAddress, setup, setup.length, clock.get()).join()));
            store.holding = false;
            assertEquals(Cause.REQUEST_ACCEPTED,
                         cause(handler.handleAsync(smfAddress, establish, establish.length, clock.get()).join()));
            long upSeid = store.all().iterator().next().upSeid;
            store.holding = true;
            for (int seq = 3; seq <= 4; seq++) {
                byte[] modify = modification(upSeid, seq, seq == 3 ? 0x01 : 0x02);
                smf.send(new DatagramPacket(modify, modify.length, upf));
            }
            store.committing.get(10, TimeUnit.SECONDS);
            while (sorted.get() < 2) {
                Thread.onSpinWait();
            }
            Thread pfcp = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("hupf-pfcp") && t.isAlive()).findFirst().orElseThrow();
            while (!inSelect(pfcp)) {
                Thread.onSpinWait();
            }
            store.commit.complete(null);
            assertEquals(Cause.REQUEST_ACCEPTED, cause(receive(smf)));
            assertEquals("the second modification was started and answered", Cause.REQUEST_ACCEPTED,
                         cause(receive(smf)));
        }
    }

    private static boolean inSelect(Thread t) {
        StackTraceElement[] stack = t.getStackTrace();
        return stack.length > 0 && stack[0].getClassName().equals("sun.nio.ch.EPoll")
                && stack[0].getMethodName().equals("wait");
    }

    /** A modification of the session's FAR's apply action (0x01 drop, 0x02 forward): a device write each. */
    private static byte[] modification(long upSeid, int seq, int applyAction) {
        return PfcpCodec.encode(PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, upSeid, seq, List.of(
                Ie.grouped(IeType.UPDATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.u8(IeType.APPLY_ACTION, applyAction)))));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] exchange(DatagramSocket smf, InetSocketAddress upf, byte[] request) throws Exception {
        smf.send(new DatagramPacket(request, request.length, upf));
        return receive(smf);
    }

    private static byte[] receive(DatagramSocket smf) throws Exception {
        DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
        smf.receive(p);
        return Arrays.copyOf(p.getData(), p.getLength());
    }

    /**
     * A retransmission while the change is being committed is dropped: answering it would tell the SMF of a
     * session a crash before the commit loses. A commit that fails leaves the change in effect here: the
     * retransmission then gets its answer, not a second execution.
     */
    @Test
    public void aRetransmissionDuringTheCommitWaitsForItAndAFailedCommitStillAnswersIt() throws Exception {
        CompletableFuture<byte[]> original = establishUntilCommitting();
        KeptResponse committed = store.committing.join();
        assertNull(send(establish).join());
        assertEquals(1, counted("rx.retransmission_in_progress"));
        assertFalse("answered before the store committed", original.isDone());

        store.commit.completeExceptionally(new IllegalStateException("commit timed out"));
        assertNotNull("no answer to a change whose commit failed",
                      original.handle((answer, failure) -> failure).get(10, TimeUnit.SECONDS));
        assertArrayEquals(committed.bytes, send(establish).join());
        assertEquals(Cause.REQUEST_ACCEPTED, cause(committed.bytes));
        assertEquals(1, counted("rx.retransmission"));
        assertEquals(0, counted("reject.cause_" + Cause.REQUEST_REJECTED));
        assertEquals(1, store.all().size());
    }
}
