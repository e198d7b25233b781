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
import java.util.Map;

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

    /** Decodes one Create, Update or Remove rule IE. */
    @FunctionalInterface
    private interface RuleDecoder {
        RuleChange decode(Op op, Ie ie) throws DecodeException;
    }

    /** The rule IEs by type: what each asks for and its decoder. */
    private static final Map<Integer, Map.Entry<Op, RuleDecoder>> RULE_IES = Map.ofEntries(
            Map.entry(IeType.CREATE_PDR, Map.entry(Op.CREATE, RequestCodec::pdr)),
            Map.entry(IeType.UPDATE_PDR, Map.entry(Op.UPDATE, RequestCodec::pdr)),
            Map.entry(IeType.CREATE_FAR, Map.entry(Op.CREATE, RequestCodec::far)),
            Map.entry(IeType.UPDATE_FAR, Map.entry(Op.UPDATE, RequestCodec::far)),
            Map.entry(IeType.CREATE_QER, Map.entry(Op.CREATE, RequestCodec::qer)),
            Map.entry(IeType.UPDATE_QER, Map.entry(Op.UPDATE, RequestCodec::qer)),
            Map.entry(IeType.CREATE_URR, Map.entry(Op.CREATE, RequestCodec::urr)),
            Map.entry(IeType.UPDATE_URR, Map.entry(Op.UPDATE, RequestCodec::urr)),
            Map.entry(IeType.REMOVE_PDR, Map.entry(Op.REMOVE, (op, ie) -> new RuleRemoval(
                    FailedRuleId.PDR, IeFields.PDR_ID.require(ie)))),
            Map.entry(IeType.REMOVE_FAR, Map.entry(Op.REMOVE, (op, ie) -> new RuleRemoval(
                    FailedRuleId.FAR, IeFields.FAR_ID.require(ie)))),
            Map.entry(IeType.REMOVE_QER, Map.entry(Op.REMOVE, (op, ie) -> new RuleRemoval(
                    FailedRuleId.QER, IeFields.QER_ID.require(ie)))),
            Map.entry(IeType.REMOVE_URR, Map.entry(Op.REMOVE, (op, ie) -> new RuleRemoval(
                    FailedRuleId.URR, IeFields.URR_ID.require(ie)))));

    private RequestCodec() {
    }

    /**
     * Decodes a request.
     *
     * @param m decoded message of a request type hupf serves
     * @return typed request
     * @throws DecodeException a mandatory IE missing or malformed
     * @throws IllegalArgumentException for a message type that is not a request hupf serves
     */
    public static PfcpRequest decode(PfcpMessage m) throws DecodeException {
        switch (m.type()) {
            case MessageType.HEARTBEAT_REQUEST:
                return new HeartbeatRequest(m.sequence(), IeFields.RECOVERY_TIME_STAMP.require(m));
            case MessageType.ASSOCIATION_SETUP_REQUEST:
                return new AssociationSetupRequest(m.sequence(), IeFields.NODE_ID.require(m),
                                                   IeFields.RECOVERY_TIME_STAMP.require(m));
            case MessageType.ASSOCIATION_UPDATE_REQUEST:
                return new AssociationUpdateRequest(m.sequence(), IeFields.NODE_ID.require(m));
            case MessageType.ASSOCIATION_RELEASE_REQUEST:
                return new AssociationReleaseRequest(m.sequence(), IeFields.NODE_ID.require(m));
            case MessageType.SESSION_ESTABLISHMENT_REQUEST: {
                NodeId node = IeFields.NODE_ID.require(m);
                FSeid cpFseid = IeFields.F_SEID.require(m);
                m.require(IeType.CREATE_PDR);
                m.require(IeType.CREATE_FAR);
                EstablishmentRequest context = new EstablishmentRequest(m.sequence(), m.seid(), node, cpFseid,
                                                                        List.of());
                try {
                    return new EstablishmentRequest(m.sequence(), m.seid(), node, cpFseid, rules(m));
                } catch (DecodeException e) {
                    throw e.inContextOf(context);
                }
            }
            case MessageType.SESSION_MODIFICATION_REQUEST:
                try {
                    List<Long> queries = new ArrayList<>();
                    for (Ie q : m.all(IeType.QUERY_URR)) {
                        queries.add(IeFields.URR_ID.require(q));
                    }
                    return new ModificationRequest(m.sequence(), m.seid(), IeFields.F_SEID.optional(m), rules(m),
                                                   queries);
                } catch (DecodeException e) {
                    throw e.inContextOf(new ModificationRequest(m.sequence(), m.seid(), null, List.of(), List.of()));
                }
            case MessageType.SESSION_DELETION_REQUEST:
                return new DeletionRequest(m.sequence(), m.seid());
            default:
                throw new IllegalArgumentException("message type " + m.type() + " is not a request hupf serves");
        }
    }

    private static List<RuleChange> rules(PfcpMessage m) throws DecodeException {
        List<RuleChange> out = new ArrayList<>();
        for (Ie ie : m.ies()) {
            RuleChange c = rule(ie);
            if (c != null) {
                out.add(c);
            }
        }
        return out;
    }

    private static RuleChange rule(Ie ie) throws DecodeException {
        Map.Entry<Op, RuleDecoder> r = ie.isEnterprise() ? null : RULE_IES.get(ie.type());
        return r == null ? null : r.getValue().decode(r.getKey(), ie);
    }

    /** Whether a create must carry the IE: the decoder's optional() becomes require(). */
    private static <T> T field(IeField<T> f, Op op, Ie group) throws DecodeException {
        return op == Op.CREATE ? f.require(group) : f.optional(group);
    }

    private static PdrChange pdr(Op op, Ie ie) throws DecodeException {
        int id = IeFields.PDR_ID.require(ie);
        Long precedence = field(IeFields.PRECEDENCE, op, ie);
        Ie pdiIe = op == Op.CREATE ? ie.require(IeType.PDI) : ie.child(IeType.PDI);
        Pdi pdi = pdiIe == null ? null : new Pdi(
                IeFields.SOURCE_INTERFACE.require(pdiIe), IeFields.F_TEID.optional(pdiIe),
                IeFields.NETWORK_INSTANCE.optional(pdiIe), IeFields.UE_IP_ADDRESS.optional(pdiIe),
                IeFields.SDF_FILTER.all(pdiIe), IeFields.QFI.optional(pdiIe));
        return new PdrChange(op, id, precedence, pdi, IeFields.OUTER_HEADER_REMOVAL.optional(ie),
                             IeFields.FAR_ID.optional(ie), IeFields.QER_ID.all(ie), IeFields.URR_ID.all(ie));
    }

    private static FarChange far(Op op, Ie ie) throws DecodeException {
        long id = IeFields.FAR_ID.require(ie);
        Integer action = field(IeFields.APPLY_ACTION, op, ie);
        Ie params = ie.child(op == Op.CREATE ? IeType.FORWARDING_PARAMETERS : IeType.UPDATE_FORWARDING_PARAMETERS);
        ForwardingParameters forwarding = null;
        if (params != null) {
            Integer destination = field(IeFields.DESTINATION_INTERFACE, op, params);
            OuterHeaderCreation ohc = IeFields.OUTER_HEADER_CREATION.optional(params);
            if (ohc != null && ohc.description != OuterHeaderCreation.GTPU_UDP_IPV4) {
                throw params.child(IeType.OUTER_HEADER_CREATION).reader().incorrect(
                        "only GTP-U/UDP/IPv4 outer header creation is supported, got description 0x"
                                + Integer.toHexString(ohc.description));
            }
            forwarding = new ForwardingParameters(destination, ohc, IeFields.NETWORK_INSTANCE.optional(params));
        }
        return new FarChange(op, id, action, forwarding, IeFields.BAR_ID.optional(ie));
    }

    private static QerChange qer(Op op, Ie ie) throws DecodeException {
        return new QerChange(op, IeFields.QER_ID.require(ie), field(IeFields.GATE_STATUS, op, ie),
                             IeFields.MBR.optional(ie), IeFields.GBR.optional(ie), IeFields.QFI.optional(ie));
    }

    private static UrrChange urr(Op op, Ie ie) throws DecodeException {
        return new UrrChange(op, IeFields.URR_ID.require(ie), field(IeFields.MEASUREMENT_METHOD, op, ie),
                             field(IeFields.REPORTING_TRIGGERS, op, ie), IeFields.MEASUREMENT_PERIOD.optional(ie),
                             IeFields.VOLUME_THRESHOLD.optional(ie));
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
