package org.hupf.app.offload;

import org.hupf.core.offload.OffloadRecord;
import org.hupf.core.offload.OffloadStore;
import org.hupf.core.site.Site;
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
    /** What this view's keys start with: its site's id and a slash, nothing for the implicit site's. */
    private final String prefix;

    DistributedOffloadStore(StorageService storage) {
        this(storage.<String, OffloadRecord>eventuallyConsistentMapBuilder()
                     .withName(MAP_NAME)
                     .withSerializer(serializer())
                     .withTimestampProvider((k, v) -> new WallClockTimestamp())
                     .build(), "");
    }

    private DistributedOffloadStore(EventuallyConsistentMap<String, OffloadRecord> map, String prefix) {
        this.map = map;
        this.prefix = prefix;
    }

    /**
     * @param site a site's id
     * @return the records of the sessions offloaded to that site's switch: what its reclaim folds, and nothing of
     *         another switch's (the implicit site's are this store's own keys, as without sites)
     */
    OffloadStore ofSite(String site) {
        return site.equals(Site.IMPLICIT_ID) ? this : new DistributedOffloadStore(map, site + "/");
    }

    /** @return how records travel between the nodes (keyed by the UE address's text, after its site's id and a slash at a named site) */
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
        return map.get(prefix + ue);
    }

    @Override
    public void put(Ip4Address ue, OffloadRecord record) {
        map.put(prefix + ue, record);
    }

    @Override
    public void remove(Ip4Address ue) {
        map.remove(prefix + ue);
    }

    @Override
    public Map<Ip4Address, OffloadRecord> all() {
        Map<Ip4Address, OffloadRecord> m = new HashMap<>();
        for (Map.Entry<String, OffloadRecord> e : map.entrySet()) {
            String key = e.getKey();
            if (key.startsWith(prefix) && key.indexOf('/', prefix.length()) < 0) {
                m.put(Ip4Address.valueOf(key.substring(prefix.length())), e.getValue());
            }
        }
        return m;
    }
}
