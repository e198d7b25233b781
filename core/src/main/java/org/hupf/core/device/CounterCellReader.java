package org.hupf.core.device;

import org.hupf.pipeconf.api.BatchCounterReader;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A device that reads any set of counter cells in one request ({@link BatchCounterReader}) and may tell which
 * cells changed since its previous answer.
 */
public interface CounterCellReader extends BatchCounterReader {

    /**
     * Reads the cells that changed since an earlier answer of this read.
     *
     * @param maxCell highest cell in use
     * @param since   the reader's previous answer from this device, or null
     * @return the changed cells, or a complete answer; null if the device cannot tell (this default): read it in
     *     full
     * @throws UpfProgrammableException if the read fails (pass the same since again: nothing is lost)
     */
    default CellChanges readChangedCells(int maxCell, CellChanges since) throws UpfProgrammableException {
        return null;
    }

    /**
     * @param device  a device
     * @param maxCell highest cell in use
     * @param since   the reader's previous answer from the device, or null
     * @return its changed-cells read, or its cells 0 to maxCell read in bulk (complete) if it has none
     * @throws UpfProgrammableException if the read fails
     */
    static CellChanges changedCells(HupfUpfDevice device, int maxCell, CellChanges since)
            throws UpfProgrammableException {
        CellChanges read = device instanceof CounterCellReader
                ? ((CounterCellReader) device).readChangedCells(maxCell, since) : null;
        if (read != null) {
            return read;
        }
        return new CellChanges(true, maxCell < 0 ? List.of() : device.readCounters(maxCell + 1L), null);
    }

    /**
     * @param device a device
     * @return its cell reader: the device itself if it reads cells in one request (ONOS's backend behaviour among
     *         them), else one read per cell
     */
    static CounterCellReader of(HupfUpfDevice device) {
        if (device instanceof CounterCellReader) {
            return (CounterCellReader) device;
        }
        if (device instanceof BatchCounterReader) {
            return ((BatchCounterReader) device)::readCounterCells;
        }
        return cells -> {
            Map<Integer, UpfCounter> out = new HashMap<>();
            for (int c : cells) {
                out.put(c, device.readCounter(c));
            }
            return out;
        };
    }
}
