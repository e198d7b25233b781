package org.hupf.app.offload;

import org.hupf.core.HupfApp;
import org.hupf.pipeconf.api.FlowRuleBatch;
import org.hupf.pipeconf.api.FlowRuleBatch.Answer;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleEvent;
import org.onosproject.net.flow.FlowRuleListener;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Removes the app's flow rules (the switch's entries) when hupf is deactivated or uninstalled, and returns only
 * once ONOS's flow store holds none of them: the drivers that would reconcile what is left go with hupf's
 * pipeconf bundle right after (PipeconfLoader), and a rule left in the store then stays there for good.
 *
 * <p>ONOS keeps a removed rule in its store (PENDING_REMOVE) until its next flow poll of the device finds it
 * gone. And ONOS 2.7's P4Runtime driver removes a default entry by writing the program's default action back,
 * then counts only DELETE answers as removals: hupf's default entries (the HK-IPG, classifier and RPS
 * configurations) are reported refused although the device reset them. So a removal the devices confirmed is
 * purged from the store at once; otherwise ONOS's flow poll, which reads the devices and deletes or resets what
 * they kept, is waited for, and what is still stored after it is purged, with a warning.
 */
final class AppFlowRulesRemoval {

    private static final Logger log = LoggerFactory.getLogger(AppFlowRulesRemoval.class);
    /** Longest wait for the devices' answer to the removal. */
    static final long ANSWER_WAIT_S = 20;
    /** Longest wait for ONOS's flow poll (every 30 s: FlowRuleManager's fallbackFlowPollFrequency): two polls. */
    static final long POLL_WAIT_S = 65;

    private AppFlowRulesRemoval() {
    }

    /**
     * Removes the app's flow rules from the devices and from ONOS's flow store.
     *
     * @param flowRules ONOS's flow rule service
     * @param appId     the app whose rules go
     */
    static void remove(FlowRuleService flowRules, ApplicationId appId) {
        remove(flowRules, appId, POLL_WAIT_S);
    }

    static void remove(FlowRuleService flowRules, ApplicationId appId, long pollWaitS) {
        List<FlowEntry> rules = stored(flowRules, appId);
        if (rules.isEmpty()) {
            return;
        }
        Set<String> devices = new TreeSet<>();
        rules.forEach(r -> devices.add(r.deviceId().toString()));
        int n = rules.size();
        try {
            Answer answer = removeFromDevices(flowRules, rules);
            if (answer != Answer.CONFIRMED) {
                log.info("Removing the {} flow rules of {}: {}; waiting up to {} s for ONOS's flow poll of {}",
                         n, HupfApp.APP_NAME, answer == Answer.NONE ? "no answer after " + ANSWER_WAIT_S + " s"
                                 : "the devices confirmed not all (ONOS 2.7 counts a reset default entry as refused)",
                         pollWaitS, devices);
                awaitNoneStored(flowRules, appId, pollWaitS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("Removing the {} flow rules of {}: interrupted; purging them from ONOS's flow store",
                     n, HupfApp.APP_NAME);
        }
        int left = stored(flowRules, appId).size();
        devices.forEach(d -> flowRules.purgeFlowRules(DeviceId.deviceId(d), appId));
        int kept = stored(flowRules, appId).size();
        if (kept > 0) {
            log.warn("Removing the {} flow rules of {}: ONOS's flow store kept {} after a purge", n,
                     HupfApp.APP_NAME, kept);
        } else if (left > 0) {
            log.warn("Removed the {} flow rules of {}: {} not confirmed by a device were purged from ONOS's flow "
                             + "store (a device may keep them)", n, HupfApp.APP_NAME, left);
        } else {
            log.info("Removed the {} flow rules of {}", n, HupfApp.APP_NAME);
        }
    }

    private static Answer removeFromDevices(FlowRuleService flowRules, List<FlowEntry> rules)
            throws InterruptedException {
        FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
        rules.forEach(ops::remove);
        return FlowRuleBatch.apply(flowRules, ops, TimeUnit.SECONDS.toMillis(ANSWER_WAIT_S));
    }

    /** Returns once the store holds none of the app's rules (each removal wakes it) or after {@code seconds}. */
    private static void awaitNoneStored(FlowRuleService flowRules, ApplicationId appId, long seconds)
            throws InterruptedException {
        Semaphore removed = new Semaphore(0);
        FlowRuleListener listener = new FlowRuleListener() {
            @Override
            public boolean isRelevant(FlowRuleEvent e) {
                return e.type() == FlowRuleEvent.Type.RULE_REMOVED && e.subject().appId() == appId.id();
            }

            @Override
            public void event(FlowRuleEvent e) {
                removed.release();
            }
        };
        flowRules.addListener(listener);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (!stored(flowRules, appId).isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !removed.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                    return;
                }
                removed.drainPermits();
            }
        } finally {
            flowRules.removeListener(listener);
        }
    }

    private static List<FlowEntry> stored(FlowRuleService flowRules, ApplicationId appId) {
        List<FlowEntry> out = new ArrayList<>();
        for (FlowEntry r : flowRules.getFlowEntriesById(appId)) {
            out.add(r);
        }
        return out;
    }
}
