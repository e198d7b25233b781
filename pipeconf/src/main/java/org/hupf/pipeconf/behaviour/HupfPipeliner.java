package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.packet.CpuCloneGroup;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.behaviour.DefaultNextGroup;
import org.onosproject.net.behaviour.NextGroup;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.behaviour.PipelinerContext;
import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.EthTypeCriterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.flow.instructions.L2ModificationInstruction;
import org.onosproject.net.flowobjective.FilteringObjective;
import org.onosproject.net.flowobjective.FlowObjectiveStore;
import org.onosproject.net.flowobjective.ForwardingObjective;
import org.onosproject.net.flowobjective.NextObjective;
import org.onosproject.net.flowobjective.Objective;
import org.onosproject.net.flowobjective.ObjectiveError;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiTableId;

import java.nio.ByteBuffer;
import java.util.List;

import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_ACL_ACL;
import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_ROUTING_ROUTES_V4;

/**
 * Flow objectives of the ONOS core and standard apps on hupf devices:
 * <ul>
 * <li>VERSATILE forwarding (packet requests: ARP, LLDP/BDDP, ...) becomes an ACL entry (punt, copy, drop);</li>
 * <li>SPECIFIC forwarding on an IPv4 destination becomes a {@code routes_v4} entry, with the route's
 *     MACs and port from the treatment or from a SIMPLE next objective;</li>
 * <li>PERMIT filtering objectives need nothing (hupf does not filter by MAC/VLAN) and succeed.</li>
 * </ul>
 * Anything else fails with an {@link ObjectiveError} saying what; nothing throws.
 */
public class HupfPipeliner extends AbstractHandlerBehaviour implements Pipeliner {

    private static final String APP_NAME = HupfP4RuntimeBehaviour.APP_NAME;
    private static final int NEXT_BYTES = 2 * MacAddress.MAC_ADDRESS_LENGTH + Long.BYTES;

    private DeviceId deviceId;
    private FlowRuleService flowRules;
    private FlowObjectiveStore store;

    /**
     * Also creates the CPU clone session (ACL copies, HH reports) as an ONOS clone group, CONTROLLER
     * being mapped to the CPU port by the interpreter.
     */
    @Override
    public void init(DeviceId deviceId, PipelinerContext context) {
        this.deviceId = deviceId;
        this.flowRules = context.directory().get(FlowRuleService.class);
        this.store = context.store();
        GroupService groups = context.directory().get(GroupService.class);
        if (groups.getGroup(deviceId, CpuCloneGroup.key()) == null) {
            ApplicationId app = context.directory().get(CoreService.class).registerApplication(APP_NAME);
            groups.addGroup(CpuCloneGroup.of(deviceId, app));
        }
    }

    @Override
    public void filter(FilteringObjective obj) {
        if (obj.type() == FilteringObjective.Type.PERMIT) {
            succeed(obj);
        } else {
            fail(obj, ObjectiveError.UNSUPPORTED, "hupf has no DENY filtering: use an ACL drop");
        }
    }

    @Override
    public void forward(ForwardingObjective obj) {
        try {
            FlowRule rule = obj.flag() == ForwardingObjective.Flag.VERSATILE ? aclRule(obj) : routeRule(obj);
            if (obj.op() == Objective.Operation.REMOVE) {
                flowRules.removeFlowRules(rule);
            } else {
                flowRules.applyFlowRules(rule);
            }
            succeed(obj);
        } catch (ObjectiveException e) {
            fail(obj, e.error, e.getMessage());
        }
    }

    private FlowRule aclRule(ForwardingObjective obj) throws ObjectiveException {
        PiPipelineInterpreter interpreter = new HupfInterpreter();
        for (Criterion c : obj.selector().criteria()) {
            if (interpreter.mapCriterionType(c.type()).isEmpty()) {
                throw new ObjectiveException(ObjectiveError.UNSUPPORTED, "ACL cannot match " + c);
            }
        }
        if (obj.treatment() == null) {
            throw new ObjectiveException(ObjectiveError.BADPARAMS, "VERSATILE objective without treatment");
        }
        try {
            HupfInterpreter.aclAction(obj.treatment());
        } catch (PiPipelineInterpreter.PiInterpreterException e) {
            throw new ObjectiveException(ObjectiveError.UNSUPPORTED, e.getMessage());
        }
        return rule(obj, HUPF_INGRESS_ACL_ACL, obj.selector(), obj.treatment());
    }

