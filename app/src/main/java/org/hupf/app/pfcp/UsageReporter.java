package org.hupf.app.pfcp;

import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Urr;
import org.hupf.app.core.DeletedSession;
import org.hupf.app.core.SessionManager;
import org.hupf.app.pfcp.codec.Ie;
import org.hupf.app.pfcp.codec.IeType;
import org.hupf.app.pfcp.codec.IeFields;
import org.hupf.app.pfcp.message.Volume;
import org.hupf.app.store.InMemoryUsageBaselineStore;
import org.hupf.app.store.UsageBaseline;
import org.hupf.app.store.UsageBaselineStore;
import org.hupf.pipeconf.api.UpfCounter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Usage reports (TS 29.244 §7.5.8.3) from the devices' counters: each URR measures the post-QoS bytes
 * of the PDRs that refer to it (uplink PDRs count as uplink volume, the others as downlink); a report
 * carries the volume since the previous one.
 */
public final class UsageReporter {

    /** Usage Report Trigger bits (§8.2.41), octet 5 in the low byte. */
    public static final int PERIO = 0x0001;
    public static final int VOLTH = 0x0002;
    public static final int IMMER = 0x0080;
    public static final int TERMR = 0x0800;
    /** Seconds between 1900 (NTP epoch) and 1970. */
    public static final long NTP_OFFSET = 2_208_988_800L;

    private final SessionManager sessions;
    private final LongSupplier clockMillis;
    private final UsageBaselineStore baselines;
    /** UP SEID to URR id to measurement state. */
    private final Map<Long, Map<Long, State>> states = new ConcurrentHashMap<>();

    private static final class State {
        long ulBase;
        long dlBase;
        long startSec;
        long seqn;
        /** It has reported, so its baseline is in the store. */
        boolean stored;

        static State of(UsageBaseline b) {
            State st = new State();
            st.ulBase = b.uplinkBytes;
            st.dlBase = b.downlinkBytes;
            st.startSec = b.startSec;
            st.seqn = b.nextSeqn;
            st.stored = true;
            return st;
        }
    }

    /** A URR whose report is due, with its trigger. */
    public static final class Due {
        public final PfcpSession session;
        public final Urr urr;
        public final int trigger;

        Due(PfcpSession session, Urr urr, int trigger) {
            this.session = session;
            this.urr = urr;
            this.trigger = trigger;
        }
    }

    /**
     * A reporter whose baselines live only in this process.
     *
     * @param sessions    session manager
     * @param clockMillis wall clock
     */
    public UsageReporter(SessionManager sessions, LongSupplier clockMillis) {
        this(sessions, clockMillis, new InMemoryUsageBaselineStore());
    }

    /**
     * A reporter that goes on from the baselines in a store (those a former leader or run recorded) and
     * records a URR's baseline there at each report.
     *
     * @param sessions    session manager
     * @param clockMillis wall clock
     * @param baselines   baseline store
     */
    public UsageReporter(SessionManager sessions, LongSupplier clockMillis, UsageBaselineStore baselines) {
        this.sessions = sessions;
        this.clockMillis = clockMillis;
        this.baselines = baselines;
        baselines.all().forEach((seid, urrs) -> {
            Map<Long, State> m = new ConcurrentHashMap<>();
            urrs.forEach((urr, b) -> m.put(urr, State.of(b)));
            states.put(seid, m);
        });
    }

    private long nowSec() {
        return clockMillis.getAsLong() / 1000;
    }

    private State state(PfcpSession s, Urr u) {
        return states.computeIfAbsent(s.upSeid, k -> new ConcurrentHashMap<>()).computeIfAbsent(u.urrId, k -> {
            State st = new State();
            st.startSec = nowSec();
            return st;
        });
    }

    /** @return {uplink, downlink} bytes measured so far for a URR, its PDRs' cells read together */
    private long[] volume(PfcpSession s, Urr u) {
        return volume(s, u, null);
    }

    /**
     * @param known counts of the session's cells already read (a deletion's final counts), or null to read them
     * @return {uplink, downlink} bytes measured so far for a URR
     */
    private long[] volume(PfcpSession s, Urr u, Map<Integer, UpfCounter> known) {
        Map<Pdr, Integer> cells = new HashMap<>();
        for (Pdr p : s.pdrs.values()) {
            Integer ctr = s.allocations.get("ctr:" + p.pdrId);
            if (ctr != null && p.urrIds.contains(u.urrId)) {
                cells.put(p, ctr);
            }
        }
        Map<Integer, UpfCounter> counts = known != null ? known
                : cells.isEmpty() ? Map.of() : sessions.readCounters(cells.values());
        long ul = 0;
        long dl = 0;
        for (Map.Entry<Pdr, Integer> pc : cells.entrySet()) {
            Pdr p = pc.getKey();
            UpfCounter c = counts.get(pc.getValue());
            if (p.isUplink()) {
                ul += c.egressBytes();
            } else {
                dl += c.egressBytes();
            }
        }
        return new long[]{ul, dl};
    }

