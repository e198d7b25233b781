package org.hupf.api;

import org.onlab.packet.Ip4Address;

/**
 * Something the offload manager did or was told, for logs and the lab's live view.
 */
public final class OffloadEvent {

    /** Kinds of event. */
    public enum Kind {
        /** The switch reported a heavy hitter. */
        HH_REPORT,
        /** A session was installed on the switch. */
        PROMOTED,
        /** A session stayed cold for the hold time and was removed from the switch. */
        DEMOTED,
        /** A session was removed from the switch to make room for a hotter one. */
        EVICTED,
        /** A session could not be offloaded: the switch is full of hotter or pinned sessions, or a write failed. */
        REJECTED
    }

    private final Kind kind;
    private final Ip4Address ue;
    private final long timeMillis;

    public OffloadEvent(Kind kind, Ip4Address ue, long timeMillis) {
        this.kind = kind;
        this.ue = ue;
        this.timeMillis = timeMillis;
    }

    public Kind kind() {
        return kind;
    }

    public Ip4Address ue() {
        return ue;
    }

    public long timeMillis() {
        return timeMillis;
    }

    @Override
    public String toString() {
        return timeMillis + " " + kind + " " + ue;
    }
}
