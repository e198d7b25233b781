package org.hupf.pipeconf.dataplane;

import org.hupf.pipeconf.HupfConstants;
import org.onlab.packet.Ip4Prefix;

import java.util.List;
import java.util.Objects;

/**
 * What the data plane's Retroactive Packet Sampling needs (docs/PIPELINE_CONTRACT.md, "RPS"): the
 * {@code rps.config} default action (mode, quiet time κ − μ, delayed-disclosure selection threshold σ · 2^32, the
 * FIFO buffer's length) and
 * the sampled flows ({@code rps.flows}: UE prefix and direction → flow id, direct-disclosure threshold).
 */
public final class RpsConfig {

    /** What the data plane does with the packets of sampled flows ({@code set_config}'s {@code mode}). */
    public enum Mode {
        /** Nothing observed. */
        OFF(HupfConstants.RPS_MODE_OFF),
        /** FIFO RPS in the data plane; only disclosures and late-disclosure warnings reach the controller. */
        DATA_PLANE(HupfConstants.RPS_MODE_DATA_PLANE),
        /** Every observed packet's receipt goes to the controller, which runs the reference algorithm. */
        HYBRID(HupfConstants.RPS_MODE_HYBRID);

        private final int code;

        Mode(int code) {
            this.code = code;
        }

        /** @return the {@code mode} value of {@code set_config} */
        public int code() {
            return code;
        }
    }

    /** {@code direction} key of {@code rps.flows}. */
    public static final int UPLINK = 0;
    public static final int DOWNLINK = 1;
    private static final long MAX_U32 = 0xFFFFFFFFL;

    /** {@link #bufferLen()}: every receipt slot the data plane has. */
    public static final int WHOLE_BUFFER = 0;
    /** The configuration written when RPS is not configured: nothing sampled. */
    public static final RpsConfig OFF = new RpsConfig(Mode.OFF, 0, 0, WHOLE_BUFFER, List.of());

    private final Mode mode;
    private final long quietUs;
    private final long selectThreshold;
    private final int bufferLen;
    private final List<Flow> flows;

    /**
     * @param mode            mode
     * @param quietUs         κ − μ, microseconds (32 bits)
     * @param selectThreshold σ · 2^32 (32 bits; see {@link #selectThreshold(double)})
     * @param bufferLen       receipts the data plane's FIFO keeps per point (mode DATA_PLANE), at most what it
     *                        has; {@link #WHOLE_BUFFER}: all of them
     * @param flows           sampled flows
     * @throws IllegalArgumentException for a value beyond 32 bits or a negative buffer length
     */
    public RpsConfig(Mode mode, long quietUs, long selectThreshold, int bufferLen, List<Flow> flows) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.quietUs = u32("quietUs", quietUs);
        this.selectThreshold = u32("selectThreshold", selectThreshold);
        if (bufferLen < 0) {
            throw new IllegalArgumentException("bufferLen: " + bufferLen + " is negative");
        }
        this.bufferLen = bufferLen;
        this.flows = List.copyOf(flows);
    }

    private static long u32(String what, long v) {
        if (v < 0 || v > MAX_U32) {
            throw new IllegalArgumentException(what + ": " + v + " is not in 0.." + MAX_U32);
        }
        return v;
    }

    /**
     * The selection threshold of a selection probability: a receipt is selected when the CRC-32 of its digest
     * and the disclosure's is below it.
     *
     * @param sigma probability in [0, 1]
     * @return round(σ · 2^32), at most 2^32 − 1
     * @throws IllegalArgumentException for σ outside [0, 1]
     */
    public static long selectThreshold(double sigma) {
        if (!(sigma >= 0 && sigma <= 1)) {
            throw new IllegalArgumentException("sigma: " + sigma + " is not a probability in [0, 1]");
        }
        return Math.min(Math.round(sigma * (MAX_U32 + 1)), MAX_U32);
    }

    public Mode mode() {
        return mode;
    }

    public long quietUs() {
        return quietUs;
    }

    public long selectThreshold() {
        return selectThreshold;
    }

    /** @return receipts per point of the data plane's FIFO, {@link #WHOLE_BUFFER} for all it has */
    public int bufferLen() {
        return bufferLen;
    }

    public List<Flow> flows() {
        return flows;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RpsConfig)) {
            return false;
        }
        RpsConfig c = (RpsConfig) o;
        return mode == c.mode && quietUs == c.quietUs && selectThreshold == c.selectThreshold
                && bufferLen == c.bufferLen && flows.equals(c.flows);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, quietUs, selectThreshold, bufferLen, flows);
    }

    @Override
    public String toString() {
        return "RPS " + mode + " quiet " + quietUs + " us, select < " + selectThreshold + ", buffer "
                + (bufferLen == WHOLE_BUFFER ? "whole" : String.valueOf(bufferLen)) + ", flows " + flows;
    }

    /** One {@code rps.flows} entry: the UE prefix and direction whose packets are flow {@code flowId}. */
    public static final class Flow {

        private final Ip4Prefix uePrefix;
        private final int direction;
        private final int flowId;
        private final long discThreshold;

        /**
         * @param uePrefix      UE addresses (inner source uplink, destination downlink)
         * @param direction     {@link #UPLINK} or {@link #DOWNLINK}
         * @param flowId        flow id (16 bits)
         * @param discThreshold a packet whose digest is below it is a direct disclosure (32 bits)
         * @throws IllegalArgumentException naming the value out of its range
         */
        public Flow(Ip4Prefix uePrefix, int direction, int flowId, long discThreshold) {
            this.uePrefix = Objects.requireNonNull(uePrefix, "uePrefix");
            if (direction != UPLINK && direction != DOWNLINK) {
                throw new IllegalArgumentException("direction: " + direction + " is neither 0 (uplink) nor 1 (downlink)");
            }
            if (flowId < 0 || flowId > 0xFFFF) {
                throw new IllegalArgumentException("flowId: " + flowId + " is not in 0..65535");
            }
            this.direction = direction;
            this.flowId = flowId;
            this.discThreshold = u32("discThreshold", discThreshold);
        }

        public Ip4Prefix uePrefix() {
            return uePrefix;
        }

        public int direction() {
            return direction;
        }

        public int flowId() {
            return flowId;
        }

        public long discThreshold() {
            return discThreshold;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Flow)) {
                return false;
            }
            Flow f = (Flow) o;
            return uePrefix.equals(f.uePrefix) && direction == f.direction && flowId == f.flowId
                    && discThreshold == f.discThreshold;
        }

        @Override
        public int hashCode() {
            return Objects.hash(uePrefix, direction, flowId, discThreshold);
        }

        @Override
        public String toString() {
            return uePrefix + (direction == UPLINK ? " up" : " down") + " -> flow " + flowId + " (direct < "
                    + discThreshold + ")";
        }
    }
}
