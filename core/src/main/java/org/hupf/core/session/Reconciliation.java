package org.hupf.core.session;

import org.hupf.core.device.BatchDevices;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.core.device.EntityKeys;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfMeter;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One device's reconciliation against what the store implies, for {@link SessionManager}: a bulk read per
 * table, the diff (removals of what nobody needs, dependents first; then what is missing or different,
 * referenced entities first) and its writes in batches.
 */
final class Reconciliation {

    private static final Logger log = LoggerFactory.getLogger(Reconciliation.class);

    private static final List<UpfEntityType> ORDER = HupfTables.INSTALL_ORDER;
    /** Repairs of one reconciliation pass that are logged one by one. */
    private static final int LOGGED_REPAIRS = 20;
    /** Updates of one reconciliation write: small enough for a device to report each refusal of the batch. */
    private static final int RECONCILE_BATCH = 512;

    private final HupfUpfDevice device;
    private final AtomicLong deviceErrors;

    Reconciliation(HupfUpfDevice device, AtomicLong deviceErrors) {
        this.device = device;
        this.deviceErrors = deviceErrors;
    }

    /** Every table of the device, or null (counted, logged) if a read failed. */
    Map<UpfEntityType, Collection<? extends UpfEntity>> readTables() {
        Map<UpfEntityType, Collection<? extends UpfEntity>> present = new HashMap<>();
        for (UpfEntityType type : ORDER) {
            try {
                present.put(type, device.readAll(type));
            } catch (UpfProgrammableException e) {
                deviceErrors.incrementAndGet();
                log.warn("reading {} from {} failed: {}", type, device, e.getMessage());
                return null;
            }
        }
        return present;
    }

    /**
     * Writes what makes the device hold {@code desired} and nothing else (a meter reset, the cell's idle
     * value, is no entry to remove), but for the entries whose keys are in {@code inFlight} (written by changes
     * since the read began).
     *
     * @return the number of updates written
     */
    int apply(Map<UpfEntityType, Collection<? extends UpfEntity>> present, Set<UpfEntity> desired,
              Set<Object> inFlight) {
        // The desired keys only for entries the store does not want as they are: a device that holds exactly the
        // desired set (every restart that lost nothing) allocates no key per entry.
        Set<Object> desiredKeys = null;
        int held = 0;
        List<DeviceUpdate> diff = new ArrayList<>();
        for (int i = ORDER.size() - 1; i >= 0; i--) {
            for (UpfEntity e : present.get(ORDER.get(i))) {
                if (desired.contains(e)) {
                    held++;
                    continue;
                }
                if (desiredKeys == null) {
                    desiredKeys = new HashSet<>();
                    for (UpfEntity d : desired) {
                        desiredKeys.add(EntityKeys.key(d));
                    }
                }
                boolean resetMeter = e instanceof UpfMeter && ((UpfMeter) e).isReset();
                // An entry whose key the store still wants is overwritten below, not removed first.
                if (!resetMeter && !desiredKeys.contains(EntityKeys.key(e)) && !inFlight.contains(EntityKeys.key(e))) {
                    logRepair("removes", e, diff.size());
                    diff.add(DeviceUpdate.remove(e));
                }
            }
        }
        // Equal entities have equal keys and a device holds one entry per key, so the desired entities counted in
        // `held` are distinct: as many as are desired, and none is missing.
        if (held == desired.size()) {
            return write(diff);
        }
        for (UpfEntityType type : ORDER) {
            Set<UpfEntity> have = new HashSet<>(present.get(type));
            for (UpfEntity e : desired) {
                if (e.type() == type && !have.contains(e) && !inFlight.contains(EntityKeys.key(e))) {
                    logRepair("adds", e, diff.size());
                    diff.add(DeviceUpdate.apply(e));
                }
            }
        }
        return write(diff);
    }

    /** Writes the diff in batches; each refused update is counted and logged. Returns the updates written. */
    private int write(List<DeviceUpdate> diff) {
        BatchUpfDevice batches = BatchDevices.of(device);
        for (int from = 0; from < diff.size(); from += RECONCILE_BATCH) {
            List<DeviceUpdate> batch = diff.subList(from, Math.min(diff.size(), from + RECONCILE_BATCH));
            WriteResult r = batches.write(batch).join();
            for (int i = 0; i < r.size(); i++) {
                if (r.failure(i) != null) {
                    deviceErrors.incrementAndGet();
                    log.warn("{} on {} failed (reconciliation will retry): {}", batch.get(i), device,
                             r.failure(i).getMessage());
                }
            }
        }
        return diff.size();
    }

    /** Names the first repairs of a pass: a device that drifted from the store says how. */
    private void logRepair(String what, UpfEntity e, int done) {
        if (done < LOGGED_REPAIRS) {
            log.info("reconciliation {} {} on {}", what, e, device);
        }
    }
}
