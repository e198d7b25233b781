package org.hupf.core.offload;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.BitSet;

/**
 * The counter cells 0 to some maximum of one target (the switch's, for the offloaded sessions), read with one
 * bulk read, or why they could not be.
 */
final class CounterValues {

    /** Why the read failed, null if it did not. */
    final String failure;
    /** Ingress packets, ingress bytes, egress packets, egress bytes of each cell, in a row. */
    private final long[] values;
    private final BitSet present;

    private CounterValues(String failure, long[] values, BitSet present) {
        this.failure = failure;
        this.values = values;
        this.present = present;
    }

    /**
     * Reads cells 0 to maxCell of a device in bulk; nothing at all if maxCell is negative.
     *
     * @param device the target
     * @param maxCell highest cell needed
     * @return the values, or the failure
     */
    static CounterValues read(HupfUpfDevice device, int maxCell) {
        if (maxCell < 0) {
            return new CounterValues(null, new long[0], new BitSet());
        }
        try {
            long[] values = new long[4 * (maxCell + 1)];
            BitSet present = new BitSet(maxCell + 1);
            for (UpfCounter c : device.readCounters(maxCell + 1L)) {
                int i = c.cellId();
                if (i >= 0 && i <= maxCell) {
                    values[4 * i] = c.ingressPkts();
                    values[4 * i + 1] = c.ingressBytes();
                    values[4 * i + 2] = c.egressPkts();
                    values[4 * i + 3] = c.egressBytes();
                    present.set(i);
                }
            }
            return new CounterValues(null, values, present);
        } catch (UpfProgrammableException e) {
            return new CounterValues(e.getMessage(), new long[0], new BitSet());
        }
    }

    /** Tells whether the read returned a cell. */
    boolean has(int cell) {
        return present.get(cell);
    }

    /** A cell's ingress/egress packets and bytes; call {@link #has} first. */
    long[] get(int cell) {
        return new long[]{values[4 * cell], values[4 * cell + 1], values[4 * cell + 2], values[4 * cell + 3]};
    }
}
