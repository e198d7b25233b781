package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfEntities;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.Test;
import org.onosproject.TestApplicationId;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowEntry;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiActionProfileMemberId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiMeterCellId;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.UpdateType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_UPF_APPLICATIONS;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Inside ONOS, UPF table entries live as flow rules: the conversion is lossless both ways and reads
 * come from the flow rule service, filtered to the device and table.
 */
public class OnosPiTargetTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:hupf1");
    private static final DeviceId OTHER = DeviceId.deviceId("device:hupf2");
    private static final ApplicationId APP = new TestApplicationId("org.hupf.app");

    private static List<PiTableEntry> entries(String profile) throws Exception {
        UpfTranslator t = new UpfTranslator(Pipelines.model(profile));
        List<PiTableEntry> out = new ArrayList<>();
        for (UpfEntity e : UpfEntities.all()) {
            for (PiEntity pi : t.toPi(e)) {
                if (pi instanceof PiTableEntry) {
                    out.add((PiTableEntry) pi);
                }
            }
        }
        return out;
    }

    @Test
    public void tableEntriesSurviveTheFlowRuleForm() throws Exception {
        for (String profile : List.of("hw", "sw")) {
            for (PiTableEntry e : entries(profile)) {
                if (e.priority().orElse(0) > FlowRule.MAX_PRIORITY) {
                    continue;
                }
                FlowRule r = OnosPiTarget.toFlowRule(e, DEV, APP);
                assertEquals(DEV, r.deviceId());
                assertEquals(e, OnosPiTarget.toTableEntry(r));
            }
        }
    }

    @Test
    public void priorityBeyondOnosFlowRulesIsRefused() throws Exception {
        PiTableEntry high = entries("hw").stream().filter(e -> e.priority().orElse(0) > FlowRule.MAX_PRIORITY)
                .findFirst().orElseThrow();
        try {
            OnosPiTarget.toFlowRule(high, DEV, APP);
            fail("accepted");
        } catch (PiTargetException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("65535"));
        }
    }

    /** Keeps what is applied, as the flow rule store would, for every device, and confirms it at once. */
    private static final class StoringFlowRules extends FlowRuleServiceAdapter {
        final List<FlowEntry> stored = new ArrayList<>();

        @Override
        public void apply(FlowRuleOperations ops) {
            for (Set<FlowRuleOperation> stage : ops.stages()) {
                for (FlowRuleOperation op : stage) {
                    if (op.type() == FlowRuleOperation.Type.REMOVE) {
                        stored.removeIf(e -> e.exactMatch(op.rule()));
                    } else {
                        stored.add(new DefaultFlowEntry(op.rule()));
                    }
                }
            }
            ops.callback().onSuccess(ops);
        }

        @Override
        public Iterable<FlowEntry> getFlowEntriesById(ApplicationId id) {
            List<FlowEntry> out = new ArrayList<>();
            stored.stream().filter(e -> e.appId() == id.id()).forEach(out::add);
            return out;
        }
    }

    @Test
    public void writesGoToTheFlowRuleServiceAndReadsComeBackFiltered() throws Exception {
        List<PiTableEntry> entries = new ArrayList<>(entries("hw"));
        entries.removeIf(e -> e.priority().orElse(0) > FlowRule.MAX_PRIORITY);
        StoringFlowRules flowRules = new StoringFlowRules();
        OnosPiTarget target = new OnosPiTarget(DEV, APP, flowRules, null, 1, null, () -> { });
        new OnosPiTarget(OTHER, APP, flowRules, null, 1, null, () -> { }).write(entries);
        target.write(entries);
        assertEquals(2 * entries.size(), flowRules.stored.size());

        List<PiTableEntry> expected = new ArrayList<>();
        entries.stream().filter(e -> e.table().equals(HUPF_INGRESS_UPF_APPLICATIONS)).forEach(expected::add);
        assertEquals(expected, new ArrayList<>(target.readTable(HUPF_INGRESS_UPF_APPLICATIONS)));

        target.delete(expected);
        assertTrue(target.readTable(HUPF_INGRESS_UPF_APPLICATIONS).isEmpty());
        assertEquals(2 * entries.size() - expected.size(), flowRules.stored.size());
    }

    /** The switch's direct writes (action profiles, meters) refused whole for want of primacy go again. */
    @Test
    public void aRequestRefusedForWantOfPrimacyIsWrittenAgain() throws Exception {
        FakeWriteDevice device = new FakeWriteDevice(DEV);
        device.denied = 2;
        PiMeterCellConfig cell = PiMeterCellConfig.reset(PiMeterCellId.ofIndirect(PiMeterId.of("m"), 1));
        OnosPiTarget.submit(() -> device.request().entity(cell, UpdateType.MODIFY), 5_000, null);
        assertEquals("refused twice, then written", 3, device.requests.size());
        assertEquals(1, device.entries.size());
    }

    /** What exists is modified: the inserts the device answers ALREADY_EXIST, and only those, are handed back. */
    @Test
    public void insertsOfWhatExistsAreHandedBackForModification() throws Exception {
        FakeWriteDevice device = new FakeWriteDevice(DEV);
        PiActionProfileMember m = PiActionProfileMember.builder().forActionProfile(PiActionProfileId.of("p"))
                .withId(PiActionProfileMemberId.of(1)).withAction(PiAction.builder()
                        .withId(PiActionId.of("a")).build()).build();
        List<PiEntity> existing = new ArrayList<>();
        OnosPiTarget.submit(() -> device.request().entity(m, UpdateType.INSERT), 5_000, existing);
        assertTrue(existing.isEmpty());
        OnosPiTarget.submit(() -> device.request().entity(m, UpdateType.INSERT), 5_000, existing);
        assertEquals(List.of(m), existing);
        try {
            OnosPiTarget.submit(() -> device.request().entity(m, UpdateType.INSERT), 5_000, null);
            fail("an existing member inserted where that is a failure");
        } catch (PiTargetException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("ALREADY_EXIST"));
        }
    }

    @Test
    public void otherRefusalsAndAnExhaustedBudgetFail() {
        FakeWriteDevice device = new FakeWriteDevice(DEV);
        PiMeterCellConfig cell = PiMeterCellConfig.reset(PiMeterCellId.ofIndirect(PiMeterId.of("m"), 1));
        device.unreachable = true;
        try {
            OnosPiTarget.submit(() -> device.request().entity(cell, UpdateType.MODIFY), 5_000, null);
            fail("written");
        } catch (PiTargetException e) {
            assertEquals("an unreachable device is not asked again", 1, device.requests.size());
        }
        device.unreachable = false;
        device.denied = Integer.MAX_VALUE;
        try {
            OnosPiTarget.submit(() -> device.request().entity(cell, UpdateType.MODIFY), 3 * NotPrimary.RETRY_PAUSE_MS,
                                null);
            fail("written");
        } catch (PiTargetException e) {
            assertTrue("written again within the budget: " + device.requests.size(),
                       device.requests.size() >= 3 && device.requests.size() <= 4);
        }
        assertTrue(device.entries.isEmpty());
    }

    @Test
    public void permissionDeniedIsGrpcsCodeAtTheStartOfAStatusMessageOrOfACause() {
        assertTrue(NotPrimary.isPermissionDenied(new IllegalStateException("PERMISSION_DENIED: not primary")));
        assertTrue(NotPrimary.isPermissionDenied(new java.util.concurrent.CompletionException(
                new IllegalStateException("PERMISSION_DENIED: not primary"))));
        assertFalse(NotPrimary.isPermissionDenied(new IllegalStateException("UNKNOWN: the SMF said PERMISSION_DENIED")));
        assertFalse(NotPrimary.isPermissionDenied(new IllegalStateException((String) null)));
    }
}
