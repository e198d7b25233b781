package org.hupf.core.pfcp.codec;

import org.hupf.api.session.Cause;
import org.hupf.core.pfcp.message.NodeId;
import org.junit.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class PfcpCodecTest {

    private static final byte[] HEARTBEAT = PfcpCodec.encode(
            PfcpMessage.node(MessageType.HEARTBEAT_REQUEST, 0x123456, List.of(Ie.u32(IeType.RECOVERY_TIME_STAMP, 7))));

    private static DecodeException decodeFails(byte[] b, int len) {
        try {
            PfcpCodec.decode(b, len);
        } catch (DecodeException e) {
            return e;
        }
        fail("decoded");
        return null;
    }

    @Test
    public void headerFlagsSeidSequenceAndPriorityRoundTrip() throws Exception {
        PfcpMessage m = PfcpMessage.session(MessageType.SESSION_DELETION_REQUEST, 0xfedcba9876543210L, 0xffffff,
                                            List.of());
        byte[] b = PfcpCodec.encode(m);
        assertEquals(16, b.length);
        assertEquals(0x21, b[0]);
        assertEquals(12, b[3]);
        assertEquals(m, PfcpCodec.decode(b, b.length));
        byte[] withPriority = b.clone();
        withPriority[0] |= 0x02;
        withPriority[15] = (byte) 0xa0;
        assertEquals(10, PfcpCodec.decode(withPriority, 16).priority());
    }

    @Test
    public void aHeaderReadOnceDecodesTheSameMessage() throws Exception {
        byte[] b = vector("session_establishment_request");
        PfcpCodec.Header h = PfcpCodec.header(b, b.length);
        assertEquals(MessageType.SESSION_ESTABLISHMENT_REQUEST, h.type);
        assertTrue(h.hasSeid);
        assertEquals(PfcpCodec.decode(b, b.length), PfcpCodec.decode(h, b, b.length));
    }

    @Test
    public void truncatedHeadersAreReportedWithTheirSize() {
        DecodeException e = decodeFails(HEARTBEAT, 3);
        assertEquals(DecodeException.Kind.TRUNCATED_HEADER, e.kind());
        byte[] session = PfcpCodec.encode(PfcpMessage.session(54, 1, 1, List.of()));
        e = decodeFails(session, 12);
        assertEquals(DecodeException.Kind.TRUNCATED_HEADER, e.kind());
        assertTrue(e.getMessage(), e.getMessage().contains("16-byte header"));
    }

    @Test
    public void messageLengthBeyondTheDatagramIsInvalidLength() {
        DecodeException e = decodeFails(HEARTBEAT, HEARTBEAT.length - 1);
        assertEquals(DecodeException.Kind.INVALID_LENGTH, e.kind());
        assertEquals(Cause.INVALID_LENGTH, e.kind().cause());
        assertEquals(2, e.offset());
    }

    @Test
    public void ieLengthBeyondItsContainerNamesTheIeAndOffset() {
        byte[] b = HEARTBEAT.clone();
        b[11] = 5;  // Recovery Time Stamp claims 5 bytes, 4 follow
        DecodeException e = decodeFails(b, b.length);
        assertEquals(DecodeException.Kind.INVALID_LENGTH, e.kind());
        assertEquals(IeType.RECOVERY_TIME_STAMP, e.ieType());
        assertEquals(8, e.offset());
        assertTrue(e.getMessage(), e.getMessage().contains("Recovery Time Stamp(96)"));
    }

    @Test
    public void unsupportedVersionIsItsOwnKind() {
        byte[] b = HEARTBEAT.clone();
        b[0] = (byte) 0x40;
        assertEquals(DecodeException.Kind.UNSUPPORTED_VERSION, decodeFails(b, b.length).kind());
    }

    @Test
    public void paddingAfterTheMessageIsIgnored() throws Exception {
        byte[] padded = new byte[HEARTBEAT.length + 3];
        System.arraycopy(HEARTBEAT, 0, padded, 0, HEARTBEAT.length);
        assertEquals(0x123456, PfcpCodec.decode(padded, padded.length).sequence());
    }

    @Test
    public void unknownAndEnterpriseIesAreKeptOpaqueAndInvisibleToLookups() throws Exception {
        PfcpMessage m = PfcpMessage.node(1, 1, List.of(Ie.leaf(250, new byte[]{1, 2}),
                                                       Ie.enterprise(0x8000 | 96, 18681, new byte[]{9}),
                                                       Ie.u32(IeType.RECOVERY_TIME_STAMP, 42)));
        byte[] b = PfcpCodec.encode(m);
        PfcpMessage d = PfcpCodec.decode(b, b.length);
        assertEquals(m, d);
        assertEquals(42, d.require(IeType.RECOVERY_TIME_STAMP).reader().u32());
        assertNull(d.ie(250 | 0x8000));
    }

    @Test
    public void missingMandatoryIeAndShortValuesNameTheIe() throws Exception {
        PfcpMessage m = PfcpCodec.decode(HEARTBEAT, HEARTBEAT.length);
        try {
            m.require(IeType.NODE_ID);
            fail();
        } catch (DecodeException e) {
            assertEquals(DecodeException.Kind.MANDATORY_IE_MISSING, e.kind());
            assertEquals(IeType.NODE_ID, e.ieType());
        }
        try {
            IeFields.F_SEID.decode(Ie.leaf(IeType.F_SEID, new byte[]{2, 0, 0}));
            fail();
        } catch (DecodeException e) {
            assertEquals(DecodeException.Kind.MANDATORY_IE_INCORRECT, e.kind());
            assertEquals(IeType.F_SEID, e.ieType());
            assertEquals(1, e.offset());
        }
    }

    @Test
    public void deeplyNestedGroupsAreRejectedNotRecursedForever() {
        Ie ie = Ie.u8(IeType.CAUSE, 1);
        for (int i = 0; i < 20; i++) {
            ie = Ie.grouped(IeType.CREATE_PDR, ie);
        }
        byte[] b = PfcpCodec.encode(PfcpMessage.node(1, 1, List.of(ie)));
        assertEquals(DecodeException.Kind.MANDATORY_IE_INCORRECT, decodeFails(b, b.length).kind());
    }

    @Test
    public void fqdnNodeIdRoundTripsAndRejectsBadLabels() throws Exception {
        NodeId n = new NodeId(NodeId.FQDN, "smf.example.org");
        assertEquals(n, IeFields.NODE_ID.decode(IeFields.NODE_ID.encode(n)));
        try {
            IeFields.NODE_ID.decode(Ie.leaf(IeType.NODE_ID, new byte[]{2, 9, 'a'}));
            fail();
        } catch (DecodeException e) {
            assertEquals(IeType.NODE_ID, e.ieType());
        }
    }

    static byte[] vector(String name) throws Exception {
        Path p = Paths.get("..", "tests", "pfcp", "vectors", name + ".bin");
        return Files.readAllBytes(p);
    }
}
