package org.hupf.core.pfcp.codec;

import org.hupf.core.pfcp.message.AssociationReleaseRequest;
import org.hupf.core.pfcp.message.AssociationSetupRequest;
import org.hupf.core.pfcp.message.AssociationUpdateRequest;
import org.hupf.core.pfcp.message.DeletionRequest;
import org.hupf.core.pfcp.message.EstablishmentRequest;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.FailedRuleId;
import org.hupf.core.pfcp.message.FarChange;
import org.hupf.core.pfcp.message.ForwardingParameters;
import org.hupf.core.pfcp.message.HeartbeatRequest;
import org.hupf.core.pfcp.message.ModificationRequest;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.OuterHeaderCreation;
import org.hupf.core.pfcp.message.Pdi;
import org.hupf.core.pfcp.message.PdrChange;
import org.hupf.core.pfcp.message.PfcpRequest;
import org.hupf.core.pfcp.message.QerChange;
import org.hupf.core.pfcp.message.RuleChange;
import org.hupf.core.pfcp.message.RuleChange.Op;
import org.hupf.core.pfcp.message.RuleRemoval;
import org.hupf.core.pfcp.message.SessionRequest;
import org.hupf.core.pfcp.message.UrrChange;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a PFCP request message once into its typed request ({@link PfcpRequest}), checking every IE hupf
 * acts on: a mandatory IE missing or malformed fails the whole request with the {@link DecodeException} whose
 * kind is the TS 29.244 §7.6 cause and whose IE type is the Offending IE. IEs hupf does not act on (BAR IEs,
 * enterprise IEs) are skipped. Encodes a typed request back into a message, its IEs
 * in the order the decoder reads them.
 */
public final class RequestCodec {

    /** Remove PDR, FAR, QER, URR by Failed Rule ID type. */
    private static final int[] REMOVE_TYPES = {IeType.REMOVE_PDR, IeType.REMOVE_FAR, IeType.REMOVE_QER,
                                               IeType.REMOVE_URR};
    /** Create PDR, FAR, QER, URR by Failed Rule ID type. */
    private static final int[] CREATE_TYPES = {IeType.CREATE_PDR, IeType.CREATE_FAR, IeType.CREATE_QER,
                                               IeType.CREATE_URR};
    /** Update PDR, FAR, QER, URR by Failed Rule ID type. */
    private static final int[] UPDATE_TYPES = {IeType.UPDATE_PDR, IeType.UPDATE_FAR, IeType.UPDATE_QER,
                                               IeType.UPDATE_URR};

    private RequestCodec() {
    }

    /**
     * Decodes a request message, as the datagram it encodes into.
     *
     * @param m message of a request type hupf serves
     * @return typed request
     * @throws DecodeException a mandatory IE missing or malformed
     * @throws IllegalArgumentException for a message type that is not a request hupf serves
     */
    public static PfcpRequest decode(PfcpMessage m) throws DecodeException {
        byte[] b = PfcpCodec.encode(m);
        return decode(b, b.length);
    }

    /**
     * Decodes a request datagram.
     *
     * @param buf datagram
     * @param len bytes received
     * @return typed request
     * @throws DecodeException a truncated or inconsistent message, a mandatory IE missing or malformed
     * @throws IllegalArgumentException for a message type that is not a request hupf serves
     */
    public static PfcpRequest decode(byte[] buf, int len) throws DecodeException {
        PfcpCodec.Header h = PfcpCodec.header(buf, len);
        return decode(h, PfcpCodec.spans(h, buf, len));
    }

