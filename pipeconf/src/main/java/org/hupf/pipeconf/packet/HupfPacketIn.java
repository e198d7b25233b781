package org.hupf.pipeconf.packet;

import org.onosproject.net.packet.InboundPacket;

import java.nio.ByteBuffer;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.PKTIN_ACL_COPY;
import static org.hupf.pipeconf.HupfConstants.PKTIN_ACL_PUNT;
import static org.hupf.pipeconf.HupfConstants.PKTIN_DOWNLINK_BUFFER;
import static org.hupf.pipeconf.HupfConstants.PKTIN_HH_REPORT;
import static org.hupf.pipeconf.HupfConstants.PKTIN_RPS;

/**
 * What the hupf interpreter tells the app about a packet-in: the reason (carried as the InboundPacket's
 * cookie) and, for HH_REPORT, the report (the first {@link HhReport#LENGTH} bytes of {@code unparsed()};
 * {@code parsed()} is the reporting packet after it), followed by the same packet's RPS receipt when the report's
 * {@link HhReport#carriesRps()} flag says so; for RPS, the receipt alone (no packet: {@code parsed()} is empty).
 */
public final class HupfPacketIn {

    /** packet_in.reason values (contract: Packet I/O). */
    public enum Reason {
        ACL_PUNT, ACL_COPY, DOWNLINK_BUFFER, HH_REPORT, RPS
    }

    private final Reason reason;
    private final HhReport report;
    private final RpsReceipt receipt;

    private HupfPacketIn(Reason reason, HhReport report, RpsReceipt receipt) {
        this.reason = reason;
        this.report = report;
        this.receipt = receipt;
    }

    /**
     * Maps a wire reason code.
     *
     * @param code packet_in.reason
     * @return the reason
     * @throws IllegalArgumentException for a code the contract does not define
     */
    public static Reason reason(long code) {
        if (code == PKTIN_ACL_PUNT) {
            return Reason.ACL_PUNT;
        } else if (code == PKTIN_ACL_COPY) {
            return Reason.ACL_COPY;
        } else if (code == PKTIN_DOWNLINK_BUFFER) {
            return Reason.DOWNLINK_BUFFER;
        } else if (code == PKTIN_HH_REPORT) {
            return Reason.HH_REPORT;
        } else if (code == PKTIN_RPS) {
            return Reason.RPS;
        }
        throw new IllegalArgumentException("unknown packet-in reason " + code);
    }

    /**
     * Reads the hupf metadata of an inbound packet produced by the hupf interpreter.
     *
     * @param pkt inbound packet
     * @return metadata, empty if the packet did not come through the hupf interpreter
     * @throws IllegalArgumentException for a reason the contract does not define, or a report or receipt cut short
     */
    public static Optional<HupfPacketIn> of(InboundPacket pkt) {
        if (pkt.cookie().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(parse(pkt.cookie().get(), pkt.unparsed()));
    }

    /**
     * Reads the hupf headers at the head of a packet-in's payload (what follows {@code packet_in}).
     *
     * @param reasonCode packet_in.reason
     * @param payload    the payload (its position is left alone)
     * @return metadata
     * @throws IllegalArgumentException for a reason the contract does not define, or a report or receipt cut short
     */
    public static HupfPacketIn parse(long reasonCode, ByteBuffer payload) {
        Reason r = reason(reasonCode);
        ByteBuffer b = payload.duplicate();
        HhReport report = null;
        RpsReceipt receipt = null;
        if (r == Reason.HH_REPORT) {
            report = HhReport.read(b);
            if (report.carriesRps()) {
                receipt = RpsReceipt.read(b);
            }
        } else if (r == Reason.RPS) {
            receipt = RpsReceipt.read(b);
        }
        return new HupfPacketIn(r, report, receipt);
    }

    /**
     * Whether a packet-in says it carries an RPS record (an RPS packet-in, or an HH report flagged so), whether or
     * not the record is all there.
     *
     * @param reasonCode packet_in.reason
     * @param payload    what follows packet_in (its position is left alone)
     * @return true if it does
     */
    public static boolean announcesRps(long reasonCode, ByteBuffer payload) {
        return reasonCode == PKTIN_RPS || (reasonCode == PKTIN_HH_REPORT
                && payload.remaining() > HhReport.FLAGS_OFFSET
                && (payload.get(payload.position() + HhReport.FLAGS_OFFSET) & HhReport.FLAG_RPS) != 0);
    }

    public Reason reason() {
        return reason;
    }

    /**
     * Returns the HH report of an HH_REPORT packet-in.
     *
     * @return report, empty for other reasons
     */
    public Optional<HhReport> hhReport() {
        return Optional.ofNullable(report);
    }

    /**
     * Returns the RPS record of an RPS packet-in, or the one riding an HH report.
     *
     * @return the record, empty without one
     */
    public Optional<RpsReceipt> rpsReceipt() {
        return Optional.ofNullable(receipt);
    }

    /** @return bytes of hupf headers before the packet's frame in the payload */
    public int headerLength() {
        return (report == null ? 0 : HhReport.LENGTH) + (receipt == null ? 0 : RpsReceipt.LENGTH);
    }

    /**
     * Returns the payload after the report header and receipt, i.e. the frame the data plane received (empty for
     * an RPS packet-in, which carries no packet).
     *
     * @param pkt the inbound packet
     * @return frame bytes
     */
    public ByteBuffer frame(InboundPacket pkt) {
        ByteBuffer b = pkt.unparsed().duplicate();
        b.position(b.position() + headerLength());
        return b.slice();
    }
}
