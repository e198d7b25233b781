package org.hupf.app.offload;

import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * When each offload manager's counter poll runs. Inside ONOS a poll reads the backend's cells in use through ONOS's
 * P4Runtime client and PI objects, which costs CPU in proportion to the sessions: a poll runs again once the
 * timer fires and a pause of {@value #GAP_FACTOR} times its last duration has passed, so that polling takes at
 * most 1/{@value #GAP_FACTOR}+1 of a thread and its period grows with the session count, never below the timer's.
 * A poll whose reads failed (a backend down or starved) is tried again after a pause that doubles with each
 * failure in a row, from {@value #BACKOFF_FIRST_MS} ms up to {@value #BACKOFF_MAX_MS} ms, and is paced as
 * before once one succeeds. Used by the one timer thread.
 */
final class PollPacing {

    /** A poll's pause is at least this many times its last duration. */
    static final int GAP_FACTOR = 9;
    /** The pause after a first failed poll, ms: the poll's timer period. */
    static final long BACKOFF_FIRST_MS = 1_000;
    /** The longest pause after failed polls, ms: a backend back is polled again within it. */
    static final long BACKOFF_MAX_MS = 32_000;

    /** The earliest start of each manager's next poll, ms. */
    private final Map<Object, Long> nextAt = new IdentityHashMap<>();
    /** Each failing manager's failed polls in a row. */
    private final Map<Object, Integer> failures = new IdentityHashMap<>();

    /**
     * @param poller a manager
     * @param now    the time, ms
     * @return whether its poll is due
     */
    boolean due(Object poller, long now) {
        Long at = nextAt.get(poller);
        return at == null || now >= at;
    }

    /**
     * @param poller a manager
     * @return its failed polls in a row (0: its last poll succeeded)
     */
    int failures(Object poller) {
        return failures.getOrDefault(poller, 0);
    }

    /**
     * Takes a poll's timing and outcome.
     *
     * @param poller     the manager that polled
     * @param endedAt    when the poll ended, ms
     * @param durationMs how long its last complete poll took
     * @param read       whether its counter reads succeeded
     * @return the manager's failed polls in a row, this one included (0: it succeeded)
     */
    int polled(Object poller, long endedAt, long durationMs, boolean read) {
        long pause = GAP_FACTOR * Math.max(0, durationMs);
        int inRow = read ? 0 : failures.getOrDefault(poller, 0) + 1;
        if (inRow == 0) {
            failures.remove(poller);
        } else {
            failures.put(poller, inRow);
            pause = Math.max(pause, backoff(inRow));
        }
        nextAt.put(poller, endedAt + pause);
        return inRow;
    }

    /** @return the pause after this many failed polls in a row, ms */
    static long backoff(int inRow) {
        // Shifted at most 16 times: past the maximum already, and never overflowing.
        return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS << Math.min(inRow - 1, 16));
    }

    /**
     * Forgets the managers that are gone.
     *
     * @param current the managers in use
     */
    void retain(Collection<?> current) {
        nextAt.keySet().removeIf(p -> current.stream().noneMatch(c -> c == p));
        failures.keySet().removeIf(p -> current.stream().noneMatch(c -> c == p));
    }
}
