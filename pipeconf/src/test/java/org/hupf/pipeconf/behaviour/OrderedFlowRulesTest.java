package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.HeldFlowRules;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfEntities;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.Test;
import org.onosproject.TestApplicationId;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The switch's table entries through ONOS's flow rule service: one call's rules in stages by write rank (a UE's
 * termination before its session; removals the other way), and the call returns only once ONOS confirmed them.
 */
public class OrderedFlowRulesTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:hupf1");
    private static final ApplicationId APP = new TestApplicationId("org.hupf.app");
    private static final Map<PiTableId, Integer> RANK = HupfTables.ALL.stream()
            .collect(Collectors.toMap(t -> t.id, t -> t.writeRank));
    private static final long WAIT_MS = 10_000;

    private static List<FlowRule> switchRules() throws Exception {
        UpfTranslator t = new UpfTranslator(Pipelines.model("hw"));
        List<FlowRule> out = new ArrayList<>();
        for (UpfEntity e : UpfEntities.all()) {
            for (PiEntity pi : t.toPi(e)) {
                if (pi instanceof PiTableEntry && ((PiTableEntry) pi).priority().orElse(0) <= FlowRule.MAX_PRIORITY) {
                    out.add(OnosPiTarget.toFlowRule((PiTableEntry) pi, DEV, APP));
                }
            }
        }
        return out;
    }

    /** The write rank of each stage, each stage's operations of one rank and of the type given. */
    static List<Integer> stageRanks(FlowRuleOperations ops, FlowRuleOperation.Type type) {
        List<Integer> ranks = new ArrayList<>();
        for (Set<FlowRuleOperation> stage : ops.stages()) {
            Set<Integer> inStage = stage.stream().map(op -> {
                assertEquals(type, op.type());
                return RANK.getOrDefault((PiTableId) op.rule().table(), 0);
            }).collect(Collectors.toSet());
            assertEquals("one write rank per stage", 1, inStage.size());
            ranks.add(inStage.iterator().next());
        }
        return ranks;
    }

    @Test
    public void installsGoInWriteRankStagesAndRemovalsInReverse() throws Exception {
        List<FlowRule> rules = switchRules();
        HeldFlowRules flowRules = new HeldFlowRules(WAIT_MS);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Void> install = CompletableFuture.runAsync(() -> call(
                    () -> OrderedFlowRules.install(flowRules, rules, WAIT_MS)), caller);
            FlowRuleOperations ops = flowRules.next();
            List<Integer> ranks = stageRanks(ops, FlowRuleOperation.Type.ADD);
            assertTrue("rules of several ranks: " + ranks, ranks.size() > 1);
            List<Integer> sorted = new ArrayList<>(ranks);
            sorted.sort(null);
            assertEquals(sorted, ranks);
            assertEquals(rules.size(), ops.stages().stream().mapToInt(Set::size).sum());
            assertFalse("returns only once ONOS confirmed the rules", install.isDone());
            ops.callback().onSuccess(ops);
            install.get(WAIT_MS, TimeUnit.MILLISECONDS);

            CompletableFuture<Void> removal = CompletableFuture.runAsync(() -> call(
                    () -> OrderedFlowRules.remove(flowRules, rules, WAIT_MS)), caller);
            ops = flowRules.next();
            List<Integer> reversed = new ArrayList<>(sorted);
            reversed.sort(java.util.Collections.reverseOrder());
            assertEquals(reversed, stageRanks(ops, FlowRuleOperation.Type.REMOVE));
            assertFalse(removal.isDone());
            ops.callback().onSuccess(ops);
            removal.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    public void aRefusalIsTheCallersError() throws Exception {
        FlowRuleServiceAdapter refusing = new FlowRuleServiceAdapter() {
            @Override
            public void apply(FlowRuleOperations ops) {
                ops.callback().onError(ops);
            }
        };
        try {
            OrderedFlowRules.install(refusing, switchRules(), WAIT_MS);
            fail("a refused install is no success");
        } catch (PiTargetException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("refused"));
        }
    }

    @Test
    public void noConfirmationWithinTheBoundIsAnError() throws Exception {
        try {
            OrderedFlowRules.remove(new HeldFlowRules(WAIT_MS), switchRules(), 50);
            fail("an unconfirmed removal is no success");
        } catch (PiTargetException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("not confirmed"));
        }
    }

    private interface Call {
        void run() throws PiTargetException;
    }

    private static void call(Call c) {
        try {
            c.run();
        } catch (PiTargetException e) {
            throw new IllegalStateException(e);
        }
    }
}
