package org.hupf.app.impl;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.easymock.Capture;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionJson;
import org.hupf.app.FakeLeadership;
import org.hupf.core.HupfApp;
import org.hupf.app.config.HupfConfig;
import org.hupf.app.store.ClusterStorage;
import org.hupf.app.store.DistributedSessionStore;
import org.hupf.core.device.InMemoryUpfDevice;
import org.junit.After;
import org.junit.Before;
import org.onlab.packet.IpAddress;
import org.onosproject.app.ApplicationServiceAdapter;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;

import java.util.List;
import java.util.Set;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.capture;
import static org.easymock.EasyMock.createNiceMock;
import static org.easymock.EasyMock.eq;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.expectLastCall;
import static org.easymock.EasyMock.newCapture;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertTrue;

/**
 * The ONOS component with ONOS's services mocked at the boundary (configuration, leadership, a cluster's
 * distributed storage, one in-memory device): a manager activated before each test, deactivated after it.
 */
public abstract class HupfManagerFixture {

    static final ObjectMapper MAPPER = new ObjectMapper();
    static final ApplicationId APP = new DefaultApplicationId(7, HupfApp.APP_NAME);
    static final String CONFIG = "{\"devices\": [{\"deviceId\": \"device:backend:b1\", \"role\": \"backend\"}],"
            + " \"n3Addresses\": [\"192.168.0.1\"], \"uePools\": [\"10.250.0.0/16\"],"
            + " \"pfcp\": {\"listenAddress\": \"127.0.0.1\", \"port\": 0, \"allowedPeers\": [\"10.0.0.1\"]}}";
    static final String SESSION = "{\"cpSeid\": 5, \"pdrs\": [{\"pdrId\": 1, \"precedence\": 1, \"pdi\":"
            + " {\"sourceInterface\": \"CORE\", \"ueIpAddress\": \"10.250.0.4\"}, \"farId\": 1}],"
            + " \"fars\": [{\"farId\": 1, \"applyAction\": [\"BUFF\"]}]}";

    final InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);
    final Capture<NetworkConfigListener> cfgListener = newCapture();
    final Capture<DeviceListener> deviceListener = newCapture();
    static final NodeId LOCAL = new NodeId("onos-1");
    HupfManager manager;
    volatile ApplicationState appState = ApplicationState.ACTIVE;
    Set<Thread> threadsBefore;
    HupfConfig config;
    final FakeLeadership leadership = new FakeLeadership(LOCAL, 1);
    final ClusterStorage cluster = new ClusterStorage();

    static HupfConfig config(String json) throws Exception {
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
    HupfManager newManager() {
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
        m.deviceSource = new FixedDeviceSource(device);
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

    PfcpSession createOf(String node, int i) throws Exception {
        return manager.createSession(SessionJson.decode(MAPPER.readTree(
                SESSION.replace("10.250.0.4", "10.250.0.1" + i).replace("\"cpSeid\": 5", "\"cpSeid\": " + i)
                        .replace("{\"cpSeid\"", "{\"nodeId\": \"" + node + "\", \"cpSeid\""))));
    }

    /** The sessions in the cluster's store, as a node that starts now finds them. */
    List<String> storedNodes() {
        return new DistributedSessionStore(cluster.service).all().stream().map(x -> x.nodeId).sorted()
                .collect(java.util.stream.Collectors.toList());
    }

    /** hupf's threads alive now that were not before this test's manager started (other tests may leave some). */
    List<String> hupfThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("hupf-") && !threadsBefore.contains(t))
                .map(Thread::getName).collect(java.util.stream.Collectors.toList());
    }

    static void eventually(String what, java.util.function.BooleanSupplier cond) throws Exception {
        for (int i = 0; i < 300 && !cond.getAsBoolean(); i++) {
            Thread.sleep(20);
        }
        assertTrue(what, cond.getAsBoolean());
    }

    void configChanged(String json) throws Exception {
        config = config(json);
        cfgListener.getValue().event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, APP,
                                                            HupfConfig.class));
    }
}
