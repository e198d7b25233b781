package org.hupf.pipeconf.packet;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;

import java.nio.ByteBuffer;
import java.util.List;

import static org.hupf.pipeconf.HupfConstants.CPU_CLONE_SESSION_ID;

/**
 * The CPU clone session (ACL copies and HH reports reach the controller by it) as an ONOS clone group: one
 * bucket to CONTROLLER, which the interpreter maps to the target's CPU port.
 */
public final class CpuCloneGroup {

    private CpuCloneGroup() {
    }

    /**
     * @return the group's key in ONOS's group store
     */
    public static GroupKey key() {
        return new DefaultGroupKey(ByteBuffer.allocate(Integer.BYTES).putInt(CPU_CLONE_SESSION_ID).array());
    }

    /**
     * @param deviceId device
     * @param appId    owner application
     * @return the group's description
     */
    public static GroupDescription of(DeviceId deviceId, ApplicationId appId) {
        return new DefaultGroupDescription(
                deviceId, GroupDescription.Type.CLONE,
                new GroupBuckets(List.of(DefaultGroupBucket.createCloneGroupBucket(
                        DefaultTrafficTreatment.builder().setOutput(PortNumber.CONTROLLER).build()))),
                key(), CPU_CLONE_SESSION_ID, appId);
    }
}
