package org.hupf.app.offload;

import org.hupf.app.config.HupfConfig;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.Tenant;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The routes of hupf's netcfg ({@code routes}) on its devices, as the lab writes them, and its VXLAN tenants
 * ({@code tenants}, with their slices) and traffic classes' queues ({@code queues}, {@code qos.queues}) on every
 * one of them (switch and backends alike): each device is brought to exactly its configured routes, the tenants
 * and the queues by a read and a diff, so that checking again is cheap and repairs an entry
 * lost while a device restarted or its mastership moved. On the switch they are flow rules of org.hupf.app
 * (the tenant meter's cells written directly); on a backend, P4Runtime entries hupf writes itself (and removes
 * when the app goes). A device whose pipeline has no tenant table gets no tenants, and no error.
 */
final class DeviceRoutes {

    private static final Logger log = LoggerFactory.getLogger(DeviceRoutes.class);

    private final Function<DeviceId, Device> devices;
    private final Predicate<DeviceId> writable;
    /**
     * The tenants each device got last, so that the periodic check reads no tenant entry or meter cell while the
     * netcfg's hold (they are written on a netcfg change, a device's return and a gained mastership).
     */
    private final Map<DeviceId, List<Tenant>> tenantsWritten = new ConcurrentHashMap<>();
    /** The queues each device got last, as the tenants. */
    private final Map<DeviceId, Map<Integer, Integer>> queuesWritten = new ConcurrentHashMap<>();

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
                changes += Math.max(0, set(id, cfg.routes(id)));
                changes += ifChanged(id, tenantsWritten, cfg.tenants(), t -> setTenants(id, t));
                changes += ifChanged(id, queuesWritten, cfg.queues(), q -> setQueues(id, q));
            }
        }
        return changes;
    }

    /**
     * Writes what a device is to hold unless it got exactly that last.
     *
     * @return entries (or meter cells) removed plus written; 0 if unchanged or not written now (tried again next)
     */
    private static <T> int ifChanged(DeviceId id, Map<DeviceId, T> written, T wanted, ToIntFunction<T> write) {
        if (wanted.equals(written.get(id))) {
            return 0;
        }
        int n = write.applyAsInt(wanted);
        if (n < 0) {
            return 0;
        }
        written.put(id, wanted);
        return n;
    }

    /**
     * Makes the next {@link #sync} write the tenants and queues of a device again (read and diff): for a device
     * that came back or whose mastership this node just gained, its tables may have lost them.
     *
     * @param id device
     */
    void recheck(DeviceId id) {
        tenantsWritten.remove(id);
        queuesWritten.remove(id);
    }

    /**
     * Removes hupf's routes, tenants and queues from the given devices.
     *
     * @param targets devices
     */
    void clear(Collection<DeviceId> targets) {
        targets.forEach(id -> {
            set(id, List.of());
            setTenants(id, List.of());
            setQueues(id, Map.of());
            recheck(id);
        });
    }

    /** What is written to a device: its routes, the tenants or the queues. */
    private interface Write {
        int to(HupfDataplaneConfig dp) throws UpfProgrammableException;
    }

    private int set(DeviceId id, List<Route> routes) {
        return write(id, "routes", routes.size(), dp -> dp.setRoutes(routes));
    }

    private int setTenants(DeviceId id, List<Tenant> tenants) {
        return write(id, "tenants", tenants.size(), dp -> dp.setTenants(tenants));
    }

    private int setQueues(DeviceId id, Map<Integer, Integer> queues) {
        return write(id, "queues", queues.size(), dp -> dp.setQueues(queues));
    }

    /** Entries (or meter cells) removed plus written; -1 if nothing could be written now. */
    private int write(DeviceId id, String what, int wanted, Write write) {
        Device d = devices.apply(id);
        if (d == null || !writable.test(id) || !d.is(HupfDataplaneConfig.class)) {
            return -1;
        }
        try {
            int changes = write.to(d.as(HupfDataplaneConfig.class));
            if (changes > 0) {
                log.info("The {} of {}: {} entries (or meter cells) removed or written, {} {} now", what, id, changes,
                         wanted, what);
            }
            return changes;
        } catch (UpfProgrammableException | RuntimeException e) {
            // e.g. a device whose driver ONOS has not bound yet: the next check tries again.
            log.warn("Cannot set the {} of {}: {}", what, id, e.getMessage());
            return -1;
        }
    }
}
