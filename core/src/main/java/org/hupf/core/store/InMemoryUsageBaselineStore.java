package org.hupf.core.store;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Usage baselines in this process only (tests, and hosts without a durable store). */
public final class InMemoryUsageBaselineStore implements UsageBaselineStore {

    private final Map<Long, Map<Long, UsageBaseline>> bySession = new ConcurrentHashMap<>();

    @Override
    public Map<Long, Map<Long, UsageBaseline>> all() {
        Map<Long, Map<Long, UsageBaseline>> out = new HashMap<>();
        bySession.forEach((seid, urrs) -> out.put(seid, Map.copyOf(urrs)));
        return out;
    }

    @Override
    public void put(long upSeid, long urrId, UsageBaseline baseline) {
        bySession.computeIfAbsent(upSeid, k -> new ConcurrentHashMap<>()).put(urrId, baseline);
    }

    @Override
    public void retain(long upSeid, Set<Long> urrIds) {
        bySession.computeIfPresent(upSeid, (k, urrs) -> {
            Map<Long, UsageBaseline> kept = new HashMap<>(urrs);
            kept.keySet().retainAll(urrIds);
            return kept.isEmpty() ? null : new ConcurrentHashMap<>(kept);
        });
    }

    @Override
    public void remove(long upSeid) {
        bySession.remove(upSeid);
    }
}
