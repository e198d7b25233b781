package org.hupf.core.pfcp.codec;

import org.junit.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;

/**
 * The one walk over a request's IEs: the spans find what the IE tree holds (nested groups, enterprise IEs skipped by
 * the lookups and kept in the tree), in messages denser than the walk sizes itself for.
 */
public class IeSpansTest {

    private static IeSpans spans(byte[] b) throws DecodeException {
        return PfcpCodec.spans(PfcpCodec.header(b, b.length), b, b.length);
    }

    @Test
    public void lookupsSkipEnterpriseIesInGroupsAndTheTreeKeepsThem() throws Exception {
        Ie vendor = Ie.enterprise(0x8000 | IeType.FAR_ID, 18681, new byte[]{9, 9, 9, 9});
        Ie far = Ie.grouped(IeType.CREATE_FAR, vendor, Ie.u32(IeType.FAR_ID, 7), Ie.u8(IeType.APPLY_ACTION, 2),
                            Ie.grouped(IeType.FORWARDING_PARAMETERS, Ie.u8(IeType.DESTINATION_INTERFACE, 1)));
        PfcpMessage m = PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, 5, 1, List.of(far));
        byte[] b = PfcpCodec.encode(m);
        IeSpans s = spans(b);
        int group = s.require(IeSpans.MESSAGE, IeType.CREATE_FAR);
        assertEquals(7L, (long) IeFields.FAR_ID.require(s, group));
        assertEquals(1, (int) IeFields.DESTINATION_INTERFACE.require(s, s.child(group, IeType.FORWARDING_PARAMETERS)));
        assertEquals(1, s.count(group, IeType.FAR_ID));
        assertEquals(m, PfcpCodec.decode(b, b.length));
    }

    @Test
    public void aMessageOfEmptyIesIsWalkedWhole() throws Exception {
        // Four bytes an IE: more IEs than the walk's first guess (one every six bytes) has room for.
        List<Ie> ies = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ies.add(Ie.leaf(IeType.NETWORK_INSTANCE, new byte[0]));
        }
        ies.add(Ie.u32(IeType.FAR_ID, 42));
        byte[] b = PfcpCodec.encode(PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, 5, 1, ies));
        IeSpans s = spans(b);
        assertEquals(300, s.count(IeSpans.MESSAGE, IeType.NETWORK_INSTANCE));
        assertEquals(42L, (long) IeFields.FAR_ID.require(s, IeSpans.MESSAGE));
        assertEquals(301, PfcpCodec.decode(b, b.length).ies().size());
    }

    @Test
    public void aValueThatEndsEarlyIsFaultedAtItsOffsetInTheValue() throws Exception {
        // An F-SEID whose flags promise an IPv4 address that is not there: the read fails 9 bytes into the value.
        byte[] fseid = new byte[11];
        fseid[0] = 0x02;
        byte[] b = PfcpCodec.encode(PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, 5, 1, List.of(
                Ie.u32(IeType.FAR_ID, 1), Ie.leaf(IeType.F_SEID, fseid))));
        try {
            IeFields.F_SEID.optional(spans(b), IeSpans.MESSAGE);
            throw new AssertionError("decoded");
        } catch (DecodeException e) {
            assertEquals(DecodeException.Kind.MANDATORY_IE_INCORRECT, e.kind());
            assertEquals(IeType.F_SEID, e.ieType());
            assertEquals(9, e.offset());
        }
    }
}
