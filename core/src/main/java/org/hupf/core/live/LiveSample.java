package org.hupf.core.live;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadMetrics;
import org.hupf.pipeconf.api.UpfEntityType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One point of the live view's charts: hupf's counts at one time, every site's summed and each site's own. The
 * view plots the differences between consecutive samples (rates, events per interval), so a sample holds totals.
 */
final class LiveSample {

    final long timeMs;
    /** Whether a backend was driven (no metrics otherwise: every count below is 0). */
    final boolean driving;
    /** Every site's counts summed. */
    final Counts all;
    /** Backend id to the {packets, bytes} that entered its session entries. */
    final Map<String, long[]> backends;
    /** Each site's counts and its backends' ids. */
    final Map<String, SiteCounts> sites;

    private LiveSample(long timeMs, Counts all, Map<String, long[]> backends, Map<String, SiteCounts> sites) {
        this.timeMs = timeMs;
        this.driving = all != null;
        this.all = all == null ? Counts.NONE : all;
        this.backends = backends;
        this.sites = sites;
    }

    /**
     * Takes a sample.
     *
     * @param timeMs   when, ms since the epoch
     * @param sites    each site's metrics and backends, empty while no backend is driven
     * @param backends each backend's {packets, bytes}
     * @return the sample
     */
    static LiveSample of(long timeMs, Map<String, LiveSite> sites, Map<String, long[]> backends) {
        if (sites.isEmpty()) {
            return new LiveSample(timeMs, null, Map.of(), Map.of());
        }
        Map<String, SiteCounts> bySite = new TreeMap<>();
        sites.forEach((id, s) -> bySite.put(id, new SiteCounts(Counts.of(s.metrics), s)));
        Map<String, long[]> copy = new TreeMap<>();
        backends.forEach((id, v) -> copy.put(id, v.clone()));
        List<OffloadMetrics> metrics = new ArrayList<>();
        sites.values().forEach(s -> metrics.add(s.metrics));
        return new LiveSample(timeMs, Counts.of(OffloadMetrics.sum(metrics)), copy, bySite);
    }

    /** Renders the sample into a JSON object: the sums at its top, each site's under {@code sites}. */
    void into(ObjectNode o) {
        o.put("time", timeMs).put("driving", driving);
        all.into(o);
        ObjectNode b = o.putObject("backends");
        backends.forEach((id, v) -> b.putObject(id).put("packets", v[0]).put("bytes", v[1]));
        ObjectNode s = o.putObject("sites");
        sites.forEach((id, site) -> {
            ObjectNode so = s.putObject(id);
            site.counts.into(so);
            ArrayNode ids = so.putArray("backends");
            site.backends.forEach(ids::add);
        });
    }

    /** One site's counts in a sample. */
    static final class SiteCounts {
        final Counts counts;
        final Iterable<String> backends;

        SiteCounts(Counts counts, LiveSite site) {
            this.counts = counts;
            this.backends = site.backends;
        }
    }

    /** What an offload manager's metrics say at one time. */
    static final class Counts {
        static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0, Map.of());

        /** What entered the switch's session entries (as a backend's counts: ingress). */
        final long switchPackets;
        final long switchBytes;
        final long hhReports;
        final long promotions;
        final long demotions;
        final int offloaded;
        /** Switch table to entries used. */
        final Map<String, Long> switchTables;

        private Counts(long switchPackets, long switchBytes, long hhReports, long promotions, long demotions,
                       int offloaded, Map<String, Long> switchTables) {
            this.switchPackets = switchPackets;
            this.switchBytes = switchBytes;
            this.hhReports = hhReports;
            this.promotions = promotions;
            this.demotions = demotions;
            this.offloaded = offloaded;
            this.switchTables = switchTables;
        }

        static Counts of(OffloadMetrics m) {
            Map<String, Long> tables = new TreeMap<>();
            for (Map.Entry<UpfEntityType, long[]> e : m.occupancy().entrySet()) {
                tables.put(e.getKey().humanReadableName(), e.getValue()[0]);
            }
            return new Counts(m.hwPackets(), m.hwBytes(), m.hhReports(), m.promotions(), m.demotions(),
                              m.offloaded(), tables);
        }

        void into(ObjectNode o) {
            o.put("switchPackets", switchPackets).put("switchBytes", switchBytes).put("hhReports", hhReports).put("promotions", promotions)
                    .put("demotions", demotions).put("offloaded", offloaded);
            ObjectNode t = o.putObject("switchTables");
            switchTables.forEach(t::put);
        }
    }
}
