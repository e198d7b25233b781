package org.hupf.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The hybrid over the last minutes, sampled where the offload poll runs (the hupf leader), at the poll's period:
 * the live view's charts and its event stream. Both are bounded: the oldest samples and events go first.
 */
public interface LiveService {

    /**
     * Renders {@code intervalMs} and the {@code samples} taken after a time, oldest first; each holds totals
     * ({@code time}, {@code driving}, {@code switchPackets}, {@code switchBytes}, {@code backends: {id: {packets,
     * bytes}}}, {@code hhReports}, {@code promotions}, {@code demotions}, {@code offloaded}, {@code switchTables};
     * packets and bytes are what entered each path: its session entries' ingress counts).
     *
     * @param root    the answer's object
     * @param afterMs only samples later than this, ms since the epoch (0: all kept)
     */
    void history(ObjectNode root, long afterMs);

    /**
     * Renders the {@code events} after a sequence number, oldest first: each with {@code seq}, {@code time} (ms
     * since the epoch), {@code kind} (PROMOTED, DEMOTED, EVICTED, REJECTED, BACKEND_UP, BACKEND_DOWN, DRAINING,
     * DRAINED, RESTORED) and {@code subject} (the UE or the backend).
     *
     * @param root     the answer's object
     * @param afterSeq only events with a higher sequence number (0: all kept)
     */
    void events(ObjectNode root, long afterSeq);

    /**
     * Registers a listener told after each sample (on the poll's thread: hand the work to another one).
     *
     * @param listener called with nothing: read what is new through {@link #history} and {@link #events}
     */
    void addListener(Runnable listener);

    /**
     * Removes a listener.
     *
     * @param listener one given to {@link #addListener}
     */
    void removeListener(Runnable listener);
}
