package org.hupf.app.offload;

import org.hupf.pipeconf.packet.CpuCloneGroup;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.GroupService;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Keeps the CPU clone session (HH reports and ACL copies reach hupf by it) in ONOS's group store for each
 * device of the hybrid. The pipeliner adds it once, when ONOS binds the device's driver; ONOS 2.7's group store
 * queues an add that comes before the device's first group audit and runs the queue when the audit ends, so an
 * add that lands just as the audit ends is queued after the run and never reaches the device (seen on 26 Nov: the
 * switch had no clone session 120 s after connecting, and a heavy UE was never reported).
 */
final class CpuCloneCheck {

    private CpuCloneCheck() {
    }

    /**
     * Adds the clone group to each device whose group store lacks it.
     *
     * @param groups  ONOS's group service
     * @param devices devices to check
     * @param appId   owner of the group (the application the pipeliner adds it for)
     * @return the devices it was added to
     */
    static List<DeviceId> ensure(GroupService groups, Collection<DeviceId> devices, ApplicationId appId) {
        List<DeviceId> added = new ArrayList<>();
        for (DeviceId id : devices) {
            if (groups.getGroup(id, CpuCloneGroup.key()) == null) {
                groups.addGroup(CpuCloneGroup.of(id, appId));
                added.add(id);
            }
        }
        return added;
    }
}
