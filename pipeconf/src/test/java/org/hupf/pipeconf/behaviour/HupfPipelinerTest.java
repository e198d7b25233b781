package org.hupf.pipeconf.behaviour;

import org.easymock.Capture;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onlab.packet.VlanId;
import org.onosproject.TestApplicationId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.behaviour.NextGroup;
import org.onosproject.net.behaviour.PipelinerContext;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criteria;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.flowobjective.DefaultFilteringObjective;
import org.onosproject.net.flowobjective.DefaultForwardingObjective;
import org.onosproject.net.flowobjective.DefaultNextObjective;
import org.onosproject.net.flowobjective.FlowObjectiveStore;
import org.onosproject.net.flowobjective.FlowObjectiveStoreDelegate;
import org.onosproject.net.flowobjective.ForwardingObjective;
import org.onosproject.net.flowobjective.Objective;
import org.onosproject.net.flowobjective.ObjectiveContext;
import org.onosproject.net.flowobjective.ObjectiveError;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.group.GroupServiceAdapter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.easymock.EasyMock.capture;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expectLastCall;
import static org.easymock.EasyMock.newCapture;
import static org.easymock.EasyMock.replay;
import static org.easymock.EasyMock.verify;
import static org.hupf.pipeconf.HupfConstants.CPU_CLONE_SESSION_ID;
import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_ACL_ACL;
import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_ROUTING_ROUTES_V4;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

/**
 * Objectives of ONOS core apps on hupf: installed as ACL or route flow rules, or refused with an error.
 */
