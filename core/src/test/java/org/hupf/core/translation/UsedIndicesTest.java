package org.hupf.core.translation;

import org.junit.Test;

import java.util.BitSet;
import java.util.Random;

import static org.junit.Assert.assertEquals;

/** The lowest free index, searched from a bound, is the one a search from index 1 finds. */
public class UsedIndicesTest {

    private static int take(UsedIndices u) {
        int v = u.lowestFree();
        u.set(v);
        return v;
    }

    @Test
    public void handsOutFromOneAndReusesTheLowestReleased() {
        UsedIndices u = new UsedIndices();
        for (int i = 1; i <= 100; i++) {
            assertEquals(i, take(u));
        }
        u.clear(70);
        u.clear(30);
        assertEquals(30, take(u));
        assertEquals(70, take(u));
        assertEquals(101, take(u));
        assertEquals(101, u.inUse());
    }

    @Test
    public void indicesTakenOutOfOrderAreSkipped() {
        UsedIndices u = new UsedIndices();
        u.set(1);
        u.set(3);
        assertEquals(2, take(u));
        assertEquals(4, take(u));
        u.clear(0);
        assertEquals(5, take(u));
    }

    @Test
    public void agreesWithASearchFromOneOverRandomTakesAndReleases() {
        UsedIndices u = new UsedIndices();
        BitSet reference = new BitSet();
        reference.set(0);
        Random random = new Random(32);
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(3);
            if (op == 0) {
                int v = 1 + random.nextInt(2_000);
                reference.clear(v);
                u.clear(v);
            } else if (op == 1 && random.nextInt(8) == 0) {
                int v = 1 + random.nextInt(2_000);
                reference.set(v);
                u.set(v);
            } else {
                int expected = reference.nextClearBit(1);
                assertEquals("step " + step, expected, take(u));
                reference.set(expected);
            }
            assertEquals(reference.cardinality() - 1, u.inUse());
        }
    }
}
