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
 * Encodes a typed response ({@link PfcpResponse}) into its message with the {@link IeFields} descriptors, its IEs
 * in the order TS 29.244 lists them, and decodes such a message back into the typed response (the tests' golden
 * vectors, and the answers hupf's own requests get).
 */
public final class ResponseCodec {

    private ResponseCodec() {
    }

    /**
     * Encodes a response.
     *
     * @param r response
     * @return message
     */
    public static PfcpMessage encode(PfcpResponse r) {
        if (r instanceof HeartbeatResponse) {
            return PfcpMessage.node(MessageType.HEARTBEAT_RESPONSE, r.sequence,
                    List.of(IeFields.RECOVERY_TIME_STAMP.encode(((HeartbeatResponse) r).recoveryTimeStamp)));
        }
        if (r instanceof VersionNotSupportedResponse) {
            return PfcpMessage.node(MessageType.VERSION_NOT_SUPPORTED_RESPONSE, r.sequence, List.of());
        }
        if (r instanceof NodeResponse) {
            return node((NodeResponse) r);
        }
        SessionResponse s = (SessionResponse) r;
        List<Ie> ies = new ArrayList<>(4);
        int type;
        if (s instanceof EstablishmentResponse) {
            EstablishmentResponse e = (EstablishmentResponse) s;
            type = MessageType.SESSION_ESTABLISHMENT_RESPONSE;
            ies.add(IeFields.NODE_ID.encode(e.nodeId));
            outcome(s, ies);
            add(ies, IeFields.F_SEID, e.upFseid);
            e.createdPdrs.forEach(p -> ies.add(createdPdr(p)));
        } else if (s instanceof ModificationResponse) {
            ModificationResponse m = (ModificationResponse) s;
            type = MessageType.SESSION_MODIFICATION_RESPONSE;
            outcome(s, ies);
            m.createdPdrs.forEach(p -> ies.add(createdPdr(p)));
            m.usageReports.forEach(u -> ies.add(usageReport(IeType.USAGE_REPORT_MODIFICATION, u)));
        } else {
            type = MessageType.SESSION_DELETION_RESPONSE;
            outcome(s, ies);
            ((DeletionResponse) s).usageReports.forEach(u -> ies.add(usageReport(IeType.USAGE_REPORT_DELETION, u)));
        }
        return PfcpMessage.session(type, s.seid, s.sequence, ies);
    }

    private static PfcpMessage node(NodeResponse r) {
        List<Ie> ies = new ArrayList<>(5);
        ies.add(IeFields.NODE_ID.encode(r.nodeId));
        ies.add(IeFields.CAUSE.encode(r.cause));
        add(ies, IeFields.OFFENDING_IE, r.offendingIe);
        int type;
        if (r instanceof AssociationSetupResponse) {
            AssociationSetupResponse a = (AssociationSetupResponse) r;
            type = MessageType.ASSOCIATION_SETUP_RESPONSE;
            ies.add(IeFields.RECOVERY_TIME_STAMP.encode(a.recoveryTimeStamp));
            add(ies, IeFields.UP_FUNCTION_FEATURES, a.upFunctionFeatures);
        } else {
            type = r instanceof AssociationUpdateResponse ? MessageType.ASSOCIATION_UPDATE_RESPONSE
                    : MessageType.ASSOCIATION_RELEASE_RESPONSE;
        }
        return PfcpMessage.node(type, r.sequence, ies);
    }

    /** Cause, Offending IE, Failed Rule ID: how a session response begins after the Node ID. */
    private static void outcome(SessionResponse s, List<Ie> ies) {
        ies.add(IeFields.CAUSE.encode(s.cause));
        add(ies, IeFields.OFFENDING_IE, s.offendingIe);
        add(ies, IeFields.FAILED_RULE_ID, s.failedRuleId);
    }

    private static <T> void add(List<Ie> ies, IeField<T> f, T value) {
        if (value != null) {
            ies.add(f.encode(value));
        }
    }

    private static Ie createdPdr(CreatedPdr p) {
        return Ie.grouped(IeType.CREATED_PDR, IeFields.PDR_ID.encode(p.pdrId), IeFields.F_TEID.encode(p.localFteid));
    }

    /**
     * Encodes a usage report as the IE of the message it travels in.
     *
     * @param ieType Usage Report IE type: modification (78), deletion (79) or report (80)
     * @param u      report
     * @return the grouped IE
     */
    public static Ie usageReport(int ieType, UsageReport u) {
        List<Ie> ies = new ArrayList<>(7);
        ies.add(IeFields.URR_ID.encode(u.urrId));
        ies.add(IeFields.UR_SEQN.encode(u.sequence));
        ies.add(IeFields.USAGE_REPORT_TRIGGER.encode(u.trigger));
        ies.add(IeFields.START_TIME.encode(u.startTime));
        ies.add(IeFields.END_TIME.encode(u.endTime));
        add(ies, IeFields.VOLUME_MEASUREMENT, u.volume);
        add(ies, IeFields.DURATION_MEASUREMENT, u.duration);
        return Ie.grouped(ieType, ies);
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
