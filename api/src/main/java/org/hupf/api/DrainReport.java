package org.hupf.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** What a backend's drain (its planned removal: steered away, read until quiet, then left) saw. */
public final class DrainReport {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Whether the counts stopped moving before the bound. */
    public final boolean quiet;
    /** From the drain's start until the switch acknowledged the new steering. */
    public final long steeredMillis;
    /** From the drain's start until the backend left. */
    public final long drainedMillis;
    /** Its count at the last read, the one the usage ledger keeps. */
    public final long packets;
    /** Packets it counted after the steering changed (those in flight to it). */
    public final long afterSteering;
    public final int reads;
    /** Why the reads stopped before the counts were quiet, or null. */
    public final String error;

    public DrainReport(boolean quiet, long steeredMillis, long drainedMillis, long packets, long afterSteering,
                       int reads, String error) {
        this.quiet = quiet;
        this.steeredMillis = steeredMillis;
        this.drainedMillis = drainedMillis;
        this.packets = packets;
        this.afterSteering = afterSteering;
        this.reads = reads;
        this.error = error;
    }

    /**
     * @param backend the backend drained
     * @return the report as both REST hosts answer it
     */
    public ObjectNode toJson(String backend) {
        return MAPPER.createObjectNode().put("backend", backend).put("quiet", quiet).put("steered_ms", steeredMillis)
                .put("drained_ms", drainedMillis).put("packets", packets).put("after_steering", afterSteering)
                .put("reads", reads).put("error", error);
    }
}
