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

    final EventuallyConsistentMap<String, String> map;

    DistributedBackendDrains(StorageService storage) {
        this.map = storage.<String, String>eventuallyConsistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(KryoNamespace.newBuilder().register(String.class))
                .withTimestampProvider((k, v) -> new WallClockTimestamp())
                .build();
    }

    /**
     * Marks a backend DRAINING with its drain's limits, which a next leader that finishes the drain keeps: the
     * value is "DRAINING quietMs maxMs".
     */
    void setDraining(String backend, long quietMs, long maxMs) {
        map.put(backend, DRAINING + " " + quietMs + " " + maxMs);
    }

    void setDrained(String backend) {
        map.put(backend, DRAINED);
    }

    /** @return whether the backend was drained or draining */
    boolean clear(String backend) {
        return map.remove(backend) != null;
    }

    /** @return DRAINING, DRAINED or null */
    String of(String backend) {
        return state(map.get(backend));
    }

    boolean is(String backend, String state) {
        return state.equals(of(backend));
    }

    /** @return the quiet and the longest wait, in ms, of a DRAINING backend's drain; null if not marked with them */
    long[] limits(String backend) {
        String value = map.get(backend);
        String[] f = value == null ? new String[0] : value.split(" ");
        if (f.length != 3 || !DRAINING.equals(f[0])) {
            return null;
        }
        try {
            return new long[]{Long.parseLong(f[1]), Long.parseLong(f[2])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** @return backend to state, in the order of the backends' ids */
    Map<String, String> all() {
        Map<String, String> out = new TreeMap<>();
        map.entrySet().forEach(e -> out.put(e.getKey(), state(e.getValue())));
        return out;
    }

    private static String state(String value) {
        if (value == null) {
            return null;
        }
        int space = value.indexOf(' ');
        return space < 0 ? value : value.substring(0, space);
    }

    /** Stops this node's replica (the app is going away); the other nodes keep theirs. */
    void close() {
        map.destroy();
    }
}
