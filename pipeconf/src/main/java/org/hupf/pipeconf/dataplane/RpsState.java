package org.hupf.pipeconf.dataplane;

import java.util.List;

import static org.hupf.pipeconf.HupfConstants.RPS_EVENTS;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_DELAYED;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_DIRECT;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_EXPORTED;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_INVALID;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_LATE;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_LATE_REPEATED;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_OBSERVED;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_TRACK_OVERRUN;
import static org.hupf.pipeconf.HupfConstants.RPS_POINTS;
import static org.hupf.pipeconf.HupfConstants.RPS_POINT_IN;
import static org.hupf.pipeconf.HupfConstants.RPS_POINT_OUT;

/**
 * A device's Retroactive Packet Sampling as read from it (docs/PIPELINE_CONTRACT.md, "RPS"): its pipeline's sizes
 * (P4Info: receipts and flow ids per point, the tracker's depth) and the {@code rps.events} counters of both
 * observation points.
 */
public final class RpsState {

    /** The events' names, by {@code RPS_EV_*} index. */
    public static final List<String> EVENT_NAMES = eventNames();
    /** The observation points' names, by {@code RPS_POINT_*} index. */
    public static final List<String> POINT_NAMES = pointNames();

    private final long bufferSize;
    private final long flows;
    private final long trackDepth;
    private final long[][] events;

    /**
     * @param bufferSize receipts per point
     * @param flows      flow ids
     * @param trackDepth direct disclosures the tracker keeps per (point, flow)
     * @param events     {@code [point][RPS_EV_*]} packets
     * @throws IllegalArgumentException if events is not {@code RPS_POINTS} x {@code RPS_EVENTS}
     */
    public RpsState(long bufferSize, long flows, long trackDepth, long[][] events) {
        if (events.length != RPS_POINTS || events[RPS_POINT_IN].length != RPS_EVENTS
                || events[RPS_POINT_OUT].length != RPS_EVENTS) {
            throw new IllegalArgumentException("events: " + RPS_POINTS + " points of " + RPS_EVENTS + " cells expected");
        }
        this.bufferSize = bufferSize;
        this.flows = flows;
        this.trackDepth = trackDepth;
        this.events = new long[][]{events[RPS_POINT_IN].clone(), events[RPS_POINT_OUT].clone()};
    }

    private static List<String> eventNames() {
        String[] n = new String[RPS_EVENTS];
        n[RPS_EV_OBSERVED] = "observed";
        n[RPS_EV_DIRECT] = "direct";
        n[RPS_EV_DELAYED] = "delayed";
        n[RPS_EV_LATE] = "late";
        n[RPS_EV_TRACK_OVERRUN] = "trackOverrun";
        n[RPS_EV_EXPORTED] = "exported";
        n[RPS_EV_LATE_REPEATED] = "lateRepeated";
        n[RPS_EV_INVALID] = "invalid";
        return List.of(n);
    }

    private static List<String> pointNames() {
        String[] n = new String[RPS_POINTS];
        n[RPS_POINT_IN] = "in";
        n[RPS_POINT_OUT] = "out";
        return List.of(n);
    }

    public long bufferSize() {
        return bufferSize;
    }

    public long flows() {
        return flows;
    }

    public long trackDepth() {
        return trackDepth;
    }

    /**
     * @param point {@code RPS_POINT_*}
     * @param event {@code RPS_EV_*}
     * @return packets the point counted for the event
     */
    public long event(int point, int event) {
        return events[point][event];
    }
}
