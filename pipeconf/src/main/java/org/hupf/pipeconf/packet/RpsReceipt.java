package org.hupf.pipeconf.packet;

import com.google.common.base.MoreObjects;
import org.hupf.pipeconf.HupfConstants;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One Retroactive Packet Sampling record (docs/PIPELINE_CONTRACT.md, "RPS"), as the data plane sends it to the
 * controller and the controller to the monitor: {@code rps_receipt_t { point bit<8>; kind bit<8>; flow_id bit<16>;
 * digest bit<32>; ts bit<32>; dnum bit<16>; _pad bit<16> }}. Immutable; numbers are unsigned.
 */
public final class RpsReceipt {

    /** Bytes on the wire. */
    public static final int LENGTH = 16;
    /** Observation point: ingress (the packet arrived at hupf). */
    public static final int POINT_IN = HupfConstants.RPS_POINT_IN;
    /** Observation point: egress (the packet leaves hupf). */
    public static final int POINT_OUT = HupfConstants.RPS_POINT_OUT;
    public static final int KIND_DIRECT = HupfConstants.RPS_KIND_DIRECT;
    public static final int KIND_DELAYED = HupfConstants.RPS_KIND_DELAYED;
    /** Every observed packet's receipt (mode HYBRID: the controller runs the reference algorithm over them). */
    public static final int KIND_RECEIPT = HupfConstants.RPS_KIND_RECEIPT;
    public static final int KIND_LATE_WARNING = HupfConstants.RPS_KIND_LATE;

    private final int point;
    private final int kind;
    private final int flowId;
    private final long digest;
    private final long ts;
    private final int dnum;

    /**
     * @param point  {@link #POINT_IN} or {@link #POINT_OUT}
     * @param kind   1..4 ({@link #KIND_DIRECT} ... {@link #KIND_LATE_WARNING})
     * @param flowId flow id, 16 bits
     * @param digest packet digest, 32 bits
     * @param ts     timestamp, microseconds (low 32 bits of the point's clock)
     * @param dnum   disclosure number, 16 bits
     * @throws IllegalArgumentException naming the field out of its range
     */
    public RpsReceipt(int point, int kind, int flowId, long digest, long ts, int dnum) {
        if (point != POINT_IN && point != POINT_OUT) {
            throw new IllegalArgumentException("RPS receipt: point " + point + " is neither 0 (IN) nor 1 (OUT)");
        }
        if (kind < KIND_DIRECT || kind > KIND_LATE_WARNING) {
            throw new IllegalArgumentException("RPS receipt: kind " + kind + " is not in 1..4");
        }
        this.point = point;
        this.kind = kind;
        this.flowId = unsigned("flow_id", flowId, 0xFFFF);
        this.digest = unsigned("digest", digest, 0xFFFFFFFFL);
        this.ts = unsigned("ts", ts, 0xFFFFFFFFL);
        this.dnum = unsigned("dnum", dnum, 0xFFFF);
    }

    private static int unsigned(String field, int v, int max) {
        return (int) unsigned(field, (long) v, max);
    }

    private static long unsigned(String field, long v, long max) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException("RPS receipt: " + field + " " + v + " is not in 0.." + max);
        }
        return v;
    }

    /**
     * Reads a record from the buffer's position and advances past it.
     *
     * @param buf bytes
     * @return the record
     * @throws IllegalArgumentException if fewer than {@link #LENGTH} bytes remain (nothing is consumed then), or
     *                                  for a point or kind the contract does not define
     */
    public static RpsReceipt read(ByteBuffer buf) {
        if (buf.remaining() < LENGTH) {
            throw new IllegalArgumentException("RPS receipt needs " + LENGTH + " bytes, " + buf.remaining()
                                                       + " left");
        }
        int point = Byte.toUnsignedInt(buf.get());
        int kind = Byte.toUnsignedInt(buf.get());
        int flow = Short.toUnsignedInt(buf.getShort());
        long digest = Integer.toUnsignedLong(buf.getInt());
        long ts = Integer.toUnsignedLong(buf.getInt());
        int dnum = Short.toUnsignedInt(buf.getShort());
        buf.getShort();
        return new RpsReceipt(point, kind, flow, digest, ts, dnum);
    }

    /**
     * Writes the record's {@link #LENGTH} bytes at the buffer's position.
     *
     * @param buf buffer with room for them
     */
    public void write(ByteBuffer buf) {
        buf.put((byte) point).put((byte) kind).putShort((short) flowId).putInt((int) digest).putInt((int) ts)
                .putShort((short) dnum).putShort((short) 0);
    }

    /**
     * The same packet's record as another kind, with the disclosure number that goes with it.
     *
     * @param newKind kind
     * @param newDnum disclosure number
     * @return record
     */
    public RpsReceipt as(int newKind, int newDnum) {
        return new RpsReceipt(point, newKind, flowId, digest, ts, newDnum);
    }

    public int point() {
        return point;
    }

    public int kind() {
        return kind;
    }

    public int flowId() {
        return flowId;
    }

    public long digest() {
        return digest;
    }

    /** @return microseconds, low 32 bits of the point's clock */
    public long ts() {
        return ts;
    }

    public int dnum() {
        return dnum;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RpsReceipt)) {
            return false;
        }
        RpsReceipt that = (RpsReceipt) o;
        return point == that.point && kind == that.kind && flowId == that.flowId && digest == that.digest
                && ts == that.ts && dnum == that.dnum;
    }

    @Override
    public int hashCode() {
        return Objects.hash(point, kind, flowId, digest, ts, dnum);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("point", point).add("kind", kind).add("flowId", flowId)
                .add("digest", Long.toHexString(digest)).add("ts", ts).add("dnum", dnum).toString();
    }
}
