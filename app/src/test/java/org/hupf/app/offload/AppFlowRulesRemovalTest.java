package org.hupf.app.offload;

import org.junit.Test;
import org.onlab.packet.VlanId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowEntry;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleEvent;
import org.onosproject.net.flow.FlowRuleListener;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * hupf's flow rules leave ONOS's flow store before the app's deactivation returns: purged at once when the
 * devices confirmed their removal; after ONOS's flow poll dropped them when a device did not (ONOS 2.7 reports a
 * reset default entry as refused); purged after the wait when no poll came.
 */
public class AppFlowRulesRemovalTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, "org.hupf.app");
    private static final DeviceId SWITCH = DeviceId.deviceId("device:bmv2:s1");

    /** ONOS's flow store for the app's rules, with the devices' answer to a removal given by the test. */
    private static final class Flows extends FlowRuleServiceAdapter {
        final List<FlowEntry> stored = new CopyOnWriteArrayList<>();
        final List<FlowRuleListener> listeners = new CopyOnWriteArrayList<>();
        final List<DeviceId> purged = new ArrayList<>();
        Consumer<FlowRuleOperations> devices = o -> o.callback().onSuccess(o);
        int applied;

        Flows(int n) {
            for (int i = 0; i < n; i++) {
                stored.add(new DefaultFlowEntry(DefaultFlowRule.builder().forDevice(SWITCH).fromApp(APP)
                        .withSelector(DefaultTrafficSelector.builder().matchVlanId(
                                VlanId.vlanId((short) (i + 1))).build())
                        .withTreatment(DefaultTrafficTreatment.emptyTreatment()).withPriority(10)
                        .makePermanent().build(), FlowEntry.FlowEntryState.PENDING_REMOVE, 0, 0, 0));
            }
        }

        @Override
        public Iterable<FlowEntry> getFlowEntriesById(ApplicationId id) {
            return List.copyOf(stored);
        }

        @Override
        public void apply(FlowRuleOperations ops) {
            applied++;
            devices.accept(ops);
        }

        @Override
        public void purgeFlowRules(DeviceId deviceId, ApplicationId appId) {
            purged.add(deviceId);
            stored.removeIf(r -> r.deviceId().equals(deviceId) && r.appId() == appId.id());
        }

        @Override
        public void addListener(FlowRuleListener listener) {
            listeners.add(listener);
        }

        @Override
        public void removeListener(FlowRuleListener listener) {
            listeners.remove(listener);
        }

        /** ONOS's flow poll: the device no longer has them, the store drops them one by one. */
        void poll() {
            for (FlowEntry r : stored) {
                stored.remove(r);
                FlowRuleEvent e = new FlowRuleEvent(FlowRuleEvent.Type.RULE_REMOVED, r);
                listeners.stream().filter(l -> l.isRelevant(e)).forEach(l -> l.event(e));
            }
        }
    }

    @Test
    public void aConfirmedRemovalIsPurgedAtOnce() {
        Flows flows = new Flows(3);
        long t0 = System.nanoTime();
        AppFlowRulesRemoval.remove(flows, APP, 60);
        assertEquals(1, flows.applied);
        assertEquals(List.of(SWITCH), flows.purged);
        assertTrue(flows.stored.isEmpty());
        assertTrue("no wait for a poll", System.nanoTime() - t0 < 10_000_000_000L);
    }

    @Test
    public void aRemovalNotAllConfirmedWaitsForTheFlowPoll() throws Exception {
        Flows flows = new Flows(3);
        flows.devices = o -> {
            o.callback().onError(o);
            new Thread(flows::poll, "poll").start();
        };
        AppFlowRulesRemoval.remove(flows, APP, 60);
        assertTrue(flows.stored.isEmpty());
        assertTrue("the listener is gone", flows.listeners.isEmpty());
    }

    @Test
    public void whatNoPollDroppedIsPurgedAfterTheWait() {
        Flows flows = new Flows(2);
        flows.devices = o -> o.callback().onError(o);
        AppFlowRulesRemoval.remove(flows, APP, 1);
        assertEquals(List.of(SWITCH), flows.purged);
        assertTrue(flows.stored.isEmpty());
        assertTrue(flows.listeners.isEmpty());
    }

    @Test
    public void noRuleNoRemoval() {
        Flows flows = new Flows(0);
        AppFlowRulesRemoval.remove(flows, APP, 60);
        assertEquals(0, flows.applied);
        assertTrue(flows.purged.isEmpty());
    }
}
