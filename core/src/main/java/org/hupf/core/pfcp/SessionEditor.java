package org.hupf.core.pfcp;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Qer;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.Urr;
import org.hupf.core.pfcp.message.FailedRuleId;
import org.hupf.core.pfcp.message.FarChange;
import org.hupf.core.pfcp.message.ForwardingParameters;
import org.hupf.core.pfcp.message.Pdi;
import org.hupf.core.pfcp.message.PdrChange;
import org.hupf.core.pfcp.message.QerChange;
import org.hupf.core.pfcp.message.RuleChange;
import org.hupf.core.pfcp.message.SdfFilter;
import org.hupf.core.pfcp.message.UrrChange;
import org.onlab.packet.Ip4Address;

import java.net.Inet4Address;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies the decoded rule changes of a Session Establishment or Modification Request (Create/Update/Remove
 * PDR, FAR, QER, URR; TS 29.244 §7.5.2, §7.5.4) to a session's rules. It sees typed changes only: the codec
 * has checked every IE before this runs.
 */
public final class SessionEditor {

    // The base session's own (immutable) maps until a change edits one: a modification copies only the kinds of
    // rule it changes, and the session it makes shares the others with the base.
    private Map<Integer, Pdr> pdrs;
    private Map<Long, Far> fars;
    private Map<Long, Qer> qers;
    private Map<Long, Urr> urrs;
    /** The kinds of rule (Failed Rule ID types' bits) whose map is this editor's copy. */
    private int copied;

    /**
     * Starts from a session's rules, or from none.
     *
     * @param base session, or null for an establishment
     */
    public SessionEditor(PfcpSession base) {
        pdrs = base == null ? Map.of() : base.pdrs;
        fars = base == null ? Map.of() : base.fars;
        qers = base == null ? Map.of() : base.qers;
        urrs = base == null ? Map.of() : base.urrs;
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
     * Applies rule changes: removals first, then creations, then updates, each in message order.
     *
     * @param changes decoded rule changes
     * @throws RuleException an update or removal of an unknown rule, a duplicate creation, or a PDR asking
     *                       for what hupf does not do (UE address allocation)
     */
    public void apply(List<RuleChange> changes) throws RuleException {
        for (RuleChange.Op op : RuleChange.Op.values()) {
            for (int i = 0, n = changes.size(); i < n; i++) {
                RuleChange c = changes.get(i);
                if (c.op == op) {
                    apply(c);
                }
            }
        }
    }

    private void apply(RuleChange c) throws RuleException {
        Map<?, ?> rules = rules(c.ruleType);
        Object key = c.ruleType == FailedRuleId.PDR ? (Object) (int) c.id : (Object) c.id;
        if (c.op == RuleChange.Op.REMOVE) {
            if (!rules.containsKey(key)) {
                throw failure(c, "remove of unknown rule id " + c.id);
            }
            edit(c.ruleType).remove(key);
            return;
        }
        if (c.op == RuleChange.Op.CREATE && rules.containsKey(key)) {
            throw failure(c, "rule id " + c.id + " created twice");
        }
        if (c.op == RuleChange.Op.UPDATE && !rules.containsKey(key)) {
            throw failure(c, "update of unknown rule id " + c.id);
        }
        edit(c.ruleType);
        if (c instanceof PdrChange) {
            PdrChange p = (PdrChange) c;
            pdrs.put(p.pdrId(), pdr(p, pdrs.get(p.pdrId())));
        } else if (c instanceof FarChange) {
            fars.put(c.id, far((FarChange) c, fars.get(c.id)));
        } else if (c instanceof QerChange) {
            qers.put(c.id, qer((QerChange) c, qers.get(c.id)));
        } else {
            urrs.put(c.id, urr((UrrChange) c, urrs.get(c.id)));
        }
    }

    /** The rules of a Failed Rule ID type, copied from the base's first if this editor has not yet. */
    private Map<?, ?> edit(int ruleType) {
        if ((copied & 1 << ruleType) == 0) {
            copied |= 1 << ruleType;
            switch (ruleType) {
                case FailedRuleId.PDR:
                    pdrs = new HashMap<>(pdrs);
                    break;
                case FailedRuleId.FAR:
                    fars = new HashMap<>(fars);
                    break;
                case FailedRuleId.QER:
                    qers = new HashMap<>(qers);
                    break;
                default:
                    urrs = new HashMap<>(urrs);
            }
        }
        return rules(ruleType);
    }

    /** The rules of a Failed Rule ID type: PDRs keyed by Integer, the others by Long. */
    private Map<?, ?> rules(int ruleType) {
        switch (ruleType) {
            case FailedRuleId.PDR:
                return pdrs;
            case FailedRuleId.FAR:
                return fars;
            case FailedRuleId.QER:
                return qers;
            default:
                return urrs;
        }
    }

    private static RuleException failure(RuleChange c, String reason) {
        return new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, c.ruleType, c.id, reason);
    }

    private static Ip4Address ip4(Inet4Address a) {
        return a == null ? null : Ip4Address.valueOf(a.getAddress());
    }

