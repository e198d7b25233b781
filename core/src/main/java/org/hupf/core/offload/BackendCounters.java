package org.hupf.core.offload;

import org.hupf.core.device.CellChanges;
import org.hupf.core.device.CounterCellReader;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The backend's counter cells as the offload poll last read them, kept from poll to poll, and which cells each
 * read changed: the poll then applies what changed, not every session. A device with a changed-cells read
 * answers the changes (a poll of idle sessions costs what it returns); another is read in full and compared
 * here. Used by one poll at a time.
 */
final class BackendCounters {

    /** Ingress packets, ingress bytes, egress packets, egress bytes of each cell, in a row; zero past the end. */
    private long[] values = new long[0];
    private CellChanges last;

    /**
     * Reads the changes since the last read.
     *
     * @param device  the backend
     * @param maxCell highest cell in use (what a device without changed-cells read reads)
     * @return the cells whose counts changed
     * @throws UpfProgrammableException if the read fails (the values stay as they were)
     */
    List<Integer> read(HupfUpfDevice device, int maxCell) throws UpfProgrammableException {
        CellChanges read = CounterCellReader.changedCells(device, maxCell, last);
        last = read;
        List<Integer> changed = new ArrayList<>();
        if (!read.complete()) {
            for (UpfCounter c : read.cells()) {
                if (c.cellId() >= 0 && differs(values, c)) {
                    changed.add(c.cellId());
                    set(c);
                }
            }
            return changed;
        }
        // Complete: the cells left out are zero; what changed is what differs from the values before.
        long[] before = values;
        int top = -1;
        for (UpfCounter c : read.cells()) {
            top = Math.max(top, c.cellId());
        }
        values = new long[4 * (top + 1)];
        for (UpfCounter c : read.cells()) {
            if (c.cellId() >= 0) {
                set(c);
            }
        }
        for (int cell = 0; 4 * cell < Math.max(before.length, values.length); cell++) {
            if (at(before, 4 * cell) != at(values, 4 * cell) || at(before, 4 * cell + 1) != at(values, 4 * cell + 1)
                    || at(before, 4 * cell + 2) != at(values, 4 * cell + 2)
                    || at(before, 4 * cell + 3) != at(values, 4 * cell + 3)) {
                changed.add(cell);
            }
        }
        return changed;
    }

    /** Adds a cell's ingress/egress packets and bytes to a total. */
    void addTo(int cell, long[] total) {
        for (int i = 0; i < 4 && 4 * cell + i < values.length; i++) {
            total[i] += values[4 * cell + i];
        }
    }

    private void set(UpfCounter c) {
        int at = 4 * c.cellId();
        if (at < 0) {
            return;
        }
        if (at + 4 > values.length) {
            values = Arrays.copyOf(values, Math.max(at + 4, values.length * 3 / 2));
        }
        values[at] = c.ingressPkts();
        values[at + 1] = c.ingressBytes();
        values[at + 2] = c.egressPkts();
        values[at + 3] = c.egressBytes();
    }

    private static boolean differs(long[] v, UpfCounter c) {
        int at = 4 * c.cellId();
        return at(v, at) != c.ingressPkts() || at(v, at + 1) != c.ingressBytes() || at(v, at + 2) != c.egressPkts()
                || at(v, at + 3) != c.egressBytes();
    }

    /** A value, 0 past the end. */
    private static long at(long[] v, int i) {
        return i < v.length ? v[i] : 0;
    }
}
