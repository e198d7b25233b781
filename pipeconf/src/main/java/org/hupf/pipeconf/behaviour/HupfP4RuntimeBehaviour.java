package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.PiUpfDevice;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.core.CoreService;
import org.onosproject.drivers.p4runtime.AbstractP4RuntimeHandlerBehaviour;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.flow.FlowRuleService;

/**
 * Base of the hupf behaviours that write PI entities: resolves the device's P4Runtime client and pipeconf
 * on every call (behaviour instances are short-lived and may outlive a reconnection).
 */
abstract class HupfP4RuntimeBehaviour extends AbstractP4RuntimeHandlerBehaviour {

    /**
     * Application that owns hupf's flow rules: the ONOS app of the .oar (org.hupf.app), so that they are
     * listed under it and go when it is deactivated or uninstalled.
     */
    static final String APP_NAME = "org.hupf.app";
    /** How long a direct write waits for this node to become the device's master (a leader change). */
    static final long MASTERSHIP_WAIT_MS = 15_000;
    private static final long MASTERSHIP_POLL_MS = 100;

    /**
     * Returns the PI target of this device.
     *
     * @param op operation, for the error message
     * @return target
     * @throws UpfProgrammableException if the device has no P4Runtime client or pipeconf
     */
    OnosPiTarget piTarget(String op) throws UpfProgrammableException {
        if (!setupBehaviour(op)) {
            throw new UpfProgrammableException("device " + handler().data().deviceId()
                                                       + " has no P4Runtime client or pipeconf (" + op + ")");
        }
        MastershipService mastership = handler().get(MastershipService.class);
        return new OnosPiTarget(deviceId, handler().get(CoreService.class).registerApplication(APP_NAME),
                                tablesAsFlowRules() ? handler().get(FlowRuleService.class) : null,
                                client, p4DeviceId, pipeconf,
                                () -> awaitMastership(mastership, deviceId, MASTERSHIP_WAIT_MS));
    }

    /**
     * Waits, up to {@code waitMs}, until this node is the device's master. Right after a hupf
     * leader change the new leader is elected before ONOS moves the device's mastership to it (its
     * LeaderMastership asks for it); a direct P4Runtime write in between is refused by the device
     * (PERMISSION_DENIED: not the primary client), and the session being set up would fail with cause 73.
     */
    static void awaitMastership(MastershipService mastership, DeviceId device, long waitMs)
            throws PiTargetException {
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        while (!mastership.isLocalMaster(device)) {
            if (System.nanoTime() > deadline) {
                throw new PiTargetException("this node is not the master of " + device + " after "
                        + waitMs + " ms (master: " + mastership.getMasterFor(device)
                        + "): only the master's P4Runtime client may write");
            }
            try {
                Thread.sleep(MASTERSHIP_POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PiTargetException("interrupted while waiting for the mastership of " + device);
            }
        }
    }

    /**
     * @return true where table entries are ONOS flow rules (the switch: a few entries ONOS keeps), false on
     *         the backend, whose tables hupf writes itself in P4Runtime batches ({@link HupfBackendFlowRules})
     */
    private boolean tablesAsFlowRules() {
        return !HupfPipeconfIds.BACKEND.equals(pipeconf.id());
    }

    /**
     * Returns the hupf UPF device of this device.
     *
     * @param op operation, for the error message
     * @return device
     * @throws UpfProgrammableException if the device has no P4Runtime client or pipeconf
     */
    PiUpfDevice upfDevice(String op) throws UpfProgrammableException {
        OnosPiTarget target = piTarget(op);
        return new PiUpfDevice(new UpfTranslator(pipeconf.pipelineModel()), target);
    }
}
