package org.hupf.core.pfcp.codec;

import org.hupf.core.pfcp.message.AssociationReleaseResponse;
import org.hupf.core.pfcp.message.AssociationSetupResponse;
import org.hupf.core.pfcp.message.AssociationUpdateResponse;
import org.hupf.core.pfcp.message.CreatedPdr;
import org.hupf.core.pfcp.message.DeletionResponse;
import org.hupf.core.pfcp.message.EstablishmentResponse;
import org.hupf.core.pfcp.message.HeartbeatResponse;
import org.hupf.core.pfcp.message.ModificationResponse;
import org.hupf.core.pfcp.message.NodeResponse;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.pfcp.message.SessionResponse;
import org.hupf.core.pfcp.message.UsageReport;
import org.hupf.core.pfcp.message.VersionNotSupportedResponse;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a typed response ({@link PfcpResponse}) into its datagram with the {@link IeFields} descriptors, its IEs in
 * the order TS 29.244 lists them, written straight into the datagram's buffer (no {@link Ie} per field: the device
 * writer's thread encodes every session answer); and decodes such a message back into the typed response (the tests'
 * golden vectors, and the answers hupf's own requests get).
 */
public final class ResponseCodec {

    private ResponseCodec() {
    }

    /**
     * Encodes a response.
     *
     * @param r response
     * @return datagram
     */
    public static byte[] encode(PfcpResponse r) {
        if (r instanceof HeartbeatResponse) {
            IeWriter out = PfcpCodec.message(MessageType.HEARTBEAT_RESPONSE, false, 0, r.sequence, -1);
            IeFields.RECOVERY_TIME_STAMP.write(((HeartbeatResponse) r).recoveryTimeStamp, out);
            return PfcpCodec.finish(out);
        }
        if (r instanceof VersionNotSupportedResponse) {
            return PfcpCodec.finish(PfcpCodec.message(MessageType.VERSION_NOT_SUPPORTED_RESPONSE, false, 0,
                                                      r.sequence, -1));
        }
        if (r instanceof NodeResponse) {
            return node((NodeResponse) r);
        }
        SessionResponse s = (SessionResponse) r;
        if (s instanceof EstablishmentResponse) {
            EstablishmentResponse e = (EstablishmentResponse) s;
            IeWriter out = PfcpCodec.message(MessageType.SESSION_ESTABLISHMENT_RESPONSE, true, s.seid, s.sequence, -1);
            IeFields.NODE_ID.write(e.nodeId, out);
            outcome(s, out);
            add(out, IeFields.F_SEID, e.upFseid);
            writeCreatedPdrs(e.createdPdrs, out);
            return PfcpCodec.finish(out);
        }
        if (s instanceof ModificationResponse) {
            ModificationResponse m = (ModificationResponse) s;
            IeWriter out = PfcpCodec.message(MessageType.SESSION_MODIFICATION_RESPONSE, true, s.seid, s.sequence, -1);
            outcome(s, out);
            writeCreatedPdrs(m.createdPdrs, out);
            writeUsageReports(IeType.USAGE_REPORT_MODIFICATION, m.usageReports, out);
            return PfcpCodec.finish(out);
        }
        IeWriter out = PfcpCodec.message(MessageType.SESSION_DELETION_RESPONSE, true, s.seid, s.sequence, -1);
        outcome(s, out);
        writeUsageReports(IeType.USAGE_REPORT_DELETION, ((DeletionResponse) s).usageReports, out);
        return PfcpCodec.finish(out);
    }

    private static byte[] node(NodeResponse r) {
        int type = r instanceof AssociationSetupResponse ? MessageType.ASSOCIATION_SETUP_RESPONSE
                : r instanceof AssociationUpdateResponse ? MessageType.ASSOCIATION_UPDATE_RESPONSE
                : MessageType.ASSOCIATION_RELEASE_RESPONSE;
        IeWriter out = PfcpCodec.message(type, false, 0, r.sequence, -1);
        IeFields.NODE_ID.write(r.nodeId, out);
        IeFields.CAUSE.write(r.cause, out);
        add(out, IeFields.OFFENDING_IE, r.offendingIe);
        if (r instanceof AssociationSetupResponse) {
            AssociationSetupResponse a = (AssociationSetupResponse) r;
            IeFields.RECOVERY_TIME_STAMP.write(a.recoveryTimeStamp, out);
            add(out, IeFields.UP_FUNCTION_FEATURES, a.upFunctionFeatures);
        }
        return PfcpCodec.finish(out);
    }

    /** Cause, Offending IE, Failed Rule ID: how a session response begins after the Node ID. */
    private static void outcome(SessionResponse s, IeWriter out) {
        IeFields.CAUSE.write(s.cause, out);
        add(out, IeFields.OFFENDING_IE, s.offendingIe);
        add(out, IeFields.FAILED_RULE_ID, s.failedRuleId);
    }

    private static <T> void add(IeWriter out, IeField<T> f, T value) {
        if (value != null) {
            f.write(value, out);
        }
    }

