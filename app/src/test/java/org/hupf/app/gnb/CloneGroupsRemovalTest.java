package org.hupf.app.gnb;

import org.hupf.pipeconf.gnb.GnbRules;
import org.hupf.pipeconf.gnb.GnbSite;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupEvent;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupListener;
import org.onosproject.net.group.GroupServiceAdapter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The app's clone groups leave ONOS's group store before its deactivation returns: purged once their device's read
 * shows them deleted, else waited for while ONOS's group poll confirms their deletion, purged from the store when
 * neither does in time.
 */
public class CloneGroupsRemovalTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, "org.hupf.app");
    private static final ApplicationId OTHER = new DefaultApplicationId(8, "org.other");
    private static final DeviceId GNB = DeviceId.deviceId("device:gnb:g1");
    private static final DeviceId SWITCH = DeviceId.deviceId("device:leaf1");
    private static final GnbSite SITE = new GnbSite(0, 2, 3, Ip4Address.valueOf("10.0.3.1"),
            MacAddress.valueOf("02:00:00:00:03:01"), MacAddress.valueOf("02:00:00:00:03:02"),
            MacAddress.valueOf("02:00:00:00:01:01"));

    /** ONOS's group store: a removed group stays PENDING_DELETE until the device's next poll ({@link #poll}). */
    private static final class Groups extends GroupServiceAdapter {
        final Map<DeviceId, Group> held = new HashMap<>();
        final List<GroupListener> listeners = new ArrayList<>();
        final List<DeviceId> purged = new ArrayList<>();
        final List<DeviceId> removed = new ArrayList<>();
        /** Whether removeGroup's deletion is confirmed by a poll on another thread. */
        boolean devicesAnswer = true;

        void hold(DeviceId id, ApplicationId appId) {
            DefaultGroup g = new DefaultGroup(new GroupId(5), GnbRules.baasClone(id, appId, SITE));
            g.setState(Group.GroupState.ADDED);
            held.put(id, g);
        }

        @Override
        public Group getGroup(DeviceId deviceId, GroupKey key) {
            synchronized (held) {
                Group g = held.get(deviceId);
                return g != null && g.appCookie().equals(key) ? g : null;
            }
        }

        @Override
        public void removeGroup(DeviceId deviceId, GroupKey key, ApplicationId appId) {
            DefaultGroup g;
            synchronized (held) {
                removed.add(deviceId);
                g = new DefaultGroup(held.get(deviceId).id(), held.get(deviceId));
                g.setState(Group.GroupState.PENDING_DELETE);
                held.put(deviceId, g);
            }
            if (devicesAnswer) {
                new Thread(() -> poll(g)).start();
            }
        }

        private void poll(Group g) {
            synchronized (held) {
                held.remove(g.deviceId());
            }
            listeners.forEach(l -> l.event(new GroupEvent(GroupEvent.Type.GROUP_REMOVED, g)));
        }

        @Override
        public void purgeGroupEntries(DeviceId deviceId, ApplicationId appId) {
            synchronized (held) {
                purged.add(deviceId);
                held.remove(deviceId);
            }
        }

        @Override
        public void addListener(GroupListener listener) {
            listeners.add(listener);
        }

        @Override
        public void removeListener(GroupListener listener) {
            listeners.remove(listener);
        }
    }

    private final Groups groups = new Groups();
    /** Devices that cannot be read: ONOS's poll decides alone. */
    private static final CloneGroupsRemoval.DeviceGroups UNREADABLE = id -> null;

    @Test(timeout = 20_000)
    public void returnsOnceTheDeviceNoLongerHoldsTheGroupWithoutOnosPoll() {
        groups.devicesAnswer = false;
        groups.hold(GNB, APP);
        Group group = groups.getGroup(GNB, GnbRules.cloneKey());
        CloneGroupsRemoval.DeviceGroups deletedOnceSent = id -> {
            synchronized (groups.held) {
                return groups.removed.contains(id) ? List.of() : List.of(group);
            }
        };

        assertEquals(1, CloneGroupsRemoval.remove(groups, deletedOnceSent, List.of(GNB), APP, 60));

        assertTrue(groups.getGroup(GNB, GnbRules.cloneKey()) == null);
        assertEquals("purged once its device's read showed it deleted", List.of(GNB), groups.purged);
        assertEquals("its listener removed", List.of(), groups.listeners);
    }

    @Test
    public void aGroupItsDeviceStillHoldsIsWaitedForUntilTheDeadline() {
        groups.devicesAnswer = false;
        groups.hold(GNB, APP);
        Group group = groups.getGroup(GNB, GnbRules.cloneKey());

        assertEquals(1, CloneGroupsRemoval.remove(groups, id -> List.of(group), List.of(GNB), APP, 0));

        assertEquals("purged with a warning", List.of(GNB), groups.purged);
        assertTrue("the device's delete was sent", groups.removed.contains(GNB));
    }

    @Test
    public void returnsOnceOnosGroupPollConfirmedTheRemoval() {
        groups.hold(GNB, APP);
        groups.hold(SWITCH, OTHER);

        assertEquals(1, CloneGroupsRemoval.remove(groups, UNREADABLE, List.of(GNB, SWITCH), APP, 60));

        assertTrue(groups.getGroup(GNB, GnbRules.cloneKey()) == null);
        assertEquals("another app's group stays", OTHER, groups.getGroup(SWITCH, GnbRules.cloneKey()).appId());
        assertEquals("nothing purged", List.of(), groups.purged);
        assertEquals("its listener removed", List.of(), groups.listeners);
    }

    @Test
    public void purgesWhatThePollDidNotConfirmInTime() {
        groups.devicesAnswer = false;
        groups.hold(GNB, APP);

        assertEquals(1, CloneGroupsRemoval.remove(groups, UNREADABLE, List.of(GNB), APP, 0));

        assertEquals(List.of(GNB), groups.purged);
        assertTrue(groups.getGroup(GNB, GnbRules.cloneKey()) == null);
    }

    @Test
    public void noGroupNoWait() {
        groups.hold(SWITCH, OTHER);
        assertEquals(0, CloneGroupsRemoval.remove(groups, UNREADABLE, List.of(GNB, SWITCH), APP, 60));
        assertEquals(List.of(), groups.purged);
    }
}