    private static <T> T or(T value, T old) {
        return value != null ? value : old;
    }

    /** Builds a created PDR (old null) or an updated one: an absent field keeps the old value. */
    private static Pdr pdr(PdrChange c, Pdr old) throws RuleException {
        long precedence = c.precedence != null ? c.precedence : old.precedence;
        List<Long> qerIds = c.qerIds.isEmpty() && old != null ? old.qerIds : c.qerIds;
        List<Long> urrIds = c.urrIds.isEmpty() && old != null ? old.urrIds : c.urrIds;
        Integer ohr = or(c.outerHeaderRemoval, old == null ? null : old.outerHeaderRemoval);
        Long farId = or(c.farId, old == null ? null : old.farId);
        if (c.pdi == null) {
            return new Pdr(old.pdrId, precedence, old.sourceInterface, old.teid, old.tunnelAddress, old.choose,
                           old.chooseId, old.ueAddress, old.sdfFilters, old.qfi, ohr, old.networkInstance, farId,
                           qerIds, urrIds);
        }
        Pdi pdi = c.pdi;
        if (pdi.ueIpAddress != null && pdi.ueIpAddress.choose) {
            // UE addresses come from the SMF's pools; hupf does not allocate them.
            throw new RuleException(Cause.SERVICE_NOT_SUPPORTED, 0, c.id,
                                    "PDR " + c.id + ": UE IP address allocation by the UP function (CHV4)");
        }
        boolean choose = pdi.fteid != null && pdi.fteid.choose;
        Long teid = pdi.fteid == null || choose ? null : pdi.fteid.teid;
        Ip4Address tunnel = pdi.fteid == null || choose ? null : ip4(pdi.fteid.ipv4);
        List<String> sdf = pdi.sdfFilters.isEmpty() ? List.of() : new ArrayList<>();
        for (SdfFilter f : pdi.sdfFilters) {
            // Kept visible to the translator, which rejects what it cannot match on.
            sdf.add(f.otherFlags != 0 || f.flowDescription == null ? "unsupported SDF filter flags " + f.otherFlags
                            : f.flowDescription);
        }
        return new Pdr(c.pdrId(), precedence, pdi.sourceInterface, teid, tunnel, choose,
                       pdi.fteid == null ? null : pdi.fteid.chooseId,
                       pdi.ueIpAddress == null ? null : ip4(pdi.ueIpAddress.ipv4), sdf, pdi.qfi, ohr,
                       pdi.networkInstance, farId, qerIds, urrIds);
    }

    private static Far far(FarChange c, Far old) {
        int action = c.applyAction != null ? c.applyAction : old.applyAction;
        Integer bar = or(c.barId, old == null ? null : old.barId);
        Integer dst = old == null ? null : old.destinationInterface;
        Long teid = old == null ? null : old.ohcTeid;
        Ip4Address addr = old == null ? null : old.ohcAddress;
        String networkInstance = old == null ? null : old.networkInstance;
        ForwardingParameters p = c.forwarding;
        if (p != null) {
            dst = or(p.destinationInterface, dst);
            networkInstance = or(p.networkInstance, networkInstance);
            if (p.outerHeaderCreation != null) {
                teid = p.outerHeaderCreation.teid;
                addr = ip4(p.outerHeaderCreation.ipv4);
            }
        }
        return new Far(c.id, action, dst, teid, addr, bar, networkInstance);
    }

    private static Qer qer(QerChange c, Qer old) {
        boolean ulClosed = c.gateStatus != null ? c.gateStatus.uplinkClosed : old.uplinkGateClosed;
        boolean dlClosed = c.gateStatus != null ? c.gateStatus.downlinkClosed : old.downlinkGateClosed;
        return new Qer(c.id, ulClosed, dlClosed,
                       c.mbr != null ? Long.valueOf(c.mbr.uplinkKbps) : old == null ? null : old.mbrUplink,
                       c.mbr != null ? Long.valueOf(c.mbr.downlinkKbps) : old == null ? null : old.mbrDownlink,
                       c.gbr != null ? Long.valueOf(c.gbr.uplinkKbps) : old == null ? null : old.gbrUplink,
                       c.gbr != null ? Long.valueOf(c.gbr.downlinkKbps) : old == null ? null : old.gbrDownlink,
                       or(c.qfi, old == null ? null : old.qfi));
    }

    private static Urr urr(UrrChange c, Urr old) {
        // An IE in Update URR replaces the old IE as a whole (a new Volume Threshold replaces all three).
        boolean threshold = c.volumeThreshold != null;
        return new Urr(c.id, c.measurementMethod != null ? c.measurementMethod : old.measurementMethod,
                       c.reportingTriggers != null ? c.reportingTriggers : old.reportingTriggers,
                       or(c.measurementPeriod, old == null ? null : old.measurementPeriod),
                       threshold ? c.volumeThreshold.total : old == null ? null : old.volumeThresholdTotal,
                       threshold ? c.volumeThreshold.uplink : old == null ? null : old.volumeThresholdUplink,
                       threshold ? c.volumeThreshold.downlink : old == null ? null : old.volumeThresholdDownlink);
    }
}