    private FlowRule routeRule(ForwardingObjective obj) throws ObjectiveException {
        Criterion dst = obj.selector().getCriterion(Criterion.Type.IPV4_DST);
        for (Criterion c : obj.selector().criteria()) {
            boolean ipv4Type = c.type() == Criterion.Type.ETH_TYPE
                    && ((EthTypeCriterion) c).ethType().toShort() == org.onlab.packet.Ethernet.TYPE_IPV4;
            if (c != dst && !ipv4Type) {
                throw new ObjectiveException(ObjectiveError.UNSUPPORTED,
                                             "routes_v4 matches the IPv4 destination only, not " + c);
            }
        }
        if (dst == null) {
            throw new ObjectiveException(ObjectiveError.UNSUPPORTED, "SPECIFIC objective without IPV4_DST");
        }
        TrafficTreatment treatment = obj.treatment();
        if (obj.nextId() != null) {
            NextGroup next = store.getNextGroup(obj.nextId());
            if (next == null) {
                throw new ObjectiveException(ObjectiveError.GROUPMISSING, "next " + obj.nextId() + " is unknown");
            }
            treatment = decodeNext(next.data());
        }
        if (treatment == null) {
            throw new ObjectiveException(ObjectiveError.BADPARAMS, "route needs a treatment or a next id");
        }
        return rule(obj, HUPF_INGRESS_ROUTING_ROUTES_V4,
                    DefaultTrafficSelector.builder().add(dst).build(), treatment);
    }

    private FlowRule rule(ForwardingObjective obj, PiTableId table, TrafficSelector sel, TrafficTreatment t) {
        FlowRule.Builder b = DefaultFlowRule.builder().forDevice(deviceId).forTable(table)
                .withSelector(sel).withTreatment(t).withPriority(obj.priority()).fromApp(obj.appId());
        return obj.permanent() ? b.makePermanent().build() : b.makeTemporary(obj.timeout()).build();
    }

    /** Only SIMPLE nexts with one route treatment (set MACs + output) exist on hupf: no groups. */
    @Override
    public void next(NextObjective obj) {
        if (obj.op() == Objective.Operation.REMOVE) {
            store.removeNextGroup(obj.id());
            succeed(obj);
            return;
        }
        if (obj.type() != NextObjective.Type.SIMPLE || obj.next().size() != 1) {
            fail(obj, ObjectiveError.UNSUPPORTED, "hupf supports SIMPLE next objectives with one treatment, not "
                    + obj.type() + " with " + obj.next().size());
            return;
        }
        try {
            store.putNextGroup(obj.id(), new DefaultNextGroup(encodeNext(obj.next().iterator().next())));
            succeed(obj);
        } catch (ObjectiveException e) {
            fail(obj, e.error, e.getMessage());
        }
    }

    static byte[] encodeNext(TrafficTreatment t) throws ObjectiveException {
        MacAddress src = null;
        MacAddress dst = null;
        PortNumber port = null;
        for (Instruction i : t.allInstructions()) {
            if (i instanceof L2ModificationInstruction.ModEtherInstruction) {
                L2ModificationInstruction.ModEtherInstruction m = (L2ModificationInstruction.ModEtherInstruction) i;
                if (m.subtype() == L2ModificationInstruction.L2SubType.ETH_SRC) {
                    src = m.mac();
                } else {
                    dst = m.mac();
                }
            } else if (i.type() == Instruction.Type.OUTPUT) {
                port = ((Instructions.OutputInstruction) i).port();
            } else {
                throw new ObjectiveException(ObjectiveError.UNSUPPORTED, "next treatment cannot " + i);
            }
        }
        if (src == null || dst == null || port == null) {
            throw new ObjectiveException(ObjectiveError.BADPARAMS,
                                         "next treatment needs set ETH_SRC, set ETH_DST and output: " + t);
        }
        return ByteBuffer.allocate(NEXT_BYTES).put(src.toBytes()).put(dst.toBytes()).putLong(port.toLong()).array();
    }

    static TrafficTreatment decodeNext(byte[] data) throws ObjectiveException {
        if (data == null || data.length != NEXT_BYTES) {
            throw new ObjectiveException(ObjectiveError.GROUPMISSING, "next group data is not a hupf route");
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        byte[] src = new byte[MacAddress.MAC_ADDRESS_LENGTH];
        byte[] dst = new byte[MacAddress.MAC_ADDRESS_LENGTH];
        b.get(src).get(dst);
        return DefaultTrafficTreatment.builder().setEthSrc(MacAddress.valueOf(src))
                .setEthDst(MacAddress.valueOf(dst)).setOutput(PortNumber.portNumber(b.getLong())).build();
    }

    @Override
    public void purgeAll(ApplicationId appId) {
        flowRules.purgeFlowRules(deviceId, appId);
    }

    @Override
    public List<String> getNextMappings(NextGroup nextGroup) {
        try {
            return List.of(decodeNext(nextGroup.data()).toString());
        } catch (ObjectiveException e) {
            return List.of(e.getMessage());
        }
    }

    private static void succeed(Objective obj) {
        obj.context().ifPresent(c -> c.onSuccess(obj));
    }

    private static void fail(Objective obj, ObjectiveError error, String why) {
        org.slf4j.LoggerFactory.getLogger(HupfPipeliner.class).warn("objective {} refused: {}", obj.id(), why);
        obj.context().ifPresent(c -> c.onError(obj, error));
    }

    /** Why an objective cannot be installed. */
    static final class ObjectiveException extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient ObjectiveError error;

        ObjectiveException(ObjectiveError error, String message) {
            super(message);
            this.error = error;
        }
    }
}
