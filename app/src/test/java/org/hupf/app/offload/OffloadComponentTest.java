package org.hupf.app.offload;

import org.easymock.Capture;
import org.easymock.IAnswer;
import org.easymock.IExpectationSetters;
import org.hupf.app.FakeLeadership;
import org.hupf.core.HupfApp;
import org.hupf.pipeconf.api.UpfEntity;
import org.onosproject.app.ApplicationService;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.HupfUpf;
import org.junit.Test;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.core.CoreService;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.DefaultFlowEntry;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupServiceAdapter;
import org.onosproject.store.service.TestStorageService;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.packet.PacketService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onlab.packet.Ethernet;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.pi.model.PiPipeconfId;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.capture;
import static org.easymock.EasyMock.expectLastCall;
import static org.easymock.EasyMock.newCapture;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.createNiceMock;
import static org.hupf.pipeconf.HupfConstants.PKTIN_ACL_PUNT;
import static org.hupf.pipeconf.HupfConstants.PKTIN_HH_REPORT;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.getCurrentArguments;
import static org.easymock.EasyMock.replay;
import static org.easymock.EasyMock.verify;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

public class OffloadComponentTest {

    private static Device device(String id, boolean hupf) {
        Device d = createMock(Device.class);
        expect(d.id()).andReturn(DeviceId.deviceId(id)).anyTimes();
        expect(d.is(HupfUpf.class)).andReturn(hupf).anyTimes();
        replay(d);
        return d;
    }

    @Test
    public void backendsAndSwitchAreToldApartByTheirPipeconf() {
        Map<String, PiPipeconfId> pipeconfs = Map.of("device:other", new PiPipeconfId("org.onosproject.basic"),
                                                     "device:s1", HupfPipeconfIds.BMV2,
                                                     "device:t2", HupfPipeconfIds.TOFINO2,
                                                     "device:b2", HupfPipeconfIds.BACKEND,
                                                     "device:b1", HupfPipeconfIds.BACKEND,
                                                     "device:broken", HupfPipeconfIds.BACKEND);
        List<Device> devices = List.of(device("device:other", false), device("device:broken", false),
                                       device("device:b2", true), device("device:s1", true),
                                       device("device:b1", true), device("device:t2", true));
        assertEquals("every backend, in the order of their ids",
                     List.of(DeviceId.deviceId("device:b1"), DeviceId.deviceId("device:b2")),
                     HybridTakeover.pickAll(devices, id -> Optional.ofNullable(pipeconfs.get(id.toString())),
                                              Set.of(HupfPipeconfIds.BACKEND)));
        assertEquals("the switches of bmv2 and Tofino 2", List.of(DeviceId.deviceId("device:s1"),
                                                                  DeviceId.deviceId("device:t2")),
                     HybridTakeover.pickAll(devices, id -> Optional.ofNullable(pipeconfs.get(id.toString())),
                                              HupfPipeconfIds.SWITCHES));
        assertEquals(List.of(), HybridTakeover.pickAll(List.of(device("device:x", true)), id -> Optional.empty(),
                                                         Set.of(HupfPipeconfIds.BACKEND)));
        assertEquals("a hupf pipeconf without hupf's behaviour in its driver", List.of(DeviceId.deviceId("device:broken")),
                     HybridTakeover.withoutHupfDriver(devices, id -> Optional.ofNullable(pipeconfs.get(id.toString()))));
    }

    private static InboundPacket packetIn(long reason, byte[] payload) {
        return new DefaultInboundPacket(new ConnectPoint(DeviceId.deviceId("device:s1"), PortNumber.portNumber(1)),
                                        new Ethernet(), ByteBuffer.wrap(payload), Optional.of(reason));
    }

    @Test
    public void anHhReportPacketInNamesItsUeOthersNone() {
        byte[] report = ByteBuffer.allocate(12 + 14).putInt(Ip4Address.valueOf("10.250.0.7").toInt()).array();
        assertEquals(Optional.of(Ip4Address.valueOf("10.250.0.7")),
                     OffloadComponent.reportedUe(packetIn(PKTIN_HH_REPORT, report)));
        assertEquals(Optional.empty(), OffloadComponent.reportedUe(packetIn(PKTIN_ACL_PUNT, report)));
        assertEquals("an undefined reason is ignored", Optional.empty(),
                     OffloadComponent.reportedUe(packetIn(99, report)));
    }

    private static final NodeId LOCAL = NodeId.nodeId("192.0.2.1");

    /** Entity types removed from the backend (deleteAll), in order. */
    private final List<UpfEntityType> cleared = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * A component over one backend device whose reads run `reads`, on a node whose leader is `leader` and
     * that is the backend's master.
     */
    private OffloadComponent component(IAnswer<List<UpfEntity>> reads, FakeLeadership leaders) throws Exception {
        return component(reads, leaders, () -> true);
    }

