package org.hupf.app.offload;

import org.hupf.pipeconf.packet.CpuCloneGroup;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupServiceAdapter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.hupf.pipeconf.HupfConstants.CPU_CLONE_SESSION_ID;
import static org.junit.Assert.assertEquals;

public class CpuCloneCheckTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, "org.hupf.app");
    private static final DeviceId SWITCH = DeviceId.deviceId("device:bmv2:s1");
    private static final DeviceId BACKEND = DeviceId.deviceId("device:backend:b1");

    /** A group store: what was added is there (the adds ONOS loses are the ones never made here). */
    private static final class Groups extends GroupServiceAdapter {
        final Map<DeviceId, Group> held = new HashMap<>();
        final List<GroupDescription> adds = new ArrayList<>();

        @Override
        public Group getGroup(DeviceId deviceId, GroupKey appCookie) {
            Group g = held.get(deviceId);
            return g != null && g.appCookie().equals(appCookie) ? g : null;
        }

        @Override
        public void addGroup(GroupDescription d) {
            adds.add(d);
            held.put(d.deviceId(), new DefaultGroup(new GroupId(d.givenGroupId()), d));
        }
    }

    @Test
    public void addsTheCloneGroupWhereTheStoreLacksIt() {
        Groups groups = new Groups();
        groups.addGroup(CpuCloneGroup.of(BACKEND, APP));
        groups.adds.clear();

        assertEquals(List.of(SWITCH), CpuCloneCheck.ensure(groups, List.of(BACKEND, SWITCH), APP));
        assertEquals(1, groups.adds.size());
        GroupDescription d = groups.adds.get(0);
        assertEquals(SWITCH, d.deviceId());
        assertEquals(GroupDescription.Type.CLONE, d.type());
        assertEquals(Integer.valueOf(CPU_CLONE_SESSION_ID), d.givenGroupId());
        assertEquals(APP, d.appId());
        assertEquals(1, d.buckets().buckets().size());
        assertEquals(List.of(Instructions.createOutput(PortNumber.CONTROLLER)),
                     d.buckets().buckets().get(0).treatment().allInstructions());
    }

    @Test
    public void leavesDevicesThatHoldItAlone() {
        Groups groups = new Groups();
        groups.addGroup(CpuCloneGroup.of(SWITCH, APP));
        groups.addGroup(CpuCloneGroup.of(BACKEND, APP));
        groups.adds.clear();

        assertEquals(List.of(), CpuCloneCheck.ensure(groups, List.of(SWITCH, BACKEND), APP));
        assertEquals(List.of(), groups.adds);
    }
}
