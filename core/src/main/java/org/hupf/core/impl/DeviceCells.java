package org.hupf.core.impl;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The cells of each counter or meter array sessions are given indexes in: the smallest among the devices, so that
 * an index is valid on every one. The resource pool asks at each allocation; inside ONOS a device's size comes
 * through its driver behaviour, whose set-up (netcfg, pipeconf and mastership look-ups) cost more CPU than the
 * rest of an establishment, so the sizes are kept for as long as the device source hands out the same devices
 * (it may build a new list on every call: the lists are compared by their devices). A size some device cannot
 * report yet is asked again.
 */
public final class DeviceCells implements ToIntFunction<UpfEntityType> {

    private static final Logger log = LoggerFactory.getLogger(DeviceCells.class);

    private final Supplier<Collection<HupfUpfDevice>> devices;
    private final int fallback;
    private final Map<UpfEntityType, Integer> sizes = new EnumMap<>(UpfEntityType.class);
    private List<HupfUpfDevice> sizedFor = List.of();

    /**
     * @param devices  the devices sessions are written to
     * @param fallback cells when no device reports its size
     */
    public DeviceCells(Supplier<Collection<HupfUpfDevice>> devices, int fallback) {
        this.devices = devices;
        this.fallback = fallback;
    }

    @Override
    public synchronized int applyAsInt(UpfEntityType type) {
        Collection<HupfUpfDevice> now = devices.get();
        if (!sameDevices(now, sizedFor)) {
            sizes.clear();
            sizedFor = List.copyOf(now);
        }
        Integer known = sizes.get(type);
        if (known != null) {
            return known;
        }
        long min = Long.MAX_VALUE;
        boolean everyOne = true;
        for (HupfUpfDevice d : now) {
            try {
                min = Math.min(min, d.tableSize(type));
            } catch (UpfProgrammableException e) {
                everyOne = false;
                log.debug("{} does not report its {} size: {}", d, type, e.getMessage());
            }
        }
        int cells = min == Long.MAX_VALUE ? fallback : (int) Math.min(min, Integer.MAX_VALUE);
        if (everyOne) {
            sizes.put(type, cells);
        }
        return cells;
    }

    /** Whether two lists hold the same device objects in the same order (a device object is one connection). */
    private static boolean sameDevices(Collection<HupfUpfDevice> now, List<HupfUpfDevice> before) {
        if (now.size() != before.size()) {
            return false;
        }
        int i = 0;
        for (HupfUpfDevice d : now) {
            if (d != before.get(i++)) {
                return false;
            }
        }
        return true;
    }
}
