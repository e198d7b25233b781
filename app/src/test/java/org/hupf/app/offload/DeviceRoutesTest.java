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

    private static HupfConfig hybridWithTenants() throws Exception {
        return hybridWithTenants("");
    }

    /** The two tenants, the first with these slices (a JSON list's items). */
    private static HupfConfig hybridWithTenants(String slices) throws Exception {
        ObjectNode node = (ObjectNode) MAPPER.readTree(new File("../netcfg/hupf-bmv2-backend.json"))
                .path("apps").path("org.hupf.app").path(HupfConfig.KEY);
        node.set("tenants", MAPPER.readTree(
                "[{\"vni\": 100, \"vtep\": \"192.168.100.1\", \"tenantId\": 1, \"tc\": 2, \"dscp\": 46, "
                        + "\"rateBps\": 8000000, \"burstBytes\": 15000, \"slices\": [" + slices + "]}, "
                        + "{\"vni\": 200, \"vtep\": \"192.168.100.1\", \"tenantId\": 2, \"tc\": 0, \"dscp\": 0}]"));
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
    public void everyDeviceGetsTheTenantsWithItsRoutes() throws Exception {
        List<Tenant> tenants = List.of(new Tenant(100, VTEP, 1, 2, 46, 8_000_000, 15_000),
                                       new Tenant(200, VTEP, 2, 0, 0));
        Map<DeviceId, HupfDataplaneConfig> dps = new HashMap<>();
        Map<DeviceId, Device> devices = new HashMap<>();
        for (DeviceId id : List.of(S1, B1, B2)) {
            HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
            expect(dp.setRoutes(anyObject())).andReturn(0);
            expect(dp.setTenants(tenants)).andReturn(3);
            replay(dp);
            dps.put(id, dp);
            devices.put(id, device(dp));
        }
        DeviceRoutes routes = new DeviceRoutes(devices::get, id -> true);
        assertEquals(9, routes.sync(hybridWithTenants(), Set.of(S1, B1, B2)));
        dps.values().forEach(dp -> verify(dp));
    }

    @Test
    public void aDeviceThatRefusesTheTenantsKeepsTheOthersGoing() throws Exception {
        HupfDataplaneConfig refuses = createMock(HupfDataplaneConfig.class);
        expect(refuses.setRoutes(anyObject())).andReturn(0);
        expect(refuses.setTenants(anyObject())).andThrow(new UpfProgrammableException("setTenants: no room"));
        HupfDataplaneConfig ok = createMock(HupfDataplaneConfig.class);
        expect(ok.setRoutes(anyObject())).andReturn(1);
        expect(ok.setTenants(anyObject())).andReturn(3);
        replay(refuses, ok);
        Map<DeviceId, Device> devices = Map.of(S1, device(refuses), B1, device(ok), B2, device(null));
        DeviceRoutes routes = new DeviceRoutes(devices::get, id -> true);
        assertEquals(4, routes.sync(hybridWithTenants(), List.of(S1, B1, B2)));
        verify(refuses, ok);
    }

    @Test
    public void clearingRemovesTheTenantsToo() throws Exception {
        HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
        expect(dp.setRoutes(List.of())).andReturn(2);
        expect(dp.setTenants(List.of())).andReturn(3);
        replay(dp);
        new DeviceRoutes(Map.of(B1, device(dp))::get, id -> true).clear(List.of(B1));
        verify(dp);
    }

    @Test
    public void thePeriodicCheckWritesTheTenantsOnceUntilTheDeviceComesBack() throws Exception {
        HupfConfig cfg = hybridWithTenants();
        HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
        expect(dp.setRoutes(anyObject())).andReturn(0).times(4);
        // Once for the first check, once after the device came back; the checks between read nothing.
        expect(dp.setTenants(cfg.tenants())).andReturn(3).times(2);
        replay(dp);
        DeviceRoutes routes = new DeviceRoutes(Map.of(B1, device(dp))::get, id -> true);
        assertEquals(3, routes.sync(cfg, List.of(B1)));
        assertEquals(0, routes.sync(cfg, List.of(B1)));
        routes.recheckTenants(B1);
        assertEquals(3, routes.sync(cfg, List.of(B1)));
        assertEquals(0, routes.sync(cfg, List.of(B1)));
        verify(dp);
    }

    @Test
    public void aSliceEditedInTheNetcfgIsWrittenByTheNextCheckOnly() throws Exception {
        HupfConfig before = hybridWithTenants();
        HupfConfig after = hybridWithTenants("{\"qfi\": 9, \"tc\": 3, \"dscp\": 34}");
        assertEquals(List.of(new TenantSlice(9, 3, 34)), after.tenants().get(0).slices());
        HupfDataplaneConfig dp = createMock(HupfDataplaneConfig.class);
        expect(dp.setRoutes(anyObject())).andReturn(0).times(3);
        expect(dp.setTenants(before.tenants())).andReturn(3);
        expect(dp.setTenants(after.tenants())).andReturn(1);
        replay(dp);
        DeviceRoutes routes = new DeviceRoutes(Map.of(B1, device(dp))::get, id -> true);
        assertEquals(3, routes.sync(before, List.of(B1)));
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
        replay(dp);
        boolean[] master = {false};
        DeviceRoutes routes = new DeviceRoutes(Map.of(B1, device(dp))::get, id -> master[0]);
        assertEquals("not this node's to write", 0, routes.sync(cfg, List.of(B1)));
        master[0] = true;
        assertEquals("refused", 0, routes.sync(cfg, List.of(B1)));
        assertEquals(3, routes.sync(cfg, List.of(B1)));
        verify(dp);
    }
}