    /** As above, the backend's driver having hupf's behaviour when `hasDriver` says so. */
    private OffloadComponent component(IAnswer<List<UpfEntity>> reads, FakeLeadership leaders,
                                       java.util.function.BooleanSupplier hasDriver) throws Exception {
        HupfUpf upf = createNiceMock(HupfUpf.class);
        upf.deleteAll(anyObject(UpfEntityType.class));
        expectLastCall().andAnswer(() -> {
            cleared.add((UpfEntityType) getCurrentArguments()[0]);
            return null;
        }).anyTimes();
        @SuppressWarnings("unchecked")
        IExpectationSetters<List<UpfEntity>> readAll =
                (IExpectationSetters<List<UpfEntity>>) (IExpectationSetters<?>) expect(
                        upf.readAll(anyObject(UpfEntityType.class)));
        readAll.andAnswer(reads).anyTimes();
        replay(upf);
        DeviceId b1 = DeviceId.deviceId("device:backend:b1");
        Device backend = createMock(Device.class);
        expect(backend.id()).andReturn(b1).anyTimes();
        expect(backend.is(HupfUpf.class)).andAnswer(hasDriver::getAsBoolean).anyTimes();
        expect(backend.as(HupfUpf.class)).andReturn(upf).anyTimes();
        replay(backend);
        DeviceService devices = createNiceMock(DeviceService.class);
        expect(devices.getAvailableDevices()).andReturn(List.of(backend)).anyTimes();
        expect(devices.getDevice(b1)).andReturn(backend).anyTimes();
        replay(devices);
        PiPipeconfService pipeconfs = createNiceMock(PiPipeconfService.class);
        expect(pipeconfs.ofDevice(b1)).andReturn(Optional.of(HupfPipeconfIds.BACKEND)).anyTimes();
        replay(pipeconfs);
        ControllerNode node = createNiceMock(ControllerNode.class);
        expect(node.id()).andReturn(LOCAL).anyTimes();
        ClusterService cluster = createNiceMock(ClusterService.class);
        expect(cluster.getLocalNode()).andReturn(node).anyTimes();
        replay(node, cluster);

        OffloadComponent c = new OffloadComponent();
        c.deviceService = devices;
        c.pipeconfService = pipeconfs;
        c.packetService = createNiceMock(PacketService.class);
        c.cfgService = createNiceMock(NetworkConfigService.class);
        c.coreService = createNiceMock(CoreService.class);
        c.clusterService = cluster;
        c.leadershipService = leaders;
        c.storageService = new TestStorageService();
        c.flowRuleService = createNiceMock(FlowRuleService.class);
        c.groupService = new GroupServiceAdapter();
        c.applicationService = createNiceMock(ApplicationService.class);
        c.mastershipService = createNiceMock(MastershipService.class);
        expect(c.mastershipService.isLocalMaster(b1)).andReturn(true).anyTimes();
        replay(c.mastershipService);
        // A node stopping: the app stays active in the cluster.
        expect(c.applicationService.getState(anyObject())).andReturn(ApplicationState.ACTIVE).anyTimes();
        replay(c.packetService, c.cfgService, c.coreService, c.flowRuleService, c.applicationService);
        return c;
    }

    private static void waitFor(OffloadComponent c, int devices) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (c.devices().size() != devices && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
    }

