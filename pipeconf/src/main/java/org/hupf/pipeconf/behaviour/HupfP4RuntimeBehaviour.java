package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.upf.PiUpfDevice;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.core.CoreService;
import org.onosproject.drivers.p4runtime.AbstractP4RuntimeHandlerBehaviour;
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
        return new OnosPiTarget(deviceId, handler().get(CoreService.class).registerApplication(APP_NAME),
                                handler().get(FlowRuleService.class), client, p4DeviceId, pipeconf);
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
