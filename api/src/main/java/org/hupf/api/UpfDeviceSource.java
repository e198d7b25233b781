package org.hupf.api;

import org.hupf.pipeconf.api.HupfUpfDevice;

import java.util.Collection;

/**
 * Supplies the devices hupf programs (in the hybrid deployment, the offload manager's view of switch and
 * backends as one device). Registered as an OSGi service by whoever owns the devices.
 */
public interface UpfDeviceSource {

    /** @return the devices to program now */
    Collection<HupfUpfDevice> devices();
}
