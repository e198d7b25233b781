package org.hupf.app.offload;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.DrainReport;
import org.hupf.app.FakeLeadership;
import org.hupf.app.config.HupfConfig;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.dataplane.Backend;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.app.ApplicationService;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.CoreService;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupServiceAdapter;
import org.onosproject.net.packet.PacketService;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.store.service.TestStorageService;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.createNiceMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A backend's planned removal in ONOS ({@link OffloadComponent#drain}): the switch's steering loses it first, then
 * it leaves the hybrid and stays out until restored; the refusals leave everything as it was.
 */
public class OffloadDrainTest {

    private static final DeviceId B1 = DeviceId.deviceId("device:backend:b1");
    private static final DeviceId B2 = DeviceId.deviceId("device:backend:b2");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final long B1_PORT = 3;
    private static final long B2_PORT = 4;

    /** The switch ports misses are steered to, per setBackends write, in order. */
    private final List<List<Long>> steered = new CopyOnWriteArrayList<>();
    /** The backends the hybrid held at each setBackends write. */
    private final List<List<String>> heldAtSteering = new CopyOnWriteArrayList<>();
    private OffloadComponent c;
    private FakeLeadership leadership;
    private final NodeId local = NodeId.nodeId("192.0.2.1");

    /** A device behaviour over an in-memory UPF (HupfUpf's handler methods answer null). */
    private static HupfUpf upf(String name) {
        InMemoryUpfDevice mem = new InMemoryUpfDevice(name, 64, 128, 16);
        return (HupfUpf) Proxy.newProxyInstance(HupfUpf.class.getClassLoader(), new Class<?>[]{HupfUpf.class},
                                                (proxy, m, args) -> {
            if (m.getDeclaringClass().getName().startsWith("org.onosproject.net.driver")) {
                return null;
            }
            try {
                return m.invoke(mem, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    /** The switch's data-plane configuration: records the steering, accepts the rest. */
    private HupfDataplaneConfig dataplane() {
        return (HupfDataplaneConfig) Proxy.newProxyInstance(
                HupfDataplaneConfig.class.getClassLoader(), new Class<?>[]{HupfDataplaneConfig.class},
                (proxy, m, args) -> {
                    if (m.getName().equals("setBackends")) {
                        @SuppressWarnings("unchecked")
                        List<Backend> backends = (List<Backend>) args[1];
                        steered.add(backends.stream().map(Backend::port).collect(Collectors.toList()));
                        heldAtSteering.add(c == null ? List.of() : c.backends());
                    }
                    Class<?> r = m.getReturnType();
                    return r == Optional.class ? Optional.empty() : r == int.class ? 0 : r == boolean.class
                            ? false : r == List.class ? List.of() : null;
                });
    }

    private static Device device(DeviceId id, HupfUpf upf, HupfDataplaneConfig dp) {
        Device d = createMock(Device.class);
        expect(d.id()).andReturn(id).anyTimes();
        expect(d.is(HupfUpf.class)).andReturn(true).anyTimes();
        expect(d.as(HupfUpf.class)).andReturn(upf).anyTimes();
        expect(d.is(HupfDataplaneConfig.class)).andReturn(dp != null).anyTimes();
        expect(d.as(HupfDataplaneConfig.class)).andReturn(dp).anyTimes();
        replay(d);
        return d;
    }

    private static HupfConfig config() throws Exception {
        String json = "{\"devices\": [{\"deviceId\": \"" + B1 + "\", \"role\": \"backend\"},"
                + " {\"deviceId\": \"" + B2 + "\", \"role\": \"backend\"},"
                + " {\"deviceId\": \"" + S1 + "\", \"role\": \"switch\"}],"
                + " \"n3Addresses\": [\"192.0.2.10\"], \"uePools\": [\"10.250.0.0/16\"],"
                + " \"backendPorts\": [{\"switch\": \"" + S1 + "\", \"port\": " + B1_PORT + ", \"backend\": \"" + B1
                + "\", \"mac\": \"00:00:00:00:00:b1\"}, {\"switch\": \"" + S1 + "\", \"port\": " + B2_PORT
                + ", \"backend\": \"" + B2 + "\", \"mac\": \"00:00:00:00:00:b2\"}]}";
        HupfConfig cfg = new HupfConfig();
        cfg.init(new DefaultApplicationId(1, "org.hupf.app"), HupfConfig.KEY, new ObjectMapper().readTree(json),
                 new ObjectMapper(), null);
        assertTrue(cfg.error(), cfg.isValid());
        return cfg;
    }

    @Before
    public void setUp() throws Exception {
        List<Device> devices = List.of(device(B1, upf("b1"), null), device(B2, upf("b2"), null),
                                       device(S1, upf("s1"), dataplane()));
        DeviceService deviceService = createNiceMock(DeviceService.class);
        expect(deviceService.getAvailableDevices()).andReturn(devices).anyTimes();
        for (Device d : devices) {
            expect(deviceService.getDevice(d.id())).andReturn(d).anyTimes();
        }
        Map<DeviceId, PiPipeconfId> pipeconfs = Map.of(B1, HupfPipeconfIds.BACKEND, B2, HupfPipeconfIds.BACKEND,
                                                       S1, HupfPipeconfIds.BMV2);
        PiPipeconfService pipeconfService = createNiceMock(PiPipeconfService.class);
        pipeconfs.forEach((id, p) -> expect(pipeconfService.ofDevice(id)).andReturn(Optional.of(p)).anyTimes());
        NetworkConfigService cfgService = createNiceMock(NetworkConfigService.class);
        expect(cfgService.getConfig(anyObject(), anyObject())).andReturn(config()).anyTimes();
        ControllerNode node = createNiceMock(ControllerNode.class);
        expect(node.id()).andReturn(local).anyTimes();
        ClusterService cluster = createNiceMock(ClusterService.class);
        expect(cluster.getLocalNode()).andReturn(node).anyTimes();
        ApplicationService apps = createNiceMock(ApplicationService.class);
        expect(apps.getState(anyObject())).andReturn(ApplicationState.ACTIVE).anyTimes();
        replay(deviceService, pipeconfService, cfgService, node, cluster, apps);

        c = new OffloadComponent();
        c.deviceService = deviceService;
        c.pipeconfService = pipeconfService;
        c.cfgService = cfgService;
        c.clusterService = cluster;
        c.applicationService = apps;
        leadership = new FakeLeadership(local, 1);
        c.leadershipService = leadership;
        c.storageService = new TestStorageService();
        c.groupService = new GroupServiceAdapter();
        c.packetService = createNiceMock(PacketService.class);
        c.coreService = createNiceMock(CoreService.class);
        c.flowRuleService = createNiceMock(FlowRuleService.class);
        c.mastershipService = createNiceMock(MastershipService.class);
        replay(c.packetService, c.coreService, c.flowRuleService, c.mastershipService);
        c.activate();
        waitFor(() -> c.steeredTo().size() == 2, "both backends steered to");
    }

    @After
    public void tearDown() {
        c.deactivate();
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                fail("not within 10 s: " + what);
            }
            Thread.sleep(10);
        }
    }

    private List<Long> lastSteering() {
        return steered.get(steered.size() - 1);
    }

    @Test
    public void aDrainedBackendIsSteeredAwayFirstThenLeavesUntilRestored() throws Exception {
        assertEquals(List.of(B1_PORT, B2_PORT), lastSteering());
        DrainReport r = c.drain(B2.toString(), 100, 2_000);
        assertTrue("the counts of an idle backend are still", r.quiet);
        assertTrue("read until quiet: " + r.reads, r.reads >= 2);
        assertEquals("the switch steers to the first backend alone", List.of(B1_PORT), lastSteering());
        assertEquals("steered away while b2 still held the sessions (make before break)",
                     List.of(B1.toString(), B2.toString()), heldAtSteering.get(steered.indexOf(List.of(B1_PORT))));
        assertEquals("b2 left the hybrid", List.of(B1.toString()), c.backends());
        assertEquals(List.of(B1.toString()), c.steeredTo());
        assertEquals(Map.of(B2.toString(), DistributedBackendDrains.DRAINED), c.drains());
        int writes = steered.size();

        try {
            c.drain(B2.toString(), 100, 2_000);
            fail("drained twice");
        } catch (IllegalStateException e) {
            assertEquals(B2 + " is drained already", e.getMessage());
        }
        try {
            c.drain(B1.toString(), 100, 2_000);
            fail("the last backend steered to drained");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().startsWith("no other backend is steered to"));
        }
        assertEquals("the refusals wrote nothing", writes, steered.size());
        assertEquals(Map.of(B2.toString(), DistributedBackendDrains.DRAINED), c.drains());

        assertTrue(c.restore(B2.toString()));
        waitFor(() -> c.backends().size() == 2 && lastSteering().equals(List.of(B1_PORT, B2_PORT)),
                "b2 taken over and steered to again");
        assertTrue(c.drains().isEmpty());
        assertFalse("restored once", c.restore(B2.toString()));
    }

    @Test
    public void aDrainAPreviousLeaderLeftUnfinishedIsFinishedInTheNextTerm() throws Exception {
        // What a leader that stopped right after steering b2 away leaves in the replicated map (an older mark,
        // without the drain's limits: the command's defaults).
        c.drains.map.put(B2.toString(), DistributedBackendDrains.DRAINING);
        leadership.electAndTell(local, 2);
        waitFor(() -> c.drains().equals(Map.of(B2.toString(), DistributedBackendDrains.DRAINED)),
                "the unfinished drain finished in the new term");
        // The hybrid without b2 is built, then its switch programmed: wait for both.
        waitFor(() -> c.backends().equals(List.of(B1.toString())) && c.steeredTo().equals(List.of(B1.toString())),
                "b2 left the hybrid, which steers to b1");
        assertEquals(List.of(B1_PORT), lastSteering());
        assertEquals("steered away while b2 still held the sessions",
                     List.of(B1.toString(), B2.toString()), heldAtSteering.get(steered.indexOf(List.of(B1_PORT))));
    }

    @Test
    public void aResumedDrainKeepsTheLimitsItsOperatorGave() throws Exception {
        // b2 marked by a drain asked to wait for 2 s of quiet: the next leader's drain waits as long (with the
        // defaults, 500 ms, it would be done well before), then b2 leaves.
        long quietMs = 2_000;
        c.drains.setDraining(B2.toString(), quietMs, 30_000);
        assertArrayEquals(new long[]{quietMs, 30_000}, c.drains.limits(B2.toString()));
        assertEquals(Map.of(B2.toString(), DistributedBackendDrains.DRAINING), c.drains());
        long start = System.nanoTime();
        leadership.electAndTell(local, 2);
        waitFor(() -> c.drains().equals(Map.of(B2.toString(), DistributedBackendDrains.DRAINED)),
                "the unfinished drain finished in the new term");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue("drained after " + tookMs + " ms, before the operator's quiet of " + quietMs + " ms",
                   tookMs >= quietMs);
        assertNull("no limits once drained", c.drains.limits(B2.toString()));
    }

    @Test
    public void theFirstBackendMayLeaveTooTheNextOneCarriesTheHybrid() throws Exception {
        c.drain(B1.toString(), 100, 2_000);
        assertEquals(List.of(B2_PORT), lastSteering());
        assertEquals(List.of(B2.toString()), c.backends());
        assertEquals("the hybrid device over b2", 1, c.devices().size());
    }

    @Test
    public void onlyABackendHupfDrivesCanBeDrained() throws Exception {
        for (String id : new String[]{S1.toString(), "device:backend:b9"}) {
            try {
                c.drain(id, 100, 2_000);
                fail(id + " drained");
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().startsWith(id + " is not a backend hupf drives"));
            }
        }
        try {
            c.drain(B2.toString(), 0, 2_000);
            fail("no quiet time");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().startsWith("drain: need 0 < quiet <= max"));
        }
        assertTrue(c.drains().isEmpty());
        assertEquals(2, c.backends().size());
    }
}
