package org.hupf.app.offload;

import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.EventuallyConsistentMap;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.WallClockTimestamp;

import java.util.Map;
import java.util.TreeMap;

/**
 * Which backends are drained or being drained, in an ONOS EventuallyConsistentMap every node replicates (as the
 * usage ledger's journal): written by the leader, so that the next one keeps a drained backend out of the hybrid
 * and a draining one out of the steering.
 */
final class DistributedBackendDrains {

    static final String MAP_NAME = "hupf-backend-drains";
    /** Not steered to, still written and read. */
    static final String DRAINING = "DRAINING";
    /** Left: neither steered to, nor written, nor read. */
    static final String DRAINED = "DRAINED";

    private final EventuallyConsistentMap<String, String> map;

    DistributedBackendDrains(StorageService storage) {
        this.map = storage.<String, String>eventuallyConsistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(KryoNamespace.newBuilder().register(String.class))
                .withTimestampProvider((k, v) -> new WallClockTimestamp())
                .build();
    }

    void set(String backend, String state) {
        map.put(backend, state);
    }

    /** @return whether the backend was drained or draining */
    boolean clear(String backend) {
        return map.remove(backend) != null;
    }

    /** @return DRAINING, DRAINED or null */
    String of(String backend) {
        return map.get(backend);
    }

    boolean is(String backend, String state) {
        return state.equals(map.get(backend));
    }

    /** @return backend to state, in the order of the backends' ids */
    Map<String, String> all() {
        Map<String, String> out = new TreeMap<>();
        map.entrySet().forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** Stops this node's replica (the app is going away); the other nodes keep theirs. */
    void close() {
        map.destroy();
    }
}
