package org.hupf.pipeconf.api;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.BitSet;
import java.util.List;
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
}
