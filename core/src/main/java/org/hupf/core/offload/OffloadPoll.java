package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import org.onlab.packet.Ip4Address;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The {@link OffloadManager}'s counter poll (issue #32). The backend's counters are read as the cells changed
 * since the last poll (one read; a device without that read is read in full and compared), the switch's as the
 * cells of the offloaded sessions, both without the manager's lock; the poll then applies, under it in
 * batches, the sessions with a changed cell and the active ones, whose state needs a poll even without one (a
 * rate above 0, offloaded, pinned, reported, new or changed). A quiet session costs a poll nothing: with a
 * million idle sessions a poll is a scan on the backend and an empty answer.
 *
 * <p>It also keeps the sessions that ever counted traffic or went to the switch ({@link #counted}): what a status
 * shows and sums, the others being all zero. After each poll it tells its listeners the UEs whose usage
 * changed (the PFCP agent checks their volume thresholds, nothing else).
 *
 * <p>What the manager's methods call ({@link #tracked}, {@link #wake}, {@link #untracked}, {@link #counts}) and
 * the active and counted sets are under the manager's lock; the read state is touched only by the poll holding
 * {@link #polling}.
 */
final class OffloadPoll {

    /** A failing counter read is logged at most once per this period. */
    private static final long READ_FAILURE_LOG_MILLIS = 60_000;
    /** Entries a poll applies per hold of the manager's lock, so that the PFCP path gets it in between. */
    private static final int APPLY_BATCH = 4_096;

    private final OffloadManager manager;
    private final SwitchCounts counts;
    private final HupfUpfDevice backend;
    private final HupfUpfDevice hardware;
    private final LongSupplier clock;
    private final AtomicBoolean polling = new AtomicBoolean();
    /** Wall-clock duration of the last complete poll, for the lab status and benchmarks. */
    private volatile long durationMillis = -1;
    private final RateLimitedWarning readFailures;
    private final BackendCounters backendCounters = new BackendCounters();
    private final Set<OffloadEntry> active = new HashSet<>();
    private final Set<OffloadEntry> counted = new LinkedHashSet<>();
    private final List<Consumer<Collection<Ip4Address>>> usageListeners = new CopyOnWriteArrayList<>();
    private long tracks;
    /** Highest backend cell ever tracked: what a device without a changed-cells read is read up to. */
    private int maxCell = -1;
    /** When the last poll that read the backend started. */
    private long lastPollAt;

    OffloadPoll(OffloadManager manager, SwitchCounts counts, HupfUpfDevice backend, HupfUpfDevice hardware,
                LongSupplier clock, Consumer<String> warnings) {
        this.manager = manager;
        this.counts = counts;
        this.backend = backend;
        this.hardware = hardware;
        this.clock = clock;
        this.readFailures = new RateLimitedWarning(clock, READ_FAILURE_LOG_MILLIS, warnings);
    }

    /** A session new or changed: measured by the next poll that starts after. */
    void tracked(OffloadEntry e) {
        for (int c : e.counters) {
            maxCell = Math.max(maxCell, c);
        }
        e.trackedAt = ++tracks;
        wake(e);
    }

    void untracked(OffloadEntry e) {
        active.remove(e);
        counted.remove(e);
    }

    /** A session that counted traffic or went to the switch: one a status shows. */
    void counts(OffloadEntry e) {
        counted.add(e);
    }

    /** @return the sessions that counted traffic or went to the switch, in that order (under the manager's lock) */
    Collection<OffloadEntry> counted() {
        return counted;
    }

    void addUsageListener(Consumer<Collection<Ip4Address>> listener) {
        usageListeners.add(listener);
    }

    /** Makes a session active; a quiet one's usage was lastUsage when the last poll read the backend. */
    void wake(OffloadEntry e) {
        if (e.quiet) {
            e.quiet = false;
            e.lastPollMillis = lastPollAt;
        }
        active.add(e);
    }

    /**
     * Polls, unless a poll is under way: then it returns at once.
     *
     * @return false if a counter read failed (true when another poll was under way)
     */
    boolean poll() {
        if (!polling.compareAndSet(false, true)) {
            return true;
        }
        try {
            long start = System.nanoTime();
            // A poll whose reads failed timed out on a device, most often: no measure of what a poll costs.
            boolean read = pollOnce();
            if (read) {
                durationMillis = (System.nanoTime() - start) / 1_000_000;
            }
            return read;
        } finally {
            polling.set(false);
        }
    }

    long durationMillis() {
        return durationMillis;
    }

    /** @return whether every counter read succeeded */
    private boolean pollOnce() {
        long now;
        long readsBefore;
        long tracked;
        int maxBackend;
        int maxSwitch = -1;
        synchronized (manager) {
            now = clock.getAsLong();
            readsBefore = counts.reads();
            tracked = tracks;
            maxBackend = maxCell;
            for (OffloadEntry e : active) {
                if (e.offloaded()) {
                    for (int c : e.cells.counterMap().values()) {
                        maxSwitch = Math.max(maxSwitch, c);
                    }
                }
            }
        }
        List<Integer> changed;
        try {
            changed = backendCounters.read(backend, maxBackend);
        } catch (UpfProgrammableException e) {
            failedRead(e.getMessage());
            return false;
        }
        CounterValues hw = CounterValues.read(hardware, maxSwitch);
        if (hw.failure != null) {
            failedRead(hw.failure);
        }
        List<OffloadEntry> due;
        List<Ip4Address> usageChanged = new ArrayList<>();
        synchronized (manager) {
            for (int c : changed) {
                OffloadEntry e = manager.holderOf(c);
                if (e != null) {
                    wake(e);
                }
            }
            due = new ArrayList<>(active);
            // The sessions still quiet were unchanged when this poll read: their usage is as of now.
            lastPollAt = now;
        }
        for (int from = 0; from < due.size(); from += APPLY_BATCH) {
            synchronized (manager) {
                for (OffloadEntry e : due.subList(from, Math.min(due.size(), from + APPLY_BATCH))) {
                    if (!e.gone && e.trackedAt <= tracked) {
                        SessionUsage before = e.lastUsage;
                        apply(e, hw, now, readsBefore);
                        if (!before.sameAs(e.lastUsage)) {
                            usageChanged.add(e.session.ueAddress());
                            counted.add(e);
                        }
                        settle(e);
                    }
                }
            }
        }
        if (!usageChanged.isEmpty()) {
            usageListeners.forEach(l -> l.accept(usageChanged));
        }
        return hw.failure == null;
    }

    private void failedRead(String failure) {
        readFailures.failed("Cannot read usage counters: " + failure);
        synchronized (manager) {
            manager.pollFailed();
        }
    }

    /** Makes a session quiet when nothing but a change of its cells can change its state. */
    private void settle(OffloadEntry e) {
        if (e.rateBps == 0 && !e.offloaded() && e.reportedAt == null && e.pin != OffloadPolicy.Pin.HARDWARE
                && e.lastPollMillis >= 0) {
            active.remove(e);
            e.quiet = true;
        }
    }

    /** Applies a poll's reads to a session tracked before the poll, then lets the manager decide where it goes. */
    private void apply(OffloadEntry e, CounterValues hw, long now, long readsBefore) {
        if (e.offloaded() && e.hwReadAt <= readsBefore) {
            // Still on the switch with the cells the poll read, none read since: fold the poll's switch counts.
            for (int c : e.cells.counterMap().values()) {
                if (!hw.has(c)) {
                    return;
                }
            }
            e.cells.counterMap().forEach((backendCell, switchCell) ->
                    SwitchCounts.accumulate(e, backendCell, hw.get(switchCell)));
            counts.persist(e);
        }
        long[] total = new long[4];
        for (int ctr : e.counters) {
            backendCounters.addTo(ctr, total);
        }
        SessionUsage u = SwitchCounts.withHardware(e, total);
        if (e.lastPollMillis >= 0 && now > e.lastPollMillis) {
            e.rateBps = (u.ingressBytes() - e.lastBytes) * 8000.0 / (now - e.lastPollMillis);
        }
        e.lastBytes = u.ingressBytes();
        e.lastPollMillis = now;
        e.lastUsage = u;
        manager.decide(e, now);
    }
}
