package org.hupf.api;

import java.util.Objects;

/**
 * What an operator needs to know about one data-plane target hupf programs: is it connected, does it
 * run hupf's pipeline, how many entries it holds, and the last thing that went wrong.
 */
public final class DeviceStatus {

    /** Connection state of a target. */
    public enum State {
        /** Connected, pipeline in place, entries match the store as far as hupf knows. */
        UP,
        /** Not reachable: nothing can be programmed until it is back. */
        DOWN,
        /** Back, and being brought in line with the session store. */
        RECONCILING
    }

    private final String id;
    private final State state;
    private final boolean pipelinePushed;
    private final long entries;
    private final String lastError;

    /**
     * Creates a status.
     *
     * @param id             the target's identity in its host (ONOS device id, address, name)
     * @param state          connection state
     * @param pipelinePushed whether the target runs hupf's pipeline
     * @param entries        UPF entries (table entries, counters excluded) hupf holds on it; -1 if unknown
     * @param lastError      the last error talking to it, or null
     */
    public DeviceStatus(String id, State state, boolean pipelinePushed, long entries, String lastError) {
        this.id = Objects.requireNonNull(id, "id");
        this.state = Objects.requireNonNull(state, "state");
        this.pipelinePushed = pipelinePushed;
        this.entries = entries;
        this.lastError = lastError;
    }

    /** @return the target's identity */
    public String id() {
        return id;
    }

    /** @return connection state */
    public State state() {
        return state;
    }

    /** @return whether the target runs hupf's pipeline */
    public boolean pipelinePushed() {
        return pipelinePushed;
    }

    /** @return UPF entries on the target, -1 if unknown */
    public long entries() {
        return entries;
    }

    /** @return the last error, or null */
    public String lastError() {
        return lastError;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DeviceStatus)) {
            return false;
        }
        DeviceStatus d = (DeviceStatus) o;
        return id.equals(d.id) && state == d.state && pipelinePushed == d.pipelinePushed && entries == d.entries
                && Objects.equals(lastError, d.lastError);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, state, pipelinePushed, entries, lastError);
    }

    @Override
    public String toString() {
        return id + " " + state.name().toLowerCase() + " pipeline=" + (pipelinePushed ? "pushed" : "none")
                + " entries=" + entries + (lastError == null ? "" : " lastError=" + lastError);
    }
}
