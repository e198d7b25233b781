package org.hupf.core.pfcp;

import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.pfcp.codec.Ie;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.PfcpMessage;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.session.SessionManager;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.fail;

/**
 * The exchanges the handler keeps (TS 29.244 §6.4): a request whose answer could not be made is not left "being
 * answered" (its retransmissions would all be dropped), and two peers whose addresses hash alike keep apart.
 */
public class ResponseCacheTest {

    private static final InetSocketAddress SMF = new InetSocketAddress("127.0.0.1", 8805);
    /** Hashes as {@link #SMF} does: the address one more, the port one less. */
    private static final InetSocketAddress SAME_HASH = new InetSocketAddress("127.0.0.2", 8804);

    private PfcpHandler handler;
    private PfcpStats stats;

    @Before
    public void setUp() {
        Ip4Address n3 = Ip4Address.valueOf("192.168.0.1");
        InMemoryUpfDevice device = new InMemoryUpfDevice("test", 64);
        SessionManager sessions = new SessionManager(new InMemorySessionStore(),
                                                     new SessionTranslator(n3, 0, Map.of(), 10),
                                                     new ResourcePool(64, 64), () -> List.of(device), n3);
        PfcpConfig cfg = new PfcpConfig("127.0.0.1", 0, "127.0.0.9", Set.of("127.0.0.1", "127.0.0.2"),
                                        0, 3000, 3, 60_000, 1000);
        stats = new PfcpStats();
        handler = new PfcpHandler(cfg, sessions, new UsageReporter(sessions, () -> 0), 1, stats);
    }

    private static byte[] heartbeat(int sequence) {
        return PfcpCodec.encode(PfcpMessage.node(MessageType.HEARTBEAT_REQUEST, sequence,
                                                 List.of(Ie.u32(IeType.RECOVERY_TIME_STAMP, 7))));
    }

    private PfcpHandler.Handling begin(InetSocketAddress peer, byte[] request) throws Exception {
        return handler.begin(peer, PfcpCodec.header(request, request.length), request, request.length, 0);
    }

    @Test
    public void aRequestWhoseAnswerFailsIsCarriedOutAgainOnItsRetransmission() throws Exception {
        byte[] request = heartbeat(41);
        PfcpHandler.Handling first = begin(SMF, request);
        assertNotNull(first.response);
        try {
            handler.finish(first, new PfcpResponse(41) {
                @Override
                protected List<Object> fields() {
                    return List.of();
                }
            });
            fail("a response the codec does not know was encoded");
        } catch (RuntimeException expected) {
            // the bug the PFCP loop logs; the request must not stay in progress
        }
        byte[] answer = handler.handle(SMF, request, request.length, 0);
        assertNotNull("the retransmission was dropped as in progress", answer);
        assertEquals(MessageType.HEARTBEAT_RESPONSE, PfcpCodec.header(answer, answer.length).type);
        assertEquals(0, stats.get("rx.retransmission_in_progress"));
        assertArrayEquals(answer, handler.handle(SMF, request, request.length, 0));
        assertEquals(1, stats.get("rx.retransmission"));
    }

    @Test
    public void peersWhoseAddressesHashAlikeKeepTheirOwnExchanges() throws Exception {
        assertEquals(SMF.hashCode(), SAME_HASH.hashCode());
        byte[] request = heartbeat(42);
        PfcpHandler.Handling smf = begin(SMF, request);
        PfcpHandler.Handling other = begin(SAME_HASH, request);
        assertNotNull("the other peer's request was taken for a retransmission", other.response);
        assertNull(begin(SMF, request).answer);
        assertEquals(1, stats.get("rx.retransmission_in_progress"));

        handler.abandon(smf);
        byte[] otherAnswer = handler.finish(other, other.response.join());
        assertArrayEquals(otherAnswer, handler.handle(SAME_HASH, request, request.length, 0));
        PfcpHandler.Handling again = begin(SMF, request);
        assertNotNull("the abandoned request was not carried out anew", again.response);
        handler.finish(again, again.response.join());
        assertArrayEquals(otherAnswer, handler.handle(SMF, request, request.length, 0));
        assertEquals(2, stats.get("rx.retransmission"));
    }
}
