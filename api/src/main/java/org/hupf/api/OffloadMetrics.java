package org.hupf.api;

import com.google.common.collect.ImmutableMap;
import org.hupf.pipeconf.api.UpfEntityType;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of the offload manager's metrics, as shown by the CLI, REST and the lab.
 */
public final class OffloadMetrics {

    private final int sessions;
    private final int offloaded;
    private final long hhReports;
    private final double hhReportsPerSec;
    private final long promotions;
    private final long demotions;
    private final long evictions;
    private final long rejections;
    private final long unconfirmed;
    private final long failedCounterPolls;
    private final Map<UpfEntityType, long[]> occupancy;
    private final long hwPackets;
    private final long hwBytes;
    private final long swBytes;

    /**
     * Sums several sites' snapshots: counts and bytes added, each switch table's used and capacity added.
     *
     * @param sites each site's snapshot
     * @return the sum, the one snapshot itself for one site, null for none
     */
    public static OffloadMetrics sum(List<OffloadMetrics> sites) {
        if (sites.size() < 2) {
            return sites.isEmpty() ? null : sites.get(0);
        }
        long[] events = new long[8];
        int sessions = 0;
        int offloaded = 0;
        double rate = 0;
        long hwPackets = 0;
        long hw = 0;
        long sw = 0;
        Map<UpfEntityType, long[]> occupancy = new EnumMap<>(UpfEntityType.class);
        for (OffloadMetrics m : sites) {
            sessions += m.sessions;
            offloaded += m.offloaded;
            long[] e = {m.hhReports, m.promotions, m.demotions, m.evictions, m.rejections, 0, m.unconfirmed,
                        m.failedCounterPolls};
            for (int k = 0; k < events.length; k++) {
                events[k] += e[k];
            }
            rate += m.hhReportsPerSec;
            hwPackets += m.hwPackets;
            hw += m.hwBytes;
            sw += m.swBytes;
            m.occupancy.forEach((t, v) -> {
                long[] sum = occupancy.computeIfAbsent(t, x -> new long[2]);
                sum[0] += v[0];
                sum[1] += v[1];
            });
        }
        return new OffloadMetrics(sessions, offloaded, events, rate, occupancy, hwPackets, hw, sw);
    }

    /**
     * Creates a snapshot (the offload manager does).
     *
     * @param sessions        sessions known
     * @param offloaded       sessions on the switch
     * @param events          event counts: HH reports, promotions, demotions, evictions, rejections, -, unconfirmed,
     *                        failed counter polls
     * @param hhReportsPerSec recent HH report rate
     * @param occupancy       per entity type, {used, capacity} on the switch
     * @param hwPackets       ingress packets counted on the switch
     * @param hwBytes         ingress bytes counted on the switch
     * @param swBytes         ingress bytes counted on the backend
     */
    public OffloadMetrics(int sessions, int offloaded, long[] events, double hhReportsPerSec,
                   Map<UpfEntityType, long[]> occupancy, long hwPackets, long hwBytes, long swBytes) {
        this.sessions = sessions;
        this.offloaded = offloaded;
        this.hhReports = events[0];
        this.promotions = events[1];
        this.demotions = events[2];
        this.evictions = events[3];
        this.rejections = events[4];
        this.unconfirmed = events[6];
        this.failedCounterPolls = events[7];
        this.hhReportsPerSec = hhReportsPerSec;
        this.occupancy = ImmutableMap.copyOf(occupancy);
        this.hwPackets = hwPackets;
        this.hwBytes = hwBytes;
        this.swBytes = swBytes;
    }

    public int sessions() {
        return sessions;
    }

    public int offloaded() {
        return offloaded;
    }

    public long hhReports() {
        return hhReports;
    }

    /** HH reports per second over the last rate window. */
    public double hhReportsPerSec() {
        return hhReportsPerSec;
    }

    public long promotions() {
        return promotions;
    }

    public long demotions() {
        return demotions;
    }

    public long evictions() {
        return evictions;
    }

    public long rejections() {
        return rejections;
    }

    /** HH reports the session's counters did not confirm within the hold time (HK-IPG false positives). */
    public long unconfirmed() {
        return unconfirmed;
    }

    /** Counter polls in which a target's bulk counter read failed (they measure no session on it). */
    public long failedCounterPolls() {
        return failedCounterPolls;
    }

    /** Switch table occupancy: type to {entries used, table size}. */
    public Map<UpfEntityType, long[]> occupancy() {
        return occupancy;
    }

    /** Ingress packets the switch's session entries counted. */
    public long hwPackets() {
        return hwPackets;
    }

    public long hwBytes() {
        return hwBytes;
    }

    public long swBytes() {
        return swBytes;
    }

    /** Share of ingress bytes carried by the switch, 0 when nothing was counted. */
    public double hwShare() {
        long total = hwBytes + swBytes;
        return total == 0 ? 0 : (double) hwBytes / total;
    }

    /** Renders the metrics as JSON, for REST and the lab runner's status line. */
    public String toJson() {
        StringBuilder occ = new StringBuilder();
        for (Map.Entry<UpfEntityType, long[]> e : occupancy.entrySet()) {
            occ.append(occ.length() == 0 ? "" : ",").append('"').append(e.getKey().humanReadableName())
                    .append("\":[").append(e.getValue()[0]).append(',').append(e.getValue()[1]).append(']');
        }
        return String.format(java.util.Locale.ROOT,
                "{\"sessions\":%d,\"offloaded\":%d,\"hh_reports\":%d,\"hh_reports_per_sec\":%.2f,"
                        + "\"promotions\":%d,\"demotions\":%d,\"evictions\":%d,\"rejections\":%d,\"unconfirmed\":%d,"
                        + "\"failed_counter_polls\":%d,\"hw_packets\":%d,\"hw_bytes\":%d,\"sw_bytes\":%d,\"hw_share\":%.4f,\"occupancy\":{%s}}",
                sessions, offloaded, hhReports, hhReportsPerSec, promotions, demotions, evictions, rejections,
                unconfirmed, failedCounterPolls, hwPackets, hwBytes, swBytes, hwShare(), occ);
    }
}
