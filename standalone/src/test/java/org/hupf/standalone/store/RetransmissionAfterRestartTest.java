package org.hupf.standalone.store;

import org.hupf.api.session.Cause;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.pfcp.PfcpConfig;
import org.hupf.core.pfcp.PfcpHandler;
import org.hupf.core.pfcp.PfcpStats;
import org.hupf.core.pfcp.UsageReporter;
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
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.onlab.packet.Ip4Address;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

/**
 * TS 29.244 §6.4 across a restart of the host: a request answered just before the host died and
 * retransmitted after it came back with its durable state gets the same bytes, and is not carried out again.
 */
public class RetransmissionAfterRestartTest {

    private static final InetSocketAddress SMF = new InetSocketAddress("127.0.0.1", 8805);
    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final long START = 3_900_000_000L;

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private final InMemoryUpfDevice device = new InMemoryUpfDevice("test", 1024);

    /** A host over the state: session core, handler (the device outlives the host, as a backend does). */
    private PfcpHandler host(DurableState state) {
        SessionManager m = new SessionManager(state.sessions(), new SessionTranslator(N3, 0, Map.of(), 10),
                                              new ResourcePool(1024, 1024), () -> List.of(device), N3);
        PfcpConfig cfg = new PfcpConfig("127.0.0.1", 0, "127.0.0.9", Set.of("127.0.0.1"), 0, 3000, 3, 60_000, 1000);
        return new PfcpHandler(cfg, m, new UsageReporter(m, System::currentTimeMillis), state.recoveryTimeStamp(),
                               new PfcpStats(), state.associations());
    }

    private static byte[] send(PfcpHandler h, PfcpMessage m) {
        byte[] in = PfcpCodec.encode(m);
        return h.handle(SMF, in, in.length, System.currentTimeMillis());
    }

    private static int cause(byte[] response) throws Exception {
        return PfcpCodec.decode(response, response.length).require(IeType.CAUSE).reader().u8();
    }

    private static PfcpMessage establishment(int seq, long cpSeid, String ue) throws Exception {
        Inet4Address addr = (Inet4Address) InetAddress.getByName(ue);
        Ie ul = Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 1), Ie.u32(IeType.PRECEDENCE, 100),
                           Ie.grouped(IeType.PDI, Ie.u8(IeType.SOURCE_INTERFACE, 0),
                                      IeFields.F_TEID.encode(new FTeid(0, null, true, null)),
                                      IeFields.UE_IP_ADDRESS.encode(new UeIpAddress(addr, false, false))),
                           Ie.u8(IeType.OUTER_HEADER_REMOVAL, 0), Ie.u32(IeType.FAR_ID, 1));
        Ie far = Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.u8(IeType.APPLY_ACTION, 0x02),
                            Ie.grouped(IeType.FORWARDING_PARAMETERS, Ie.u8(IeType.DESTINATION_INTERFACE, 1)));
        return PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, seq, List.of(
                IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")),
                IeFields.F_SEID.encode(new FSeid(cpSeid, (Inet4Address) SMF.getAddress(), null)), ul, far));
    }

    @Test
    public void aRetransmissionAfterARestartGetsTheSameBytesAndChangesNothing() throws Exception {
        Path dir = tmp.getRoot().toPath().resolve("state");
        PfcpMessage establish = establishment(2, 77, "10.250.0.1");
        byte[] answered;
        PfcpMessage delete;
        byte[] deleted;
        try (DurableState state = DurableState.open(dir, 0, START)) {
            PfcpHandler h = host(state);
            assertEquals(Cause.REQUEST_ACCEPTED, cause(send(h, PfcpMessage.node(
                    MessageType.ASSOCIATION_SETUP_REQUEST, 1, List.of(IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")),
                                                                      Ie.u32(IeType.RECOVERY_TIME_STAMP, 5))))));
            answered = send(h, establish);
            assertEquals(Cause.REQUEST_ACCEPTED, cause(answered));
            long upSeid = IeFields.F_SEID.require(PfcpCodec.decode(answered, answered.length)).seid;
            assertEquals(Cause.REQUEST_ACCEPTED, cause(send(h, establishment(3, 78, "10.250.0.2"))));
            byte[] third = send(h, establishment(4, 79, "10.250.0.3"));
            delete = PfcpMessage.session(MessageType.SESSION_DELETION_REQUEST,
                                         IeFields.F_SEID.require(PfcpCodec.decode(third, third.length)).seid, 5,
                                         List.of());
            deleted = send(h, delete);
            assertEquals(Cause.REQUEST_ACCEPTED, cause(deleted));
            assertEquals(2, state.sessions().all().size());
            assertEquals(upSeid, (long) state.sessions().all().stream().filter(s -> s.cpSeid == 77)
                    .findFirst().orElseThrow().upSeid);
        }
        int uplinks = device.count(UpfEntityType.SESSION_UPLINK);
        try (DurableState state = DurableState.open(dir, 0, START)) {
            PfcpHandler h = host(state);
            assertArrayEquals(answered, send(h, establish));
            assertArrayEquals(deleted, send(h, delete));
            assertEquals("nothing carried out twice", 2, state.sessions().all().size());
            assertEquals(uplinks, device.count(UpfEntityType.SESSION_UPLINK));
        }
    }
}
