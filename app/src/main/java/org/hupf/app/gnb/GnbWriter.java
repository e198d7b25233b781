package org.hupf.app.gnb;

import org.hupf.core.config.GnbsParser;
import org.hupf.pipeconf.gnb.GnbRules;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Keeps each gNB switch's entries as the netcfg says: the gNB program's table entries as the app's flow rules and
 * the BaaS clone session as its CLONE group ({@link GnbRules}), written through ONOS's flow rule and group
 * services. Each sync compares ONOS's stores (not the devices: ONOS's own audits keep the devices as its stores
 * say) with the config: it writes what is missing or different on the devices it may write, and removes the
 * rules and the group of a gNB, or a UE, the config no longer has.
 */
final class GnbWriter {

    private static final Logger log = LoggerFactory.getLogger(GnbWriter.class);

    private final FlowRuleService flowRules;
    private final GroupService groups;
    private final ApplicationId appId;
    /** Devices this writer gave a clone group: a gNB gone from the config has its group removed too. */
    private final Set<DeviceId> grouped = new HashSet<>();

    GnbWriter(FlowRuleService flowRules, GroupService groups, ApplicationId appId) {
        this.flowRules = flowRules;
        this.groups = groups;
        this.appId = appId;
    }

    /** What one sync changed. */
    static final class Changes {
        int applied;
        int removed;
        int groups;

        boolean any() {
            return applied + removed + groups > 0;
        }

        @Override
        public String toString() {
            return applied + " rules written, " + removed + " removed, " + groups + " group changes";
        }
    }

    /**
     * @param gnbs     the config's gNB switches
     * @param writable whether a configured device may be written now (available, this node its master, the gNB
     *                 pipeconf on it); one that may not is left as it is
     */
    Changes sync(List<GnbsParser.Gnb> gnbs, Predicate<DeviceId> writable) {
        Map<DeviceId, GnbsParser.Gnb> wanted = new LinkedHashMap<>();
        gnbs.forEach(g -> wanted.put(g.deviceId, g));
        Map<DeviceId, Map<FlowId, FlowRule>> stored = storedByDevice();
        Set<DeviceId> devices = new HashSet<>(stored.keySet());
        devices.addAll(wanted.keySet());
        devices.addAll(grouped);
        Changes c = new Changes();
        List<FlowRule> apply = new ArrayList<>();
        List<FlowRule> remove = new ArrayList<>();
        for (DeviceId id : devices) {
            Map<FlowId, FlowRule> have = stored.getOrDefault(id, Map.of());
            GnbsParser.Gnb g = wanted.get(id);
            if (g == null) {
                remove.addAll(have.values());
                c.groups += removeGroup(id);
                continue;
            }
            if (!writable.test(id)) {
                continue;
            }
            Set<FlowId> keep = new HashSet<>();
            for (FlowRule r : GnbRules.flowRules(id, appId, g.site, g.ues)) {
                keep.add(r.id());
                FlowRule old = have.get(r.id());
                if (old == null || !old.treatment().equals(r.treatment())) {
                    apply.add(r);
                }
            }
            have.forEach((fid, r) -> {
                if (!keep.contains(fid)) {
                    remove.add(r);
                }
            });
            c.groups += ensureGroup(g);
        }
        if (!remove.isEmpty()) {
            flowRules.removeFlowRules(remove.toArray(new FlowRule[0]));
        }
        if (!apply.isEmpty()) {
            flowRules.applyFlowRules(apply.toArray(new FlowRule[0]));
        }
        c.applied = apply.size();
        c.removed = remove.size();
        return c;
    }

    /** Removes every gNB rule and clone group this app holds (the app is deactivated or uninstalled). */
    Changes removeAll() {
        return sync(List.of(), id -> false);
    }

    private Map<DeviceId, Map<FlowId, FlowRule>> storedByDevice() {
        Map<DeviceId, Map<FlowId, FlowRule>> out = new HashMap<>();
        for (FlowEntry r : flowRules.getFlowEntriesById(appId)) {
            // A removed rule stays in ONOS's store (PENDING_REMOVE) until its next flow poll: removed already.
            if (GnbRules.TABLES.contains(r.table()) && r.state() != FlowEntry.FlowEntryState.PENDING_REMOVE
                    && r.state() != FlowEntry.FlowEntryState.REMOVED) {
                out.computeIfAbsent(r.deviceId(), d -> new HashMap<>()).put(r.id(), r);
            }
        }
        return out;
    }

    private int ensureGroup(GnbsParser.Gnb g) {
        grouped.add(g.deviceId);
        Group have = groups.getGroup(g.deviceId, GnbRules.cloneKey());
        GroupBuckets want = GnbRules.cloneBuckets(g.site);
        if (have == null) {
            groups.addGroup(GnbRules.baasClone(g.deviceId, appId, g.site));
            return 1;
        }
        if (!have.buckets().equals(want)) {
            log.info("gNB {}: the BaaS clone session now to port {}", g.deviceId, g.site.baasPort());
            groups.setBucketsForGroup(g.deviceId, GnbRules.cloneKey(), want, GnbRules.cloneKey(), appId);
            return 1;
        }
        return 0;
    }

    private int removeGroup(DeviceId id) {
        grouped.remove(id);
        Group have = groups.getGroup(id, GnbRules.cloneKey());
        if (have == null || have.state() == Group.GroupState.PENDING_DELETE) {
            return 0;
        }
        groups.removeGroup(id, GnbRules.cloneKey(), appId);
        return 1;
    }
}
