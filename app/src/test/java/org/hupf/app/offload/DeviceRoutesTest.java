package org.hupf.app.offload;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.app.config.HupfConfig;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.easymock.EasyMock.verify;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The netcfg's routes and VXLAN tenants on hupf's devices: tenants on the switch and every backend alike. */
public class DeviceRoutesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DeviceId S1 = DeviceId.deviceId("device:bmv2:s1");
    private static final DeviceId B1 = DeviceId.deviceId("device:backend:b1");
    private static final DeviceId B2 = DeviceId.deviceId("device:backend:b2");
    private static final Ip4Address VTEP = Ip4Address.valueOf("192.168.100.1");
    private static final String QUEUES = "{\"0\": 0, \"3\": 6}";

    private static HupfConfig hybridWithTenants() throws Exception {
        return hybridWithTenants("", QUEUES);
    }

    /** The two tenants, the first with these slices (a JSON list's items), and these queues. */
    private static HupfConfig hybridWithTenants(String slices, String queues) throws Exception {
        ObjectNode node = (ObjectNode) MAPPER.readTree(new File("../netcfg/hupf-bmv2-backend.json"))
                .path("apps").path("org.hupf.app").path(HupfConfig.KEY);
        node.set("tenants", MAPPER.readTree(
                "[{\"vni\": 100, \"vtep\": \"192.168.100.1\", \"tenantId\": 1, \"tc\": 2, \"dscp\": 46, "
                        + "\"rateBps\": 8000000, \"burstBytes\": 15000, \"slices\": [" + slices + "]}, "
                        + "{\"vni\": 200, \"vtep\": \"192.168.100.1\", \"tenantId\": 2, \"tc\": 0, \"dscp\": 0}]"));
        node.set("queues", MAPPER.readTree(queues));
        HupfConfig c = new HupfConfig();
        c.init(new DefaultApplicationId(1, "org.hupf.app"), HupfConfig.KEY, node, MAPPER, null);
        assertTrue(c.error(), c.isValid());
        return c;
    }

    private static Device device(HupfDataplaneConfig dp) {
        Device d = createMock(Device.class);
        expect(d.is(HupfDataplaneConfig.class)).andReturn(dp != null).anyTimes();
        expect(d.as(HupfDataplaneConfig.class)).andReturn(dp).anyTimes();
        replay(d);
        return d;
    }

    @Test
    public void everyDeviceGetsTheTenantsAndQueuesWithItsRoutes() throws Exception {
        List<Tenant> tenants = List.of(new Tenant(100, VTEP, 1, 2, 46, 8_000_000, 15_000),
                                       new Tenant(200, VTEP, 2, 0, 0));
        Map<DeviceId, HupfDataplaneConfig> dps = new HashMap<>();
        Map<DeviceId, Device> devices = new HashMap<>();
        for (DeviceId id : List.of(S1, B1, B2)) {
            HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
            expect(dp.setRoutes(anyObject())).andReturn(0);
            expect(dp.setTenants(tenants)).andReturn(3);
            expect(dp.setQueues(Map.of(0, 0, 3, 6))).andReturn(2);
            replay(dp);
            dps.put(id, dp);
            devices.put(id, device(dp));
        }
        DeviceRoutes routes = new DeviceRoutes(devices::get, id -> true);
        assertEquals(15, routes.sync(hybridWithTenants(), Set.of(S1, B1, B2)));
        dps.values().forEach(dp -> verify(dp));
    }

    @Test
    public void aDeviceThatRefusesTheTenantsKeepsTheOthersGoing() throws Exception {
        HupfDataplaneConfig refuses = createMock(HupfDataplaneConfig.class);
        expect(refuses.setRoutes(anyObject())).andReturn(0);
        expect(refuses.setTenants(anyObject())).andThrow(new UpfProgrammableException("setTenants: no room"));
        expect(refuses.setQueues(anyObject())).andReturn(2);
        HupfDataplaneConfig ok = createMock(HupfDataplaneConfig.class);
        expect(ok.setRoutes(anyObject())).andReturn(1);
        expect(ok.setTenants(anyObject())).andReturn(3);
        expect(ok.setQueues(anyObject())).andReturn(2);
        replay(refuses, ok);
        Map<DeviceId, Device> devices = Map.of(S1, device(refuses), B1, device(ok), B2, device(null));
        DeviceRoutes routes = new DeviceRoutes(devices::get, id -> true);
        assertEquals(8, routes.sync(hybridWithTenants(), List.of(S1, B1, B2)));
        verify(refuses, ok);
    }

    @Test
    public void clearingRemovesTheTenantsAndQueuesToo() throws Exception {
        HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
        expect(dp.setRoutes(List.of())).andReturn(2);
        expect(dp.setTenants(List.of())).andReturn(3);
        expect(dp.setQueues(Map.of())).andReturn(2);
        replay(dp);
        new DeviceRoutes(Map.of(B1, device(dp))::get, id -> true).clear(List.of(B1));
        verify(dp);
    }

    @Test
    public void thePeriodicCheckWritesTheTenantsAndQueuesOnceUntilTheDeviceComesBack() throws Exception {
        HupfConfig cfg = hybridWithTenants();
        HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
        expect(dp.setRoutes(anyObject())).andReturn(0).times(4);
        // Once for the first check, once after the device came back; the checks between read nothing.
        expect(dp.setTenants(cfg.tenants())).andReturn(3).times(2);
        expect(dp.setQueues(cfg.queues())).andReturn(2).times(2);
        replay(dp);
        DeviceRoutes routes = new DeviceRoutes(Map.of(B1, device(dp))::get, id -> true);
        assertEquals(5, routes.sync(cfg, List.of(B1)));
        assertEquals(0, routes.sync(cfg, List.of(B1)));
        routes.recheck(B1);
        assertEquals(5, routes.sync(cfg, List.of(B1)));
        assertEquals(0, routes.sync(cfg, List.of(B1)));
        verify(dp);
    }

    @Test
    public void aSliceEditedInTheNetcfgIsWrittenByTheNextCheckOnly() throws Exception {
        HupfConfig before = hybridWithTenants();
        HupfConfig after = hybridWithTenants("{\"qfi\": 9, \"tc\": 3, \"dscp\": 34}", QUEUES);
        assertEquals(List.of(new TenantSlice(9, 3, 34)), after.tenants().get(0).slices());
        HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
        expect(dp.setRoutes(anyObject())).andReturn(0).times(3);
        expect(dp.setTenants(before.tenants())).andReturn(3);
        expect(dp.setTenants(after.tenants())).andReturn(1);
        expect(dp.setQueues(Map.of(0, 0, 3, 6))).andReturn(2);
        replay(dp);
        DeviceRoutes routes = new DeviceRoutes(Map.of(B1, device(dp))::get, id -> true);
        assertEquals(5, routes.sync(before, List.of(B1)));
        assertEquals("the slice", 1, routes.sync(after, List.of(B1)));
        assertEquals(0, routes.sync(after, List.of(B1)));
        verify(dp);
    }

    @Test
    public void tenantsNotWrittenAreTriedAgainByTheNextCheck() throws Exception {
        HupfConfig cfg = hybridWithTenants();
        HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
        expect(dp.setRoutes(anyObject())).andReturn(0).times(2);
        expect(dp.setTenants(cfg.tenants())).andThrow(new UpfProgrammableException("not bound yet"));
        expect(dp.setTenants(cfg.tenants())).andReturn(3);
        expect(dp.setQueues(cfg.queues())).andThrow(new UpfProgrammableException("not bound yet"));
        expect(dp.setQueues(cfg.queues())).andReturn(2);
        replay(dp);
        boolean[] master = {false};
        DeviceRoutes routes = new DeviceRoutes(Map.of(B1, device(dp))::get, id -> master[0]);
        assertEquals("not this node's to write", 0, routes.sync(cfg, List.of(B1)));
        master[0] = true;
        assertEquals("refused", 0, routes.sync(cfg, List.of(B1)));
        assertEquals(5, routes.sync(cfg, List.of(B1)));
        verify(dp);
    }

    @Test
    public void queuesEditedInTheNetcfgAreWrittenByTheNextCheckOnly() throws Exception {
        HupfConfig before = hybridWithTenants();
        HupfConfig after = hybridWithTenants("", "{\"3\": 7}");
        HupfConfig none = hybridWithTenants("", "{}");
        HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
        expect(dp.setRoutes(anyObject())).andReturn(0).times(4);
        expect(dp.setTenants(before.tenants())).andReturn(3);
        expect(dp.setQueues(Map.of(0, 0, 3, 6))).andReturn(2);
        expect(dp.setQueues(Map.of(3, 7))).andReturn(2);
        expect(dp.setQueues(Map.of())).andReturn(1);
        replay(dp);
        DeviceRoutes routes = new DeviceRoutes(Map.of(B1, device(dp))::get, id -> true);
        assertEquals(5, routes.sync(before, List.of(B1)));
        assertEquals("class 3's queue modified, class 0's removed", 2, routes.sync(after, List.of(B1)));
        assertEquals(0, routes.sync(after, List.of(B1)));
        assertEquals("no queues: every class in queue 0", 1, routes.sync(none, List.of(B1)));
        verify(dp);
    }
}
