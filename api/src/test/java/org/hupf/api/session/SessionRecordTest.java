package org.hupf.api.session;

import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;
import static org.junit.Assert.assertTrue;

/** The binary session record: every field comes back, a damaged record is a precise error. */
public class SessionRecordTest {

    /** Every field of every rule set, absent and present values side by side, strings beyond ASCII. */
    public static PfcpSession full() {
        Ip4Address ue = Ip4Address.valueOf("10.250.3.4");
        Pdr ul = new Pdr(1, 255, Pdr.ACCESS, 0xdeadbeefL, Ip4Address.valueOf("192.168.0.1"), true, 7, ue,
                         List.of("permit out ip from 1.2.3.4 to assigned", "permit out 17 from any to any"), 9, 0,
                         "tenant-ä", 1L, List.of(1L, 2L), List.of(5L));
        Pdr dl = new Pdr(2, 100, Pdr.CORE, null, null, false, null, ue, List.of(), null, null, null, null, List.of(),
                         List.of());
        return new PfcpSession(Long.MIN_VALUE + 3, -1, "2001:db8::1", "smf.example", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW | Far.DUPL, Far.CORE, null, null, null, "internet"),
                                      2L, new Far(2, Far.BUFF, Far.ACCESS, 0x100L, Ip4Address.valueOf("192.168.1.10"),
                                                  4)),
                               Map.of(1L, new Qer(1, true, false, 1_000_000L, null, 0L, null, 9),
                                      2L, new Qer(2, false, true, null, null, null, null, null)),
                               Map.of(5L, new Urr(5, Urr.VOLUM | Urr.DURAT, Urr.PERIO | Urr.VOLTH, 60L, 1L << 40, null,
                                                  3L)),
                               Map.of("ctr:1", 17, "sm:4", 0, "peer:192.168.1.10", 2));
    }

    @Test
    public void everyFieldComesBack() {
        assertEquals(full(), SessionRecord.decode(SessionRecord.encode(full())));
        PfcpSession bare = new PfcpSession(1, 2, null, null, Map.of(), Map.of(), Map.of(), Map.of(), Map.of());
        assertEquals(bare, SessionRecord.decode(SessionRecord.encode(bare)));
    }

    @Test
    public void aDamagedRecordIsAPreciseError() {
        byte[] record = SessionRecord.encode(full());
        IllegalArgumentException cut = refusal(() -> SessionRecord.decode(Arrays.copyOf(record, record.length - 1)));
        assertTrue(cut.getMessage(), cut.getMessage().startsWith("record ends at byte"));
        IllegalArgumentException longer = refusal(() -> SessionRecord.decode(Arrays.copyOf(record, record.length + 2)));
        assertEquals("2 bytes after the record", longer.getMessage());
        byte[] later = record.clone();
        later[0] = 2;
        assertEquals("record version 2, this host reads 1",
                     refusal(() -> SessionRecord.decode(later)).getMessage());
        byte[] count = record.clone();
        count[17] = 0x7f; // the cpAddress length's high byte
        assertTrue(refusal(() -> SessionRecord.decode(count)).getMessage()
                           .startsWith("string length"));
    }

    /** The decoder's refusal of a record. */
    private static IllegalArgumentException refusal(Runnable decode) {
        try {
            decode.run();
        } catch (IllegalArgumentException e) {
            return e;
        }
        fail("the record was decoded");
        return null;
    }
}
