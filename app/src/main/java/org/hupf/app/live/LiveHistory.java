package org.hupf.app.live;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayDeque;
import java.util.Deque;

/** The last samples, oldest first, bounded: what the live view's charts start from when opened. */
final class LiveHistory {

    private final int capacity;
    private final Deque<LiveSample> samples = new ArrayDeque<>();

    /**
     * @param capacity samples kept (the oldest go first)
     */
    LiveHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a history keeps at least one sample: " + capacity);
        }
        this.capacity = capacity;
    }

    synchronized void add(LiveSample s) {
        if (samples.size() == capacity) {
            samples.removeFirst();
        }
        samples.addLast(s);
    }

    /**
     * Renders the samples taken after a time into {@code samples}, oldest first.
     *
     * @param root    the answer's object
     * @param afterMs only samples strictly later than this (0: all)
     */
    synchronized void since(ObjectNode root, long afterMs) {
        ArrayNode out = root.putArray("samples");
        for (LiveSample s : samples) {
            if (s.timeMs > afterMs) {
                s.into(out.addObject());
            }
        }
    }
}