    /**
     * Decodes a request from its header and its IEs as they lie in the datagram ({@link PfcpCodec#spans}), their
     * values read in place: the datagram is not used once this returns.
     *
     * @param h the datagram's header, of a request type hupf serves
     * @param m its IEs
     * @return typed request
     * @throws DecodeException a mandatory IE missing or malformed
     * @throws IllegalArgumentException for a message type that is not a request hupf serves
     */
    public static PfcpRequest decode(PfcpCodec.Header h, IeSpans m) throws DecodeException {
        int top = IeSpans.MESSAGE;
        switch (h.type) {
            case MessageType.HEARTBEAT_REQUEST:
                return new HeartbeatRequest(h.sequence, IeFields.RECOVERY_TIME_STAMP.require(m, top));
            case MessageType.ASSOCIATION_SETUP_REQUEST:
                return new AssociationSetupRequest(h.sequence, IeFields.NODE_ID.require(m, top),
                                                   IeFields.RECOVERY_TIME_STAMP.require(m, top));
            case MessageType.ASSOCIATION_UPDATE_REQUEST:
                return new AssociationUpdateRequest(h.sequence, IeFields.NODE_ID.require(m, top));
            case MessageType.ASSOCIATION_RELEASE_REQUEST:
                return new AssociationReleaseRequest(h.sequence, IeFields.NODE_ID.require(m, top));
            case MessageType.SESSION_ESTABLISHMENT_REQUEST: {
                NodeId node = IeFields.NODE_ID.require(m, top);
                FSeid cpFseid = IeFields.F_SEID.require(m, top);
                m.require(top, IeType.CREATE_PDR);
                m.require(top, IeType.CREATE_FAR);
                try {
                    return new EstablishmentRequest(h.sequence, h.seid, node, cpFseid, rules(m));
                } catch (DecodeException e) {
                    throw e.inContextOf(new EstablishmentRequest(h.sequence, h.seid, node, cpFseid, List.of()));
                }
            }
            case MessageType.SESSION_MODIFICATION_REQUEST:
                try {
                    List<Long> queries = new ArrayList<>();
                    for (int q = m.first(top); q >= 0; q = m.next(q)) {
                        if (m.type(q) == IeType.QUERY_URR && !m.isEnterprise(q)) {
                            queries.add(IeFields.URR_ID.require(m, q));
                        }
                    }
                    return new ModificationRequest(h.sequence, h.seid, IeFields.F_SEID.optional(m, top), rules(m),
                                                   queries);
                } catch (DecodeException e) {
                    throw e.inContextOf(new ModificationRequest(h.sequence, h.seid, null, List.of(), List.of()));
                }
            case MessageType.SESSION_DELETION_REQUEST:
                return new DeletionRequest(h.sequence, h.seid);
            default:
                throw new IllegalArgumentException("message type " + h.type + " is not a request hupf serves");
        }
    }

    /** The rule IEs of a session request (Create, Update, Remove PDR/FAR/QER/URR) in message order. */
    private static List<RuleChange> rules(IeSpans m) throws DecodeException {
        List<RuleChange> out = new ArrayList<>();
        for (int ie = m.first(IeSpans.MESSAGE); ie >= 0; ie = m.next(ie)) {
            RuleChange c = m.isEnterprise(ie) ? null : rule(m, ie);
            if (c != null) {
                out.add(c);
            }
        }
        return out;
    }

    /** The rule IE of a type, or null for another IE: its kind (a Failed Rule ID type) and what it asks for. */
    private static RuleChange rule(IeSpans m, int ie) throws DecodeException {
        int type = m.type(ie);
        for (int kind = 0; kind < REMOVE_TYPES.length; kind++) {
            if (type == CREATE_TYPES[kind] || type == UPDATE_TYPES[kind]) {
                return change(kind, type == CREATE_TYPES[kind] ? Op.CREATE : Op.UPDATE, m, ie);
            }
            if (type == REMOVE_TYPES[kind]) {
                return new RuleRemoval(kind, kind == FailedRuleId.PDR ? IeFields.PDR_ID.require(m, ie)
                        : idField(kind).require(m, ie));
            }
        }
        return null;
    }

    private static RuleChange change(int kind, Op op, IeSpans m, int ie) throws DecodeException {
        switch (kind) {
            case FailedRuleId.PDR:
                return pdr(op, m, ie);
            case FailedRuleId.FAR:
                return far(op, m, ie);
            case FailedRuleId.QER:
                return qer(op, m, ie);
            default:
                return urr(op, m, ie);
        }
    }

    /** Whether a create must carry the IE: the decoder's optional() becomes require(). */
    private static <T> T field(IeField<T> f, Op op, IeSpans m, int group) throws DecodeException {
        return op == Op.CREATE ? f.require(m, group) : f.optional(m, group);
    }

    private static PdrChange pdr(Op op, IeSpans m, int ie) throws DecodeException {
        int id = IeFields.PDR_ID.require(m, ie);
        Long precedence = field(IeFields.PRECEDENCE, op, m, ie);
        int pdiIe = op == Op.CREATE ? m.require(ie, IeType.PDI) : m.child(ie, IeType.PDI);
        Pdi pdi = pdiIe < 0 ? null : new Pdi(
                IeFields.SOURCE_INTERFACE.require(m, pdiIe), IeFields.F_TEID.optional(m, pdiIe),
                IeFields.NETWORK_INSTANCE.optional(m, pdiIe), IeFields.UE_IP_ADDRESS.optional(m, pdiIe),
                IeFields.SDF_FILTER.all(m, pdiIe), IeFields.QFI.optional(m, pdiIe));
        return new PdrChange(op, id, precedence, pdi, IeFields.OUTER_HEADER_REMOVAL.optional(m, ie),
                             IeFields.FAR_ID.optional(m, ie), IeFields.QER_ID.all(m, ie), IeFields.URR_ID.all(m, ie));
    }

