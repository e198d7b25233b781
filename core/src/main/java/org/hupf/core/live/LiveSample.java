package org.hupf.core.live;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadMetrics;
import org.hupf.pipeconf.api.UpfEntityType;

import java.util.Map;
import java.util.TreeMap;

/**
 * One point of the live view's charts: hupf's counts at one time. The view plots the differences between
 * consecutive samples (rates, events per interval), so a sample holds totals.
 */
final class LiveSample {

    final long timeMs;
    /** Whether a backend was driven (no metrics otherwise: every count below is 0). */
    final boolean driving;
    final long switchBytes;
    /** Backend id to {packets, bytes}. */
    final Map<String, long[]> backends;
    final long hhReports;
    final long promotions;
    final long demotions;
    final int offloaded;
    /** Switch table to entries used. */
    final Map<String, Long> switchTables;

    private LiveSample(long timeMs, boolean driving, long switchBytes, Map<String, long[]> backends, long hhReports,
                       long promotions, long demotions, int offloaded, Map<String, Long> switchTables) {
        this.timeMs = timeMs;
        this.driving = driving;
        this.switchBytes = switchBytes;
        this.backends = backends;
        this.hhReports = hhReports;
        this.promotions = promotions;
        this.demotions = demotions;
        this.offloaded = offloaded;
        this.switchTables = switchTables;
    }

    /**
     * Takes a sample.
     *
     * @param timeMs   when, ms since the epoch
     * @param metrics  the offload manager's metrics, null while no backend is driven
     * @param backends each backend's {packets, bytes}
     * @return the sample
     */
    static LiveSample of(long timeMs, OffloadMetrics metrics, Map<String, long[]> backends) {
        if (metrics == null) {
            return new LiveSample(timeMs, false, 0, Map.of(), 0, 0, 0, 0, Map.of());
        }
        Map<String, Long> tables = new TreeMap<>();
        for (Map.Entry<UpfEntityType, long[]> e : metrics.occupancy().entrySet()) {
            tables.put(e.getKey().humanReadableName(), e.getValue()[0]);
        }
        Map<String, long[]> copy = new TreeMap<>();
        backends.forEach((id, v) -> copy.put(id, v.clone()));
        return new LiveSample(timeMs, true, metrics.hwBytes(), copy, metrics.hhReports(), metrics.promotions(),
                              metrics.demotions(), metrics.offloaded(), tables);
    }

    /** Renders the sample into a JSON object. */
    void into(ObjectNode o) {
        o.put("time", timeMs).put("driving", driving).put("switchBytes", switchBytes).put("hhReports", hhReports)
                .put("promotions", promotions).put("demotions", demotions).put("offloaded", offloaded);
        ObjectNode b = o.putObject("backends");
        backends.forEach((id, v) -> b.putObject(id).put("packets", v[0]).put("bytes", v[1]));
        ObjectNode t = o.putObject("switchTables");
        switchTables.forEach(t::put);
    }
}
