package org.hupf.pipeconf.api;

import org.hupf.pipeconf.api.FlowRuleBatch.Answer;
import org.junit.Test;
import org.onlab.packet.VlanId;
import org.onosproject.TestApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperations;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A flow rule batch's answer as ONOS's context gives it, on ONOS's threads and after the call returned to ONOS:
 * confirmed, refused some (the first answer holds), or none within the bound; the batch reaches ONOS whole.
 */
public class FlowRuleBatchTest {

    private static final long WAIT_MS = 10_000;

    private static FlowRule rule(int vlan) {
        return DefaultFlowRule.builder().forDevice(DeviceId.deviceId("device:s1"))
                .fromApp(new TestApplicationId("org.hupf.app"))
                .withSelector(DefaultTrafficSelector.builder().matchVlanId(VlanId.vlanId((short) vlan)).build())
                .withTreatment(DefaultTrafficTreatment.emptyTreatment()).withPriority(10).makePermanent().build();
    }

    private static FlowRuleOperations.Builder twoStages() {
        return FlowRuleOperations.builder().add(rule(1)).newStage().add(rule(2)).add(rule(3));
    }

    private static CompletableFuture<Answer> applyAsync(HeldFlowRules flowRules, long waitMs) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return FlowRuleBatch.apply(flowRules, twoStages(), waitMs);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    public void theAnswerIsWaitedForAndTheBatchReachesOnosWhole() throws Exception {
        HeldFlowRules flowRules = new HeldFlowRules(WAIT_MS);
        CompletableFuture<Answer> answer = applyAsync(flowRules, WAIT_MS);
        FlowRuleOperations ops = flowRules.next();
        assertEquals(2, ops.stages().size());
        assertEquals(1, ops.stages().get(0).size());
        assertEquals(2, ops.stages().get(1).size());
        assertFalse("returns only once the devices answered", answer.isDone());
        Thread onos = new Thread(() -> ops.callback().onSuccess(ops), "onos-flow-ops");
        onos.start();
        assertEquals(Answer.CONFIRMED, answer.get(WAIT_MS, TimeUnit.MILLISECONDS));
        onos.join();
    }

    @Test
    public void aRefusalIsTheAnswerEvenIfMoreFollows() throws Exception {
        HeldFlowRules flowRules = new HeldFlowRules(WAIT_MS);
        CompletableFuture<Answer> answer = applyAsync(flowRules, WAIT_MS);
        FlowRuleOperations ops = flowRules.next();
        ops.callback().onError(FlowRuleOperations.builder().add(rule(2)).build());
        ops.callback().onError(FlowRuleOperations.builder().add(rule(3)).build());
        assertEquals(Answer.REFUSED_SOME, answer.get(WAIT_MS, TimeUnit.MILLISECONDS));
    }

    @Test
    public void noAnswerWithinTheBoundIsNone() throws Exception {
        HeldFlowRules flowRules = new HeldFlowRules(WAIT_MS);
        long t0 = System.nanoTime();
        assertEquals(Answer.NONE, FlowRuleBatch.apply(flowRules, twoStages(), 200));
        assertTrue("waited the bound", System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(200));
        FlowRuleOperations late = flowRules.next();
        late.callback().onSuccess(late); // an answer after the bound goes nowhere
    }

    @Test
    public void anInterruptedWaitSaysSo() throws Exception {
        HeldFlowRules flowRules = new HeldFlowRules(WAIT_MS);
        CountDownLatch interrupted = new CountDownLatch(1);
        Thread caller = new Thread(() -> {
            try {
                FlowRuleBatch.apply(flowRules, twoStages(), WAIT_MS);
                fail("answered without an answer");
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        }, "caller");
        caller.start();
        flowRules.next();
        caller.interrupt();
        assertTrue(interrupted.await(WAIT_MS, TimeUnit.MILLISECONDS));
        caller.join();
    }
}
