package org.hupf.app.offload;

import org.onlab.packet.Ip4Address;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.EventuallyConsistentMap;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.WallClockTimestamp;

import java.util.HashMap;
import java.util.Map;

/**
 * Offload records in an ONOS EventuallyConsistentMap: the leader rewrites an offloaded session's record on
 * every counter poll, too often for a Raft write each time; every node holds a replica, so the next leader
 * has it. A record is replaced whole, so a replica that missed the latest write still pairs its folded
 * counts with the switch values they were folded at: folding from there loses nothing.
 */
final class DistributedOffloadStore implements OffloadStore {

    static final String MAP_NAME = "hupf-offload-records";

    private final EventuallyConsistentMap<String, OffloadRecord> map;

    DistributedOffloadStore(StorageService storage) {
        this.map = storage.<String, OffloadRecord>eventuallyConsistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(serializer())
                .withTimestampProvider((k, v) -> new WallClockTimestamp())
                .build();
    }

    /** @return how records travel between the nodes (keyed by the UE address's text) */
    static KryoNamespace.Builder serializer() {
        return KryoNamespace.newBuilder().register(String.class, Integer.class, long[].class, HashMap.class,
                                                   OffloadRecord.class);
    }

    /** Stops this node's replica (the app is going away); the other nodes keep theirs. */
    void close() {
        map.destroy();
    }

    @Override
    public OffloadRecord get(Ip4Address ue) {
        return map.get(ue.toString());
    }

    @Override
    public void put(Ip4Address ue, OffloadRecord record) {
        map.put(ue.toString(), record);
    }

    @Override
    public void remove(Ip4Address ue) {
        map.remove(ue.toString());
    }

    @Override
    public Map<Ip4Address, OffloadRecord> all() {
        Map<Ip4Address, OffloadRecord> m = new HashMap<>();
        map.entrySet().forEach(e -> m.put(Ip4Address.valueOf(e.getKey()), e.getValue()));
        return m;
    }
}
