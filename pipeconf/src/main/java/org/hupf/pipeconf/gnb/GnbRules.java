package org.hupf.pipeconf.gnb;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.TableId;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.hupf.pipeconf.gnb.GnbConstants.BAAS_CLONE_SESSION_ID;
import static org.hupf.pipeconf.gnb.GnbConstants.HUPF_GNB_INGRESS_AIR;
import static org.hupf.pipeconf.gnb.GnbConstants.HUPF_GNB_INGRESS_DL_UES;
import static org.hupf.pipeconf.gnb.GnbConstants.HUPF_GNB_INGRESS_PORTS;
import static org.hupf.pipeconf.gnb.GnbConstants.HUPF_GNB_INGRESS_SERVICES;
import static org.hupf.pipeconf.gnb.GnbConstants.HUPF_GNB_INGRESS_UL_TUNNELS;
import static org.hupf.pipeconf.gnb.GnbConstants.HUPF_GNB_INGRESS_UL_UES;

/**
 * A gNB switch's entries ({@link GnbEntries}) as ONOS writes them through the {@code org.hupf.gnb.bmv2} pipeconf:
 * the table entries as flow rules (PI criteria and actions; the keyless {@code services} table's as a rule with an
 * empty selector, which ONOS writes as the table's default action), the BaaS clone session as a CLONE group whose
 * id is the session's.
 */
public final class GnbRules {

    /** Every table of the program matches exact keys only, where P4Runtime takes no priority. */
    static final int PRIORITY = 10;

    /** The gNB program's tables: the rules of these tables are the gNB's. */
    public static final Set<TableId> TABLES = Set.of(HUPF_GNB_INGRESS_PORTS, HUPF_GNB_INGRESS_SERVICES,
                                                     HUPF_GNB_INGRESS_DL_UES, HUPF_GNB_INGRESS_AIR,
                                                     HUPF_GNB_INGRESS_UL_UES, HUPF_GNB_INGRESS_UL_TUNNELS);

    private GnbRules() {
    }

    /**
     * @throws IllegalArgumentException as {@link GnbEntries#all} refuses a site and UEs
     */
    public static List<FlowRule> flowRules(DeviceId device, ApplicationId appId, GnbSite site, List<GnbUe> ues) {
        List<FlowRule> rules = new ArrayList<>();
        for (PiEntity e : GnbEntries.all(site, ues)) {
            if (e instanceof PiTableEntry) {
                rules.add(flowRule((PiTableEntry) e, device, appId));
            }
        }
        return rules;
    }

    static FlowRule flowRule(PiTableEntry e, DeviceId device, ApplicationId appId) {
        TrafficSelector.Builder selector = DefaultTrafficSelector.builder();
        if (!e.matchKey().fieldMatches().isEmpty()) {
            PiCriterion.Builder c = PiCriterion.builder();
            e.matchKey().fieldMatches().forEach(c::add);
            selector.matchPi(c.build());
        }
        return DefaultFlowRule.builder().forDevice(device).forTable(e.table()).fromApp(appId)
                .withSelector(selector.build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(e.action()).build())
                .withPriority(PRIORITY).makePermanent().build();
    }

    /** The BaaS clone session's group key on every gNB device. */
    public static GroupKey cloneKey() {
        return new DefaultGroupKey(ByteBuffer.allocate(Integer.BYTES).putInt(BAAS_CLONE_SESSION_ID).array());
    }

    /** The BaaS clone session: one copy of each protected downlink PDU out of the site's BaaS port. */
    public static GroupDescription baasClone(DeviceId device, ApplicationId appId, GnbSite site) {
        return new DefaultGroupDescription(device, GroupDescription.Type.CLONE, cloneBuckets(site), cloneKey(),
                                           BAAS_CLONE_SESSION_ID, appId);
    }

    public static GroupBuckets cloneBuckets(GnbSite site) {
        return new GroupBuckets(List.of(DefaultGroupBucket.createCloneGroupBucket(
                DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(site.baasPort())).build())));
    }
}
