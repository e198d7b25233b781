package org.hupf.api.session;

import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

/** The rates and thresholds every session repeats are held once, whatever decoded them; values stay exact. */
public class SharedLongsTest {

    /** A box equal to {@code v} and not the same object, as each decoded message makes its own. */
    @SuppressWarnings({"deprecation", "removal"})
    private static Long fresh(long v) {
        return new Long(v);
    }

    @Test
    public void twoQersWithTheSameRatesShareTheirBoxes() {
        Qer a = new Qer(1, false, false, fresh(100_000), fresh(200_000), fresh(50_000), null, 9);
        Qer b = new Qer(2, false, false, fresh(100_000), fresh(200_000), fresh(50_000), null, 9);
        assertSame(a.mbrUplink, b.mbrUplink);
        assertSame(a.mbrDownlink, b.mbrDownlink);
        assertSame(a.gbrUplink, b.gbrUplink);
        assertNull(b.gbrDownlink);
        assertEquals(Long.valueOf(200_000), b.mbrDownlink);
    }

    @Test
    public void twoUrrsWithTheSamePeriodAndThresholdsShareTheirBoxes() {
        Urr a = new Urr(1, Urr.VOLUM, Urr.PERIO | Urr.VOLTH, fresh(600), fresh(1L << 40), fresh(1L << 39), null);
        Urr b = new Urr(1, Urr.VOLUM, Urr.PERIO | Urr.VOLTH, fresh(600), fresh(1L << 40), fresh(1L << 39), null);
        assertSame(a.measurementPeriod, b.measurementPeriod);
        assertSame(a.volumeThresholdTotal, b.volumeThresholdTotal);
        assertSame(a.volumeThresholdUplink, b.volumeThresholdUplink);
        assertEquals(a, b);
    }

    @Test
    public void valuesSharingASlotKeepTheirOwnValue() {
        // More distinct values than the cache has slots: some take each other's slot, each keeps its value.
        for (long v = 1_000; v < 5_000; v++) {
            assertEquals(v, (long) SharedLongs.of(fresh(v)));
        }
        for (long v = 1_000; v < 5_000; v++) {
            assertEquals(v, (long) SharedLongs.of(fresh(v)));
        }
    }
}
