package org.hupf.core.pfcp;

import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Urr;
import org.hupf.core.session.DeletedSession;
import org.hupf.core.session.SessionManager;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.message.UsageReport;
import org.hupf.core.pfcp.message.Volume;
import org.hupf.core.store.InMemoryUsageBaselineStore;
import org.hupf.core.store.UsageBaseline;
import org.hupf.core.store.UsageBaselineStore;
import org.hupf.pipeconf.api.UpfCounter;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;

/**
 * Usage reports (TS 29.244 §7.5.8.3) from the devices' counters: each URR measures the post-QoS bytes
 * of the PDRs that refer to it (uplink PDRs count as uplink volume, the others as downlink); a report
 * carries the volume since the previous one.
 *
 * <p>What is due costs what is due, not the sessions held: periodic URRs wait in a queue by the second their
 * report is due ({@link #sessionChanged} and each report put them there), volume thresholds are checked for
 * the sessions the caller names (those whose usage changed, or all of them where nothing says which).
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
    /**
     * UP SEID to the measurement state of the session's URRs, chained (a session has one or a few: no map of its
     * own). A chain changes under this object's lock; a deleted session's goes at once, without it.
     */
    private final Map<Long, State> states = new ConcurrentHashMap<>();

    private static final class State {
        final long urrId;
        /** The session's next URR's state, or null. */
        State next;
        long ulBase;
        long dlBase;
        long startSec;
        long seqn;
        /** It has reported, so its baseline is in the store. */
        boolean stored;
        /** The second of its entry in the periodic queue; entries of other seconds are stale. */
        long scheduledSec = -1;

        State(long urrId) {
            this.urrId = urrId;
        }

        static State of(long urrId, UsageBaseline b) {
            State st = new State(urrId);
            st.ulBase = b.uplinkBytes;
            st.dlBase = b.downlinkBytes;
            st.startSec = b.startSec;
            st.seqn = b.nextSeqn;
            st.stored = true;
            return st;
        }
    }

    /** A periodic URR's place in the queue. */
    private static final class Scheduled {
        final long upSeid;
        final long urrId;
        final long dueSec;

        Scheduled(long upSeid, long urrId, long dueSec) {
            this.upSeid = upSeid;
            this.urrId = urrId;
            this.dueSec = dueSec;
        }
    }

    /** Periodic URRs by due second (under this). */
    private final PriorityQueue<Scheduled> periodic = new PriorityQueue<>(Comparator.comparingLong(x -> x.dueSec));

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
        baselines.all().forEach((seid, urrs) -> urrs.forEach((urr, b) -> {
            State st = State.of(urr, b);
            st.next = states.get(seid);
            states.put(seid, st);
        }));
    }

    private long nowSec() {
        return clockMillis.getAsLong() / 1000;
    }

    /** @return a URR's state, its measurement started now if it had none (under this) */
    private State state(PfcpSession s, Urr u) {
        State first = states.get(s.upSeid);
        State st = find(first, u.urrId);
        if (st == null) {
            st = new State(u.urrId);
            st.startSec = nowSec();
            st.next = first;
            states.put(s.upSeid, st);
        }
        return st;
    }

    private static State find(State first, long urrId) {
        State st = first;
        while (st != null && st.urrId != urrId) {
            st = st.next;
        }
        return st;
    }

    /**
     * @param known egress bytes of the session's cells already read (a deletion's final counts), or null to read them
     * @return {uplink, downlink} bytes measured so far for a URR
     */
    private long[] volume(PfcpSession s, Urr u, IntToLongFunction known) {
        IntToLongFunction egressBytes = known;
        if (egressBytes == null) {
            List<Integer> cells = cellsOf(s, u);
            egressBytes = cells.isEmpty() ? cell -> 0 : egressBytesOf(sessions.readCounters(cells));
        }
        long ul = 0;
        long dl = 0;
        for (Pdr p : s.pdrs.values()) {
            Integer cell = cellOf(s, p, u);
            if (cell == null) {
                continue;
            }
            if (p.isUplink()) {
                ul += egressBytes.applyAsLong(cell);
            } else {
                dl += egressBytes.applyAsLong(cell);
            }
        }
        return new long[]{ul, dl};
    }

    private static IntToLongFunction egressBytesOf(Map<Integer, UpfCounter> counts) {
        return cell -> counts.get(cell).egressBytes();
    }

    /** @return the counter cells of the PDRs that refer to a URR */
    private static List<Integer> cellsOf(PfcpSession s, Urr u) {
        List<Integer> cells = new ArrayList<>(s.pdrs.size());
        for (Pdr p : s.pdrs.values()) {
            Integer cell = cellOf(s, p, u);
            if (cell != null) {
                cells.add(cell);
            }
        }
        return cells;
    }

    /** @return the counter cell of a PDR that refers to a URR, null if it does not or has none */
    private static Integer cellOf(PfcpSession s, Pdr p, Urr u) {
        return p.urrIds.contains(u.urrId) ? s.allocations.get("ctr:" + p.pdrId) : null;
    }

    /** Queues a periodic URR for the second its report is due, unless it is there already (under this). */
    private void schedule(PfcpSession s, Urr u, State st) {
        if (!u.periodic()) {
            return;
        }
        long dueSec = st.startSec + u.measurementPeriod;
        if (st.scheduledSec != dueSec) {
            st.scheduledSec = dueSec;
            periodic.add(new Scheduled(s.upSeid, u.urrId, dueSec));
        }
    }

    /**
     * Builds a usage report and starts a new measurement interval.
     *
     * @param s       session
     * @param u       URR
     * @param ieType  Usage Report IE type it travels as (78 modification, 79 deletion, 80 report)
     * @param trigger Usage Report Trigger bits
     * @return the report
     */
    public UsageReport report(PfcpSession s, Urr u, int ieType, int trigger) {
        return report(s, u, ieType, trigger, null);
    }

    /**
     * Builds a deleted session's final usage report from the counts its deletion returned: no read.
     *
     * @param deleted session and its cells' final counts
     * @param u       one of its URRs
     * @return the report (of a Session Deletion Response)
     */
    public UsageReport finalReport(DeletedSession deleted, Urr u) {
        return report(deleted.session(), u, IeType.USAGE_REPORT_DELETION, TERMR, deleted::egressBytes);
    }

    private synchronized UsageReport report(PfcpSession s, Urr u, int ieType, int trigger, IntToLongFunction known) {
        State st = state(s, u);
        long[] v = volume(s, u, known);
        long now = nowSec();
        long ul = Math.max(0, v[0] - st.ulBase);
        long dl = Math.max(0, v[1] - st.dlBase);
        UsageReport r = new UsageReport(u.urrId, st.seqn++, trigger, st.startSec + NTP_OFFSET, now + NTP_OFFSET,
                (u.measurementMethod & Urr.VOLUM) != 0 ? new Volume(ul + dl, ul, dl) : null,
                (u.measurementMethod & Urr.DURAT) != 0 ? now - st.startSec : null);
        st.ulBase = v[0];
        st.dlBase = v[1];
        st.startSec = now;
        if (ieType != IeType.USAGE_REPORT_DELETION) {   // a deleted session's baselines go with it
            baselines.put(s.upSeid, u.urrId, new UsageBaseline(st.ulBase, st.dlBase, st.startSec, st.seqn));
            st.stored = true;
            schedule(s, u, st);
        }
        return r;
    }

    /**
     * Returns the periodic reports due now: the queue's head, not every session.
     *
     * @return due reports
     */
    public synchronized List<Due> periodicDue() {
        List<Due> out = new ArrayList<>();
        long now = nowSec();
        while (!periodic.isEmpty() && periodic.peek().dueSec <= now) {
            Scheduled x = periodic.poll();
            PfcpSession s = sessions.store().get(x.upSeid);
            Urr u = s == null ? null : s.urrs.get(x.urrId);
            State st = find(states.get(x.upSeid), x.urrId);
            if (u == null || st == null || !u.periodic() || st.scheduledSec != x.dueSec) {
                continue;   // gone, changed, or moved by a report since
            }
            st.scheduledSec = -1;
            if (now - st.startSec >= u.measurementPeriod) {
                out.add(new Due(s, u, PERIO));   // its report schedules the next
            } else {
                schedule(s, u, st);
            }
        }
        return out;
    }

    /**
     * Returns the volume-threshold reports due among some sessions, their cells read together (one read per
     * device; inside {@link SessionManager#withCounterSnapshot} from its snapshot).
     *
     * @param candidates sessions to check: those whose usage changed, or every session
     * @return due reports
     */
    public List<Due> thresholdsDue(Collection<PfcpSession> candidates) {
        Set<Integer> cells = new HashSet<>();
        for (PfcpSession s : candidates) {
            for (Urr u : s.urrs.values()) {
                if (u.volumeThreshold()) {
                    cells.addAll(cellsOf(s, u));
                }
            }
        }
        List<Due> out = new ArrayList<>();
        if (cells.isEmpty()) {
            return out;
        }
        Map<Integer, UpfCounter> counts = sessions.readCounters(cells);   // not under the lock reports need
        synchronized (this) {
            for (PfcpSession s : candidates) {
                for (Urr u : s.urrs.values()) {
                    if (u.volumeThreshold() && thresholdReached(s, u, state(s, u), counts)) {
                        out.add(new Due(s, u, VOLTH));
                    }
                }
            }
        }
        return out;
    }

    private boolean thresholdReached(PfcpSession s, Urr u, State st, Map<Integer, UpfCounter> counts) {
        long[] v = volume(s, u, egressBytesOf(counts));
        long ul = v[0] - st.ulBase;
        long dl = v[1] - st.dlBase;
        return u.volumeThresholdTotal != null && ul + dl >= u.volumeThresholdTotal
                || u.volumeThresholdUplink != null && ul >= u.volumeThresholdUplink
                || u.volumeThresholdDownlink != null && dl >= u.volumeThresholdDownlink;
    }

    /**
     * Drops the state of URRs a session no longer has, starts the measurement of its new ones and queues its
     * periodic ones.
     *
     * @param s session after an establishment or a modification, or held when the agent starts
     */
    public synchronized void sessionChanged(PfcpSession s) {
        State kept = null;
        boolean storedGone = false;
        for (State st = states.get(s.upSeid), next; st != null; st = next) {
            next = st.next;
            if (s.urrs.containsKey(st.urrId)) {
                st.next = kept;
                kept = st;
            } else {
                storedGone |= st.stored;
            }
        }
        if (kept == null) {
            states.remove(s.upSeid);
        } else {
            states.put(s.upSeid, kept);
        }
        if (storedGone) {
            baselines.retain(s.upSeid, s.urrs.keySet());
        }
        for (Urr u : s.urrs.values()) {
            schedule(s, u, state(s, u));   // its measurement starts now if it is new
        }
    }

    /**
     * Drops the state of a deleted session.
     *
     * @param upSeid local SEID
     */
    public void forget(long upSeid) {
        for (State st = states.remove(upSeid); st != null; st = st.next) {
            if (st.stored) {
                baselines.remove(upSeid);
                return;
            }
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