    private static FarChange far(Op op, IeSpans m, int ie) throws DecodeException {
        long id = IeFields.FAR_ID.require(m, ie);
        Integer action = field(IeFields.APPLY_ACTION, op, m, ie);
        int params = m.child(ie, op == Op.CREATE ? IeType.FORWARDING_PARAMETERS
                : IeType.UPDATE_FORWARDING_PARAMETERS);
        ForwardingParameters forwarding = null;
        if (params >= 0) {
            Integer destination = field(IeFields.DESTINATION_INTERFACE, op, m, params);
            OuterHeaderCreation ohc = IeFields.OUTER_HEADER_CREATION.optional(m, params);
            if (ohc != null && ohc.description != OuterHeaderCreation.GTPU_UDP_IPV4) {
                throw m.reader(m.child(params, IeType.OUTER_HEADER_CREATION)).incorrect(
                        "only GTP-U/UDP/IPv4 outer header creation is supported, got description 0x"
                                + Integer.toHexString(ohc.description));
            }
            forwarding = new ForwardingParameters(destination, ohc, IeFields.NETWORK_INSTANCE.optional(m, params));
        }
        return new FarChange(op, id, action, forwarding, IeFields.BAR_ID.optional(m, ie));
    }

    private static QerChange qer(Op op, IeSpans m, int ie) throws DecodeException {
        return new QerChange(op, IeFields.QER_ID.require(m, ie), field(IeFields.GATE_STATUS, op, m, ie),
                             IeFields.MBR.optional(m, ie), IeFields.GBR.optional(m, ie), IeFields.QFI.optional(m, ie));
    }

    private static UrrChange urr(Op op, IeSpans m, int ie) throws DecodeException {
        return new UrrChange(op, IeFields.URR_ID.require(m, ie), field(IeFields.MEASUREMENT_METHOD, op, m, ie),
                             field(IeFields.REPORTING_TRIGGERS, op, m, ie),
                             IeFields.MEASUREMENT_PERIOD.optional(m, ie), IeFields.VOLUME_THRESHOLD.optional(m, ie));
    }

    /**
     * Encodes a typed request as the message it was decoded from, less the IEs the decoder skips.
     *
     * @param r request
     * @return message
     */
    public static PfcpMessage encode(PfcpRequest r) {
        if (r instanceof HeartbeatRequest) {
            return PfcpMessage.node(MessageType.HEARTBEAT_REQUEST, r.sequence, List.of(
                    IeFields.RECOVERY_TIME_STAMP.encode(((HeartbeatRequest) r).recoveryTimeStamp)));
        }
        if (r instanceof AssociationSetupRequest) {
            AssociationSetupRequest a = (AssociationSetupRequest) r;
            return PfcpMessage.node(MessageType.ASSOCIATION_SETUP_REQUEST, r.sequence, List.of(
                    IeFields.NODE_ID.encode(a.nodeId), IeFields.RECOVERY_TIME_STAMP.encode(a.recoveryTimeStamp)));
        }
        if (r instanceof AssociationUpdateRequest) {
            return PfcpMessage.node(MessageType.ASSOCIATION_UPDATE_REQUEST, r.sequence, List.of(
                    IeFields.NODE_ID.encode(((AssociationUpdateRequest) r).nodeId)));
        }
        if (r instanceof AssociationReleaseRequest) {
            return PfcpMessage.node(MessageType.ASSOCIATION_RELEASE_REQUEST, r.sequence, List.of(
                    IeFields.NODE_ID.encode(((AssociationReleaseRequest) r).nodeId)));
        }
        List<Ie> ies = new ArrayList<>();
        int type;
        if (r instanceof EstablishmentRequest) {
            EstablishmentRequest e = (EstablishmentRequest) r;
            type = MessageType.SESSION_ESTABLISHMENT_REQUEST;
            ies.add(IeFields.NODE_ID.encode(e.nodeId));
            ies.add(IeFields.F_SEID.encode(e.cpFseid));
            e.rules.forEach(c -> ies.add(encode(c)));
        } else if (r instanceof ModificationRequest) {
            ModificationRequest m = (ModificationRequest) r;
            type = MessageType.SESSION_MODIFICATION_REQUEST;
            ies.addAll(opt(IeFields.F_SEID, m.cpFseid));
            m.rules.forEach(c -> ies.add(encode(c)));
            m.queryUrrIds.forEach(id -> ies.add(Ie.grouped(IeType.QUERY_URR, IeFields.URR_ID.encode(id))));
        } else {
            type = MessageType.SESSION_DELETION_REQUEST;
        }
        return PfcpMessage.session(type, ((SessionRequest) r).seid, r.sequence, ies);
    }

