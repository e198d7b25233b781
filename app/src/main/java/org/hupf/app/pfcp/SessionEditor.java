package org.hupf.app.pfcp;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Qer;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.Urr;
import org.hupf.app.pfcp.codec.DecodeException;
import org.hupf.app.pfcp.codec.Ie;
import org.hupf.app.pfcp.codec.IeReader;
import org.hupf.app.pfcp.codec.IeType;
import org.hupf.app.pfcp.codec.IeValues;
import org.onlab.packet.Ip4Address;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies the rule IEs of a Session Establishment or Modification Request (Create/Update/Remove
 * PDR, FAR, QER, URR; TS 29.244 §7.5.2, §7.5.4) to a session's rules.
 */
public final class SessionEditor {

    private final Map<Integer, Pdr> pdrs;
    private final Map<Long, Far> fars;
    private final Map<Long, Qer> qers;
    private final Map<Long, Urr> urrs;

    /**
     * Starts from a session's rules, or from none.
     *
     * @param base session, or null for an establishment
     */
    public SessionEditor(PfcpSession base) {
        pdrs = base == null ? new HashMap<>() : new HashMap<>(base.pdrs);
        fars = base == null ? new HashMap<>() : new HashMap<>(base.fars);
        qers = base == null ? new HashMap<>() : new HashMap<>(base.qers);
        urrs = base == null ? new HashMap<>() : new HashMap<>(base.urrs);
    }

    public Map<Integer, Pdr> pdrs() {
        return pdrs;
    }

    public Map<Long, Far> fars() {
        return fars;
    }

    public Map<Long, Qer> qers() {
        return qers;
    }

    public Map<Long, Urr> urrs() {
        return urrs;
    }

    /**
     * Applies the rule IEs among a message's IEs, removals first, then creations, then updates.
     *
     * @param ies top-level IEs
     * @throws DecodeException a mandatory IE missing or malformed
     * @throws RuleException   an update or removal of an unknown rule, or a duplicate creation
     */
    public void apply(List<Ie> ies) throws DecodeException, RuleException {
        for (Ie ie : ies) {
            switch (ie.type()) {
                case IeType.REMOVE_PDR:
                    remove(pdrs, (int) ie.require(IeType.PDR_ID).reader().u16(), 0);
                    break;
                case IeType.REMOVE_FAR:
                    remove(fars, ie.require(IeType.FAR_ID).reader().u32(), 1);
                    break;
                case IeType.REMOVE_QER:
                    remove(qers, ie.require(IeType.QER_ID).reader().u32(), 2);
                    break;
                case IeType.REMOVE_URR:
                    remove(urrs, ie.require(IeType.URR_ID).reader().u32(), 3);
                    break;
                default:
                    break;
            }
        }
        for (Ie ie : ies) {
            switch (ie.type()) {
                case IeType.CREATE_PDR:
                    Pdr p = createPdr(ie);
                    create(pdrs, p.pdrId, p, 0);
                    break;
                case IeType.CREATE_FAR:
                    Far f = createFar(ie);
                    create(fars, f.farId, f, 1);
                    break;
                case IeType.CREATE_QER:
                    Qer q = createQer(ie);
                    create(qers, q.qerId, q, 2);
                    break;
                case IeType.CREATE_URR:
                    Urr u = createUrr(ie);
                    create(urrs, u.urrId, u, 3);
                    break;
                default:
                    break;
            }
        }
        for (Ie ie : ies) {
            switch (ie.type()) {
                case IeType.UPDATE_PDR: {
                    int id = ie.require(IeType.PDR_ID).reader().u16();
                    pdrs.put(id, updatePdr(existing(pdrs, id, 0), ie));
                    break;
                }
                case IeType.UPDATE_FAR: {
                    long id = ie.require(IeType.FAR_ID).reader().u32();
                    fars.put(id, updateFar(existing(fars, id, 1), ie));
                    break;
                }
                case IeType.UPDATE_QER: {
                    long id = ie.require(IeType.QER_ID).reader().u32();
                    qers.put(id, qer(id, ie, existing(qers, id, 2)));
                    break;
                }
                case IeType.UPDATE_URR: {
                    long id = ie.require(IeType.URR_ID).reader().u32();
                    urrs.put(id, urr(id, ie, existing(urrs, id, 3)));
                    break;
                }
                default:
                    break;
            }
        }
    }

