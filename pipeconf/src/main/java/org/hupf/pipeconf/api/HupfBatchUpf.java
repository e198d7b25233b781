package org.hupf.pipeconf.api;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * A hupf device inside ONOS whose UPF entities are written in batches, one P4Runtime WriteRequest per batch
 * through ONOS's P4Runtime client (the backend: millions of entries that ONOS's flow rule subsystem does not
 * hold; hupf's session store is their source of truth). Its batches are {@link BatchUpfDevice} writes, the one batch
 * contract of every hupf device.
 */
public interface HupfBatchUpf extends HupfUpf, BatchUpfDevice {

    /**
     * Reads counter cells together, e.g. the final usage of the sessions one batch removed: in one P4Runtime
     * ReadRequest where the device can, rather than two reads per cell; by default one read per cell.
     *
     * @param cells cell indexes
     * @return cell index to its counts, for every cell asked
     * @throws UpfProgrammableException if the read fails
     */
    default Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        Map<Integer, UpfCounter> out = new HashMap<>();
        for (int c : cells) {
            out.put(c, readCounter(c));
        }
        return out;
    }
}
