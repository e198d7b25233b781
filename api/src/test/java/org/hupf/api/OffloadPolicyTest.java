package org.hupf.api;

import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.List;

import static org.junit.Assert.assertEquals;

public class OffloadPolicyTest {

    private static final Ip4Address UE = Ip4Address.valueOf("10.250.0.1");

    private static OffloadPolicy.Pin pin(OffloadPolicy p, int slice, Integer... qfis) {
        return p.pinOf(UE, slice, List.of(qfis));
    }

    @Test
    public void theMostSpecificPinWins() {
        OffloadPolicy p = OffloadPolicy.builder().pinSlice(1, OffloadPolicy.Pin.SOFTWARE)
                .pinQfi(1, OffloadPolicy.Pin.HARDWARE).pinQfi(5, OffloadPolicy.Pin.SOFTWARE)
                .pinUe(UE, OffloadPolicy.Pin.NONE).build();
        assertEquals("a UE entry overrides slice and QFI", OffloadPolicy.Pin.NONE, pin(p, 1, 1));
        OffloadPolicy q = OffloadPolicy.builder().pinSlice(1, OffloadPolicy.Pin.SOFTWARE)
                .pinQfi(1, OffloadPolicy.Pin.HARDWARE).pinQfi(5, OffloadPolicy.Pin.SOFTWARE).build();
        assertEquals(OffloadPolicy.Pin.HARDWARE, pin(q, 1, 5, 1));
        assertEquals(OffloadPolicy.Pin.SOFTWARE, pin(q, 2, 5, 9));
        assertEquals(OffloadPolicy.Pin.SOFTWARE, pin(q, 1, 9));
        assertEquals(OffloadPolicy.Pin.NONE, pin(q, 2, 9));
    }

    @Test(expected = IllegalArgumentException.class)
    public void aNonPositiveThresholdIsRejected() {
        OffloadPolicy.builder().thresholdBitsPerSec(0);
    }
}
