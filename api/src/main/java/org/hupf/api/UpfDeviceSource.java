package org.hupf.api;

import org.hupf.pipeconf.api.HupfUpfDevice;

import java.util.Collection;

/**
 * Supplies the devices hupf programs (in the hybrid deployment, the offload manager's view of switch and
 * backends as one device). Registered as an OSGi service by whoever owns the devices.
 */
public interface UpfDeviceSource {

    /** @return the devices to program now, every site's */
    Collection<HupfUpfDevice> devices();

    /**
     * @param site a site's id (the netcfg's {@code siteId}, or {@code default} without sites)
     * @return the devices holding that site's sessions now; a source that knows no sites: every device
     */
    default Collection<HupfUpfDevice> devices(String site) {
        return devices();
    }
}
