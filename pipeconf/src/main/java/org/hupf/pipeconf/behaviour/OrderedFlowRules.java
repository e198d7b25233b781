package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.FlowRuleBatch;
import org.hupf.pipeconf.upf.PiTargetException;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.pi.model.PiTableId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * hupf's table entries through ONOS's flow rule service, in make-before-break order and confirmed by the device.
 * ONOS applies each call's rules as a batch on a pool of threads, and a batch's rules in no set order: a UE's
 * session entry could reach the switch before the termination it leads to, and a packet in between misses it.
 * Here one call's rules go in stages by write rank (removals in reverse), and the call returns once the device
 * took every stage: the next call starts on a device that holds what this one wrote, and a refusal is the
 * caller's error instead of a retry ONOS makes later on its own.
 */
final class OrderedFlowRules {

    /** Long enough for ONOS and a loaded device to take a batch; bounded for a device that no longer answers. */
    static final long CONFIRM_WAIT_MS = 30_000;
    private static final Map<PiTableId, Integer> RANK = HupfTables.ALL.stream()
            .collect(Collectors.toMap(t -> t.id, t -> t.writeRank));

    private OrderedFlowRules() {
    }

    /** Installs rules, lower write rank first; returns once the device took all of them. */
    static void install(FlowRuleService flowRules, Collection<FlowRule> rules, long waitMs) throws PiTargetException {
        apply(flowRules, rules, false, waitMs);
    }

    /** Removes rules, higher write rank first; returns once the device no longer holds them. */
    static void remove(FlowRuleService flowRules, Collection<FlowRule> rules, long waitMs) throws PiTargetException {
        apply(flowRules, rules, true, waitMs);
    }

    private static void apply(FlowRuleService flowRules, Collection<FlowRule> rules, boolean removal, long waitMs)
            throws PiTargetException {
        Map<Integer, List<FlowRule>> stages = new TreeMap<>(
                removal ? Comparator.<Integer>reverseOrder() : Comparator.<Integer>naturalOrder());
        for (FlowRule r : rules) {
            int rank = r.table() instanceof PiTableId ? RANK.getOrDefault((PiTableId) r.table(), 0) : 0;
            stages.computeIfAbsent(rank, k -> new ArrayList<>()).add(r);
        }
        FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
        Function<FlowRule, FlowRuleOperations.Builder> op = removal ? ops::remove : ops::add;
        boolean first = true;
        for (List<FlowRule> stage : stages.values()) {
            if (!first) {
                ops.newStage();
            }
            first = false;
            stage.forEach(op::apply);
        }
        String what = (removal ? "removing " : "installing ") + rules.size() + " flow rules";
        FlowRuleBatch.Answer answer;
        try {
            answer = FlowRuleBatch.apply(flowRules, ops, waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PiTargetException(what + ": interrupted before ONOS confirmed them");
        }
        if (answer == FlowRuleBatch.Answer.REFUSED_SOME) {
            throw new PiTargetException(what + ": the device refused some of them");
        }
        if (answer == FlowRuleBatch.Answer.NONE) {
            throw new PiTargetException(what + ": not confirmed by ONOS within " + waitMs + " ms");
        }
    }
}
