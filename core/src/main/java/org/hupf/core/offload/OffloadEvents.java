package org.hupf.core.offload;

import org.hupf.api.OffloadEvent;
import org.onlab.packet.Ip4Address;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What the {@link OffloadManager} did, as {@link org.hupf.api.OffloadMetrics} counts it, told to its listeners,
 * and the rate of recent heavy-hitter reports. Called under the manager's lock.
 */
final class OffloadEvents {

    private static final long RATE_WINDOW_MILLIS = 10_000;
    private static final int ERRORS = 5;
    private static final int UNCONFIRMED = 6;
    private static final int FAILED_POLLS = 7;

    /** By {@link OffloadEvent.Kind}'s order (HH reports, promotions, demotions, evictions, rejections), then
     *  switch write or read errors, reports not confirmed by a rate within the hold time, failed counter polls. */
    private final long[] counts = new long[8];
    private final List<Consumer<OffloadEvent>> listeners = new CopyOnWriteArrayList<>();
    private final Deque<Long> recentReports = new ArrayDeque<>();

    void addListener(Consumer<OffloadEvent> listener) {
        listeners.add(listener);
    }

    /** Counts an event and tells the listeners. */
    void emit(OffloadEvent.Kind kind, Ip4Address ue, long now) {
        counts[kind.ordinal()]++;
        if (kind == OffloadEvent.Kind.HH_REPORT) {
            recentReports.addLast(now);
        }
        OffloadEvent ev = new OffloadEvent(kind, ue, now);
        for (Consumer<OffloadEvent> l : listeners) {
            l.accept(ev);
        }
    }

    /** Counts a failed switch write or counter read. */
    void switchError() {
        counts[ERRORS]++;
    }

    /** Counts a report whose session's rate did not confirm it within the hold time. */
    void unconfirmed() {
        counts[UNCONFIRMED]++;
    }

    /** Counts a counter poll that failed. */
    void pollFailed() {
        counts[FAILED_POLLS]++;
    }

    /** @return the counts, in {@link org.hupf.api.OffloadMetrics}' order */
    long[] counts() {
        return counts;
    }

    /** @return heavy-hitter reports per second over the last ten seconds */
    double reportsPerSec(long now) {
        while (!recentReports.isEmpty() && recentReports.peekFirst() <= now - RATE_WINDOW_MILLIS) {
            recentReports.removeFirst();
        }
        return recentReports.size() * 1000.0 / RATE_WINDOW_MILLIS;
    }
}
