package org.hupf.pipeconf.api;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A hupf device inside ONOS whose UPF entities are written in batches, one P4Runtime WriteRequest per batch
 * through ONOS's P4Runtime client (the backend: millions of entries that ONOS's flow rule subsystem does not
 * hold; hupf's session store is their source of truth).
 */
public interface HupfBatchUpf extends HupfUpf {

    /**
     * Writes a batch, in order: each entity is installed (or overwritten), or removed where
     * {@code removals} has its index set (a removed meter is reset).
     *
     * @param entities entities, referenced ones before those that refer to them
     * @param removals indexes of the entities to remove
     * @return once the device answered, one entry per entity: null if it was written, else why not; completes
     *         exceptionally with an {@link UpfProgrammableException} when the device was not reached (nothing
     *         is known of what it applied)
     */
    CompletableFuture<List<UpfProgrammableException>> write(List<UpfEntity> entities, BitSet removals);

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
