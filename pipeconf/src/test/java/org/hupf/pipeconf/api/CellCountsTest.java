package org.hupf.pipeconf.api;

import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** Finding a cell's entry, in a device's ascending answer and in any other order; the shared empty one. */
public class CellCountsTest {

    private static CellCounts of(int... cells) {
        CellCounts c = new CellCounts(1);
        for (int cell : cells) {
            c.add(cell, cell, 10L * cell, 2L * cell, 20L * cell);
        }
        return c;
    }

    @Test
    public void aCellIsFoundInAscendingAndInUnorderedCounts() {
        for (CellCounts c : new CellCounts[]{of(1, 4, 9, 16, 25), of(16, 1, 25, 9, 4)}) {
            for (int cell : new int[]{1, 4, 9, 16, 25}) {
                int i = c.indexOf(cell);
                assertEquals(cell, c.cell(i));
                assertEquals(20L * cell, c.count(i, 3));
            }
            assertEquals(-1, c.indexOf(0));
            assertEquals(-1, c.indexOf(5));
            assertEquals(-1, c.indexOf(26));
        }
    }

    @Test
    public void countsPlusExtraAreFoundAsBefore() {
        CellCounts sum = of(3, 5).plus(new long[][]{null, {1, 1, 1, 1}});
        assertEquals(1, sum.indexOf(5));
        assertEquals(101, sum.count(sum.indexOf(5), 3));
        assertEquals(60, sum.count(sum.indexOf(3), 3));
    }

    @Test
    public void theSharedEmptyCountsCannotBeAddedTo() {
        try {
            CellCounts.NONE.add(1, 1, 1, 1, 1);
        } catch (UnsupportedOperationException expected) {
            assertTrue(CellCounts.NONE.isEmpty());
            assertEquals(-1, CellCounts.NONE.indexOf(1));
            return;
        }
        throw new AssertionError("NONE took a cell");
    }
}
