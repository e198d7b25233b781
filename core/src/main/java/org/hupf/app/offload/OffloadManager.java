package org.hupf.app.offload;

import org.hupf.app.device.CounterCellReader;
import org.hupf.api.OffloadPolicy;
import org.hupf.api.OffloadEvent;
import org.hupf.api.OffloadMetrics;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Places UE sessions on the two targets of the hybrid UPF (thesis ch. 3): every session on the x86
 * backend, heavy hitters also on the P4 switch, whose UPF tables take traffic off the steering path.
 *
 * <p>A heavy-hitter report promotes a session (within the switch's table sizes, evicting the coldest
 * offloaded session when a hotter one needs room, with rate hysteresis and a least residence time);
 * {@link #poll} measures every session's rate from counters summed over both targets and demotes an
 * offloaded session that stayed below the threshold for the hold time. Pins override both. Writes are
 * ordered make-before-break: on promotion the switch learns what a session hit leads to before the
 * session entries themselves; on demotion the session entries go first, so packets fall back to
 * steering, and the backend, which never lost the session, takes them.
 */
public final class OffloadManager {

    private static final Logger log = LoggerFactory.getLogger(OffloadManager.class);
    private static final long RATE_WINDOW_MILLIS = 10_000;
    /** Switch tables whose size bounds how many sessions it holds. */
    private static final UpfEntityType[] SWITCH_TABLES = {
        UpfEntityType.SESSION_UPLINK, UpfEntityType.SESSION_DOWNLINK, UpfEntityType.TERMINATION_UPLINK,
        UpfEntityType.TERMINATION_DOWNLINK, UpfEntityType.TUNNEL_PEER,
    };

    /** Per-session state. Hardware counters are kept per backend counter index: {ip, ib, ep, eb}. */
    static final class Entry {
        OffloadSession session;
        int[] counters;
        OffloadPolicy.Pin pin;
        SwitchCells cells;
        List<UpfEntity> switchEntities;
        long offloadedAt;
        Long coldSince;
        Long reportedAt;
        double rateBps;
        long lastBytes;
        long lastPollMillis = -1;
        SessionUsage lastUsage = new SessionUsage(0, 0, 0, 0, 0);
        final Map<Integer, long[]> hwAccum = new HashMap<>();
        final Map<Integer, long[]> hwLast = new HashMap<>();
        /** Switch reads under the lock (hwReads) when hwLast was last read from the switch. */
        long hwReadAt;
        /** Untracked: a poll that noted it leaves it alone. */
        boolean gone;
        /** When last tracked, in the poll's count of tracks: a poll that started before leaves it to the next. */
        long trackedAt;
        /** Not among the poll's active sessions: its usage is lastUsage as of the last poll, its rate 0. */
        boolean quiet;

        boolean offloaded() {
            return cells != null;
        }
    }

    private final DeviceTable backend;
    private final DeviceTable hardware;
    private final OffloadPolicy policy;
    private final LongSupplier clock;
    private final Map<UpfEntityType, Long> sizes = new EnumMap<>(UpfEntityType.class);
    private final SwitchCells.Pools pools;
    private final Map<Ip4Address, Entry> entries = new HashMap<>();
    /** Backend counter index to the session that holds it: a cell's switch counts without a scan. */
    private final Map<Integer, Entry> byCounter = new HashMap<>();
    private final List<Consumer<OffloadEvent>> listeners = new CopyOnWriteArrayList<>();
    private final Deque<Long> recentReports = new ArrayDeque<>();
    // hh reports, promotions, demotions, evictions, rejections, errors, unconfirmed, failed counter polls
    private final long[] events = new long[8];
    /** Switch counter reads under the lock so far: a poll's unlocked read is stale for an entry read since. */
    private long hwReads;
    private final OffloadPoll poller;
    private long retiredHwBytes;
    private long retiredSwBytes;
    /** Where switch counts folded so far outlive this manager (a new leader's manager starts from them). */
    private OffloadStore store = OffloadStore.NONE;

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
        this.poller = new OffloadPoll(this, backend, hardware, clock, warnings);
        this.backend = new DeviceTable(backend);
        this.hardware = hardware == null ? null : new DeviceTable(hardware);
        this.policy = policy;
        this.clock = clock;
        if (hardware != null) {
            for (UpfEntityType t : SWITCH_TABLES) {
                sizes.put(t, hardware.tableSize(t));
            }
            for (UpfEntityType t : List.of(UpfEntityType.COUNTER, UpfEntityType.SESSION_METER,
                                           UpfEntityType.APPLICATION_METER)) {
                sizes.put(t, hardware.tableSize(t));
            }
            pools = new SwitchCells.Pools(intSize(UpfEntityType.COUNTER), intSize(UpfEntityType.SESSION_METER),
                                          intSize(UpfEntityType.APPLICATION_METER));
        } else {
            pools = null;
        }
    }

    private int intSize(UpfEntityType t) {
        return (int) Math.min(Integer.MAX_VALUE, sizes.get(t));
    }

    /**
     * Keeps each offloaded session's switch counts in a store, and starts a session this manager does not
     * know yet from its record there (a session another manager, e.g. the previous leader's, offloaded).
     * Set before the first session is tracked.
     *
     * @param offloadStore the store
     */
    synchronized void useStore(OffloadStore offloadStore) {
        this.store = offloadStore;
    }

    /**
     * Registers a listener for offload events (called under the manager's lock: keep it short).
     *
     * @param listener listener
     */
    public void addListener(Consumer<OffloadEvent> listener) {
        listeners.add(listener);
    }

    /**
     * Installs a new session or changes an existing one, on the backend and, if offloaded, on the switch.
     *
     * @param session the session as translated
     * @throws UpfProgrammableException if the backend rejects it (the previous state is kept)
     */
    public synchronized void put(OffloadSession session) throws UpfProgrammableException {
        Entry e = entries.get(session.ueAddress());
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
        Entry e = entries.computeIfAbsent(session.ueAddress(), this::restored);
        e.session = session;
        if (e.counters != null) {
            for (int c : e.counters) {
                byCounter.remove(c, e);
            }
        }
        e.counters = counterIds(session.entities());
        for (int c : e.counters) {
            byCounter.put(c, e);
        }
        poller.tracked(e);
        e.pin = policy.pinOf(session.ueAddress(), session.sliceId(), session.qfis());
        if (e.offloaded()) {
            if (e.pin == OffloadPolicy.Pin.SOFTWARE || !updateOnSwitch(e)) {
                demote(e, now, OffloadEvent.Kind.DEMOTED);
            }
        } else if (e.pin == OffloadPolicy.Pin.HARDWARE) {
            promote(e, now, Double.POSITIVE_INFINITY);
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
        Entry e = entries.get(ue);
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
        return untrack(ue, Map.of());
    }

    /**
     * Forgets a session whose backend counter cells were read already (once for every session a device
     * write removed, instead of one read per session).
     *
     * @param ue UE address
     * @param backendCells final counts of backend cells; a cell of the session missing here is read now
     * @return the session's final usage over both targets
     * @throws UpfProgrammableException if there is no such session or its counters cannot be read
     */
    public synchronized SessionUsage untrack(Ip4Address ue, Map<Integer, UpfCounter> backendCells)
            throws UpfProgrammableException {
        Entry e = entries.get(ue);
        if (e == null) {
            throw new UpfProgrammableException("no session for UE " + ue);
        }
        if (e.offloaded()) {
            demote(e, clock.getAsLong(), null);
        }
        SessionUsage usage = readUsage(e, backendCells);
        entries.remove(ue);
        poller.untracked(e);
        store.remove(ue);
        for (int c : e.counters) {
            byCounter.remove(c, e);
        }
        e.gone = true;
        retiredHwBytes += usage.hwBytes();
        retiredSwBytes += usage.swBytes();
        return usage;
    }

    /**
     * Takes a session off the switch now, so that its packets take the backend while it is being changed.
     *
     * @param ue UE address
     * @return true if it was offloaded
     */
    public synchronized boolean fallBack(Ip4Address ue) {
        Entry e = entries.get(ue);
        if (e == null || !e.offloaded()) {
            return false;
        }
        demote(e, clock.getAsLong(), OffloadEvent.Kind.DEMOTED);
        return true;
    }

    /**
     * Returns what the switch counted for one backend counter cell, over all offload episodes.
     *
     * @param backendCell counter index as the backend knows it
     * @return ingress/egress packets and bytes carried by the switch; zeros if never offloaded
     */
    public synchronized long[] hardwareCounts(int backendCell) {
        long[] sum = new long[4];
        Entry e = byCounter.get(backendCell);
        if (e != null) {
            if (e.offloaded() && e.cells.counterMap().containsKey(backendCell)) {
                try {
                    foldHardwareCounters(e);
                } catch (UpfProgrammableException ex) {
                    events[5]++;
                    log.warn("Cannot read switch counters of UE {}: {}", e.session.ueAddress(), ex.getMessage());
                }
            }
            long[] acc = e.hwAccum.get(backendCell);
            if (acc != null) {
                for (int i = 0; i < 4; i++) {
                    sum[i] += acc[i];
                }
            }
        }
        return sum;
    }

    /**
     * Handles a heavy-hitter report from the switch (one per episode).
     *
     * @param ue the reported flow key, a UE address
     */
    public synchronized void onHeavyHitter(Ip4Address ue) {
        long now = clock.getAsLong();
        events[0]++;
        recentReports.addLast(now);
        emit(OffloadEvent.Kind.HH_REPORT, ue, now);
        Entry e = entries.get(ue);
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
            promote(e, now, Math.max(e.rateBps, policy.thresholdBitsPerSec()));
        } else {
            e.reportedAt = now;
        }
    }

    /**
     * Reads every session's counters from both targets, updates rates and demotes sessions that stayed
     * cold for the hold time. Pinned-to-hardware sessions that did not fit earlier are retried.
     *
     * <p>The backend's counters are read as the cells changed since the last poll (one read; a device without
     * that read is read in full and compared), the switch's as the cells of the offloaded sessions, without the
     * manager's lock; the poll then applies, under it in batches, the sessions with a changed cell and those
     * whose state needs a poll even without one (a rate above 0, offloaded, pinned, reported, new or changed):
     * an idle session costs nothing. A session changed meanwhile keeps its usage and is measured by the next
     * poll. A poll called while another is under way returns at once.
     */
    public void poll() {
        poller.poll();
    }

    /** @return how long the last complete {@link #poll} took, in milliseconds; -1 before the first */
    public long pollDurationMillis() {
        return poller.durationMillis();
    }

    /** Decides where a session goes after a poll applied its usage and rate (the poll holds the lock). */
    void decide(Entry e, long now) {
        if (e.reportedAt != null && !e.offloaded()) {
            if (e.rateBps >= policy.thresholdBitsPerSec()) {
                e.reportedAt = null;
                promote(e, now, e.rateBps);
                return;
            }
            if (now - e.reportedAt > policy.holdMillis()) {
                e.reportedAt = null;
                events[6]++;
            }
        }
        if (e.offloaded() && e.pin != OffloadPolicy.Pin.HARDWARE) {
            if (e.rateBps >= policy.thresholdBitsPerSec()) {
                e.coldSince = null;
            } else if (e.coldSince == null) {
                e.coldSince = now;
            } else if (now - e.coldSince >= policy.holdMillis()) {
                demote(e, now, OffloadEvent.Kind.DEMOTED);
            }
        } else if (!e.offloaded() && e.pin == OffloadPolicy.Pin.HARDWARE) {
            promote(e, now, Double.POSITIVE_INFINITY);
        }
    }

    /**
     * Returns a session's usage summed over both targets, read now.
     *
     * @param ue UE address
     * @return usage
     * @throws UpfProgrammableException if there is no such session or a counter read fails
     */
    public synchronized SessionUsage usage(Ip4Address ue) throws UpfProgrammableException {
        Entry e = entries.get(ue);
        if (e == null) {
            throw new UpfProgrammableException("no session for UE " + ue);
        }
        return readUsage(e, Map.of());
    }

    /**
     * Tells whether the manager knows a session.
     *
     * @param ue UE address
     * @return true if tracked
     */
    public synchronized boolean isTracked(Ip4Address ue) {
        return entries.containsKey(ue);
    }

    /**
     * Tells whether a session is currently installed on the switch.
     *
     * @param ue UE address
     * @return true if offloaded
     */
    public synchronized boolean isOffloaded(Ip4Address ue) {
        Entry e = entries.get(ue);
        return e != null && e.offloaded();
    }

    /**
     * Returns the UEs whose sessions are on the switch.
     *
     * @return UE addresses, sorted
     */
    public synchronized Set<Ip4Address> offloaded() {
        Set<Ip4Address> s = new TreeSet<>();
        entries.forEach((ue, e) -> {
            if (e.offloaded()) {
                s.add(ue);
            }
        });
        return s;
    }

    /**
     * Returns every session's usage as of the last {@link #poll}, summed over both targets.
     *
     * @return UE address to usage, sorted by address
     */
    public synchronized Map<Ip4Address, SessionUsage> lastUsages() {
        Map<Ip4Address, SessionUsage> m = new TreeMap<>();
        entries.forEach((ue, e) -> m.put(ue, e.lastUsage));
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
        for (Entry e : poller.counted()) {
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
        Entry e = entries.get(ue);
        return e == null ? 0 : e.rateBps;
    }

    /**
     * Returns the metrics; byte totals are as of the last {@link #poll}.
     *
     * @return metrics snapshot
     */
    public synchronized OffloadMetrics metrics() {
        long now = clock.getAsLong();
        while (!recentReports.isEmpty() && recentReports.peekFirst() <= now - RATE_WINDOW_MILLIS) {
            recentReports.removeFirst();
        }
        Map<UpfEntityType, long[]> occ = new EnumMap<>(UpfEntityType.class);
        if (hardware != null) {
            for (UpfEntityType t : SWITCH_TABLES) {
                occ.put(t, new long[]{hardware.occupancy(t), sizes.get(t)});
            }
            occ.put(UpfEntityType.COUNTER, new long[]{sizes.get(UpfEntityType.COUNTER) - pools.counters.free(),
                                                      sizes.get(UpfEntityType.COUNTER)});
        }
        long hw = retiredHwBytes;
        long sw = retiredSwBytes;
        int offloaded = 0;
        for (Entry e : poller.counted()) {   // the others counted nothing and are not on the switch
            hw += e.lastUsage.hwBytes();
            sw += e.lastUsage.swBytes();
            offloaded += e.offloaded() ? 1 : 0;
        }
        return new OffloadMetrics(entries.size(), offloaded, events,
                                  recentReports.size() * 1000.0 / RATE_WINDOW_MILLIS, occ, hw, sw);
    }

    /** @return the session holding a backend cell, or null (under the lock) */
    Entry holderOf(int backendCell) {
        return byCounter.get(backendCell);
    }

    /** @return switch counter reads under the lock so far (under the lock) */
    long hwReads() {
        return hwReads;
    }

    /** Counts a failed counter poll (under the lock). */
    void pollFailed() {
        events[7]++;
    }

    private void promote(Entry e, long now, double candidateRate) {
        if (hardware == null) {
            return;
        }
        SwitchCells cells = new SwitchCells(pools);
        while (!fitsOnSwitch(e.session.entities(), cells)) {
            Entry victim = coldestEvictable(now, candidateRate);
            if (victim == null) {
                reject(e, now, "switch full");
                return;
            }
            demote(victim, now, OffloadEvent.Kind.EVICTED);
        }
        List<UpfEntity> mapped = cells.remap(e.session.entities());
        try {
            baseline(e, cells.counterMap());
            hardware.acquire(mapped);
        } catch (UpfProgrammableException ex) {
            cells.releaseAll();
            reject(e, now, ex.getMessage());
            return;
        }
        e.cells = cells;
        e.switchEntities = mapped;
        poller.wake(e);
        poller.counts(e);
        e.offloadedAt = now;
        e.coldSince = null;
        e.reportedAt = null;
        persist(e);
        events[1]++;
        emit(OffloadEvent.Kind.PROMOTED, e.session.ueAddress(), now);
    }

    /** Rewrites an offloaded session after a change; false if it no longer fits or a write failed. */
    private boolean updateOnSwitch(Entry e) {
        if (!fitsOnSwitch(e.session.entities(), e.cells)) {
            // The old entries still count against capacity; demote and let the next report retry.
            return false;
        }
        List<UpfEntity> mapped = e.cells.remap(e.session.entities());
        try {
            baseline(e, e.cells.counterMap());
            hardware.acquire(mapped);
            hardware.release(e.switchEntities);
        } catch (UpfProgrammableException ex) {
            events[5]++;
            log.warn("Cannot update UE {} on the switch: {}", e.session.ueAddress(), ex.getMessage());
            return false;
        }
        e.switchEntities = mapped;
        e.cells.retainOnly(e.session.entities());
        persist(e);
        return true;
    }

    /** Removes a session from the switch; kind null means the session itself is going away. */
    private void demote(Entry e, long now, OffloadEvent.Kind kind) {
        try {
            hardware.release(e.switchEntities);
        } catch (UpfProgrammableException ex) {
            events[5]++;
            log.warn("Cannot remove UE {} from the switch: {}", e.session.ueAddress(), ex.getMessage());
        }
        try {
            foldHardwareCounters(e);
        } catch (UpfProgrammableException ex) {
            events[5]++;
            log.warn("Lost the last switch counts of UE {}: {}", e.session.ueAddress(), ex.getMessage());
        }
        e.cells.releaseAll();
        e.cells = null;
        e.switchEntities = null;
        e.hwLast.clear();
        e.coldSince = null;
        persist(e);
        if (kind != null) {
            events[kind == OffloadEvent.Kind.EVICTED ? 3 : 2]++;
            emit(kind, e.session.ueAddress(), now);
        }
    }

    private void reject(Entry e, long now, String why) {
        events[4]++;
        log.info("Not offloading UE {}: {}", e.session.ueAddress(), why);
        emit(OffloadEvent.Kind.REJECTED, e.session.ueAddress(), now);
    }

    private boolean fitsOnSwitch(List<UpfEntity> entities, SwitchCells cells) {
        if (!cells.fits(entities)) {
            return false;
        }
        Map<UpfEntityType, Integer> extra = hardware.newEntries(entities);
        for (UpfEntityType t : SWITCH_TABLES) {
            if (hardware.occupancy(t) + extra.getOrDefault(t, 0) > sizes.get(t)) {
                return false;
            }
        }
        return true;
    }

    private Entry coldestEvictable(long now, double candidateRate) {
        Entry coldest = null;
        for (Entry o : entries.values()) {
            if (!o.offloaded() || o.pin == OffloadPolicy.Pin.HARDWARE) {
                continue;
            }
            boolean settled = now - o.offloadedAt >= policy.holdMillis();
            boolean colder = o.rateBps * (1 + policy.hysteresis()) < candidateRate;
            if ((settled || candidateRate == Double.POSITIVE_INFINITY) && colder
                    && (coldest == null || o.rateBps < coldest.rateBps)) {
                coldest = o;
            }
        }
        return coldest;
    }

    /** Records the current value of newly mapped switch counter cells, which may hold an earlier user's counts. */
    private void baseline(Entry e, Map<Integer, Integer> counterMap) throws UpfProgrammableException {
        e.hwReadAt = ++hwReads;
        for (Map.Entry<Integer, Integer> c : counterMap.entrySet()) {
            if (!e.hwLast.containsKey(c.getKey())) {
                e.hwLast.put(c.getKey(), values(hardware.device().readCounter(c.getValue())));
            }
        }
    }

    private void foldHardwareCounters(Entry e) throws UpfProgrammableException {
        e.hwReadAt = ++hwReads;
        for (Map.Entry<Integer, Integer> c : e.cells.counterMap().entrySet()) {
            accumulate(e, c.getKey(), values(hardware.device().readCounter(c.getValue())));
        }
        persist(e);
    }

    /** A new entry, with the switch counts a previous manager folded for the UE. */
    private Entry restored(Ip4Address ue) {
        Entry e = new Entry();
        OffloadRecord r = store.get(ue);
        if (r != null) {
            e.hwAccum.putAll(r.hwAccum());
        }
        return e;
    }

    /** Stores what the switch counted for a session (and where it counts now) for whoever manages next. */
    void persist(Entry e) {
        if (store != OffloadStore.NONE) {
            store.put(e.session.ueAddress(), new OffloadRecord(
                    e.hwAccum, e.offloaded() ? e.cells.counterMap() : Map.of(), e.offloaded() ? e.hwLast : Map.of()));
        }
    }

    /** Adds what a switch cell counted since it was last read to the session's hardware totals. */
    static void accumulate(Entry e, int backendCell, long[] now) {
        long[] last = e.hwLast.get(backendCell);
        long[] acc = e.hwAccum.computeIfAbsent(backendCell, k -> new long[4]);
        for (int i = 0; i < 4; i++) {
            acc[i] += Math.max(0, now[i] - last[i]);
        }
        e.hwLast.put(backendCell, now);
    }

    private SessionUsage readUsage(Entry e, Map<Integer, UpfCounter> backendCells)
            throws UpfProgrammableException {
        if (e.offloaded()) {
            foldHardwareCounters(e);
        }
        long[] total = new long[4];
        for (int ctr : e.counters) {
            UpfCounter c = backendCells.get(ctr);
            add(total, values(c != null ? c : backend.device().readCounter(ctr)));
        }
        return withHardware(e, total);
    }

    /**
     * Returns the backend counter cells of sessions, to read them together.
     *
     * @param ues UE addresses; unknown ones are skipped
     * @return their cells
     */
    public synchronized Set<Integer> counterCells(Collection<Ip4Address> ues) {
        Set<Integer> cells = new HashSet<>();
        for (Ip4Address ue : ues) {
            Entry e = entries.get(ue);
            if (e != null) {
                for (int c : e.counters) {
                    cells.add(c);
                }
            }
        }
        return cells;
    }

    /**
     * Reads the backend counter cells of sessions in one request per backend, without the manager's lock: what
     * {@link #untrack(Ip4Address, Map)} takes as their final counts (summed over all backends, when several
     * share the sessions).
     *
     * @param ues UE addresses; unknown ones are skipped
     * @return cell to its counts
     * @throws UpfProgrammableException if a backend cannot be read
     */
    public Map<Integer, UpfCounter> readBackendCells(Collection<Ip4Address> ues) throws UpfProgrammableException {
        return CounterCellReader.of(backend.device()).readCounterCells(counterCells(ues));
    }

    private static void add(long[] total, long[] v) {
        for (int i = 0; i < 4; i++) {
            total[i] += v[i];
        }
    }

    /** The usage of a session from its backend totals and what the switch counted for it. */
    static SessionUsage withHardware(Entry e, long[] total) {
        long hwBytes = 0;
        for (long[] acc : e.hwAccum.values()) {
            for (int i = 0; i < 4; i++) {
                total[i] += acc[i];
            }
            hwBytes += acc[1];
        }
        return new SessionUsage(total[0], total[1], total[2], total[3], hwBytes);
    }

    private static int[] counterIds(List<UpfEntity> entities) {
        Set<Integer> ids = new TreeSet<>();
        for (UpfEntity x : entities) {
            if (x instanceof UpfTerminationUplink) {
                ids.add(((UpfTerminationUplink) x).counterId());
            } else if (x instanceof UpfTerminationDownlink) {
                ids.add(((UpfTerminationDownlink) x).counterId());
            }
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    static long[] values(UpfCounter c) {
        return new long[]{c.ingressPkts(), c.ingressBytes(), c.egressPkts(), c.egressBytes()};
    }

    private void emit(OffloadEvent.Kind kind, Ip4Address ue, long now) {
        OffloadEvent ev = new OffloadEvent(kind, ue, now);
        for (Consumer<OffloadEvent> l : listeners) {
            l.accept(ev);
        }
    }
}
