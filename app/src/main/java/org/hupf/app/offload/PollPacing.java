package org.hupf.app.offload;

import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * When each offload manager's counter poll runs. Inside ONOS a poll reads the backend's cells in use through ONOS's
 * P4Runtime client and PI objects, which costs CPU in proportion to the sessions: a poll runs again once the
 * timer fires and a pause of {@value #GAP_FACTOR} times its last duration has passed, so that polling takes at
 * most 1/{@value #GAP_FACTOR}+1 of a thread and its period grows with the session count, never below the timer's.
 * Used by the one timer thread.
 */
final class PollPacing {

    /** A poll's pause is at least this many times its last duration. */
    static final int GAP_FACTOR = 9;

    /** The earliest start of each manager's next poll, ms. */
    private final Map<Object, Long> nextAt = new IdentityHashMap<>();

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
     * Takes a poll's timing.
     *
     * @param poller     the manager that polled
     * @param endedAt    when the poll ended, ms
     * @param durationMs how long it took
     */
    void polled(Object poller, long endedAt, long durationMs) {
        nextAt.put(poller, endedAt + GAP_FACTOR * Math.max(0, durationMs));
    }

    /**
     * Forgets the managers that are gone.
     *
     * @param current the managers in use
     */
    void retain(Collection<?> current) {
        nextAt.keySet().removeIf(p -> current.stream().noneMatch(c -> c == p));
    }
}
