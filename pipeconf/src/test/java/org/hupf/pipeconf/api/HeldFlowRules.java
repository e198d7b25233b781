package org.hupf.pipeconf.api;

import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertTrue;

/** ONOS's flow rule service that hands each batch to the test, which answers it (or never does). */
public final class HeldFlowRules extends FlowRuleServiceAdapter {

    private final BlockingQueue<FlowRuleOperations> applied = new LinkedBlockingQueue<>();
    private final long waitMs;

    /**
     * @param waitMs how long {@link #next} waits for a batch
     */
    public HeldFlowRules(long waitMs) {
        this.waitMs = waitMs;
    }

    @Override
    public void apply(FlowRuleOperations ops) {
        applied.add(ops);
    }

    /**
     * @return the next batch given to the service
     * @throws InterruptedException if the wait is interrupted
     */
    public FlowRuleOperations next() throws InterruptedException {
        FlowRuleOperations ops = applied.poll(waitMs, TimeUnit.MILLISECONDS);
        assertTrue("the batch reached the flow rule service", ops != null);
        return ops;
    }
}
