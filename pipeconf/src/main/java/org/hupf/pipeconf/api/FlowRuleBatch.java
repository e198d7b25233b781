package org.hupf.pipeconf.api;

import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleOperationsContext;
import org.onosproject.net.flow.FlowRuleService;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One batch of flow rule operations given to ONOS's flow rule service, and the devices' answer to it, waited for
 * within a bound. ONOS applies a batch on its own threads and tells the outcome only to the batch's context: once,
 * when every stage was taken, or when a device refused some of a stage (ONOS still writes the later stages).
 */
public final class FlowRuleBatch {

    /** How the devices answered a batch. */
    public enum Answer {
        /** Every operation of every stage taken. */
        CONFIRMED,
        /** A device refused some of them. */
        REFUSED_SOME,
        /** No answer within the bound: what the devices took is unknown. */
        NONE
    }

    private FlowRuleBatch() {
    }

    /**
     * Gives the batch to ONOS and waits for the devices' answer.
     *
     * @param flowRules ONOS's flow rule service
     * @param ops       the batch's stages (built here with the context that takes the answer)
     * @param waitMs    longest wait for the answer
     * @return the answer, or {@link Answer#NONE} if none came within waitMs
     * @throws InterruptedException if the wait is interrupted
     */
    public static Answer apply(FlowRuleService flowRules, FlowRuleOperations.Builder ops, long waitMs)
            throws InterruptedException {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        flowRules.apply(ops.build(new FlowRuleOperationsContext() {
            @Override
            public void onSuccess(FlowRuleOperations o) {
                answer.complete(Answer.CONFIRMED);
            }

            @Override
            public void onError(FlowRuleOperations o) {
                answer.complete(Answer.REFUSED_SOME);
            }
        }));
        try {
            return answer.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return Answer.NONE;
        } catch (ExecutionException e) {
            throw new IllegalStateException("a flow operations context completes with an answer", e);
        }
    }
}
