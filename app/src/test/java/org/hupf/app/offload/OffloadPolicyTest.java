package org.hupf.app.offload;

import org.junit.Test;

import java.util.List;

import static org.hupf.app.offload.OffloadManagerTest.ue;
import static org.junit.Assert.assertEquals;

public class OffloadPolicyTest {

    private static OffloadSession withQfis(int slice, Integer... qfis) {
        return OffloadSession.of(ue(1), slice, List.of(qfis), List.of());
    }

    @Test
    public void theMostSpecificPinWins() {
        OffloadPolicy p = OffloadPolicy.builder().pinSlice(1, OffloadPolicy.Pin.SOFTWARE)
                .pinQfi(1, OffloadPolicy.Pin.HARDWARE).pinQfi(5, OffloadPolicy.Pin.SOFTWARE)
                .pinUe(ue(1), OffloadPolicy.Pin.NONE).build();
        assertEquals("a UE entry overrides slice and QFI", OffloadPolicy.Pin.NONE, p.pinOf(withQfis(1, 1)));
        OffloadPolicy q = OffloadPolicy.builder().pinSlice(1, OffloadPolicy.Pin.SOFTWARE)
                .pinQfi(1, OffloadPolicy.Pin.HARDWARE).pinQfi(5, OffloadPolicy.Pin.SOFTWARE).build();
        assertEquals(OffloadPolicy.Pin.HARDWARE, q.pinOf(withQfis(1, 5, 1)));
        assertEquals(OffloadPolicy.Pin.SOFTWARE, q.pinOf(withQfis(2, 5, 9)));
        assertEquals(OffloadPolicy.Pin.SOFTWARE, q.pinOf(withQfis(1, 9)));
        assertEquals(OffloadPolicy.Pin.NONE, q.pinOf(withQfis(2, 9)));
    }

    @Test(expected = IllegalArgumentException.class)
    public void aNonPositiveThresholdIsRejected() {
        OffloadPolicy.builder().thresholdBitsPerSec(0);
    }
}