    /**
     * A backend whose device event comes before ONOS pushed its pipeline answers reads with
     * FAILED_PRECONDITION: the component retries the takeover until the pipeline is there.
     */
    @Test
    public void aBackendWithoutPipelineYetIsTakenOverOnRetry() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        OffloadComponent c = component(() -> {
            reads.incrementAndGet();
            if (refused.get() < 3) {
                refused.incrementAndGet();
                throw new UpfProgrammableException("P4Runtime read failed: FAILED_PRECONDITION: no pipeline");
            }
            return List.of();
        }, new FakeLeadership(LOCAL, 1));
        c.retryFirstMs = 20;
        c.activate();
        try {
            waitFor(c, 1);
            assertEquals("taken over after the refused attempts", 1, c.devices().size());
            assertEquals(3, refused.get());
            int after = reads.get();
            Thread.sleep(200);
            assertEquals("no retry once taken over", after, reads.get());
            assertTrue(c.offloaded().isEmpty());
        } finally {
            c.deactivate();
        }
    }

    /**
     * A reinstalled hupf may find its backend before ONOS has a driver with hupf's behaviours for it (its
     * pipeconf registered a moment later): no device event follows, the component looks again until it has one.
     */
    @Test
    public void aBackendWhoseDriverLacksHupfIsTakenOverOnceItHasIt() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        OffloadComponent c = component(List::of, new FakeLeadership(LOCAL, 1), () -> asked.incrementAndGet() > 3);
        c.retryFirstMs = 20;
        c.activate();
        try {
            waitFor(c, 1);
            assertEquals("taken over once its driver had hupf's behaviour", 1, c.devices().size());
            assertTrue(asked.get() > 3);
        } finally {
            c.deactivate();
        }
    }

    /** Only the cluster's hupf leader drives the devices; a node takes over when it becomes the leader. */
    @Test
    public void onlyTheHupfLeaderTakesTheBackendOver() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        FakeLeadership leadership = new FakeLeadership(NodeId.nodeId("192.0.2.2"), 1);
        OffloadComponent c = component(() -> {
            reads.incrementAndGet();
            return List.of();
        }, leadership);
        c.activate();
        try {
            Thread.sleep(300);
            assertEquals("a standby node leaves the backend alone", 0, reads.get());
            assertTrue(c.devices().isEmpty());
            assertEquals(null, c.metrics());
            leadership.electAndTell(LOCAL, 2);
            waitFor(c, 1);
            assertEquals("the new leader took the backend over", 1, c.devices().size());
            assertTrue(reads.get() > 0);
            leadership.electAndTell(NodeId.nodeId("192.0.2.3"), 3);
            waitFor(c, 0);
            assertTrue("a node that lost the lead stands by", c.devices().isEmpty());
            // Leader again with no event to say so (and replaced again likewise): the lease check finds both.
            int before = reads.get();
            leadership.elect(LOCAL, 4);
            waitFor(c, 1);
            assertTrue("the backend taken over again", reads.get() > before);
            leadership.elect(NodeId.nodeId("192.0.2.3"), 5);
            waitFor(c, 0);
        } finally {
            c.deactivate();
        }
    }

    /**
     * hupf's flow rules and the backend's entries (written through P4Runtime, not flow rules) go when the app is
     * deactivated or uninstalled, not when one node stops.
     */
    @Test
    public void theFlowRulesGoWithTheAppOnly() throws Exception {
        ApplicationId app = new DefaultApplicationId(7, HupfApp.APP_NAME);
        for (ApplicationState state : new ApplicationState[]{ApplicationState.ACTIVE, ApplicationState.INSTALLED,
                                                              null}) {
            OffloadComponent c = component(List::of, new FakeLeadership(LOCAL, 1));
            c.coreService = createNiceMock(CoreService.class);
            expect(c.coreService.registerApplication(HupfApp.APP_NAME)).andReturn(app).anyTimes();
            c.applicationService = createMock(ApplicationService.class);
            expect(c.applicationService.getState(app)).andReturn(state).anyTimes();
            c.flowRuleService = createMock(FlowRuleService.class);
            if (state != ApplicationState.ACTIVE) {
                DeviceId sw = DeviceId.deviceId("device:bmv2:s1");
                FlowEntry rule = new DefaultFlowEntry(DefaultFlowRule.builder().forDevice(sw).fromApp(app)
                        .withSelector(DefaultTrafficSelector.emptySelector()).withPriority(10).makePermanent()
                        .build());
                expect(c.flowRuleService.getFlowEntriesById(app)).andReturn(List.of(rule)).times(2);
                expect(c.flowRuleService.getFlowEntriesById(app)).andReturn(List.of()).once();
                c.flowRuleService.apply(anyObject(FlowRuleOperations.class));
                expectLastCall().andAnswer(() -> {
                    FlowRuleOperations ops = (FlowRuleOperations) getCurrentArguments()[0];
                    ops.callback().onSuccess(ops);
                    return null;
                }).once();
                c.flowRuleService.purgeFlowRules(sw, app);
                expectLastCall().once();
            }
            replay(c.coreService, c.applicationService, c.flowRuleService);
            c.activate();
            waitFor(c, 1);
            cleared.clear();
            c.deactivate();
            verify(c.flowRuleService);
            assertEquals("backend entities removed, sessions (what a packet hits first) first",
                    state == ApplicationState.ACTIVE
                    ? List.of() : List.of(UpfEntityType.SESSION_DOWNLINK, UpfEntityType.SESSION_UPLINK,
                                          UpfEntityType.TERMINATION_DOWNLINK, UpfEntityType.TERMINATION_UPLINK,
                                          UpfEntityType.APPLICATION_METER, UpfEntityType.SESSION_METER,
                                          UpfEntityType.APPLICATION, UpfEntityType.PEER_VXLAN,
                                          UpfEntityType.TUNNEL_PEER,
                                          UpfEntityType.INTERFACE), cleared);
        }
    }
}
