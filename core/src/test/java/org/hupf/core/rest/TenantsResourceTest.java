package org.hupf.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.HupfService;
import org.hupf.api.TenantOverlay;
import org.hupf.api.TenantStatus;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import javax.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;

/**
 * GET /tenants: the netcfg's tenants with their bound sessions and counters, as the service reports them.
 */
public class TenantsResourceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Ip4Address VTEP = Ip4Address.valueOf("192.168.100.1");

    private static HupfWebResource resource() {
        HupfService service = createMock(HupfService.class);
        TenantOverlay overlay = new TenantOverlay(VTEP, Ip4Address.valueOf("172.16.0.2"),
                                                  MacAddress.valueOf("02:00:00:00:0a:01"),
                                                  MacAddress.valueOf("02:00:00:00:0a:02"));
        expect(service.tenants()).andReturn(List.of(
                new TenantStatus(new Tenant(100, VTEP, 1, 2, 46, 8_000_000, 15_000,
                                            List.of(new TenantSlice(9, 3, 34, 800_000, 3000), new TenantSlice(5, 1, 10))),
                                 "tenant-a", overlay, 3,
                                 Map.of("device:bmv2:s1", TenantStatus.Count.of(10, 1500),
                                        "device:backend:b1", TenantStatus.Count.of(5, 700),
                                        "device:backend:b2", TenantStatus.Count.unreadable("UNAVAILABLE")),
                                 Map.of(9, Map.of("device:bmv2:s1", TenantStatus.Count.of(4, 600),
                                                  "device:backend:b1", TenantStatus.Count.of(1, 140),
                                                  "device:backend:b2", TenantStatus.Count.unreadable("UNAVAILABLE")))),
                new TenantStatus(new Tenant(101, VTEP, 2, 0, 0), null, null, 0, Map.of(), Map.of()))).anyTimes();
        replay(service);
        return new HupfWebResource() {
            @Override
            protected HupfService service() {
                return service;
            }
        };
    }

    @Test
    public void eachTenantWithItsSessionsAndItsCountersAndItsSlicesSummedAndPerDevice() throws Exception {
        Response r = resource().tenants(null);
        assertEquals(200, r.getStatus());
        JsonNode tenants = MAPPER.readTree((String) r.getEntity()).get("tenants");
        assertEquals(2, tenants.size());
        assertEquals(MAPPER.readTree("{\"tenantId\": 1, \"vni\": 100, \"vtep\": \"192.168.100.1\", \"tc\": 2,"
                + " \"dscp\": 46, \"rateBps\": 8000000, \"burstBytes\": 15000, \"networkInstance\": \"tenant-a\","
                + " \"overlay\": {\"vtepSrc\": \"192.168.100.1\", \"vtepDst\": \"172.16.0.2\","
                + " \"innerSrcMac\": \"02:00:00:00:0A:01\", \"innerDstMac\": \"02:00:00:00:0A:02\"},"
                + " \"sessions\": 3, \"counters\": {\"packets\": 15, \"bytes\": 2200, \"devices\": {"
                + " \"device:backend:b1\": {\"packets\": 5, \"bytes\": 700},"
                + " \"device:backend:b2\": {\"error\": \"UNAVAILABLE\"},"
                + " \"device:bmv2:s1\": {\"packets\": 10, \"bytes\": 1500}}},"
                + " \"slices\": [{\"qfi\": 9, \"tc\": 3, \"dscp\": 34, \"rateBps\": 800000, \"burstBytes\": 3000,"
                + " \"counters\": {\"packets\": 5, \"bytes\": 740, \"devices\": {"
                + " \"device:backend:b1\": {\"packets\": 1, \"bytes\": 140},"
                + " \"device:backend:b2\": {\"error\": \"UNAVAILABLE\"},"
                + " \"device:bmv2:s1\": {\"packets\": 4, \"bytes\": 600}}}},"
                + " {\"qfi\": 5, \"tc\": 1, \"dscp\": 10, \"counters\": {\"packets\": 0, \"bytes\": 0,"
                + " \"devices\": {}}}]}"), tenants.get(0));
        assertEquals("an entry that binds no session has no networkInstance", MAPPER.readTree(
                "{\"tenantId\": 2, \"vni\": 101, \"vtep\": \"192.168.100.1\", \"tc\": 0, \"dscp\": 0, \"sessions\": 0,"
                        + " \"counters\": {\"packets\": 0, \"bytes\": 0, \"devices\": {}}}"), tenants.get(1));
    }

    @Test
    public void aTenantIdSelectsItsEntriesAndABadOneIsABadRequestNamingIt() throws Exception {
        JsonNode two = MAPPER.readTree((String) resource().tenants("2").getEntity()).get("tenants");
        assertEquals(1, two.size());
        assertEquals(101, two.get(0).get("vni").asInt());
        assertEquals(0, MAPPER.readTree((String) resource().tenants("7").getEntity()).get("tenants").size());
        for (String bad : List.of("256", "-1", "one", "")) {
            Response r = resource().tenants(bad);
            assertEquals(bad, 400, r.getStatus());
            assertEquals("tenantId: an integer in [0, 255] expected, got " + bad,
                         MAPPER.readTree((String) r.getEntity()).get("error").asText());
        }
    }
}
