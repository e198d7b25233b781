package org.hupf.api;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.onlab.packet.Ip4Address;

import java.util.Collection;
import java.util.function.Consumer;

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

    /**
     * Sends each counter poll's UEs whose usage changed to one consumer from now on (the PFCP agent's
     * volume-threshold check, which then checks those UEs' sessions only), in place of the one given before.
     *
     * @param feed where to send them; null: nowhere
     */
    void feedUsageChanges(Consumer<Collection<Ip4Address>> feed);
}
