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

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * A session's second message waits in its lane for the first one's answer; the loop, asleep in its select when
 * that answer is sent from another thread, is woken to start it (an awake loop finds the answer by itself).
 */
public class PfcpLoopWakeUpTest {

    private static final InetSocketAddress SMF = new InetSocketAddress("127.0.0.1", 8805);
    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");

    /** A store whose commits complete when the test says so, once it holds them. */
    private static final class HeldCommitStore implements SessionStore {
        final InMemorySessionStore sessions = new InMemorySessionStore();
        volatile CompletableFuture<Void> commit = CompletableFuture.completedFuture(null);
        final CountDownLatch committing = new CountDownLatch(1);

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
            CompletableFuture<Void> c = commit;
            if (!c.isDone()) {
                committing.countDown();
            }
            return c;
        }
    }

    @Test(timeout = 60_000)
    public void aLoopAsleepInItsSelectIsWokenToStartTheSessionsNextMessage() throws Exception {
        HeldCommitStore store = new HeldCommitStore();
        SessionManager sessions = new SessionManager(store, new SessionTranslator(N3, 0, Map.of(), 10),
                                                     new ResourcePool(1024, 1024),
                                                     () -> List.of(new InMemoryUpfDevice("test", 1024)), N3);
        PfcpConfig cfg = new PfcpConfig("127.0.0.1", 0, "127.0.0.9", Set.of("127.0.0.1"), 0, 3000, 3, 60_000, 1000);
        PfcpStats stats = new PfcpStats();
        PfcpHandler handler = new PfcpHandler(cfg, sessions, new UsageReporter(sessions, () -> 1_000_000L), 1,
                                              stats, new InMemoryAssociationStore(), () -> 1_000_000L);
        AtomicInteger sorted = new AtomicInteger();
        PfcpLoop.Sorter counting = (peer, datagram) -> {
            try {
                return PfcpCodec.header(datagram, datagram.length);
            } catch (Exception e) {
                throw new AssertionError(e);
            } finally {
                sorted.incrementAndGet();
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
            assertEquals(Cause.REQUEST_ACCEPTED, cause(handler.handleAsync(smfAddress, setup, setup.length,
                                                                           1_000_000L).join()));
            byte[] establish = establishment();
            assertEquals(Cause.REQUEST_ACCEPTED, cause(handler.handleAsync(smfAddress, establish, establish.length,
                                                                           1_000_000L).join()));
            long upSeid = store.all().iterator().next().upSeid;

            store.commit = new CompletableFuture<>();
            smf.send(datagram(modification(upSeid, 3, 0x01), upf));
            smf.send(datagram(modification(upSeid, 4, 0x02), upf));
            assertTrue(store.committing.await(10, TimeUnit.SECONDS));
            while (sorted.get() < 2) {
                Thread.onSpinWait();
            }
            Thread pfcp = thread("hupf-pfcp");
            while (!inSelect(pfcp)) {
                Thread.onSpinWait();
            }
            store.commit.complete(null);
            assertEquals(Cause.REQUEST_ACCEPTED, cause(receive(smf)));
            assertEquals("the second modification was started and answered", Cause.REQUEST_ACCEPTED,
                         cause(receive(smf)));
        }
    }

    private static Thread thread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name) && t.isAlive())
                .findFirst().orElseThrow();
    }

    private static boolean inSelect(Thread t) {
        StackTraceElement[] stack = t.getStackTrace();
        return stack.length > 0 && stack[0].getClassName().equals("sun.nio.ch.EPoll")
                && stack[0].getMethodName().equals("wait");
    }

    private static DatagramPacket datagram(byte[] bytes, InetSocketAddress to) {
        return new DatagramPacket(bytes, bytes.length, to);
    }

    private static int cause(byte[] response) throws Exception {
        return PfcpCodec.decode(response, response.length).require(IeType.CAUSE).reader().u8();
    }

    private static byte[] receive(DatagramSocket smf) throws Exception {
        DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
        smf.receive(p);
        return Arrays.copyOf(p.getData(), p.getLength());
    }

    /** An establishment of one uplink PDR (F-TEID CHOOSE) forwarding to the core. */
    private static byte[] establishment() throws Exception {
        Inet4Address ue = (Inet4Address) InetAddress.getByName("10.250.0.1");
        Ie pdr = Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 1), Ie.u32(IeType.PRECEDENCE, 100),
                            Ie.grouped(IeType.PDI, Ie.u8(IeType.SOURCE_INTERFACE, 0),
                                       IeFields.F_TEID.encode(new FTeid(0, null, true, null)),
                                       IeFields.UE_IP_ADDRESS.encode(new UeIpAddress(ue, false, false))),
                            Ie.u32(IeType.FAR_ID, 1));
        Ie far = Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.u8(IeType.APPLY_ACTION, 0x02),
                            Ie.grouped(IeType.FORWARDING_PARAMETERS, Ie.u8(IeType.DESTINATION_INTERFACE, 1)));
        return PfcpCodec.encode(PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, 2, List.of(
                IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")),
                IeFields.F_SEID.encode(new FSeid(800_000, (Inet4Address) InetAddress.getByName("127.0.0.1"), null)),
                pdr, far)));
    }

    /** A modification of the session's FAR's apply action (0x01 drop, 0x02 forward): a device write each. */
    private static byte[] modification(long upSeid, int seq, int applyAction) {
        return PfcpCodec.encode(PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, upSeid, seq, List.of(
                Ie.grouped(IeType.UPDATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.u8(IeType.APPLY_ACTION, applyAction)))));
    }
}
