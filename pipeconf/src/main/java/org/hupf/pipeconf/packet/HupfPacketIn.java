package org.hupf.pipeconf.packet;

import org.onosproject.net.packet.InboundPacket;

import java.nio.ByteBuffer;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.PKTIN_ACL_COPY;
import static org.hupf.pipeconf.HupfConstants.PKTIN_ACL_PUNT;
import static org.hupf.pipeconf.HupfConstants.PKTIN_DOWNLINK_BUFFER;
import static org.hupf.pipeconf.HupfConstants.PKTIN_HH_REPORT;

/**
 * What the hupf interpreter tells the app about a packet-in: the reason (carried as the InboundPacket's
 * cookie) and, for HH_REPORT, the report (the first {@link HhReport#LENGTH} bytes of {@code unparsed()};
 * {@code parsed()} is the reporting packet after it).
 */
public final class HupfPacketIn {

    /** packet_in.reason values (contract: Packet I/O). */
    public enum Reason {
        ACL_PUNT, ACL_COPY, DOWNLINK_BUFFER, HH_REPORT
    }

    private final Reason reason;
    private final HhReport report;

    private HupfPacketIn(Reason reason, HhReport report) {
        this.reason = reason;
        this.report = report;
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
        }
        throw new IllegalArgumentException("unknown packet-in reason " + code);
    }

    /**
     * Reads the hupf metadata of an inbound packet produced by the hupf interpreter.
     *
     * @param pkt inbound packet
     * @return metadata, empty if the packet did not come through the hupf interpreter
     */
    public static Optional<HupfPacketIn> of(InboundPacket pkt) {
        if (pkt.cookie().isEmpty()) {
            return Optional.empty();
        }
        Reason r = reason(pkt.cookie().get());
        HhReport report = null;
        if (r == Reason.HH_REPORT) {
            report = HhReport.read(pkt.unparsed().duplicate());
        }
        return Optional.of(new HupfPacketIn(r, report));
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
     * Returns the payload after the report header, i.e. the frame the data plane received.
     *
     * @param pkt the inbound packet
     * @return frame bytes
     */
    public ByteBuffer frame(InboundPacket pkt) {
        ByteBuffer b = pkt.unparsed().duplicate();
        if (reason == Reason.HH_REPORT) {
            b.position(b.position() + HhReport.LENGTH);
        }
        return b.slice();
    }
}
