package org.hupf.app.store;

import org.hupf.core.store.UsageBaseline;
import org.hupf.core.store.UsageBaselineStore;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Usage baselines in an ONOS ConsistentMap (Raft-replicated, like the sessions): written only when a URR
 * reports, read whole when a leader's reporter starts. Values are one line per session
 * ({@code urr:ul:dl:start:seqn} joined by {@code ;}), so the serializer needs only Long and String.
 */
public final class DistributedUsageBaselineStore implements UsageBaselineStore {

    static final String MAP_NAME = "hupf-usage-baselines";

    private final ConsistentMap<Long, String> map;

    /**
     * Opens (or joins) the baseline map.
     *
     * @param storage ONOS storage service
     */
    public DistributedUsageBaselineStore(StorageService storage) {
        this.map = storage.<Long, String>consistentMapBuilder().withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespace.newBuilder()
                        .register(Long.class, String.class).build(MAP_NAME))).build();
    }

    static Map<Long, UsageBaseline> decode(String line) {
        Map<Long, UsageBaseline> out = new HashMap<>();
        for (String urr : line.split(";")) {
            String[] f = urr.split(":");
            if (f.length != 5) {
                throw new IllegalStateException("corrupt usage baseline: " + urr);
            }
            out.put(Long.parseLong(f[0]), new UsageBaseline(Long.parseLong(f[1]), Long.parseLong(f[2]),
                                                            Long.parseLong(f[3]), Long.parseLong(f[4])));
        }
        return out;
    }

    static String encode(Map<Long, UsageBaseline> urrs) {
        StringBuilder sb = new StringBuilder();
        urrs.forEach((id, b) -> sb.append(sb.length() == 0 ? "" : ";").append(id).append(':')
                .append(b.uplinkBytes).append(':').append(b.downlinkBytes).append(':').append(b.startSec)
                .append(':').append(b.nextSeqn));
        return sb.toString();
    }

    @Override
    public Map<Long, Map<Long, UsageBaseline>> all() {
        Map<Long, Map<Long, UsageBaseline>> out = new HashMap<>();
        for (Map.Entry<Long, Versioned<String>> e : map.entrySet()) {
            out.put(e.getKey(), decode(e.getValue().value()));
        }
        return out;
    }

    @Override
    public void put(long upSeid, long urrId, UsageBaseline baseline) {
        map.compute(upSeid, (k, old) -> {
            Map<Long, UsageBaseline> urrs = old == null ? new HashMap<>() : decode(old);
            urrs.put(urrId, baseline);
            return encode(urrs);
        });
    }

    @Override
    public void retain(long upSeid, Set<Long> urrIds) {
        // Read, then write: only the hupf leader's reporter writes baselines.
        Versioned<String> old = map.get(upSeid);
        if (old == null) {
            return;
        }
        Map<Long, UsageBaseline> urrs = decode(old.value());
        if (!urrs.keySet().retainAll(urrIds)) {
            return;
        }
        if (urrs.isEmpty()) {
            map.remove(upSeid);
        } else {
            map.put(upSeid, encode(urrs));
        }
    }

    @Override
    public void remove(long upSeid) {
        map.remove(upSeid);
    }
}
