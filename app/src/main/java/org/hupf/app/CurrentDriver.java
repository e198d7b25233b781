package org.hupf.app;

import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;

/**
 * A device of ONOS's device store whose behaviours come from the driver ONOS has for it now. The store keeps one
 * {@link Device} object per device until the device's description changes, and that object binds its driver the
 * first time it is asked for a behaviour, for good. When hupf's bundles are uninstalled and installed again, the
 * driver ONOS merged for a device with a hupf pipeconf (its base driver plus the pipeconf's behaviours) is merged
 * anew from the new bundle; the stored object still holds the old driver, whose behaviours are the uninstalled
 * bundle's classes: it answers {@code is(HupfUpf.class)} false for the new bundle's {@code HupfUpf} (another class
 * of the same name), and the reinstalled hupf would see no backend. A copy with no driver bound looks its driver up
 * through ONOS's driver service, which merges the pipeconf's driver if it is missing.
 */
public final class CurrentDriver {

    private CurrentDriver() {
    }

    /**
     * Returns the device with its driver looked up afresh.
     *
     * @param stored the device as ONOS's device service returned it, or null
     * @return a copy with no driver bound yet; the device itself when it is not ONOS's own device class (a unit
     *         test's double), null for null
     */
    public static Device of(Device stored) {
        if (!(stored instanceof DefaultDevice)) {
            return stored;
        }
        return new DefaultDevice(stored.providerId(), stored.id(), stored.type(), stored.manufacturer(),
                                 stored.hwVersion(), stored.swVersion(), stored.serialNumber(), stored.chassisId(),
                                 stored.annotations());
    }
}
