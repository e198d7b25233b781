package org.hupf.app.gnb;

import org.hupf.pipeconf.gnb.GnbRules;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupEvent;
import org.onosproject.net.group.GroupListener;
import org.onosproject.net.group.GroupService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Removes the app's gNB clone groups when hupf is deactivated or uninstalled, and returns only once ONOS's group
 * store holds none of them. ONOS deletes a group on the device at once but keeps it in its store (PENDING_DELETE)
 * until its next group poll (every 30 s) finds it gone from the device; that poll reads the device through the gNB
 * pipeconf's driver, which goes with hupf's pipeconf bundle right after the app: a group still stored then stays
 * for good. So the device is read here as that poll reads it, every {@value #DEVICE_READ_MS} ms: a group deleted
 * from its device leaves the store at once. Where a device cannot be read, ONOS's poll is waited for; a group
 * neither confirmed in time is purged from the store, with a warning.
 */
final class CloneGroupsRemoval {

    private static final Logger log = LoggerFactory.getLogger(CloneGroupsRemoval.class);
    /** Longest wait for a deletion's confirmation: two of ONOS's group polls (GroupManager's 30 s default). */
    static final long POLL_WAIT_S = 65;
    /** How often the devices are read while their groups' deletions are awaited. */
    static final long DEVICE_READ_MS = 100;

    /** The groups on a device, as ONOS's group poll reads them (its driver's GroupProgrammable). */
    interface DeviceGroups {
        /**
         * @param device a device
         * @return the groups it holds, or null where it cannot be read (unavailable, or a driver without groups)
         */
        Collection<Group> on(DeviceId device);
    }

    private CloneGroupsRemoval() {
    }

    /**
     * Removes the app's clone groups from the devices and from ONOS's group store.
     *
     * @param groups   ONOS's group service
     * @param onDevice the groups each device holds
     * @param devices  the devices to look at (every device ONOS knows)
     * @param appId    the app whose groups go
     * @param waitS    longest wait for a removal's confirmation
     * @return how many groups there were
     */
    static int remove(GroupService groups, DeviceGroups onDevice, Iterable<DeviceId> devices, ApplicationId appId,
                      long waitS) {
        List<Group> have = stored(groups, devices, appId);
        if (have.isEmpty()) {
            return 0;
        }
        long t0 = System.nanoTime();
        Set<DeviceId> where = new TreeSet<>((a, b) -> a.toString().compareTo(b.toString()));
        for (Group g : have) {
            where.add(g.deviceId());
            if (g.state() != Group.GroupState.PENDING_DELETE) {
                groups.removeGroup(g.deviceId(), GnbRules.cloneKey(), appId);
            }
        }
        try {
            awaitNoneStored(groups, onDevice, where, appId, waitS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("Removing the gNB clone groups of {}: interrupted; purging them from ONOS's group store", where);
        }
        List<Group> left = stored(groups, where, appId);
        if (left.isEmpty()) {
            log.info("Removed the {} gNB clone groups of {} in {} ms", have.size(), where, millisSince(t0));
            return have.size();
        }
        left.forEach(g -> groups.purgeGroupEntries(g.deviceId(), appId));
        log.warn("Removed the {} gNB clone groups of {} in {} ms: {} not confirmed by their devices nor ONOS's "
                         + "group poll within {} s were purged from ONOS's group store (a device may keep them)",
                 have.size(), where, millisSince(t0), left.size(), waitS);
        return have.size();
    }

    /**
     * Returns once the store holds none of the app's clone groups or after seconds. A group its device's read
     * shows deleted is purged from the store, as ONOS's next poll would remove it; each removal by ONOS's poll
     * wakes the wait.
     */
    private static void awaitNoneStored(GroupService groups, DeviceGroups onDevice, Iterable<DeviceId> devices,
                                        ApplicationId appId, long seconds) throws InterruptedException {
        Semaphore removed = new Semaphore(0);
        GroupListener listener = new GroupListener() {
            @Override
            public boolean isRelevant(GroupEvent e) {
                return e.type() == GroupEvent.Type.GROUP_REMOVED && appId.equals(e.subject().appId());
            }

            @Override
            public void event(GroupEvent e) {
                removed.release();
            }
        };
        groups.addListener(listener);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (true) {
                List<Group> left = new ArrayList<>();
                for (Group g : stored(groups, devices, appId)) {
                    if (goneFromDevice(g, onDevice)) {
                        groups.purgeGroupEntries(g.deviceId(), appId);
                    } else {
                        left.add(g);
                    }
                }
                long wait = Math.min(deadline - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(DEVICE_READ_MS));
                if (left.isEmpty() || wait <= 0) {
                    return;
                }
                removed.tryAcquire(wait, TimeUnit.NANOSECONDS);
                removed.drainPermits();
            }
        } finally {
            groups.removeListener(listener);
        }
    }

    private static long millisSince(long t0) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    /** Whether a group whose deletion ONOS sent is gone from its device's read. */
    private static boolean goneFromDevice(Group g, DeviceGroups onDevice) {
        if (g.state() != Group.GroupState.PENDING_DELETE) {
            return false;
        }
        Collection<Group> held = onDevice.on(g.deviceId());
        return held != null && held.stream().noneMatch(d -> d.id().equals(g.id()));
    }

    private static List<Group> stored(GroupService groups, Iterable<DeviceId> devices, ApplicationId appId) {
        List<Group> out = new ArrayList<>();
        for (DeviceId id : devices) {
            Group g = groups.getGroup(id, GnbRules.cloneKey());
            if (g != null && appId.equals(g.appId())) {
                out.add(g);
            }
        }
        return out;
    }
}