    /**
     * Builds a usage report and starts a new measurement interval.
     *
     * @param s       session
     * @param u       URR
     * @param ieType  Usage Report IE type (78 modification, 79 deletion, 80 report)
     * @param trigger Usage Report Trigger bits
     * @return the grouped IE
     */
    public Ie report(PfcpSession s, Urr u, int ieType, int trigger) {
        return report(s, u, ieType, trigger, null);
    }

    /**
     * Builds a deleted session's final usage report from the counts its deletion returned: no read.
     *
     * @param deleted session and its cells' final counts
     * @param u       one of its URRs
     * @return the Usage Report IE (Session Deletion Response)
     */
    public Ie finalReport(DeletedSession deleted, Urr u) {
        return report(deleted.session(), u, IeType.USAGE_REPORT_DELETION, TERMR, deleted.finalCounts());
    }

    private synchronized Ie report(PfcpSession s, Urr u, int ieType, int trigger, Map<Integer, UpfCounter> known) {
        State st = state(s, u);
        long[] v = volume(s, u, known);
        long now = nowSec();
        long ul = Math.max(0, v[0] - st.ulBase);
        long dl = Math.max(0, v[1] - st.dlBase);
        List<Ie> ies = new ArrayList<>(List.of(
                IeFields.URR_ID.encode(u.urrId), IeFields.UR_SEQN.encode(st.seqn++),
                IeFields.USAGE_REPORT_TRIGGER.encode(trigger), IeFields.START_TIME.encode(st.startSec + NTP_OFFSET),
                IeFields.END_TIME.encode(now + NTP_OFFSET)));
        if ((u.measurementMethod & Urr.VOLUM) != 0) {
            ies.add(IeFields.VOLUME_MEASUREMENT.encode(new Volume(ul + dl, ul, dl)));
        }
        if ((u.measurementMethod & Urr.DURAT) != 0) {
            ies.add(IeFields.DURATION_MEASUREMENT.encode(now - st.startSec));
        }
        st.ulBase = v[0];
        st.dlBase = v[1];
        st.startSec = now;
        if (ieType != IeType.USAGE_REPORT_DELETION) {   // a deleted session's baselines go with it
            baselines.put(s.upSeid, u.urrId, new UsageBaseline(st.ulBase, st.dlBase, st.startSec, st.seqn));
            st.stored = true;
        }
        return Ie.grouped(ieType, ies);
    }

    /**
     * Returns the URRs whose periodic or volume-threshold report is due.
     *
     * @param all sessions to check
     * @return due reports
     */
    public synchronized List<Due> due(Iterable<PfcpSession> all) {
        List<Due> out = new ArrayList<>();
        long now = nowSec();
        for (PfcpSession s : all) {
            for (Urr u : s.urrs.values()) {
                State st = state(s, u);
                if (u.periodic() && now - st.startSec >= u.measurementPeriod) {
                    out.add(new Due(s, u, PERIO));
                } else if (u.volumeThreshold() && thresholdReached(s, u, st)) {
                    out.add(new Due(s, u, VOLTH));
                }
            }
        }
        return out;
    }

    private boolean thresholdReached(PfcpSession s, Urr u, State st) {
        long[] v = volume(s, u);
        long ul = v[0] - st.ulBase;
        long dl = v[1] - st.dlBase;
        return u.volumeThresholdTotal != null && ul + dl >= u.volumeThresholdTotal
                || u.volumeThresholdUplink != null && ul >= u.volumeThresholdUplink
                || u.volumeThresholdDownlink != null && dl >= u.volumeThresholdDownlink;
    }

    /**
     * Drops the state of URRs a session no longer has.
     *
     * @param s session after a modification
     */
    public void sessionChanged(PfcpSession s) {
        Map<Long, State> urrs = states.get(s.upSeid);
        if (urrs == null) {
            return;
        }
        boolean storedGone = urrs.entrySet().stream()
                .anyMatch(e -> e.getValue().stored && !s.urrs.containsKey(e.getKey()));
        urrs.keySet().retainAll(s.urrs.keySet());
        if (storedGone) {
            baselines.retain(s.upSeid, s.urrs.keySet());
        }
    }

    /**
     * Drops the state of a deleted session.
     *
     * @param upSeid local SEID
     */
    public void forget(long upSeid) {
        Map<Long, State> urrs = states.remove(upSeid);
        if (urrs != null && urrs.values().stream().anyMatch(st -> st.stored)) {
            baselines.remove(upSeid);
        }
    }

    /** Drops the state of sessions that no longer exist (after a CP function's sessions were deleted). */
    public void forgetDeletedSessions() {
        for (Long upSeid : List.copyOf(states.keySet())) {
            if (sessions.store().get(upSeid) == null) {
                forget(upSeid);
            }
        }
    }
}
