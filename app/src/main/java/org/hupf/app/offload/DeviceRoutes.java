package org.hupf.app.offload;

import org.hupf.app.config.HupfConfig;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The routes of hupf's netcfg ({@code routes}) on its devices, as the lab writes them: each device is brought to
 * exactly its configured routes by a read and a diff, so that checking again is cheap and repairs a route lost
 * while a device restarted or its mastership moved. On the switch they are flow rules of org.hupf.app; on a
 * backend, P4Runtime entries hupf writes itself (and removes when the app goes).
 */
final class DeviceRoutes {

    private static final Logger log = LoggerFactory.getLogger(DeviceRoutes.class);

    private final Function<DeviceId, Device> devices;
    private final Predicate<DeviceId> writable;

    /**
     * @param devices  a device by id (null if unknown)
     * @param writable whether this node may write to a device now (available, and its master)
     */
    DeviceRoutes(Function<DeviceId, Device> devices, Predicate<DeviceId> writable) {
        this.devices = devices;
        this.writable = writable;
    }

    /**
     * Brings the given devices to their configured routes (the others are left alone).
     *
     * @param cfg     hupf's (valid) netcfg
     * @param targets devices to check
     * @return entries removed plus written
     */
    int sync(HupfConfig cfg, Collection<DeviceId> targets) {
        int changes = 0;
        for (DeviceId id : targets) {
            if (cfg.devices().containsKey(id)) {
                changes += set(id, cfg.routes(id));
            }
        }
        return changes;
    }

    /**
     * Removes hupf's routes from the given devices.
     *
     * @param targets devices
     */
    void clear(Collection<DeviceId> targets) {
        targets.forEach(id -> set(id, List.of()));
    }

    private int set(DeviceId id, List<Route> routes) {
        Device d = devices.apply(id);
        if (d == null || !writable.test(id) || !d.is(HupfDataplaneConfig.class)) {
            return 0;
        }
        try {
            int changes = d.as(HupfDataplaneConfig.class).setRoutes(routes);
            if (changes > 0) {
                log.info("Routes of {}: {} entries removed or written, {} routes now", id, changes, routes.size());
            }
            return changes;
        } catch (UpfProgrammableException | RuntimeException e) {
            // e.g. a device whose driver ONOS has not bound yet: the next check tries again.
            log.warn("Cannot set the routes of {}: {}", id, e.getMessage());
            return 0;
        }
    }
}
