package org.hupf.app.impl;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.app.FakeLeadership;
import org.hupf.core.HupfApp;
import org.hupf.app.config.HupfConfig;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.mastership.MastershipAdminService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.MastershipRole;
import org.onosproject.net.config.NetworkConfigService;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.createNiceMock;
import static org.easymock.EasyMock.eq;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.getCurrentArguments;
import static org.easymock.EasyMock.replay;
import static org.easymock.EasyMock.reset;
import static org.easymock.EasyMock.verify;

/** The hupf leader takes the mastership of hupf's devices, and only the leader does. */
public class LeaderMastershipTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, HupfApp.APP_NAME);
    private static final NodeId LOCAL = new NodeId("onos-1");
    private static final NodeId OTHER = new NodeId("onos-2");
    private static final DeviceId BACKEND = DeviceId.deviceId("device:backend:b1");
    private static final DeviceId SWITCH = DeviceId.deviceId("device:bmv2:s1");
    private static final String CONFIG = "{\"devices\": [{\"deviceId\": \"device:backend:b1\", \"role\": \"backend\"},"
            + " {\"deviceId\": \"device:bmv2:s1\", \"role\": \"switch\"}],"
            + " \"n3Addresses\": [\"192.168.0.1\"], \"uePools\": [\"10.250.0.0/16\"],"
            + " \"pfcp\": {\"listenAddress\": \"127.0.0.1\", \"port\": 0, \"allowedPeers\": [\"10.0.0.1\"]}}";

    private final Map<DeviceId, NodeId> masters = new HashMap<>();
    private final MastershipAdminService admin = createMock(MastershipAdminService.class);
    private LeaderMastership component;
    private final FakeLeadership leadership = new FakeLeadership(LOCAL, 1);

    @Before
    public void setUp() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        HupfConfig config = new HupfConfig();
        config.init(APP, HupfConfig.KEY, mapper.readTree(CONFIG), mapper, null);
        component = new LeaderMastership();
        component.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId getAppId(String name) {
                return APP;
            }
        };
        NetworkConfigService cfg = createNiceMock(NetworkConfigService.class);
        expect(cfg.getConfig(eq(APP), eq(HupfConfig.class))).andReturn(config).anyTimes();
        replay(cfg);
        component.cfgService = cfg;
        component.leadershipService = leadership;
        ClusterService cluster = createNiceMock(ClusterService.class);
        expect(cluster.getLocalNode()).andReturn(new DefaultControllerNode(LOCAL, IpAddress.valueOf("10.0.9.1")))
                .anyTimes();
        replay(cluster);
        component.clusterService = cluster;
        MastershipService mastership = createNiceMock(MastershipService.class);
        expect(mastership.getMasterFor(anyObject())).andAnswer(
                () -> masters.get((DeviceId) getCurrentArguments()[0])).anyTimes();
        replay(mastership);
        component.mastershipService = mastership;
        component.mastershipAdminService = admin;
    }

    @After
    public void tearDown() {
        verify(admin);
    }

    @Test
    public void leaderTakesTheDevicesAnotherNodeMasters() {
        masters.put(BACKEND, OTHER);
        masters.put(SWITCH, LOCAL);
        expect(admin.setRole(LOCAL, BACKEND, MastershipRole.MASTER)).andReturn(CompletableFuture.completedFuture(null));
        replay(admin);
        component.align();
    }

    /** The backend mastered by another node, the switch by this one; the backend asked for exactly twice. */
    private long[] backendElsewhereAskedTwice() {
        long[] now = {0};
        component.clock = () -> now[0];
        masters.put(BACKEND, OTHER);
        masters.put(SWITCH, LOCAL);
        expect(admin.setRole(LOCAL, BACKEND, MastershipRole.MASTER))
                .andReturn(CompletableFuture.completedFuture(null)).times(2);
        replay(admin);
        return now;
    }

    @Test
    public void anUnansweredRequestIsNotRepeatedUntilItsRetryTime() {
        // Once on the first check, once again after CLAIM_RETRY_MS without ONOS granting it; none in between,
        // though mastership events and checks keep coming (each request starts a new mastership term).
        long[] now = backendElsewhereAskedTwice();
        component.align();
        now[0] = LeaderMastership.CLAIM_RETRY_MS - 1;
        component.align();
        component.align();
        now[0] = LeaderMastership.CLAIM_RETRY_MS;
        component.align();
    }

    @Test
    public void aMastershipGrantedAndThenLostIsAskedBackAtOnce() {
        long[] now = backendElsewhereAskedTwice();
        component.align();
        masters.put(BACKEND, LOCAL);  // granted
        now[0] = 1;
        component.align();
        masters.put(BACKEND, OTHER);  // ONOS moved it (e.g. a rebalance)
        now[0] = 2;
        component.align();
    }

    @Test
    public void standbyNodeAndUnconnectedDevicesAreLeftAlone() {
        masters.put(BACKEND, OTHER);
        leadership.elect(OTHER, 2);
        replay(admin);
        component.align();
        reset(admin);
        replay(admin);
        leadership.elect(LOCAL, 3);
        masters.clear();  // no master: not connected yet
        component.align();
    }
}
