package org.hupf.app.impl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.easymock.Capture;
import org.hupf.api.TenantStatus;
import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.SessionJson;
import org.hupf.app.FakeLeadership;
import org.hupf.core.HupfApp;
import org.hupf.app.config.HupfConfig;
import org.hupf.app.store.ClusterStorage;
import org.hupf.app.store.DistributedSessionStore;
import org.hupf.core.pfcp.PfcpAgent;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpAddress;
import org.onosproject.app.ApplicationServiceAdapter;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.provider.ProviderId;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.capture;
import static org.easymock.EasyMock.createNiceMock;
import static org.easymock.EasyMock.eq;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.expectLastCall;
import static org.easymock.EasyMock.newCapture;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The ONOS component with ONOS's services mocked at the boundary: configuration, the distributed
 * store, and reconciliation when a device comes back.
 */
public class HupfManagerTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ApplicationId APP = new DefaultApplicationId(7, HupfApp.APP_NAME);
    private static final String CONFIG = "{\"devices\": [{\"deviceId\": \"device:backend:b1\", \"role\": \"backend\"}],"
            + " \"n3Addresses\": [\"192.168.0.1\"], \"uePools\": [\"10.250.0.0/16\"],"
            + " \"pfcp\": {\"listenAddress\": \"127.0.0.1\", \"port\": 0, \"allowedPeers\": [\"10.0.0.1\"]}}";
    private static final String SESSION = "{\"cpSeid\": 5, \"pdrs\": [{\"pdrId\": 1, \"precedence\": 1, \"pdi\":"
            + " {\"sourceInterface\": \"CORE\", \"ueIpAddress\": \"10.250.0.4\"}, \"farId\": 1}],"
            + " \"fars\": [{\"farId\": 1, \"applyAction\": [\"BUFF\"]}]}";

    private final InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);
    private final Capture<NetworkConfigListener> cfgListener = newCapture();
    private final Capture<DeviceListener> deviceListener = newCapture();
    private static final NodeId LOCAL = new NodeId("onos-1");
    private HupfManager manager;
    private volatile ApplicationState appState = ApplicationState.ACTIVE;
    private Set<Thread> threadsBefore;
    private HupfConfig config;
    private final FakeLeadership leadership = new FakeLeadership(LOCAL, 1);
    private final ClusterStorage cluster = new ClusterStorage();

    private static HupfConfig config(String json) throws Exception {
        HupfConfig c = new HupfConfig();
        c.init(APP, HupfConfig.KEY, MAPPER.readTree(json), MAPPER, null);
        return c;
    }

    @Before
    public void setUp() throws Exception {
        config = config(CONFIG);
        threadsBefore = Set.copyOf(Thread.getAllStackTraces().keySet());
        manager = newManager();
        manager.activate();
    }

    /** A manager on this test's node of the cluster, not activated. */
    private HupfManager newManager() {
        HupfManager m = new HupfManager();
        m.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return APP;
            }
        };
        m.storageService = cluster.service;
        NetworkConfigRegistry registry = createNiceMock(NetworkConfigRegistry.class);
        registry.addListener(capture(cfgListener));
        expectLastCall();
        expect(registry.getConfig(eq(APP), eq(HupfConfig.class))).andAnswer(() -> config).anyTimes();
        replay(registry);
        m.cfgRegistry = registry;
        DeviceService devices = createNiceMock(DeviceService.class);
        devices.addListener(capture(deviceListener));
        expectLastCall();
        expect(devices.isAvailable(anyObject())).andReturn(true).anyTimes();
        replay(devices);
        m.deviceService = devices;
        m.leadershipService = leadership;
        ClusterService nodes = createNiceMock(ClusterService.class);
        expect(nodes.getLocalNode()).andReturn(new DefaultControllerNode(LOCAL, IpAddress.valueOf("10.0.9.1")))
                .anyTimes();
        replay(nodes);
        m.clusterService = nodes;
        m.deviceSource = () -> List.of(device);
        m.applicationService = new ApplicationServiceAdapter() {
            @Override
            public ApplicationState getState(ApplicationId appId) {
                return appState;
            }
        };
        return m;
    }

    @After
    public void tearDown() {
        if (manager != null) {
            manager.deactivate();
        }
    }

    @Test
    public void periodicReconciliationPausesNineTimesItsDuration() {
        assertEquals(109_000, HupfManager.reconcileDueAfter(100_000, 1_000));
        assertEquals("a slow read of every table waits longer", 190_000,
                     HupfManager.reconcileDueAfter(100_000, 10_000));
        assertEquals(100_000, HupfManager.reconcileDueAfter(100_000, -5));
    }

    @Test
    public void aNodeThatStopsHandsItsSessionsOverInTheStore() throws Exception {
        manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        HupfManager stopped = manager;
        manager = null;
        stopped.deactivate();
        assertEquals(1, stopped.store().all().size());
    }

    @Test
    public void deactivatingTheAppLeavesNoSessionInTheStore() throws Exception {
        manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        appState = ApplicationState.INSTALLED;
        HupfManager stopped = manager;
        manager = null;
        stopped.deactivate();
        assertEquals(0, stopped.store().all().size());
        assertTrue("no hupf thread after deactivation: " + hupfThreads(), hupfThreads().isEmpty());
        try {
            stopped.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
            fail("a stopped manager took a request");
        } catch (IllegalStateException e) {
            assertEquals("hupf is stopping on this node", e.getMessage());
        }
    }

    private PfcpSession createOf(String node, int i) throws Exception {
        return manager.createSession(SessionJson.decode(MAPPER.readTree(
                SESSION.replace("10.250.0.4", "10.250.0.1" + i).replace("\"cpSeid\": 5", "\"cpSeid\": " + i)
                        .replace("{\"cpSeid\"", "{\"nodeId\": \"" + node + "\", \"cpSeid\""))));
    }

    /** The sessions in the cluster's store, as a node that starts now finds them. */
    private List<String> storedNodes() {
        return new DistributedSessionStore(cluster.service).all().stream().map(x -> x.nodeId).sorted()
                .collect(java.util.stream.Collectors.toList());
    }

    /**
     * A CP function's sessions being removed when the store stopped answering (the leader stopped or was lost
     * mid-way): the next term's leader removes them before it serves PFCP, the reconciliation that follows takes
     * their entries off the device, and another CP function's session stays.
     */
    @Test
    public void aReleaseCutOffIsFinishedWhenANewTermBegins() throws Exception {
        createOf("smf-a", 1);
        createOf("smf-a", 2);
        createOf("smf-b", 3);
        cluster.failRemovals(true);
        try {
            manager.manager().deleteByNodeAsync("smf-a");
            fail("the store's removals timed out");
        } catch (RuntimeException e) {
            cluster.failRemovals(false);
        }
        assertEquals(List.of("smf-a", "smf-a", "smf-b"), storedNodes());
        leadership.electAndTell(new NodeId("onos-2"), 2);
        eventually("standing by", () -> manager.uePools().isEmpty());
        leadership.electAndTell(LOCAL, 3);
        eventually("leading, smf-a's entries off the device",
                   () -> device.entities(UpfEntityType.SESSION_DOWNLINK).size() == 1);
        assertEquals(List.of("smf-b"), storedNodes());
    }

    /**
     * hupf deactivated while the store does not answer its clearing (the reinstall that found 399 sessions
     * of a released association): hupf activated again leads from an empty store and an emptied device.
     */
    @Test
    public void aDeactivationsClearingCutOffIsFinishedByTheNextActivation() throws Exception {
        createOf("smf-a", 1);
        createOf("smf-b", 2);
        appState = ApplicationState.INSTALLED;
        cluster.failRemovals(true);
        HupfManager stopped = manager;
        manager = null;
        stopped.deactivate();
        cluster.failRemovals(false);
        assertEquals(2, storedNodes().size());
        appState = ApplicationState.ACTIVE;
        manager = newManager();
        manager.activate();
        eventually("leading, the device reconciled to an empty store",
                   () -> manager.agent() != null && device.entities(UpfEntityType.SESSION_DOWNLINK).isEmpty());
        assertEquals(List.of(), storedNodes());
        assertTrue(manager.sessions().isEmpty());
    }

    /** hupf's threads alive now that were not before this test's manager started (other tests may leave some). */
    private List<String> hupfThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("hupf-") && !threadsBefore.contains(t))
                .map(Thread::getName).collect(java.util.stream.Collectors.toList());
    }

    private static void eventually(String what, java.util.function.BooleanSupplier cond) throws Exception {
        for (int i = 0; i < 300 && !cond.getAsBoolean(); i++) {
            Thread.sleep(20);
        }
        assertTrue(what, cond.getAsBoolean());
    }

    @Test
    public void configuredManagerInstallsInterfacesAndSessions() throws Exception {
        assertEquals(2, device.entities(UpfEntityType.INTERFACE).size());
        JsonNode json = MAPPER.readTree(SESSION);
        PfcpSession s = manager.createSession(SessionJson.decode(json));
        assertEquals(s, manager.session(s.upSeid));
        assertTrue(device.entities(UpfEntityType.SESSION_DOWNLINK).get(0).toString().contains("needsBuffering=true"));
        assertEquals("10.250.0.0/16", manager.uePools().get(0).toString());
        assertEquals(1L, (long) manager.stats().get("sessions"));
    }

    @Test
    public void returningDeviceIsReconciled() throws Exception {
        manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        for (UpfEntityType t : UpfEntityType.values()) {
            device.deleteAll(t);
        }
        Device d = new DefaultDevice(new ProviderId("p4runtime", "test"), DeviceId.deviceId("device:backend:b1"),
                                     Device.Type.OTHER, "hupf", "1", "1", "1", new ChassisId());
        deviceListener.getValue().event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, d));
        eventually("device reconciled", () -> device.entities(UpfEntityType.SESSION_DOWNLINK).size() == 1
                && device.entities(UpfEntityType.INTERFACE).size() == 2);
    }

    @Test
    public void counterCellsAreLimitedByTheSmallestDevice() throws Exception {
        InMemoryUpfDevice small = new InMemoryUpfDevice("switch", 3);
        manager.deviceSource = () -> List.of(device, small);
        for (int i = 0; i < 2; i++) {
            manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION.replace("10.250.0.4", "10.250.0.1" + i)
                                                                             .replace("\"cpSeid\": 5", "\"cpSeid\": " + i))));
        }
        try {
            manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
            fail("a third counter cell on a 3-cell device (cell 0 is reserved)");
        } catch (RuleException e) {
            assertEquals(Cause.NO_RESOURCES_AVAILABLE, e.cause());
        }
    }

    @Test
    public void onlyTheLeaderRunsTheCoreAndANewLeaderPutsTheStoreBack() throws Exception {
        PfcpSession s = manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        leadership.electAndTell(new NodeId("onos-2"), 2);
        eventually("standing by", () -> manager.uePools().isEmpty());
        assertEquals(s, manager.session(s.upSeid));
        try {
            manager.deleteSession(s.upSeid);
            fail("a follower wrote");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().startsWith("hupf is not running here"));
        }
        for (UpfEntityType t : UpfEntityType.values()) {
            device.deleteAll(t);
        }
        leadership.electAndTell(LOCAL, 3);
        eventually("leading and reconciled", () -> device.entities(UpfEntityType.SESSION_DOWNLINK).size() == 1);
        assertTrue(manager.deleteSession(s.upSeid));
    }

    private void configChanged(String json) throws Exception {
        config = config(json);
        cfgListener.getValue().event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, APP,
                                                            HupfConfig.class));
    }

    /**
     * Routes, steering or the offload policy changed in the netcfg: the PFCP agent, its associations and its
     * Recovery Time Stamp go on (a new one would tell the SMFs the UPF restarted); a PFCP change restarts it.
     */
    @Test
    public void onlyTheCoresOwnFieldsRestartIt() throws Exception {
        eventually("configured", () -> manager.agent() != null);
        PfcpAgent first = manager.agent();
        configChanged(CONFIG.replace("\"uePools\"", "\"offload\": {\"holdMs\": 5000}, \"routes\": [{\"deviceId\":"
                + " \"device:backend:b1\", \"prefix\": \"10.9.9.0/24\", \"port\": 2, \"srcMac\": \"00:00:00:00:00:01\","
                + " \"dstMac\": \"00:00:00:00:00:02\"}], \"uePools\""));
        assertTrue(config.error(), config.isValid());
        manager.refresh();
        assertSame(first, manager.agent());
        configChanged(CONFIG.replace("\"port\": 0", "\"port\": 0, \"heartbeatIntervalMs\": 20000"));
        eventually("a new PFCP agent", () -> manager.agent() != null && manager.agent() != first);
    }

    @Test
    public void invalidConfigStopsServiceButKeepsSessions() throws Exception {
        PfcpSession s = manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        config = config(CONFIG.replace("\"uePools\": [\"10.250.0.0/16\"],", ""));
        cfgListener.getValue().event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, APP,
                                                            HupfConfig.class));
        eventually("unconfigured", () -> manager.uePools().isEmpty());
        try {
            manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
            fail("created while unconfigured");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().startsWith("hupf is not running here"));
        }
        assertEquals(s, manager.session(s.upSeid));
        config = config(CONFIG);
        cfgListener.getValue().event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, APP,
                                                            HupfConfig.class));
        eventually("reconfigured", () -> !manager.uePools().isEmpty());
        assertEquals(1, manager.sessionCounters(s.upSeid).size());
    }

    /**
     * A leader the elector replaced without telling it (its Atomix session expired under load): its periodic
     * check finds the other node's term and it stops serving PFCP and writing devices.
     */
    @Test
    public void aLeaderReplacedWithoutAnEventStandsDown() throws Exception {
        PfcpSession s = manager.createSession(SessionJson.decode(MAPPER.readTree(SESSION)));
        leadership.elect(new NodeId("onos-2"), 2);
        eventually("standing by within a lease check", () -> manager.uePools().isEmpty());
        try {
            manager.deleteSession(s.upSeid);
            fail("a replaced leader wrote");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().startsWith("hupf is not running here"));
        }
        // Elected again, still without an event: the check finds that too, and the store is put back.
        for (UpfEntityType t : UpfEntityType.values()) {
            device.deleteAll(t);
        }
        leadership.elect(LOCAL, 3);
        eventually("leading again and reconciled", () -> device.entities(UpfEntityType.SESSION_DOWNLINK).size() == 1);
    }

    /** A disrupted elector service (this node's Atomix session suspended): the leader stands by until it is back. */
    @Test
    public void aDisruptedElectorStandsTheLeaderDownUntilRestored() throws Exception {
        leadership.tell(LeadershipEvent.Type.SERVICE_DISRUPTED);
        eventually("standing by while disrupted", () -> manager.uePools().isEmpty());
        leadership.tell(LeadershipEvent.Type.SERVICE_RESTORED);
        eventually("leading once restored", () -> !manager.uePools().isEmpty());
    }

    /** An elector that stops answering stands the leader down (LeaderLeaseTest: after two checks). */
    @Test
    public void anElectorThatDoesNotAnswerStandsTheLeaderDown() throws Exception {
        leadership.unanswered(true);
        eventually("standing by after two", () -> manager.uePools().isEmpty());
        leadership.unanswered(false);
        eventually("leading once it answers", () -> !manager.uePools().isEmpty());
    }

    /** A rule naming a Network Instance neither the netcfg's networkInstances nor a tenant's is refused (cause 73). */
    @Test
    public void anUnknownNetworkInstanceIsRefusedAsTheNetcfgSays() throws Exception {
        configChanged(CONFIG.replace("]}}", "]}, \"networkInstances\": [\"internet\", \"ims\"]}"));
        assertTrue(config.error(), config.isValid());
        manager.refresh();
        String named = SESSION.replace("\"ueIpAddress\"", "\"networkInstance\": \"NAME\", \"ueIpAddress\"");
        manager.createSession(SessionJson.decode(MAPPER.readTree(named.replace("NAME", "ims"))));
        try {
            manager.createSession(SessionJson.decode(MAPPER.readTree(
                    named.replace("NAME", "enterprise").replace("10.250.0.4", "10.250.0.5"))));
            fail("an unknown Network Instance was taken");
        } catch (RuleException e) {
            assertEquals(73, e.cause());
            assertTrue(e.getMessage(), e.getMessage().contains("unknown Network Instance 'enterprise'"));
        }
        assertEquals(1, manager.sessions().size());
    }

    /**
     * The netcfg's tenants bind the next sessions without restarting the core, and GET /tenants' service reports
     * each tenant with its bound sessions and the counter the devices hold at its id, and each of its slices with
     * the counter cell of its (tenant id, QFI), read by cell.
     */
    @Test
    public void tenantsBindSessionsAndReportTheirCounters() throws Exception {
        configChanged(CONFIG.replace("]}}", "]}, \"tenants\": [{\"vni\": 100, \"vtep\": \"192.168.100.1\","
                + " \"tenantId\": 1, \"tc\": 2, \"dscp\": 46, \"networkInstance\": \"tenant-a\", \"overlay\":"
                + " {\"vtepSrc\": \"192.168.100.1\", \"vtepDst\": \"172.16.0.2\","
                + " \"innerSrcMac\": \"02:00:00:00:0a:01\","
                + " \"innerDstMac\": \"02:00:00:00:0a:02\"}, \"slices\": [{\"qfi\": 9, \"tc\": 3, \"dscp\": 34}]}]}"));
        assertTrue(config.error(), config.isValid());
        // The listener's refresh runs on the manager's thread: this one settles the netcfg before the session.
        manager.refresh();
        manager.createSession(SessionJson.decode(MAPPER.readTree(
                SESSION.replace("[\"BUFF\"]", "[\"FORW\"], \"forwardingParameters\": {\"destinationInterface\":"
                        + " \"ACCESS\", \"networkInstance\": \"tenant-a\", \"outerHeaderCreation\":"
                        + " {\"teid\": 9, \"ipv4\": \"192.168.1.10\"}}"))));
        assertEquals("the gNB sits in tenant-a's overlay", 1, device.count(UpfEntityType.PEER_VXLAN));

        HupfDataplaneConfig dataplane = createNiceMock(HupfDataplaneConfig.class);
        expect(dataplane.readTenantCounters()).andReturn(Map.of(1, new long[]{10, 1500})).anyTimes();
        expect(dataplane.readSliceCounters(Set.of(64L + 9))).andReturn(Map.of(64L + 9, new long[]{4, 600})).anyTimes();
        Device b1 = createNiceMock(Device.class);
        expect(b1.is(HupfDataplaneConfig.class)).andReturn(true).anyTimes();
        expect(b1.as(HupfDataplaneConfig.class)).andReturn(dataplane).anyTimes();
        DeviceService devices = createNiceMock(DeviceService.class);
        expect(devices.getDevice(DeviceId.deviceId("device:backend:b1"))).andReturn(b1).anyTimes();
        replay(dataplane, b1, devices);
        manager.deviceService = devices;
        List<TenantStatus> tenants = manager.tenants();
        assertEquals(1, tenants.size());
        TenantStatus t = tenants.get(0);
        assertEquals("tenant-a", t.networkInstance);
        assertEquals(1, t.sessions);
        assertEquals(Ip4Address.valueOf("172.16.0.2"), t.overlay.vtepDst);
        assertEquals(10, t.counters.get("device:backend:b1").packets);
        assertEquals(1500, t.counters.get("device:backend:b1").bytes);
        assertEquals(4, t.sliceCounters.get(9).get("device:backend:b1").packets);
        assertEquals(600, t.sliceCounters.get(9).get("device:backend:b1").bytes);
    }
}
