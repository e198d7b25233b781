package org.hupf.pipeconf.behaviour;

import org.junit.Test;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupOperation;
import org.onosproject.net.group.GroupOperations;

import java.util.List;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

public class HupfGroupsTest {

    @Test
    public void onlyReplicationGroupsReachOnosProgrammable() {
        assertTrue(HupfGroups.isReplication(GroupDescription.Type.CLONE));
        assertTrue(HupfGroups.isReplication(GroupDescription.Type.ALL));
        assertFalse("the backend selector's groups are hupf's", HupfGroups.isReplication(GroupDescription.Type.SELECT));
        assertFalse(HupfGroups.isReplication(GroupDescription.Type.INDIRECT));
    }

    @Test
    public void selectGroupsAreRefusedWithoutTouchingTheDevice() {
        GroupOperation select = GroupOperation.createAddGroupOperation(
                GroupId.valueOf(1), GroupDescription.Type.SELECT, new GroupBuckets(List.of()));
        // No handler: reaching ONOS's replication programmable (which needs the device) would throw.
        new HupfGroups().performGroupOperation(DeviceId.deviceId("device:bmv2:s1"),
                                               new GroupOperations(List.of(select)));
    }
}