    // Indexed loops: the lists are the responses' random-access copies.
    private static void writeCreatedPdrs(List<CreatedPdr> pdrs, IeWriter out) {
        for (int i = 0, n = pdrs.size(); i < n; i++) {
            CreatedPdr p = pdrs.get(i);
            int at = out.begin(IeType.CREATED_PDR);
            IeFields.PDR_ID.write(p.pdrId, out);
            IeFields.F_TEID.write(p.localFteid, out);
            out.end(at);
        }
    }

    /**
     * Writes usage reports as the IEs of the message they travel in.
     *
     * @param ieType  Usage Report IE type: modification (78), deletion (79) or report (80)
     * @param reports reports
     * @param out     the message's writer
     */
    static void writeUsageReports(int ieType, List<UsageReport> reports, IeWriter out) {
        for (int i = 0, n = reports.size(); i < n; i++) {
            UsageReport u = reports.get(i);
            int at = out.begin(ieType);
            IeFields.URR_ID.write(u.urrId, out);
            IeFields.UR_SEQN.write(u.sequence, out);
            IeFields.USAGE_REPORT_TRIGGER.write(u.trigger, out);
            IeFields.START_TIME.write(u.startTime, out);
            IeFields.END_TIME.write(u.endTime, out);
            add(out, IeFields.VOLUME_MEASUREMENT, u.volume);
            add(out, IeFields.DURATION_MEASUREMENT, u.duration);
            out.end(at);
        }
    }

    /**
     * Decodes a response message.
     *
     * @param m message of a response type hupf sends
     * @return typed response
     * @throws DecodeException a mandatory IE missing or malformed
     * @throws IllegalArgumentException for a message type that is not a response hupf sends
     */
    public static PfcpResponse decode(PfcpMessage m) throws DecodeException {
        int seq = m.sequence();
        switch (m.type()) {
            case MessageType.HEARTBEAT_RESPONSE:
                return new HeartbeatResponse(seq, IeFields.RECOVERY_TIME_STAMP.require(m));
            case MessageType.VERSION_NOT_SUPPORTED_RESPONSE:
                return new VersionNotSupportedResponse(seq);
            case MessageType.ASSOCIATION_SETUP_RESPONSE:
                return new AssociationSetupResponse(seq, IeFields.NODE_ID.require(m), IeFields.CAUSE.require(m),
                        IeFields.OFFENDING_IE.optional(m), IeFields.RECOVERY_TIME_STAMP.require(m),
                        IeFields.UP_FUNCTION_FEATURES.optional(m));
            case MessageType.ASSOCIATION_UPDATE_RESPONSE:
                return new AssociationUpdateResponse(seq, IeFields.NODE_ID.require(m), IeFields.CAUSE.require(m),
                                                     IeFields.OFFENDING_IE.optional(m));
            case MessageType.ASSOCIATION_RELEASE_RESPONSE:
                return new AssociationReleaseResponse(seq, IeFields.NODE_ID.require(m), IeFields.CAUSE.require(m),
                                                      IeFields.OFFENDING_IE.optional(m));
            case MessageType.SESSION_ESTABLISHMENT_RESPONSE:
                return new EstablishmentResponse(seq, m.seid(), IeFields.NODE_ID.require(m), IeFields.CAUSE.require(m),
                        IeFields.OFFENDING_IE.optional(m), IeFields.FAILED_RULE_ID.optional(m),
                        IeFields.F_SEID.optional(m), createdPdrs(m));
            case MessageType.SESSION_MODIFICATION_RESPONSE:
                return new ModificationResponse(seq, m.seid(), IeFields.CAUSE.require(m),
                        IeFields.OFFENDING_IE.optional(m), IeFields.FAILED_RULE_ID.optional(m), createdPdrs(m),
                        usageReports(m, IeType.USAGE_REPORT_MODIFICATION));
            case MessageType.SESSION_DELETION_RESPONSE:
                return new DeletionResponse(seq, m.seid(), IeFields.CAUSE.require(m), IeFields.OFFENDING_IE.optional(m),
                        IeFields.FAILED_RULE_ID.optional(m), usageReports(m, IeType.USAGE_REPORT_DELETION));
            default:
                throw new IllegalArgumentException("message type " + m.type() + " is not a response hupf sends");
        }
    }

    private static List<CreatedPdr> createdPdrs(PfcpMessage m) throws DecodeException {
        List<CreatedPdr> out = new ArrayList<>();
        for (Ie c : m.all(IeType.CREATED_PDR)) {
            out.add(new CreatedPdr(IeFields.PDR_ID.require(c), IeFields.F_TEID.require(c)));
        }
        return out;
    }

    static List<UsageReport> usageReports(PfcpMessage m, int ieType) throws DecodeException {
        List<UsageReport> out = new ArrayList<>();
        for (Ie u : m.all(ieType)) {
            out.add(new UsageReport(IeFields.URR_ID.require(u), IeFields.UR_SEQN.require(u),
                    IeFields.USAGE_REPORT_TRIGGER.require(u), IeFields.START_TIME.require(u),
                    IeFields.END_TIME.require(u), IeFields.VOLUME_MEASUREMENT.optional(u),
                    IeFields.DURATION_MEASUREMENT.optional(u)));
        }
        return out;
    }
}
