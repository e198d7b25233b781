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
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Removes the app's gNB clone groups when hupf is deactivated or uninstalled, and returns only once ONOS's group
 * store holds none of them. ONOS deletes a group on the device at once but keeps it in its store (PENDING_DELETE)
 * until its next group poll finds it gone from the device; that poll reads the device through the gNB pipeconf's
 * driver, which goes with hupf's pipeconf bundle right after the app: a group still stored then stays for good.
 * So the poll is waited for here, and a group the poll did not confirm is purged from the store, with a warning.
 */
final class CloneGroupsRemoval {

    private static final Logger log = LoggerFactory.getLogger(CloneGroupsRemoval.class);
    /** Longest wait for ONOS's group poll (every 30 s: GroupManager's fallbackGroupPollFrequency): two polls. */
    static final long POLL_WAIT_S = 65;

    private CloneGroupsRemoval() {
    }

    /**
     * Removes the app's clone groups from the devices and from ONOS's group store.
     *
     * @param groups  ONOS's group service
     * @param devices the devices to look at (every device ONOS knows)
     * @param appId   the app whose groups go
     * @param waitS   longest wait for ONOS's group poll to confirm the removal
     * @return how many groups there were
     */
    static int remove(GroupService groups, Iterable<DeviceId> devices, ApplicationId appId, long waitS) {
        List<Group> have = stored(groups, devices, appId);
        if (have.isEmpty()) {
            return 0;
        }
        Set<DeviceId> where = new TreeSet<>((a, b) -> a.toString().compareTo(b.toString()));
        for (Group g : have) {
            where.add(g.deviceId());
            if (g.state() != Group.GroupState.PENDING_DELETE) {
                groups.removeGroup(g.deviceId(), GnbRules.cloneKey(), appId);
            }
        }
        try {
            awaitNoneStored(groups, where, appId, waitS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("Removing the gNB clone groups of {}: interrupted; purging them from ONOS's group store", where);
        }
        List<Group> left = stored(groups, where, appId);
        if (left.isEmpty()) {
            log.info("Removed the {} gNB clone groups of {}", have.size(), where);
            return have.size();
        }
        left.forEach(g -> groups.purgeGroupEntries(g.deviceId(), appId));
        log.warn("Removed the {} gNB clone groups of {}: {} not confirmed by ONOS's group poll within {} s were "
                         + "purged from ONOS's group store (a device may keep them)", have.size(), where, left.size(),
                 waitS);
        return have.size();
    }

    /** Returns once the store holds none of the app's clone groups (each removal wakes it) or after seconds. */
    private static void awaitNoneStored(GroupService groups, Iterable<DeviceId> devices, ApplicationId appId,
                                        long seconds) throws InterruptedException {
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
            while (!stored(groups, devices, appId).isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !removed.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                    return;
                }
                removed.drainPermits();
            }
        } finally {
            groups.removeListener(listener);
        }
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
