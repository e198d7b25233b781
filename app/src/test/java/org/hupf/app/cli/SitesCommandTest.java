package org.hupf.app.cli;

import org.hupf.api.HupfService;
import org.hupf.api.OffloadService;
import org.hupf.api.SiteStatus;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;

/** {@code hupf:sites}: one line per site of the netcfg, or the implicit site. */
public class SitesCommandTest {

    @Rule
    public final StdoutCapture out = new StdoutCapture();

    private String run(List<SiteStatus> sites) {
        return run(sites, null);
    }

    private String run(List<SiteStatus> sites, OffloadService offload) {
        HupfService service = createMock(HupfService.class);
        expect(service.sites()).andReturn(sites);
        replay(service);
        new SitesCommand() {
            @Override
            protected HupfService service() {
                return service;
            }

            @Override
            protected OffloadService offload() {
                return offload;
            }
        }.doExecute();
        return out.text();
    }

    @Test
    public void oneLinePerSiteWithItsSessions() {
        assertEquals("site=edge-a switch=device:s1 backends=device:b1,device:b2 gnbs=192.168.1.0/24"
                             + " n3NetworkInstances=access-a n3Addresses=192.168.0.1 sessions=3\n"
                             + "site=edge-b switch=none backends=device:b3 gnbs= n3NetworkInstances=access-b"
                             + " n3Addresses= sessions=0\n",
                     run(List.of(new SiteStatus("edge-a", "device:s1", List.of("device:b1", "device:b2"),
                                                List.of("192.168.1.0/24"), List.of("access-a"),
                                                List.of("192.168.0.1"), 3),
                                 new SiteStatus("edge-b", null, List.of("device:b3"), List.of(), List.of("access-b"),
                                                List.of(), 0))));
    }

    @Test
    public void aSiteThisNodeDrivesShowsItsOffloadedSessionsAndBackendsUp() {
        OffloadService offload = createMock(OffloadService.class);
        expect(offload.sites()).andReturn(Map.of("edge-a", new OffloadService.SiteHybrid(
                null, Set.of(Ip4Address.valueOf("10.250.0.1"), Ip4Address.valueOf("10.250.0.2")), List.of("device:b1"),
                List.of("device:b1"))));
        replay(offload);
        assertEquals("site=edge-a switch=device:s1 backends=device:b1,device:b2 gnbs= n3NetworkInstances="
                             + " n3Addresses= sessions=3 offloaded=2 backendsUp=device:b1\n"
                             + "site=edge-b switch=none backends=device:b3 gnbs= n3NetworkInstances= n3Addresses="
                             + " sessions=0\n",
                     run(List.of(new SiteStatus("edge-a", "device:s1", List.of("device:b1", "device:b2"), List.of(),
                                                List.of(), List.of(), 3),
                                 new SiteStatus("edge-b", null, List.of("device:b3"), List.of(), List.of(),
                                                List.of(), 0)), offload));
    }

    @Test
    public void saysSoWithoutSites() {
        assertEquals("one implicit site: the netcfg names no sites (every device, every gNB)\n", run(List.of()));
    }
}
