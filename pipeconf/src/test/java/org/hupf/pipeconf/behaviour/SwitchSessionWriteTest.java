package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.upf.MemoryPiTarget;
import org.hupf.pipeconf.upf.PiTarget;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.PiUpfDevice;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.TestApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A UE session's entries on the switch inside ONOS (a promotion, a demotion) go as one flow rule batch, its stages
 * in write rank (removals reversed): the order holds with one wait for ONOS instead of one per entity.
 */
public class SwitchSessionWriteTest {

    private static final DeviceId SWITCH = DeviceId.deviceId("device:bmv2:s1");
    private static final Ip4Address N3 = Ip4Address.valueOf("192.0.2.1");
    private static final Ip4Address GNB = Ip4Address.valueOf("192.0.2.2");
    private static final Ip4Address UE = Ip4Address.valueOf("10.250.0.1");

    /** Keeps each batch and answers it as the test says. */
    private static final class Batches extends FlowRuleServiceAdapter {
        final List<FlowRuleOperations> applied = new ArrayList<>();
        Consumer<FlowRuleOperations> devices = o -> o.callback().onSuccess(o);

        @Override
        public void apply(FlowRuleOperations ops) {
            applied.add(ops);
            devices.accept(ops);
        }
    }

    /** A promoted session's entities in install order (what the offload manager's switch table writes). */
    private static List<UpfEntity> session() {
        return List.of(
                UpfGtpTunnelPeer.builder().withTunnelPeerId(1).withSrcAddr(N3).withDstAddr(GNB).build(),
                UpfTerminationUplink.builder().withUeSessionId(UE).withCounterId(1).build(),
                UpfTerminationDownlink.builder().withUeSessionId(UE).withCounterId(1).withTeid(0x10).build(),
                UpfSessionUplink.builder().setTunDstAddr(N3).setTeid(0x20).withUeAddress(UE).build(),
                UpfSessionDownlink.builder().withUeAddress(UE).withGtpTunnelPeerId(1).build());
    }

    private static PiUpfDevice device(Batches flowRules) throws Exception {
        OnosPiTarget target = new OnosPiTarget(SWITCH, new TestApplicationId("org.hupf.app"), flowRules, null, 1,
                                               null, () -> { });
        return new PiUpfDevice(new UpfTranslator(Pipelines.model("hw")), target);
    }

    @Test
    public void aSessionsEntriesAreOneBatchInWriteRankStages() throws Exception {
        Batches flowRules = new Batches();
        PiUpfDevice device = device(flowRules);
        device.applyInOrder(session());
        assertEquals("one batch, one wait", 1, flowRules.applied.size());
        FlowRuleOperations install = flowRules.applied.get(0);
        assertEquals("the tunnel peer's two entries and one per other entity", 6,
                     install.stages().stream().mapToInt(Set::size).sum());
        List<Integer> ranks = OrderedFlowRulesTest.stageRanks(install, FlowRuleOperation.Type.ADD);
        List<Integer> sorted = new ArrayList<>(ranks);
        Collections.sort(sorted);
        assertEquals(sorted, ranks);
        assertTrue("several ranks: " + ranks, ranks.size() >= 3);

        List<UpfEntity> removal = new ArrayList<>(session());
        Collections.reverse(removal);
        device.deleteInOrder(removal);
        assertEquals(2, flowRules.applied.size());
        List<Integer> reversed = new ArrayList<>(sorted);
        Collections.reverse(reversed);
        assertEquals(reversed, OrderedFlowRulesTest.stageRanks(flowRules.applied.get(1), FlowRuleOperation.Type.REMOVE));
    }

    @Test
    public void aRefusedBatchIsTheCallersError() throws Exception {
        Batches flowRules = new Batches();
        flowRules.devices = o -> o.callback().onError(o);
        try {
            device(flowRules).applyInOrder(session());
            fail("a refused batch is no success");
        } catch (UpfProgrammableException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("refused"));
        }
        assertEquals(1, flowRules.applied.size());
    }

    /** A target whose writes keep no order within a call (a P4Runtime WriteRequest): one write per entity. */
    @Test
    public void withoutAnOrderWithinAWriteEachEntityIsWrittenAlone() throws Exception {
        List<Integer> writes = new ArrayList<>();
        MemoryPiTarget memory = new MemoryPiTarget(Pipelines.model("hw"));
        PiTarget counting = new PiTarget() {
            @Override
            public void write(Collection<? extends PiEntity> entities) throws PiTargetException {
                writes.add(entities.size());
                memory.write(entities);
            }

            @Override
            public void delete(Collection<? extends PiEntity> entities) throws PiTargetException {
                writes.add(-entities.size());
                memory.delete(entities);
            }

            @Override
            public Collection<PiTableEntry> readTable(PiTableId table) {
                return memory.readTable(table);
            }

            @Override
            public Collection<PiCounterCell> readCounter(PiCounterId counter, long index) {
                return memory.readCounter(counter, index);
            }

            @Override
            public Collection<PiMeterCellConfig> readMeter(PiMeterId meter) {
                return memory.readMeter(meter);
            }

            @Override
            public Collection<PiActionProfileMember> readMembers(PiActionProfileId profile) {
                return memory.readMembers(profile);
            }

            @Override
            public Collection<PiActionProfileGroup> readGroups(PiActionProfileId profile) {
                return memory.readGroups(profile);
            }
        };
        PiUpfDevice device = new PiUpfDevice(new UpfTranslator(Pipelines.model("hw")), counting);
        device.applyInOrder(session());
        assertEquals("the tunnel peer's two entries, then one write per entity", List.of(2, 1, 1, 1, 1), writes);
        writes.clear();
        List<UpfEntity> removal = new ArrayList<>(session());
        Collections.reverse(removal);
        device.deleteInOrder(removal);
        assertEquals(List.of(-1, -1, -1, -1, -2), writes);
    }
}
