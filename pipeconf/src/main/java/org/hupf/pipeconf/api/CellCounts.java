package org.hupf.pipeconf.api;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Counter cells' counts in primitive arrays: a cell id and its ingress packets, ingress bytes, egress packets and
 * egress bytes per entry, no object per cell. A write's final counts travel in this form from the device's answer
 * through the usage ledger; {@link #toMap} gives the per-cell objects to the readers that want them.
 */
public final class CellCounts {

    /** No cells; shared, so {@link #add} refuses it. */
    public static final CellCounts NONE = new CellCounts(0);

    private int size;
    private int[] cells;
    private long[] counts;
    /** Whether the cells were added in ascending order, each once (a device's answer is): then found by bisection. */
    private boolean ascending = true;

    /** @param capacity entries expected (the arrays grow past it) */
    public CellCounts(int capacity) {
        cells = new int[capacity];
        counts = new long[4 * capacity];
    }

    /**
     * @param counters cells' counts
     * @return them in this form, in the collection's order
     */
    public static CellCounts of(Collection<UpfCounter> counters) {
        CellCounts out = new CellCounts(counters.size());
        for (UpfCounter c : counters) {
            out.add(c.cellId(), c.ingressPkts(), c.ingressBytes(), c.egressPkts(), c.egressBytes());
        }
        return out;
    }

    /**
     * Appends a cell's counts.
     *
     * @throws UnsupportedOperationException on {@link #NONE}
     */
    public void add(int cell, long ingressPkts, long ingressBytes, long egressPkts, long egressBytes) {
        if (this == NONE) {
            throw new UnsupportedOperationException("CellCounts.NONE is shared by every empty answer");
        }
        ascending &= size == 0 || cell > cells[size - 1];
        if (size == cells.length) {
            cells = Arrays.copyOf(cells, Math.max(4, 2 * size));
            counts = Arrays.copyOf(counts, 4 * cells.length);
        }
        cells[size] = cell;
        counts[4 * size] = ingressPkts;
        counts[4 * size + 1] = ingressBytes;
        counts[4 * size + 2] = egressPkts;
        counts[4 * size + 3] = egressBytes;
        size++;
    }

    /** @return entries */
    public int size() {
        return size;
    }

    /** @return true if there are no entries */
    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * @param i entry
     * @return its cell id
     */
    public int cell(int i) {
        return cells[i];
    }

    /**
     * @param cell a cell id
     * @return the entry of that cell (the first, if added twice), or -1
     */
    public int indexOf(int cell) {
        if (ascending) {
            int at = Arrays.binarySearch(cells, 0, size, cell);
            return at < 0 ? -1 : at;
        }
        for (int i = 0; i < size; i++) {
            if (cells[i] == cell) {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param i     entry
     * @param which 0 ingress packets, 1 ingress bytes, 2 egress packets, 3 egress bytes
     * @return that count
     */
    public long count(int i, int which) {
        return counts[4 * i + which];
    }

    /**
     * @param extra per entry, its 4 counts to add (null: none), in this one's order
     * @return a copy whose counts are this one's plus {@code extra}, entry by entry
     */
    public CellCounts plus(long[][] extra) {
        CellCounts out = new CellCounts(size);
        System.arraycopy(cells, 0, out.cells, 0, size);
        System.arraycopy(counts, 0, out.counts, 0, 4 * size);
        out.size = size;
        out.ascending = ascending;
        for (int i = 0; i < size; i++) {
            long[] e = extra[i];
            for (int k = 0; e != null && k < 4; k++) {
                out.counts[4 * i + k] += e[k];
            }
        }
        return out;
    }

    /**
     * @param i entry
     * @return its cell's counts as an object
     */
    public UpfCounter counter(int i) {
        return UpfCounter.builder().withCellId(cells[i]).setIngress(counts[4 * i], counts[4 * i + 1])
                .setEgress(counts[4 * i + 2], counts[4 * i + 3]).build();
    }

    /** @return cell id to counts, one object per cell */
    public Map<Integer, UpfCounter> toMap() {
        Map<Integer, UpfCounter> out = new HashMap<>(size * 2);
        for (int i = 0; i < size; i++) {
            out.put(cells[i], counter(i));
        }
        return out;
    }
}
