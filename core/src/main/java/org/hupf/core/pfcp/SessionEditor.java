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
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Applies the decoded rule changes of a Session Establishment or Modification Request (Create/Update/Remove
 * PDR, FAR, QER, URR; TS 29.244 §7.5.2, §7.5.4) to a session's rules. It sees typed changes only: the codec
 * has checked every IE before this runs.
 */
public final class SessionEditor {

    // The base session's own (immutable) maps until a change edits one kind: a modification copies only the kinds
    // of rule it changes, and the session it makes shares the others with the base.
    private Map<Integer, Pdr> pdrs;
    private Map<Long, Far> fars;
    private Map<Long, Qer> qers;
    private Map<Long, Urr> urrs;
    /** The kinds being edited, by Failed Rule ID type; null for a kind still as the base has it. */
    private final Rules<?, ?>[] edits = new Rules<?, ?>[4];

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

    @SuppressWarnings("unchecked")
    public Map<Integer, Pdr> pdrs() {
        if (edits[FailedRuleId.PDR] != null) {
            pdrs = ((Rules<Integer, Pdr>) edits[FailedRuleId.PDR]).build();
            edits[FailedRuleId.PDR] = null;
        }
        return pdrs;
    }

    @SuppressWarnings("unchecked")
    public Map<Long, Far> fars() {
        if (edits[FailedRuleId.FAR] != null) {
            fars = ((Rules<Long, Far>) edits[FailedRuleId.FAR]).build();
            edits[FailedRuleId.FAR] = null;
        }
        return fars;
    }

    @SuppressWarnings("unchecked")
    public Map<Long, Qer> qers() {
        if (edits[FailedRuleId.QER] != null) {
            qers = ((Rules<Long, Qer>) edits[FailedRuleId.QER]).build();
            edits[FailedRuleId.QER] = null;
        }
        return qers;
    }

    @SuppressWarnings("unchecked")
    public Map<Long, Urr> urrs() {
        if (edits[FailedRuleId.URR] != null) {
            urrs = ((Rules<Long, Urr>) edits[FailedRuleId.URR]).build();
            edits[FailedRuleId.URR] = null;
        }
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

    @SuppressWarnings("unchecked")
    private void apply(RuleChange c) throws RuleException {
        Object key = c.ruleType == FailedRuleId.PDR ? (Object) (int) c.id : (Object) c.id;
        boolean present = edits[c.ruleType] != null ? edits[c.ruleType].indexOf(key) >= 0
                : base(c.ruleType).containsKey(key);
        if (c.op == RuleChange.Op.REMOVE) {
            if (!present) {
                throw failure(c, "remove of unknown rule id " + c.id);
            }
            edit(c.ruleType).remove(key);
            return;
        }
        if (c.op == RuleChange.Op.CREATE && present) {
            throw failure(c, "rule id " + c.id + " created twice");
        }
        if (c.op == RuleChange.Op.UPDATE && !present) {
            throw failure(c, "update of unknown rule id " + c.id);
        }
        if (c instanceof PdrChange) {
            Rules<Integer, Pdr> rules = (Rules<Integer, Pdr>) edit(c.ruleType);
            PdrChange p = (PdrChange) c;
            rules.put(p.pdrId(), pdr(p, rules.get(p.pdrId())));
        } else if (c instanceof FarChange) {
            Rules<Long, Far> rules = (Rules<Long, Far>) edit(c.ruleType);
            rules.put(c.id, far((FarChange) c, rules.get(c.id)));
        } else if (c instanceof QerChange) {
            Rules<Long, Qer> rules = (Rules<Long, Qer>) edit(c.ruleType);
            rules.put(c.id, qer((QerChange) c, rules.get(c.id)));
        } else {
            Rules<Long, Urr> rules = (Rules<Long, Urr>) edit(c.ruleType);
            rules.put(c.id, urr((UrrChange) c, rules.get(c.id)));
        }
    }

    /** The rules of a Failed Rule ID type being edited, copied from the base's first if not yet. */
    private Rules<?, ?> edit(int ruleType) {
        if (edits[ruleType] == null) {
            edits[ruleType] = new Rules<>(base(ruleType));
        }
        return edits[ruleType];
    }

    /** The rules of a Failed Rule ID type as the base has them (or as last built): PDRs keyed by Integer. */
    private Map<?, ?> base(int ruleType) {
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

    /**
     * One kind of rule being edited: its entries in arrays, searched in place (a session has a few rules of each
     * kind), made into an immutable map once, without the hash table and copy a HashMap would cost.
     */
    private static final class Rules<K, V> {
        private Object[] keys;
        private Object[] values;
        private int size;

        Rules(Map<?, ?> base) {
            keys = new Object[base.size() + 2];
            values = new Object[keys.length];
            for (Map.Entry<?, ?> e : base.entrySet()) {
                keys[size] = e.getKey();
                values[size++] = e.getValue();
            }
        }

        int indexOf(Object key) {
            for (int i = 0; i < size; i++) {
                if (keys[i].equals(key)) {
                    return i;
                }
            }
            return -1;
        }

        @SuppressWarnings("unchecked")
        V get(Object key) {
            int i = indexOf(key);
            return i < 0 ? null : (V) values[i];
        }

        void put(K key, V value) {
            int i = indexOf(key);
            if (i >= 0) {
                values[i] = value;
                return;
            }
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, 2 * size);
                values = Arrays.copyOf(values, 2 * size);
            }
            keys[size] = key;
            values[size++] = value;
        }

        void remove(Object key) {
            int i = indexOf(key);
            System.arraycopy(keys, i + 1, keys, i, size - i - 1);
            System.arraycopy(values, i + 1, values, i, size - i - 1);
            size--;
        }

        @SuppressWarnings("unchecked")
        Map<K, V> build() {
            if (size <= 1) {
                return size == 0 ? Map.of() : Map.of((K) keys[0], (V) values[0]);
            }
            Map.Entry<K, V>[] entries = new Map.Entry[size];
            for (int i = 0; i < size; i++) {
                entries[i] = Map.entry((K) keys[i], (V) values[i]);
            }
            return Map.ofEntries(entries);
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
