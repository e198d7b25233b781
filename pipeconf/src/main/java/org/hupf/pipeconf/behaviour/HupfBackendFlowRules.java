package org.hupf.pipeconf.behaviour;

import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleProgrammable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;

/**
 * The backend's {@link FlowRuleProgrammable}: its tables belong to hupf, which writes them in batches through
 * the P4Runtime client ({@link HupfBackendUpf}) and reconciles them against its session store. ONOS's flow rule
 * subsystem neither reads them (the P4Runtime driver's would read every table on each flow-stats poll, millions
 * of entries, and delete what ONOS did not write) nor writes them: flow rules for the backend are refused.
 */
public class HupfBackendFlowRules extends AbstractHandlerBehaviour implements FlowRuleProgrammable {

    private static final Logger log = LoggerFactory.getLogger(HupfBackendFlowRules.class);

    @Override
    public Collection<FlowEntry> getFlowEntries() {
        return List.of();
    }

    @Override
    public Collection<FlowRule> applyFlowRules(Collection<FlowRule> rules) {
        log.warn("Refused {} flow rules for hupf backend {}: its tables are hupf's (P4Runtime batches)",
                 rules.size(), handler().data().deviceId());
        return List.of();
    }

    @Override
    public Collection<FlowRule> removeFlowRules(Collection<FlowRule> rules) {
        return List.of();
    }
}