    private static <K, V> void remove(Map<K, V> rules, K id, int ruleType) throws RuleException {
        if (rules.remove(id) == null) {
            throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, ruleType, ((Number) id).longValue(),
                                    "remove of unknown rule id " + id);
        }
    }

    private static <K, V> void create(Map<K, V> rules, K id, V rule, int ruleType) throws RuleException {
        if (rules.putIfAbsent(id, rule) != null) {
            throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, ruleType, ((Number) id).longValue(),
                                    "rule id " + id + " created twice");
        }
    }

    private static <K, V> V existing(Map<K, V> rules, K id, int ruleType) throws RuleException {
        V v = rules.get(id);
        if (v == null) {
            throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, ruleType, ((Number) id).longValue(),
                                    "update of unknown rule id " + id);
        }
        return v;
    }

    private static Ip4Address ip4(java.net.Inet4Address a) {
        return a == null ? null : Ip4Address.valueOf(a.getAddress());
    }

    private static List<Long> ids(Ie group, int type) throws DecodeException {
        List<Long> out = new ArrayList<>();
        for (Ie ie : group.all(type)) {
            out.add(ie.reader().u32());
        }
        return out;
    }

    static Pdr createPdr(Ie ie) throws DecodeException, RuleException {
        int id = ie.require(IeType.PDR_ID).reader().u16();
        long precedence = ie.require(IeType.PRECEDENCE).reader().u32();
        Ie pdi = ie.require(IeType.PDI);
        return pdi(id, precedence, pdi, ie);
    }

    private static Pdr pdi(int id, long precedence, Ie pdi, Ie pdr) throws DecodeException, RuleException {
        int src = IeValues.iface(pdi.require(IeType.SOURCE_INTERFACE));
        Long teid = null;
        Ip4Address tunnel = null;
        boolean choose = false;
        Integer chooseId = null;
        Ie fteidIe = pdi.child(IeType.F_TEID);
        if (fteidIe != null) {
            IeValues.FTeid f = IeValues.FTeid.decode(fteidIe);
            choose = f.choose;
            chooseId = f.chooseId;
            if (!f.choose) {
                teid = f.teid;
                tunnel = ip4(f.ipv4);
            }
        }
        Ie ueIe = pdi.child(IeType.UE_IP_ADDRESS);
        IeValues.UeIpAddress ueIp = ueIe == null ? null : IeValues.UeIpAddress.decode(ueIe);
        if (ueIp != null && ueIp.choose) {
            // UE addresses come from the SMF's pools; hupf does not allocate them.
            throw new RuleException(Cause.SERVICE_NOT_SUPPORTED, 0, id,
                                    "PDR " + id + ": UE IP address allocation by the UP function (CHV4)");
        }
        Ip4Address ue = ueIp == null ? null : ip4(ueIp.ipv4);
        List<String> sdf = new ArrayList<>();
        for (Ie f : pdi.all(IeType.SDF_FILTER)) {
            IeValues.SdfFilter filter = IeValues.SdfFilter.decode(f);
            if (filter.otherFlags != 0 || filter.flowDescription == null) {
                // Kept visible to the translator, which rejects what it cannot match on.
                sdf.add("unsupported SDF filter flags " + filter.otherFlags);
            } else {
                sdf.add(filter.flowDescription);
            }
        }
        Ie qfiIe = pdi.child(IeType.QFI);
        Integer qfi = qfiIe == null ? null : qfiIe.reader().u8() & 0x3f;
        Ie ni = pdi.child(IeType.NETWORK_INSTANCE);
        Ie ohr = pdr.child(IeType.OUTER_HEADER_REMOVAL);
        Ie far = pdr.child(IeType.FAR_ID);
        return new Pdr(id, precedence, src, teid, tunnel, choose, chooseId, ue, sdf, qfi,
                       ohr == null ? null : ohr.reader().u8(),
                       ni == null ? null : IeValues.networkInstance(ni),
                       far == null ? null : far.reader().u32(), ids(pdr, IeType.QER_ID), ids(pdr, IeType.URR_ID));
    }

    private static Pdr updatePdr(Pdr old, Ie ie) throws DecodeException, RuleException {
        Ie precIe = ie.child(IeType.PRECEDENCE);
        long precedence = precIe == null ? old.precedence : precIe.reader().u32();
        Ie pdi = ie.child(IeType.PDI);
        Pdr base = pdi == null ? old : pdi(old.pdrId, precedence, pdi, ie);
        Ie ohr = ie.child(IeType.OUTER_HEADER_REMOVAL);
        Ie far = ie.child(IeType.FAR_ID);
        List<Long> qerIds = ie.all(IeType.QER_ID).isEmpty() ? old.qerIds : ids(ie, IeType.QER_ID);
        List<Long> urrIds = ie.all(IeType.URR_ID).isEmpty() ? old.urrIds : ids(ie, IeType.URR_ID);
        return new Pdr(old.pdrId, precedence, base.sourceInterface,
                       pdi == null ? old.teid : base.teid, pdi == null ? old.tunnelAddress : base.tunnelAddress,
                       base.choose, base.chooseId, base.ueAddress, base.sdfFilters, base.qfi,
                       ohr == null ? old.outerHeaderRemoval : Integer.valueOf(ohr.reader().u8()),
                       base.networkInstance, far == null ? old.farId : Long.valueOf(far.reader().u32()),
                       qerIds, urrIds);
    }

    static Far createFar(Ie ie) throws DecodeException {
        long id = ie.require(IeType.FAR_ID).reader().u32();
        int action = IeValues.flags(ie.require(IeType.APPLY_ACTION), 1);
        return forwarding(id, action, ie.child(IeType.FORWARDING_PARAMETERS), null, barId(ie));
    }

    private static Integer barId(Ie ie) throws DecodeException {
        Ie bar = ie.child(IeType.BAR_ID);
        return bar == null ? null : bar.reader().u8();
    }

    private static Far forwarding(long id, int action, Ie params, Far old, Integer bar) throws DecodeException {
        Integer dst = old == null ? null : old.destinationInterface;
        Long teid = old == null ? null : old.ohcTeid;
        Ip4Address addr = old == null ? null : old.ohcAddress;
        if (params != null) {
            Ie dstIe = params.child(IeType.DESTINATION_INTERFACE);
            if (dstIe != null) {
                dst = IeValues.iface(dstIe);
            } else if (old == null) {
                throw new DecodeException(DecodeException.Kind.MANDATORY_IE_MISSING, IeType.DESTINATION_INTERFACE,
                                          -1, "mandatory IE missing in Forwarding Parameters");
            }
            Ie ohc = params.child(IeType.OUTER_HEADER_CREATION);
            if (ohc != null) {
                IeValues.OuterHeaderCreation h = IeValues.OuterHeaderCreation.decode(ohc);
                if (h.description != IeValues.OuterHeaderCreation.GTPU_UDP_IPV4) {
                    IeReader r = ohc.reader();
                    throw r.incorrect("only GTP-U/UDP/IPv4 outer header creation is supported, got description 0x"
                                              + Integer.toHexString(h.description));
                }
                teid = h.teid;
                addr = ip4(h.ipv4);
            }
        }
        return new Far(id, action, dst, teid, addr, bar);
    }

    private static Far updateFar(Far old, Ie ie) throws DecodeException {
        Ie actionIe = ie.child(IeType.APPLY_ACTION);
        int action = actionIe == null ? old.applyAction : IeValues.flags(actionIe, 1);
        Integer bar = barId(ie);
        return forwarding(old.farId, action, ie.child(IeType.UPDATE_FORWARDING_PARAMETERS), old,
                          bar == null ? old.barId : bar);
    }

    static Qer createQer(Ie ie) throws DecodeException {
        long id = ie.require(IeType.QER_ID).reader().u32();
        ie.require(IeType.GATE_STATUS);
        return qer(id, ie, null);
    }

    private static Qer qer(long id, Ie ie, Qer old) throws DecodeException {
        Ie gate = ie.child(IeType.GATE_STATUS);
        boolean[] closed = gate == null ? new boolean[]{old.uplinkGateClosed, old.downlinkGateClosed}
                : IeValues.gateClosed(gate);
        Ie mbrIe = ie.child(IeType.MBR);
        IeValues.BitRate mbr = mbrIe == null ? null : IeValues.BitRate.decode(mbrIe);
        Ie gbrIe = ie.child(IeType.GBR);
        IeValues.BitRate gbr = gbrIe == null ? null : IeValues.BitRate.decode(gbrIe);
        Ie qfiIe = ie.child(IeType.QFI);
        Integer qfi = qfiIe == null ? (old == null ? null : old.qfi) : Integer.valueOf(qfiIe.reader().u8() & 0x3f);
        return new Qer(id, closed[0], closed[1],
                       mbr != null ? Long.valueOf(mbr.uplinkKbps) : old == null ? null : old.mbrUplink,
                       mbr != null ? Long.valueOf(mbr.downlinkKbps) : old == null ? null : old.mbrDownlink,
                       gbr != null ? Long.valueOf(gbr.uplinkKbps) : old == null ? null : old.gbrUplink,
                       gbr != null ? Long.valueOf(gbr.downlinkKbps) : old == null ? null : old.gbrDownlink, qfi);
    }

    static Urr createUrr(Ie ie) throws DecodeException {
        long id = ie.require(IeType.URR_ID).reader().u32();
        ie.require(IeType.MEASUREMENT_METHOD);
        ie.require(IeType.REPORTING_TRIGGERS);
        return urr(id, ie, null);
    }

    private static Urr urr(long id, Ie ie, Urr old) throws DecodeException {
        Ie mm = ie.child(IeType.MEASUREMENT_METHOD);
        Ie rt = ie.child(IeType.REPORTING_TRIGGERS);
        Ie mp = ie.child(IeType.MEASUREMENT_PERIOD);
        Ie vt = ie.child(IeType.VOLUME_THRESHOLD);
        IeValues.Volume v = vt == null ? null : IeValues.Volume.decode(vt);
        return new Urr(id, mm == null ? old.measurementMethod : IeValues.flags(mm, 1),
                       rt == null ? old.reportingTriggers : IeValues.flags(rt, 2),
                       mp != null ? Long.valueOf(mp.reader().u32()) : old == null ? null : old.measurementPeriod,
                       v != null ? v.total : old == null ? null : old.volumeThresholdTotal,
                       v != null ? v.uplink : old == null ? null : old.volumeThresholdUplink,
                       v != null ? v.downlink : old == null ? null : old.volumeThresholdDownlink);
    }
}
