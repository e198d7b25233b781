package org.hupf.core.offload;

import org.hupf.core.device.CounterCellReader;
import org.hupf.api.OffloadPolicy;
import org.hupf.api.OffloadEvent;
import org.hupf.api.OffloadMetrics;
import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Places UE sessions on the two targets of the hybrid UPF (thesis ch. 3): every session on the x86
 * backend, heavy hitters also on the P4 switch, whose UPF tables take traffic off the steering path.
 *
 * <p>The manager tracks the sessions and answers for them. A heavy-hitter report, or a {@link #poll} that measures
 * every session's rate from counters summed over both targets ({@link OffloadPoll}), has {@link SwitchPlacement}
 * promote, evict or demote it; {@link SwitchCounts} keeps what the switch counted over the offload episodes;
 * {@link OffloadEvents} counts what happened. Writes are ordered make-before-break: on promotion the switch learns what
 * a session hit leads to before the session entries themselves; on demotion the session entries go first, so packets
 * fall back to steering, and the backend, which never lost the session, takes them.
 */
public final class OffloadManager {

    private static final Logger log = LoggerFactory.getLogger(OffloadManager.class);

    private final DeviceTable backend;
    private final OffloadPolicy policy;
    private final LongSupplier clock;
    private final OffloadEntries entries = new OffloadEntries();
    private final OffloadEvents events = new OffloadEvents();
    private final SwitchCounts counts;
    private final OffloadPoll poller;
    private final SwitchPlacement placement;
    private final UsageReads reads;
    private long retiredHwPkts;
    private long retiredHwBytes;
    private long retiredSwBytes;

    /**
     * Creates a manager over the two targets.
     *
     * @param backend the x86 backend, which holds every session
     * @param hardware the P4 switch, or null when there is none (backend-only: nothing is offloaded)
     * @param policy thresholds and pins
     * @param clock milliseconds, monotonic
     * @throws UpfProgrammableException if the switch's table sizes cannot be read
     */
    public OffloadManager(HupfUpfDevice backend, HupfUpfDevice hardware, OffloadPolicy policy, LongSupplier clock)
            throws UpfProgrammableException {
        this(backend, hardware, policy, clock, log::warn);
    }

    /** As above, with the sink of the (rate-limited) counter read failure warnings. */
    OffloadManager(HupfUpfDevice backend, HupfUpfDevice hardware, OffloadPolicy policy, LongSupplier clock,
                   Consumer<String> warnings) throws UpfProgrammableException {
        DeviceTable switchTable = hardware == null ? null : new DeviceTable(hardware);
        this.backend = new DeviceTable(backend);
        this.policy = policy;
        this.clock = clock;
        this.counts = new SwitchCounts(switchTable);
        this.poller = new OffloadPoll(this, counts, backend, hardware, clock, warnings);
        this.placement = new SwitchPlacement(hardware, switchTable, policy, events, counts, poller, entries.all());
        this.reads = new UsageReads(entries, backend, counts, events);
    }

    /**
     * Keeps each offloaded session's switch counts in a store, and starts a session this manager does not
     * know yet from its record there (a session another manager, e.g. the previous leader's, offloaded).
     * Set before the first session is tracked.
     *
     * @param offloadStore the store
     */
    public synchronized void useStore(OffloadStore offloadStore) {
        counts.useStore(offloadStore);
    }

    /**
     * Registers a listener for offload events (called under the manager's lock: keep it short).
     *
     * @param listener listener
     */
    public void addListener(Consumer<OffloadEvent> listener) {
        events.addListener(listener);
    }

    /**
     * Installs a new session or changes an existing one, on the backend and, if offloaded, on the switch.
     *
     * @param session the session as translated
     * @throws UpfProgrammableException if the backend rejects it (the previous state is kept)
     */
    public synchronized void put(OffloadSession session) throws UpfProgrammableException {
        OffloadEntry e = entries.get(session.ueBits());
        backend.acquire(session.entities());
        if (e != null) {
            backend.release(e.session.entities());
        }
        track(session);
    }

    /**
     * Takes note of a new or changed session that is already on the backend (programmed by whoever
     * owns the backend, see {@link HybridUpfDevice}) and updates the switch if it is offloaded there.
     *
     * @param session the session as on the backend
     */
    public synchronized void track(OffloadSession session) {
        long now = clock.getAsLong();
        Ip4Address ue = session.ueAddress();
        OffloadEntry e = entries.getOrAdd(session.ueBits(), k -> counts.restored(ue));
        e.session = session;
        e.changing = false;
        entries.holdCounters(e, session.counterIds());
        poller.tracked(e);
        e.pin = policy.pinOf(session.ueAddress(), session.sliceId(), session.qfis());
        if (e.offloaded()) {
            if (e.pin == OffloadPolicy.Pin.SOFTWARE || !placement.updateOnSwitch(e)) {
                placement.demote(e, now, OffloadEvent.Kind.DEMOTED);
            }
        } else if (e.pin == OffloadPolicy.Pin.HARDWARE) {
            placement.promote(e, now, Double.POSITIVE_INFINITY);
        }
    }

    /**
     * Deletes a session from both targets: from the switch first, then from the backend.
     *
     * @param ue UE address
     * @return the session's final usage over both targets
     * @throws UpfProgrammableException if there is no such session or a deletion fails
     */
    public synchronized SessionUsage remove(Ip4Address ue) throws UpfProgrammableException {
        OffloadEntry e = entries.get(Ip4Bits.of(ue));
        SessionUsage usage = untrack(ue);
        backend.release(e.session.entities());
        return usage;
    }

    /**
     * Forgets a session: removes it from the switch if it is there; the backend is left to its owner.
     *
     * @param ue UE address
     * @return the session's final usage over both targets
     * @throws UpfProgrammableException if there is no such session or its counters cannot be read
     */
    public synchronized SessionUsage untrack(Ip4Address ue) throws UpfProgrammableException {
        return untrack(Ip4Bits.of(ue), CellCounts.NONE);
    }

    /**
     * Forgets a session whose backend counter cells were read already (once for every session a device
     * write removed, instead of one read per session).
     *
     * @param ue UE address's 32 bits ({@link Ip4Bits#of})
     * @param backendCells final counts of backend cells; a cell of the session missing here is read now
     * @return the session's final usage over both targets
     * @throws UpfProgrammableException if there is no such session or its counters cannot be read
     */
    synchronized SessionUsage untrack(int ue, CellCounts backendCells) throws UpfProgrammableException {
        OffloadEntry e = entries.get(ue);
        if (e == null) {
            throw new UpfProgrammableException("no session for UE " + Ip4Address.valueOf(ue));
        }
        if (e.offloaded()) {
            placement.demote(e, clock.getAsLong(), null);
        }
        SessionUsage usage = reads.usage(e, backendCells);
        entries.remove(ue, e);
        poller.untracked(e);
        counts.forget(e.session.ueAddress());
        e.gone = true;
        retiredHwPkts += usage.hwPkts();
        retiredHwBytes += usage.hwBytes();
        retiredSwBytes += usage.swBytes();
        return usage;
    }

    /**
     * Takes a session off the switch now, so that its packets take the backend while it is being changed or
     * deleted; it is not put back (a poll, a report, a pin) before it is tracked again.
     *
     * @param ue UE address
     * @return true if it was offloaded
     */
    public synchronized boolean fallBack(Ip4Address ue) {
        return fallBack(Ip4Bits.of(ue));
    }

    /** {@link #fallBack(Ip4Address)} by the address's 32 bits. */
    synchronized boolean fallBack(int ue) {
        OffloadEntry e = entries.get(ue);
        if (e != null) {
            e.changing = true;
        }
        if (e == null || !e.offloaded()) {
            return false;
        }
        placement.demote(e, clock.getAsLong(), OffloadEvent.Kind.DEMOTED);
        return true;
    }

    /**
     * Returns what the switch counted for one backend counter cell, over all offload episodes.
     *
     * @param backendCell counter index as the backend knows it
     * @return ingress/egress packets and bytes carried by the switch; null if the switch never counted for the cell
     */
    synchronized long[] hardwareCounts(int backendCell) {
        return reads.hardwareCounts(backendCell);
    }

    /**
     * Handles a heavy-hitter report from the switch (one per episode).
     *
     * @param ue the reported flow key, a UE address
     */
    public synchronized void onHeavyHitter(Ip4Address ue) {
        long now = clock.getAsLong();
        events.emit(OffloadEvent.Kind.HH_REPORT, ue, now);
        OffloadEntry e = entries.get(Ip4Bits.of(ue));
        if (e == null || e.pin == OffloadPolicy.Pin.SOFTWARE) {
            return;
        }
        if (e.offloaded()) {
            e.coldSince = null;
            return;
        }
        poller.wake(e);
        if (!policy.confirmReports() || e.pin == OffloadPolicy.Pin.HARDWARE
                || e.rateBps >= policy.thresholdBitsPerSec()) {
            placement.promote(e, now, Math.max(e.rateBps, policy.thresholdBitsPerSec()));
        } else {
            e.reportedAt = now;
        }
    }

    /**
     * Reads every session's counters from both targets, updates rates and demotes sessions that stayed
     * cold for the hold time. Pinned-to-hardware sessions that did not fit earlier are retried.
     *
     * <p>The counters are read without the manager's lock, then applied under it in batches, for the sessions
     * with a changed cell or a state that needs a poll ({@link OffloadPoll}): an idle session costs nothing. A
     * session changed meanwhile keeps its usage and is measured by the next poll. A poll called while another is
     * under way returns at once, true.
     *
     * @return false if a counter read failed: a backend or the switch did not answer
     */
    public boolean poll() {
        return poller.poll();
    }

    /** @return how long the last complete {@link #poll} took, in milliseconds; -1 before the first */
    public long pollDurationMillis() {
        return poller.durationMillis();
    }

    /** Decides where a session goes after a poll applied its usage and rate (the poll holds the lock). */
    void decide(OffloadEntry e, long now) {
        placement.decide(e, now);
    }

    /**
     * Returns a session's usage summed over both targets, read now.
     *
     * @param ue UE address
     * @return usage
     * @throws UpfProgrammableException if there is no such session or a counter read fails
     */
    public synchronized SessionUsage usage(Ip4Address ue) throws UpfProgrammableException {
        OffloadEntry e = entries.get(Ip4Bits.of(ue));
        if (e == null) {
            throw new UpfProgrammableException("no session for UE " + ue);
        }
        return reads.usage(e, CellCounts.NONE);
    }

    /**
     * Tells whether the manager knows a session.
     *
     * @param ue UE address
     * @return true if tracked
     */
    public synchronized boolean isTracked(Ip4Address ue) {
        return isTracked(Ip4Bits.of(ue));
    }

    /** {@link #isTracked(Ip4Address)} by the address's 32 bits. */
    synchronized boolean isTracked(int ue) {
        return entries.get(ue) != null;
    }

    /**
     * Tells whether a session is currently installed on the switch.
     *
     * @param ue UE address
     * @return true if offloaded
     */
    public synchronized boolean isOffloaded(Ip4Address ue) {
        OffloadEntry e = entries.get(Ip4Bits.of(ue));
        return e != null && e.offloaded();
    }

    /**
     * Returns the UEs whose sessions are on the switch.
     *
     * @return UE addresses, sorted
     */
    public synchronized Set<Ip4Address> offloaded() {
        Set<Ip4Address> s = new TreeSet<>();
        for (OffloadEntry e : entries.all()) {
            if (e.offloaded()) {
                s.add(e.session.ueAddress());
            }
        }
        return s;
    }

    /**
     * Returns every session's usage as of the last {@link #poll}, summed over both targets.
     *
     * @return UE address to usage, sorted by address
     */
    public synchronized Map<Ip4Address, SessionUsage> lastUsages() {
        Map<Ip4Address, SessionUsage> m = new TreeMap<>();
        entries.all().forEach(e -> m.put(e.session.ueAddress(), e.lastUsage));
        return m;
    }

    /**
     * Returns, as of the last {@link #poll}, the sessions that counted traffic or went to the switch (every other
     * session's usage is all zero, its rate 0, its path the backend): what a status lists, at a cost that
     * follows the traffic rather than the sessions held.
     *
     * @return UE address to {usage, rate in bit/s, offloaded}, sorted by address
     */
    public synchronized Map<Ip4Address, Counted> countedUsages() {
        Map<Ip4Address, Counted> m = new TreeMap<>();
        for (OffloadEntry e : poller.counted()) {
            m.put(e.session.ueAddress(), new Counted(e.lastUsage, e.rateBps, e.offloaded()));
        }
        return m;
    }

    /** A session's usage, rate and path as of the last poll. */
    public static final class Counted {
        public final SessionUsage usage;
        public final double rateBps;
        public final boolean offloaded;

        Counted(SessionUsage usage, double rateBps, boolean offloaded) {
            this.usage = usage;
            this.rateBps = rateBps;
            this.offloaded = offloaded;
        }
    }

    /**
     * Registers a listener told, after each {@link #poll} (outside the manager's lock), the UEs whose usage
     * changed in it: a quiet session is never among them.
     *
     * @param listener listener
     */
    public void addUsageListener(Consumer<Collection<Ip4Address>> listener) {
        poller.addUsageListener(listener);
    }

    /**
     * Returns the last measured rate of a session.
     *
     * @param ue UE address
     * @return bits per second, 0 if unknown
     */
    public synchronized double rateBitsPerSec(Ip4Address ue) {
        OffloadEntry e = entries.get(Ip4Bits.of(ue));
        return e == null ? 0 : e.rateBps;
    }

    /**
     * Returns the metrics; packet and byte totals are as of the last {@link #poll}.
     *
     * @return metrics snapshot
     */
    public synchronized OffloadMetrics metrics() {
        long now = clock.getAsLong();
        long hwPkts = retiredHwPkts;
        long hw = retiredHwBytes;
        long sw = retiredSwBytes;
        int offloaded = 0;
        for (OffloadEntry e : poller.counted()) {   // the others counted nothing and are not on the switch
            hwPkts += e.lastUsage.hwPkts();
            hw += e.lastUsage.hwBytes();
            sw += e.lastUsage.swBytes();
            offloaded += e.offloaded() ? 1 : 0;
        }
        return new OffloadMetrics(entries.size(), offloaded, events.counts(), events.reportsPerSec(now),
                                  placement.occupancy(), hwPkts, hw, sw);
    }

    /** @return the session holding a backend cell, or null (under the lock) */
    OffloadEntry holderOf(int backendCell) {
        return entries.holderOf(backendCell);
    }

    /** Counts a failed counter poll (under the lock). */
    void pollFailed() {
        events.pollFailed();
    }

    /**
     * Returns the backend counter cells of sessions, to read them together.
     *
     * @param ues UE addresses; unknown ones are skipped
     * @return their cells
     */
    public synchronized Set<Integer> counterCells(Collection<Ip4Address> ues) {
        return reads.cells(ues);
    }

    /**
     * @param ues    UE addresses' 32 bits, the first n
     * @param counts cells' counts
     * @return whether the sessions of these UEs hold a counter cell and {@code counts} has every one of them
     */
    synchronized boolean countsAll(int[] ues, int n, CellCounts counts) {
        return reads.countsAll(ues, n, counts);
    }

    /**
     * Reads the backend counter cells of sessions in one request per backend, without the manager's lock: what
     * {@link #untrack(int, CellCounts)} takes as their final counts (summed over all backends, when several
     * share the sessions).
     *
     * @param ues UE addresses; unknown ones are skipped
     * @return cell to its counts
     * @throws UpfProgrammableException if a backend cannot be read
     */
    public Map<Integer, UpfCounter> readBackendCells(Collection<Ip4Address> ues) throws UpfProgrammableException {
        return CounterCellReader.of(backend.device()).readCounterCells(counterCells(ues));
    }
}
