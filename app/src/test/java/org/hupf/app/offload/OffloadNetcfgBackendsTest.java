package org.hupf.app.offload;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.easymock.Capture;
import org.easymock.IExpectationSetters;
import org.hupf.app.FakeLeadership;
import org.hupf.app.config.HupfConfig;
import org.hupf.core.HupfApp;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.app.ApplicationService;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupServiceAdapter;
import org.onosproject.net.packet.PacketService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.store.service.TestStorageService;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.capture;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.createNiceMock;
import static org.easymock.EasyMock.eq;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.expectLastCall;
import static org.easymock.EasyMock.newCapture;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * A backend taken out of hupf's netcfg leaves the devices the session core writes as ONOS tells of the change,
 * before anything else is written to it (the device itself may stay in ONOS, available, for a while); the other
 * backends are then taken over without it.
 */
public class OffloadNetcfgBackendsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ApplicationId APP = new DefaultApplicationId(7, HupfApp.APP_NAME);
    private static final NodeId LOCAL = NodeId.nodeId("192.0.2.1");
    private static final DeviceId B1 = DeviceId.deviceId("device:backend:b1");
    private static final DeviceId B2 = DeviceId.deviceId("device:backend:b2");

    private final Capture<NetworkConfigListener> cfgListener = newCapture();
    private volatile HupfConfig config;
    private OffloadComponent component;
    private Set<Thread> threadsBefore;
    /** Holds the component's thread where a takeover lists the devices, while a test looks at what came before. */
    private volatile CountDownLatch rebuildsHeld = new CountDownLatch(0);

    private static HupfConfig config(DeviceId... backends) throws Exception {
        List<String> devices = new ArrayList<>();
        for (DeviceId b : backends) {
            devices.add("{\"deviceId\": \"" + b + "\", \"role\": \"backend\"}");
        }
        HupfConfig c = new HupfConfig();
        c.init(APP, HupfConfig.KEY, MAPPER.readTree("{\"devices\": [" + String.join(", ", devices) + "],"
                + " \"n3Addresses\": [\"192.168.0.1\"], \"uePools\": [\"10.250.0.0/16\"]}"), MAPPER, null);
        assertTrue(c.error(), c.isValid());
        return c;
    }

    private static Device backend(DeviceId id) {
        HupfUpf upf = createNiceMock(HupfUpf.class);
        try {
            @SuppressWarnings("unchecked")
            IExpectationSetters<List<UpfEntity>> readAll = (IExpectationSetters<List<UpfEntity>>)
                    (IExpectationSetters<?>) expect(upf.readAll(anyObject(UpfEntityType.class)));
            readAll.andAnswer(List::of).anyTimes();
        } catch (UpfProgrammableException e) {
            throw new AssertionError(e);
        }
        replay(upf);
        Device d = createMock(Device.class);
        expect(d.id()).andReturn(id).anyTimes();
        expect(d.is(HupfUpf.class)).andReturn(true).anyTimes();
        expect(d.as(HupfUpf.class)).andReturn(upf).anyTimes();
        replay(d);
        return d;
    }

    @Before
    public void setUp() throws Exception {
        config = config(B1, B2);
        threadsBefore = Set.copyOf(Thread.getAllStackTraces().keySet());
        Device b1 = backend(B1);
        Device b2 = backend(B2);
        DeviceService devices = createNiceMock(DeviceService.class);
        expect(devices.getAvailableDevices()).andAnswer(() -> {
            rebuildsHeld.await(10, TimeUnit.SECONDS);
            return List.of(b1, b2);
        }).anyTimes();
        expect(devices.getDevice(B1)).andReturn(b1).anyTimes();
        expect(devices.getDevice(B2)).andReturn(b2).anyTimes();
        PiPipeconfService pipeconfs = createNiceMock(PiPipeconfService.class);
        expect(pipeconfs.ofDevice(anyObject())).andReturn(Optional.of(HupfPipeconfIds.BACKEND)).anyTimes();
        ControllerNode node = createNiceMock(ControllerNode.class);
        expect(node.id()).andReturn(LOCAL).anyTimes();
        ClusterService cluster = createNiceMock(ClusterService.class);
        expect(cluster.getLocalNode()).andReturn(node).anyTimes();
        NetworkConfigService cfgService = createNiceMock(NetworkConfigService.class);
        cfgService.addListener(capture(cfgListener));
        expectLastCall();
        expect(cfgService.getConfig(eq(APP), eq(HupfConfig.class))).andAnswer(() -> config).anyTimes();
        CoreService core = createNiceMock(CoreService.class);
        expect(core.registerApplication(HupfApp.APP_NAME)).andReturn(APP).anyTimes();
        ApplicationService apps = createNiceMock(ApplicationService.class);
        expect(apps.getState(anyObject())).andReturn(ApplicationState.ACTIVE).anyTimes();
        MastershipService mastership = createNiceMock(MastershipService.class);
        expect(mastership.isLocalMaster(anyObject())).andReturn(true).anyTimes();
        replay(devices, pipeconfs, node, cluster, cfgService, core, apps, mastership);

        component = new OffloadComponent();
        component.deviceService = devices;
        component.pipeconfService = pipeconfs;
        component.packetService = createNiceMock(PacketService.class);
        component.cfgService = cfgService;
        component.coreService = core;
        component.clusterService = cluster;
        component.leadershipService = new FakeLeadership(LOCAL, 1);
        component.storageService = new TestStorageService();
        component.flowRuleService = createNiceMock(FlowRuleService.class);
        component.groupService = new GroupServiceAdapter();
        component.applicationService = apps;
        component.mastershipService = mastership;
        replay(component.packetService, component.flowRuleService);
        component.activate();
        eventually("both backends driven", () -> component.backends().equals(List.of(B1.toString(), B2.toString()))
                && component.devices().size() == 2);
    }

    /** The component's threads (its own, the drains' resumer) end with it. */
    @After
    public void tearDown() {
        component.deactivate();
        List<String> left = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("hupf-") && !threadsBefore.contains(t))
                .map(Thread::getName).collect(Collectors.toList());
        assertTrue("no hupf thread after the component stopped: " + left, left.isEmpty());
    }

    private static void eventually(String what, BooleanSupplier cond) throws InterruptedException {
        for (int i = 0; i < 500 && !cond.getAsBoolean(); i++) {
            Thread.sleep(20);
        }
        assertTrue(what, cond.getAsBoolean());
    }

    private void netcfgNow(HupfConfig c) {
        config = c;
        cfgListener.getValue().event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, APP,
                                                            HupfConfig.class));
    }

    @Test
    public void aSecondBackendTakenOutOfTheNetcfgIsWrittenNoMore() throws Exception {
        netcfgNow(config(B1));
        assertEquals("out of the write set as the event is told", 1, component.devices().size());
        assertEquals(List.of(B1.toString()), component.backends());
    }

    /**
     * The backend the hybrid device writes through goes: the site has no device, and its offload manager (which
     * writes through it) is not run, until the other is taken over.
     */
    @Test
    public void theFirstBackendTakenOutOfTheNetcfgIsWrittenNoMore() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        rebuildsHeld = held;
        netcfgNow(config(B2));
        assertTrue("nothing written at the site as the event is told", component.devices().isEmpty());
        assertEquals(List.of(), component.backends());
        assertTrue("its offload manager is not run meanwhile", component.sites().isEmpty());
        held.countDown();
        eventually("the other backend taken over", () -> component.backends().equals(List.of(B2.toString())));
        assertEquals(1, component.devices().size());
    }
}