    /** The IE of a value, none if it is null. */
    private static <T> List<Ie> opt(IeField<T> f, T value) {
        return value == null ? List.of() : List.of(f.encode(value));
    }

    /** The IEs of each value, in order. */
    private static <T> List<Ie> each(IeField<T> f, List<T> values) {
        List<Ie> out = new ArrayList<>();
        values.forEach(v -> out.add(f.encode(v)));
        return out;
    }

    @SafeVarargs
    private static Ie group(int type, List<Ie>... parts) {
        List<Ie> ies = new ArrayList<>();
        for (List<Ie> part : parts) {
            ies.addAll(part);
        }
        return Ie.grouped(type, ies);
    }

    private static Ie encode(RuleChange c) {
        boolean create = c.op == Op.CREATE;
        if (c instanceof RuleRemoval) {
            return group(REMOVE_TYPES[c.ruleType], c.ruleType == FailedRuleId.PDR ? opt(IeFields.PDR_ID, (int) c.id)
                    : opt(idField(c.ruleType), c.id));
        }
        if (c instanceof PdrChange) {
            PdrChange p = (PdrChange) c;
            return group(create ? IeType.CREATE_PDR : IeType.UPDATE_PDR, opt(IeFields.PDR_ID, p.pdrId()),
                         opt(IeFields.PRECEDENCE, p.precedence), p.pdi == null ? List.of() : List.of(pdi(p.pdi)),
                         opt(IeFields.OUTER_HEADER_REMOVAL, p.outerHeaderRemoval), opt(IeFields.FAR_ID, p.farId),
                         each(IeFields.URR_ID, p.urrIds), each(IeFields.QER_ID, p.qerIds));
        }
        if (c instanceof FarChange) {
            FarChange f = (FarChange) c;
            List<Ie> forwarding = f.forwarding == null ? List.of() : List.of(group(
                    create ? IeType.FORWARDING_PARAMETERS : IeType.UPDATE_FORWARDING_PARAMETERS,
                    opt(IeFields.DESTINATION_INTERFACE, f.forwarding.destinationInterface),
                    opt(IeFields.NETWORK_INSTANCE, f.forwarding.networkInstance),
                    opt(IeFields.OUTER_HEADER_CREATION, f.forwarding.outerHeaderCreation)));
            return group(create ? IeType.CREATE_FAR : IeType.UPDATE_FAR, opt(IeFields.FAR_ID, f.id),
                         opt(IeFields.APPLY_ACTION, f.applyAction), forwarding, opt(IeFields.BAR_ID, f.barId));
        }
        if (c instanceof QerChange) {
            QerChange q = (QerChange) c;
            return group(create ? IeType.CREATE_QER : IeType.UPDATE_QER, opt(IeFields.QER_ID, q.id),
                         opt(IeFields.GATE_STATUS, q.gateStatus), opt(IeFields.MBR, q.mbr), opt(IeFields.GBR, q.gbr),
                         opt(IeFields.QFI, q.qfi));
        }
        UrrChange u = (UrrChange) c;
        return group(create ? IeType.CREATE_URR : IeType.UPDATE_URR, opt(IeFields.URR_ID, u.id),
                     opt(IeFields.MEASUREMENT_METHOD, u.measurementMethod),
                     opt(IeFields.REPORTING_TRIGGERS, u.reportingTriggers),
                     opt(IeFields.MEASUREMENT_PERIOD, u.measurementPeriod),
                     opt(IeFields.VOLUME_THRESHOLD, u.volumeThreshold));
    }

    private static IeField<Long> idField(int ruleType) {
        return ruleType == FailedRuleId.FAR ? IeFields.FAR_ID
                : ruleType == FailedRuleId.QER ? IeFields.QER_ID : IeFields.URR_ID;
    }

    private static Ie pdi(Pdi p) {
        return group(IeType.PDI, opt(IeFields.SOURCE_INTERFACE, p.sourceInterface), opt(IeFields.F_TEID, p.fteid),
                     opt(IeFields.NETWORK_INSTANCE, p.networkInstance), opt(IeFields.UE_IP_ADDRESS, p.ueIpAddress),
                     each(IeFields.SDF_FILTER, p.sdfFilters), opt(IeFields.QFI, p.qfi));
    }
}