public class HupfPipelinerTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:hupf1");
    private static final ApplicationId APP = new TestApplicationId("org.onosproject.core");

    private FlowRuleService flowRules;
    private HupfPipeliner pipeliner;
    private final Map<Integer, NextGroup> nexts = new HashMap<>();
    private ObjectiveError error;
    private boolean success;

    private final ObjectiveContext context = new ObjectiveContext() {
        @Override
        public void onSuccess(Objective objective) {
            success = true;
        }

        @Override
        public void onError(Objective objective, ObjectiveError e) {
            error = e;
        }
    };

    /** The next-group store, in memory. */
    private final FlowObjectiveStore store = new FlowObjectiveStore() {
        @Override
        public void putNextGroup(Integer id, NextGroup g) {
            nexts.put(id, g);
        }

        @Override
        public NextGroup getNextGroup(Integer id) {
            return nexts.get(id);
        }

        @Override
        public NextGroup removeNextGroup(Integer id) {
            return nexts.remove(id);
        }

        @Override
        public Map<Integer, NextGroup> getAllGroups() {
            return nexts;
        }

        @Override
        public int allocateNextId() {
            return nexts.size() + 1;
        }

        @Override
        public void setDelegate(FlowObjectiveStoreDelegate d) {
        }

        @Override
        public void unsetDelegate(FlowObjectiveStoreDelegate d) {
        }

        @Override
        public boolean hasDelegate() {
            return false;
        }
    };

    private final List<GroupDescription> addedGroups = new ArrayList<>();
    private final GroupService groups = new GroupServiceAdapter() {
        @Override
        public void addGroup(GroupDescription d) {
            addedGroups.add(d);
        }
    };
    private final CoreService core = new CoreServiceAdapter() {
        @Override
        public ApplicationId registerApplication(String name) {
            return new TestApplicationId(name);
        }
    };

    @Before
    public void setUp() {
        flowRules = createMock(FlowRuleService.class);
        pipeliner = new HupfPipeliner();
        pipeliner.init(DEV, new PipelinerContext() {
            @Override
            public org.onlab.osgi.ServiceDirectory directory() {
                return new org.onlab.osgi.ServiceDirectory() {
                    @Override
                    public <T> T get(Class<T> c) {
                        if (c == GroupService.class) {
                            return c.cast(groups);
                        } else if (c == CoreService.class) {
                            return c.cast(core);
                        }
                        return c.cast(flowRules);
                    }
                };
            }

            @Override
            public FlowObjectiveStore store() {
                return store;
            }
        });
    }

    @Test
    public void initCreatesTheCpuCloneSession() {
        assertEquals(1, addedGroups.size());
        GroupDescription g = addedGroups.get(0);
        assertEquals(GroupDescription.Type.CLONE, g.type());
        assertEquals(Integer.valueOf(CPU_CLONE_SESSION_ID), g.givenGroupId());
        assertEquals(PortNumber.CONTROLLER, ((Instructions.OutputInstruction) g.buckets().buckets().get(0)
                .treatment().allInstructions().get(0)).port());
    }

    @Test
    public void arpPacketRequestBecomesAnAclPunt() {
        Capture<FlowRule> rule = newCapture();
        flowRules.applyFlowRules(capture(rule));
        expectLastCall();
        replay(flowRules);
        pipeliner.forward(DefaultForwardingObjective.builder().withFlag(ForwardingObjective.Flag.VERSATILE)
                                  .withSelector(DefaultTrafficSelector.builder().matchEthType(Ethernet.TYPE_ARP).build())
                                  .withTreatment(DefaultTrafficTreatment.builder().punt().wipeDeferred().build())
                                  .withPriority(40000).fromApp(APP).makePermanent().add(context));
        verify(flowRules);
        assertEquals(true, success);
        assertEquals(HUPF_INGRESS_ACL_ACL, rule.getValue().table());
        assertEquals(40000, rule.getValue().priority());
        assertEquals(DEV, rule.getValue().deviceId());
    }

    @Test
    public void vlanMatchIsRefusedNotThrown() {
        replay(flowRules);
        pipeliner.forward(DefaultForwardingObjective.builder().withFlag(ForwardingObjective.Flag.VERSATILE)
                                  .withSelector(DefaultTrafficSelector.builder().matchVlanId(VlanId.vlanId((short) 5))
                                                        .build())
                                  .withTreatment(DefaultTrafficTreatment.builder().punt().build())
                                  .withPriority(10).fromApp(APP).makePermanent().add(context));
        verify(flowRules);
        assertEquals(ObjectiveError.UNSUPPORTED, error);
    }

    @Test
    public void routeThroughASimpleNext() {
        TrafficTreatment hop = DefaultTrafficTreatment.builder().setEthSrc(MacAddress.valueOf("02:00:00:00:00:01"))
                .setEthDst(MacAddress.valueOf("02:00:00:00:00:02")).setOutput(PortNumber.portNumber(3)).build();
        pipeliner.next(DefaultNextObjective.builder().withId(7).withType(
                org.onosproject.net.flowobjective.NextObjective.Type.SIMPLE).addTreatment(hop).fromApp(APP)
                               .add(context));
        assertEquals(true, success);
        Capture<FlowRule> rule = newCapture();
        flowRules.applyFlowRules(capture(rule));
        expectLastCall();
        replay(flowRules);
        pipeliner.forward(DefaultForwardingObjective.builder().withFlag(ForwardingObjective.Flag.SPECIFIC)
                                  .withSelector(DefaultTrafficSelector.builder().matchEthType(Ethernet.TYPE_IPV4)
                                                        .matchIPDst(IpPrefix.valueOf("10.1.0.0/16")).build())
                                  .nextStep(7).withPriority(100).fromApp(APP).makePermanent().add(context));
        verify(flowRules);
        assertNull(error);
        assertEquals(HUPF_INGRESS_ROUTING_ROUTES_V4, rule.getValue().table());
        assertEquals(1, rule.getValue().selector().criteria().size());
        assertEquals(hop, rule.getValue().treatment());
    }

    @Test
    public void unknownNextIsGroupMissing() {
        replay(flowRules);
        pipeliner.forward(DefaultForwardingObjective.builder().withFlag(ForwardingObjective.Flag.SPECIFIC)
                                  .withSelector(DefaultTrafficSelector.builder()
                                                        .matchIPDst(IpPrefix.valueOf("10.1.0.0/16")).build())
                                  .nextStep(99).withPriority(100).fromApp(APP).makePermanent().add(context));
        assertEquals(ObjectiveError.GROUPMISSING, error);
    }

    @Test
    public void hashedNextIsUnsupported() {
        pipeliner.next(DefaultNextObjective.builder().withId(8).withType(
                org.onosproject.net.flowobjective.NextObjective.Type.HASHED)
                               .addTreatment(DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(1)).build())
                               .fromApp(APP).add(context));
        assertEquals(ObjectiveError.UNSUPPORTED, error);
    }

    @Test
    public void permitFilterSucceedsDenyIsRefused() {
        pipeliner.filter(DefaultFilteringObjective.builder().permit().withKey(Criteria.matchInPort(PortNumber.P0))
                                 .addCondition(Criteria.matchEthDst(MacAddress.BROADCAST)).fromApp(APP)
                                 .withPriority(10).add(context));
        assertEquals(true, success);
        pipeliner.filter(DefaultFilteringObjective.builder().deny().withKey(Criteria.matchInPort(PortNumber.P0))
                                 .addCondition(Criteria.matchEthDst(MacAddress.BROADCAST)).fromApp(APP)
                                 .withPriority(10).add(context));
        assertEquals(ObjectiveError.UNSUPPORTED, error);
    }
}
