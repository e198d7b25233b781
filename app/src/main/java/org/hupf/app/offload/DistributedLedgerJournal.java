package org.hupf.app.offload;

import org.hupf.core.offload.BackendUsageLedger;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.EventuallyConsistentMap;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.WallClockTimestamp;

import java.util.HashMap;
import java.util.Map;

/**
 * The backends' usage ledger's journal ({@link BackendUsageLedger.Journal}) in an ONOS
 * EventuallyConsistentMap, as the offload records: written when a backend leaves or restarts and when hupf
 * zeroes a cell such a backend carries, never on a counter poll; every node holds a replica, from which the
 * next leader's ledger starts. A put returns at once (the replicas follow), as the ledger needs.
 */
final class DistributedLedgerJournal implements BackendUsageLedger.Journal {

    static final String MAP_NAME = "hupf-backend-usage";
    private static final char SEPARATOR = '|';

    private final EventuallyConsistentMap<String, long[]> map;

    DistributedLedgerJournal(StorageService storage) {
        this.map = storage.<String, long[]>eventuallyConsistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(KryoNamespace.newBuilder().register(String.class, long[].class))
                .withTimestampProvider((k, v) -> new WallClockTimestamp())
                .build();
    }

    @Override
    public void record(String backend, int cell, long[] record) {
        String key = backend + SEPARATOR + cell;
        if (record == null) {
            map.remove(key);
        } else {
            map.put(key, record.clone());
        }
    }

    /** @return every record: backend to cell to record, as {@link BackendUsageLedger}'s restoring constructor takes */
    Map<String, Map<Integer, long[]>> all() {
        Map<String, Map<Integer, long[]>> out = new HashMap<>();
        map.entrySet().forEach(e -> {
            int at = e.getKey().lastIndexOf(SEPARATOR);
            out.computeIfAbsent(e.getKey().substring(0, at), k -> new HashMap<>())
                    .put(Integer.parseInt(e.getKey().substring(at + 1)), e.getValue());
        });
        return out;
    }

    /** Stops this node's replica (the app is going away); the other nodes keep theirs. */
    void close() {
        map.destroy();
    }
}
