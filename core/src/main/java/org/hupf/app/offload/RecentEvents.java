package org.hupf.app.offload;

import org.hupf.api.OffloadEvent;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * The last few offload events, for the GUI: a bounded window that keeps the newest (HH reports can come
 * thousands a second; the view shows what happened lately, the counters in the metrics count them all).
 */
final class RecentEvents implements Consumer<OffloadEvent> {

    private final int capacity;
    private final Deque<OffloadEvent> events = new ArrayDeque<>();

    RecentEvents(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    @Override
    public synchronized void accept(OffloadEvent e) {
        if (events.size() == capacity) {
            events.removeFirst();
        }
        events.addLast(e);
    }

    /** @return the kept events, oldest first */
    synchronized List<OffloadEvent> snapshot() {
        return List.copyOf(events);
    }
}
