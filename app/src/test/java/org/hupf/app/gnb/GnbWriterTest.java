package org.hupf.app.gnb;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.core.config.GnbsParser;
import org.hupf.pipeconf.gnb.GnbConstants;
import org.hupf.pipeconf.gnb.GnbRules;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowEntry;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupServiceAdapter;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The gNB switches' entries follow the netcfg: written from it on a writable device, the changed ones rewritten,
 * a UE's and a gNB's removed with them, none written to a device that may not be, all removed when the app goes.
 */
public class GnbWriterTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, "org.hupf.app");
    private static final DeviceId GNB = DeviceId.deviceId("device:gnb:g1");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** ONOS's flow store: a rule applied is stored (ADDED), a rule removed is gone. */
    private static final class Flows extends FlowRuleServiceAdapter {
        final Map<FlowId, FlowEntry> stored = new HashMap<>();
        int applies;
        int removed;

        @Override
        public Iterable<FlowEntry> getFlowEntriesById(ApplicationId id) {
            return List.copyOf(stored.values());
        }

        @Override
        public void applyFlowRules(FlowRule... rules) {
            applies++;
            for (FlowRule r : rules) {
                stored.put(r.id(), new DefaultFlowEntry(r, FlowEntry.FlowEntryState.ADDED, 0, 0, 0));
            }
        }

        /** As ONOS until its flow poll: a removed rule stays, PENDING_REMOVE. */
        @Override
        public void removeFlowRules(FlowRule... rules) {
            for (FlowRule r : rules) {
                removed++;
                stored.put(r.id(), new DefaultFlowEntry(r, FlowEntry.FlowEntryState.PENDING_REMOVE, 0, 0, 0));
            }
        }

        /** ONOS's flow poll: what the devices no longer hold leaves the store. */
        void poll() {
            stored.values().removeIf(r -> r.state() == FlowEntry.FlowEntryState.PENDING_REMOVE);
        }

        long inTable(Object table) {
            return stored.values().stream().filter(r -> r.table().equals(table)).count();
        }
    }

    private static final class Groups extends GroupServiceAdapter {
        final Map<DeviceId, Group> held = new HashMap<>();

        @Override
        public Group getGroup(DeviceId deviceId, GroupKey key) {
            Group g = held.get(deviceId);
            return g != null && g.appCookie().equals(key) ? g : null;
        }

        @Override
        public void addGroup(GroupDescription d) {
            held.put(d.deviceId(), new DefaultGroup(new GroupId(d.givenGroupId()), d));
        }

        @Override
        public void setBucketsForGroup(DeviceId deviceId, GroupKey oldKey, GroupBuckets buckets, GroupKey newKey,
                                       ApplicationId appId) {
            Group g = held.get(deviceId);
            held.put(deviceId, new DefaultGroup(g.id(), new DefaultGroupDescription(
                    deviceId, g.type(), buckets, newKey, g.givenGroupId(), appId)));
        }

        int removes;

        /** As ONOS until the device answered: the group stays, PENDING_DELETE. */
        @Override
        public void removeGroup(DeviceId deviceId, GroupKey key, ApplicationId appId) {
            removes++;
            DefaultGroup g = new DefaultGroup(held.get(deviceId).id(), held.get(deviceId));
            g.setState(Group.GroupState.PENDING_DELETE);
            held.put(deviceId, g);
        }
    }

    private final Flows flows = new Flows();
    private final Groups groups = new Groups();
    private final GnbWriter writer = new GnbWriter(flows, groups, APP);

    private static List<GnbsParser.Gnb> config(ObjectNode root) {
        return GnbsParser.gnbs(root);
    }

    /** The vectors' gNB (tests/gnb/gnb_vectors.py) as the netcfg block gives it. */
    static final String BLOCK = "{\"gnbs\": [{\"deviceId\": \"device:gnb:g1\", \"gnb\": {"
            + "\"n3\": {\"port\": 0, \"addr\": \"10.0.3.1\", \"mac\": \"02:00:00:00:03:01\", "
            + "\"upfMac\": \"02:00:00:00:03:02\"}, \"cryptoPort\": 2, \"baasPort\": 3, "
            + "\"airMac\": \"02:00:00:00:01:01\"}, \"ues\": ["
            + "{\"ue\": 0, \"port\": 1, \"mac\": \"02:00:00:00:01:10\", \"lcid\": 4, \"snBits\": 12, "
            + "\"dlTeid\": 256, \"ulTeid\": 512, \"qfi\": 9, \"upfAddr\": \"10.0.3.2\"}, "
            + "{\"ue\": 1, \"port\": 1, \"mac\": \"02:00:00:00:01:11\", \"lcid\": 5, \"snBits\": 18, "
            + "\"dlTeid\": 257, \"ulTeid\": 513, \"qfi\": 5, \"upfAddr\": \"10.0.3.2\"}]}]}";

    private static ObjectNode block() {
        try {
            return (ObjectNode) JSON.readTree(BLOCK);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    public void writesEveryEntryOfTheConfigAndTheCloneSession() {
        GnbWriter.Changes c = writer.sync(config(block()), id -> true);
        // 3 port roles + 1 air port, the services default, 4 per UE
        assertEquals(4 + 1 + 8, c.applied);
        assertEquals(13, flows.stored.size());
        assertTrue(flows.stored.values().stream().allMatch(r -> r.deviceId().equals(GNB) && r.appId() == APP.id()));
        assertEquals(2, flows.inTable(GnbConstants.HUPF_GNB_INGRESS_DL_UES));
        FlowEntry services = flows.stored.values().stream()
                .filter(r -> r.table().equals(GnbConstants.HUPF_GNB_INGRESS_SERVICES)).findFirst().orElseThrow();
        assertTrue("the keyless table's rule is its default action", services.selector().criteria().isEmpty());
        Group clone = groups.getGroup(GNB, GnbRules.cloneKey());
        assertNotNull(clone);
        assertEquals(GroupDescription.Type.CLONE, clone.type());
        assertEquals(Integer.valueOf(GnbConstants.BAAS_CLONE_SESSION_ID), clone.givenGroupId());

        assertTrue("a second sync writes nothing", !writer.sync(config(block()), id -> true).any());
        assertEquals(1, flows.applies);
    }

    @Test
    public void rewritesWhatChangedAndRemovesAUeGoneFromTheConfig() {
        writer.sync(config(block()), id -> true);
        ObjectNode changed = block();
        ObjectNode ues = (ObjectNode) changed.get(GnbsParser.GNBS).get(0);
        ((ObjectNode) ues.get("ues").get(0)).put("ulTeid", 0x300);
        ues.withArray("ues").remove(1);
        ((ObjectNode) ues.get("gnb")).put("baasPort", 4);

        GnbWriter.Changes c = writer.sync(config(changed), id -> true);
        flows.poll();
        // UE 0's tunnel, the BaaS port's role and the services' default; UE 1's 4 rules and port 3's role go
        assertEquals(3, c.applied);
        assertEquals(5, c.removed);
        assertEquals(1, c.groups);
        assertEquals(1, flows.inTable(GnbConstants.HUPF_GNB_INGRESS_UL_TUNNELS));
        FlowEntry tunnel = flows.stored.values().stream()
                .filter(r -> r.table().equals(GnbConstants.HUPF_GNB_INGRESS_UL_TUNNELS)).findFirst().orElseThrow();
        PiAction a = (PiAction) ((PiInstruction) tunnel.treatment().allInstructions().get(0)).action();
        PiActionParam teid = a.parameters().stream().filter(p -> p.id().equals(GnbConstants.TEID)).findFirst()
                .orElseThrow();
        assertEquals(0x300, teid.value().asReadOnlyBuffer().getLong());
        assertEquals("4", groups.getGroup(GNB, GnbRules.cloneKey()).buckets().buckets().get(0).treatment()
                .allInstructions().get(0).toString().replaceAll("\\D+", ""));
    }

    @Test
    public void writesNothingToADeviceItMayNotWrite() {
        GnbWriter.Changes c = writer.sync(config(block()), id -> false);
        assertTrue(!c.any());
        assertTrue(flows.stored.isEmpty());
        assertNull(groups.getGroup(GNB, GnbRules.cloneKey()));
    }

    @Test
    public void removesAGnbGoneFromTheConfigAndAllWhenTheAppGoes() {
        writer.sync(config(block()), id -> true);
        GnbWriter.Changes c = writer.sync(List.of(), id -> true);
        assertEquals(13, c.removed);
        assertEquals(Group.GroupState.PENDING_DELETE, groups.getGroup(GNB, GnbRules.cloneKey()).state());
        assertTrue("removed already: not removed again before ONOS's poll", !writer.sync(List.of(), id -> true).any());
        assertEquals(13, flows.removed);
        assertEquals(1, groups.removes);
        flows.poll();
        groups.held.clear();
        assertTrue(flows.stored.isEmpty());

        writer.sync(config(block()), id -> true);
        Set<Object> tables = flows.stored.values().stream().map(FlowRule::table).collect(Collectors.toSet());
        assertEquals(GnbRules.TABLES, tables);
        c = writer.removeAll();
        assertEquals(13, c.removed);
        assertEquals(1, c.groups);
        flows.poll();
        assertTrue(flows.stored.isEmpty());
        assertEquals(Group.GroupState.PENDING_DELETE, groups.getGroup(GNB, GnbRules.cloneKey()).state());
    }
}
