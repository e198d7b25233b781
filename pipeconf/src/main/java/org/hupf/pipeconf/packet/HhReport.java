package org.hupf.pipeconf.packet;

import com.google.common.base.MoreObjects;
import org.hupf.pipeconf.HupfConstants;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The heavy-hitter report header that follows {@code packet_in} when the reason is HH_REPORT
 * (docs/PIPELINE_CONTRACT.md): {@code flow_key bit<32>; ipg_ewma bit<32>; tau bit<16>; flags bit<8>; _pad bit<8>}.
 */
public final class HhReport {

    /** Bytes on the wire. */
    public static final int LENGTH = 12;
    /** Where {@code flags} is: after flow_key, ipg_ewma (32 bits each) and tau (16). */
    public static final int FLAGS_OFFSET = 10;
    /** {@code flags}: the reporting packet was steered to a backend (the UE has no hw session). */
    public static final int FLAG_BACKEND = 1;
    /** {@code flags}: the same packet's {@link RpsReceipt} follows the report. */
    public static final int FLAG_RPS = HupfConstants.HH_FLAG_RPS;

    private final long flowKey;
    private final long ipgEwma;
    private final int tau;
    private final int flags;

    public HhReport(long flowKey, long ipgEwma, int tau, int flags) {
        this.flowKey = flowKey;
        this.ipgEwma = ipgEwma;
        this.tau = tau;
        this.flags = flags;
    }

    /**
     * Reads a report from the buffer's position and advances past it.
     *
     * @param buf payload of the packet-in
     * @return report
     * @throws IllegalArgumentException if fewer than {@link #LENGTH} bytes remain
     */
    public static HhReport read(ByteBuffer buf) {
        try {
            long key = Integer.toUnsignedLong(buf.getInt());
            long ewma = Integer.toUnsignedLong(buf.getInt());
            int tau = Short.toUnsignedInt(buf.getShort());
            int flags = Byte.toUnsignedInt(buf.get());
            buf.get();
            return new HhReport(key, ewma, tau, flags);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("HH report needs " + LENGTH + " bytes");
        }
    }

    /** @return UE IPv4 address (default key mode) or 32-bit 5-tuple hash, unsigned */
    public long flowKey() {
        return flowKey;
    }

    /** @return EWMA of the flow's inter-packet gap, microseconds */
    public long ipgEwma() {
        return ipgEwma;
    }

    /** @return tau accumulated when the threshold was crossed */
    public int tau() {
        return tau;
    }

    public int flags() {
        return flags;
    }

    public boolean fromBackend() {
        return (flags & FLAG_BACKEND) != 0;
    }

    /** @return whether the same packet's RPS receipt follows the report */
    public boolean carriesRps() {
        return (flags & FLAG_RPS) != 0;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof HhReport)) {
            return false;
        }
        HhReport that = (HhReport) o;
        return flowKey == that.flowKey && ipgEwma == that.ipgEwma && tau == that.tau && flags == that.flags;
    }

    @Override
    public int hashCode() {
        return Objects.hash(flowKey, ipgEwma, tau, flags);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("flowKey", flowKey).add("ipgEwma", ipgEwma)
                .add("tau", tau).add("flags", flags).toString();
    }
}
