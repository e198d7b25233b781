package org.hupf.app.cli;

import org.hupf.api.HupfService;
import org.hupf.api.TenantOverlay;
import org.hupf.api.TenantStatus;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.List;
import java.util.Map;

import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;

public class TenantsCommandTest {

    @Rule
    public final StdoutCapture stdout = new StdoutCapture();

    private String run(List<TenantStatus> tenants) {
        HupfService service = createMock(HupfService.class);
        expect(service.tenants()).andReturn(tenants);
        replay(service);
        new TenantsCommand() {
            @Override
            protected HupfService service() {
                return service;
            }
        }.doExecute();
        return stdout.text();
    }

    @Test
    public void oneLinePerTenantAndSliceWithItsSessionsAndCountersSummedAndPerDevice() {
        Ip4Address vtep = Ip4Address.valueOf("192.168.100.1");
        TenantOverlay overlay = new TenantOverlay(vtep, Ip4Address.valueOf("172.16.0.2"),
                                                  MacAddress.valueOf("02:00:00:00:0a:01"),
                                                  MacAddress.valueOf("02:00:00:00:0a:02"));
        String text = run(List.of(
                new TenantStatus(new Tenant(100, vtep, 1, 2, 46, 0, 0, List.of(new TenantSlice(9, 3, 34))), "tenant-a",
                                 overlay, 3,
                                 Map.of("device:bmv2:s1", TenantStatus.Count.of(10, 1500),
                                        "device:backend:b1", TenantStatus.Count.of(5, 700),
                                        "device:backend:b2", TenantStatus.Count.unreadable("UNAVAILABLE")),
                                 Map.of(9, Map.of("device:bmv2:s1", TenantStatus.Count.of(4, 600),
                                                  "device:backend:b1", TenantStatus.Count.of(0, 0)))),
                new TenantStatus(new Tenant(101, vtep, 2, 0, 0), null, null, 0, Map.of(), Map.of())));
        assertEquals("tenantId=1 vni=100 vtep=192.168.100.1 networkInstance=tenant-a edgeVtep=172.16.0.2 sessions=3"
                             + " packets=15 bytes=2200 device:backend:b1=5/700 device:backend:b2=error(UNAVAILABLE)"
                             + " device:bmv2:s1=10/1500\n"
                             + "  slice qfi=9 tc=3 dscp=34 packets=4 bytes=600 device:backend:b1=0/0"
                             + " device:bmv2:s1=4/600\n"
                             + "tenantId=2 vni=101 vtep=192.168.100.1 networkInstance=none edgeVtep=none sessions=0"
                             + " packets=0 bytes=0\n",
                     text);
    }

    @Test
    public void saysSoWithoutTenants() {
        assertEquals("no VXLAN tenant\n", run(List.of()));
    }
}
