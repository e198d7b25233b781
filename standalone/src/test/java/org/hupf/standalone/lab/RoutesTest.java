package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;
import static org.junit.Assert.assertTrue;

public class RoutesTest {

    private static List<Tenant> tenants(String json) throws Exception {
        return Routes.tenants(new ObjectMapper().readTree(json));
    }

    private static IllegalArgumentException refused(String json) throws Exception {
        try {
            tenants(json);
        } catch (IllegalArgumentException e) {
            return e;
        }
        fail("accepted: " + json);
        return null;
    }

    /** The lab config's tenants carry their slices (class, DSCP, optional meter) as the netcfg's. */
    @Test
    public void aTenantsSlicesAreRead() throws Exception {
        List<Tenant> t = tenants("[{\"vni\": 100, \"vtep\": \"192.0.2.254\", \"tenant_id\": 1, \"tc\": 3, \"dscp\": 46,"
                + " \"slices\": [{\"qfi\": 1, \"tc\": 3, \"dscp\": 46}, {\"qfi\": 9, \"tc\": 0, \"dscp\": 8,"
                + " \"rate_bps\": 500000, \"burst_bytes\": 11080}]},"
                + " {\"vni\": 300, \"vtep\": \"192.0.2.254\", \"tenant_id\": 3, \"tc\": 0, \"dscp\": 0}]");
        assertEquals(List.of(new Tenant(100, Ip4Address.valueOf("192.0.2.254"), 1, 3, 46, 0, 0,
                                        List.of(new TenantSlice(1, 3, 46), new TenantSlice(9, 0, 8, 500_000, 11_080))),
                             new Tenant(300, Ip4Address.valueOf("192.0.2.254"), 3, 0, 0)), t);
    }

    /** A slice's missing or non-integer field, or one out of range, is refused by name. */
    @Test
    public void aBadSliceIsRefusedByName() throws Exception {
        String head = "[{\"vni\": 100, \"vtep\": \"192.0.2.254\", \"tenant_id\": 1, \"tc\": 3, \"dscp\": 46,"
                + " \"slices\": [";
        IllegalArgumentException e = refused(head + "{\"qfi\": 9, \"dscp\": 8}]}]");
        assertTrue(e.getMessage(), e.getMessage().endsWith("tc must be an integer"));
        e = refused(head + "{\"qfi\": \"9\", \"tc\": 0, \"dscp\": 8}]}]");
        assertTrue(e.getMessage(), e.getMessage().endsWith("qfi must be an integer"));
        e = refused(head + "{\"qfi\": 64, \"tc\": 0, \"dscp\": 8}]}]");
        assertEquals("qfi: integer in [0, 63] expected, got 64", e.getMessage());
        e = refused(head + "{\"qfi\": 9, \"tc\": 0, \"dscp\": 8, \"rate_bps\": 500000}]}]");
        assertTrue(e.getMessage(), e.getMessage().startsWith("rateBps (at least 8) and burstBytes (positive)"));
    }
}
