package org.hupf.pipeconf.api;

import org.junit.Test;

import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

/** A write's final counts read in either form, whichever the device gave. */
public class WriteResultTest {

    private static UpfCounter counter(int cell, long base) {
        return UpfCounter.builder().withCellId(cell).setIngress(base, base + 1).setEgress(base + 2, base + 3).build();
    }

    @Test
    public void cellsGivenReadAsOneCounterPerCell() {
        CellCounts cells = new CellCounts(1);
        cells.add(7, 10, 11, 12, 13);
        cells.add(1 << 20, 20, 21, 22, 23);
        WriteResult r = WriteResult.ok(3).withFinalCells(cells);
        assertEquals(Map.of(7, counter(7, 10), 1 << 20, counter(1 << 20, 20)), r.finalCounts());
        assertSame("the cells as given", cells, r.finalCells());
        assertSame("a slice shares the whole write's counts, made once", r.finalCounts(), r.slice(1, 2).finalCounts());
    }

    @Test
    public void countsGivenReadAsCells() {
        WriteResult r = WriteResult.ok(1).withFinalCounts(Map.of(3, counter(3, 5)));
        CellCounts cells = r.slice(0, 1).finalCells();
        assertEquals(1, cells.size());
        assertEquals(3, cells.cell(0));
        assertEquals(8, cells.count(0, 3));
        assertTrue("no final counts", WriteResult.ok(1).finalCells().isEmpty());
        assertTrue(WriteResult.ok(1).finalCounts().isEmpty());
    }

    @Test
    public void countsPlusOthersPerEntry() {
        CellCounts cells = CellCounts.of(List.of(counter(4, 1), counter(5, 100)));
        CellCounts sum = cells.plus(new long[][]{null, {1, 2, 3, 4}});
        assertEquals(Map.of(4, counter(4, 1), 5, UpfCounter.builder().withCellId(5).setIngress(101, 103)
                .setEgress(105, 107).build()), sum.toMap());
        assertEquals("the original unchanged", 100, cells.count(1, 0));
    }
}
