package org.hupf.app.cli;

import org.hupf.api.SiteStatus;
import org.junit.Test;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.component.runtime.dto.ReferenceDTO;
import org.osgi.service.component.runtime.dto.UnsatisfiedReferenceDTO;

import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

public class StatusCommandTest {

    private static final Map<String, String> ALL_ACTIVE = Map.of(
            "org.hupf.hupf-pipeconf", "Active", "org.hupf.hupf-api", "Active", "org.hupf.hupf-core", "Active",
            "org.hupf.hupf-app", "Active");

    private static ComponentDescriptionDTO description(String name, String reference, String iface) {
        ComponentDescriptionDTO d = new ComponentDescriptionDTO();
        d.name = name;
        d.defaultEnabled = true;
        ReferenceDTO r = new ReferenceDTO();
        r.name = reference;
        r.interfaceName = iface;
        d.references = new ReferenceDTO[] {r};
        return d;
    }

    private static ComponentConfigurationDTO config(int state) {
        ComponentConfigurationDTO c = new ComponentConfigurationDTO();
        c.state = state;
        c.unsatisfiedReferences = new UnsatisfiedReferenceDTO[0];
        return c;
    }

    @Test
    public void runningWhenEveryBundleIsActiveAndEveryComponentSatisfied() {
        ComponentDescriptionDTO a = description("org.hupf.app.impl.HupfManager", "coreService", "CoreService");
        ComponentDescriptionDTO b = description("org.hupf.app.cli.Other", "x", "X");
        List<String> lines = StatusCommand.report(ALL_ACTIVE, List.of(a, b), d -> List.of(
                config(d == a ? ComponentConfigurationDTO.ACTIVE : ComponentConfigurationDTO.SATISFIED)));
        assertEquals(List.of("hupf: running",
                             "bundle org.hupf.hupf-pipeconf: Active",
                             "bundle org.hupf.hupf-api: Active",
                             "bundle org.hupf.hupf-core: Active",
                             "bundle org.hupf.hupf-app: Active",
                             "component org.hupf.app.cli.Other: SATISFIED",
                             "component org.hupf.app.impl.HupfManager: ACTIVE"), lines);
    }

    @Test
    public void namesWhatAComponentWaitsForAndWhyItsActivationFailed() {
        ComponentDescriptionDTO waiting = description("org.hupf.app.offload.OffloadComponent", "packetService",
                                                      "org.onosproject.net.packet.PacketService");
        ComponentDescriptionDTO failed = description("org.hupf.app.impl.HupfManager", "coreService", "CoreService");
        ComponentConfigurationDTO w = config(ComponentConfigurationDTO.UNSATISFIED_REFERENCE);
        UnsatisfiedReferenceDTO u = new UnsatisfiedReferenceDTO();
        u.name = "packetService";
        w.unsatisfiedReferences = new UnsatisfiedReferenceDTO[] {u};
        ComponentConfigurationDTO f = config(ComponentConfigurationDTO.FAILED_ACTIVATION);
        f.failure = "java.lang.IllegalStateException: storage not ready";
        List<String> lines = StatusCommand.report(Map.of("org.hupf.hupf-app", "Active", "org.hupf.hupf-api", "Active",
                                                         "org.hupf.hupf-core", "Active"),
                                                  List.of(waiting, failed), d -> List.of(d == waiting ? w : f));
        assertEquals(List.of("hupf: NOT running (see the lines below)",
                             "bundle org.hupf.hupf-pipeconf: not installed",
                             "bundle org.hupf.hupf-api: Active",
                             "bundle org.hupf.hupf-core: Active",
                             "bundle org.hupf.hupf-app: Active",
                             "component org.hupf.app.impl.HupfManager: FAILED_ACTIVATION: "
                                     + "java.lang.IllegalStateException: storage not ready",
                             "component org.hupf.app.offload.OffloadComponent: UNSATISFIED_REFERENCE (waits for "
                                     + "packetService (org.onosproject.net.packet.PacketService))"), lines);
    }

    @Test
    public void sitesLineGivesEachSiteItsSwitchBackendsAndSessions() {
        SiteStatus edge1 = new SiteStatus("edge1", "device:leaf1", List.of("device:b1", "device:b2"), List.of(),
                                          List.of(), List.of(), 3).withHybrid(1, List.of("device:b1"));
        SiteStatus edge2 = new SiteStatus("edge2", null, List.of("device:b3"), List.of(), List.of(), List.of(), 0);
        assertEquals("sites: edge1 switch=device:leaf1 backends=2 sessions=3 backendsUp=1 offloaded=1; "
                             + "edge2 switch=none backends=1 sessions=0 (not driven by this node)",
                     StatusCommand.sitesLine(List.of(edge1, edge2)));
        assertEquals("sites: one implicit site (the netcfg names none)", StatusCommand.sitesLine(List.of()));
    }
}
