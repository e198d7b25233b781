package org.hupf.app.store;

import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.StorageService;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ONOS's storage as the nodes of one cluster share it (one map or multimap per name), whose session multimap's
 * removals and clearing time out while a test says so: a node stopped or lost in the middle of removing sessions.
 */
public final class ClusterStorage {

    private final Map<String, ConsistentMap<?, ?>> shared = new ConcurrentHashMap<>();
    private final Map<String, SharedMultimap> multimaps = new ConcurrentHashMap<>();
    /** The storage service every node of the cluster is given. */
    public final StorageService service = DistributedSessionStoreTest.storage(
            (name, fresh) -> shared.computeIfAbsent(name, n -> fresh.get()),
            name -> multimaps.computeIfAbsent(name, n -> new SharedMultimap()));

    /** The session multimap's removals and clearing time out from now on (or commit again). */
    public void failRemovals(boolean on) {
        multimaps.computeIfAbsent(DistributedSessionStore.MAP_NAME, n -> new SharedMultimap()).failRemovals = on;
    }
}
