package org.hupf.app.cli;

import org.hupf.api.HupfService;
import org.hupf.api.OffloadService;
import org.hupf.api.SiteStatus;
import org.hupf.core.offload.TestOffloadService;
import org.junit.Rule;
import org.junit.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** {@code hupf:offload}: the metrics summed over the sites, each site's own lines, one site with --site. */
public class OffloadCommandTest {

    private static final List<SiteStatus> TWO_SITES = List.of(
            new SiteStatus("edge-a", "device:s1", List.of("device:b1"), List.of("10.1.0.0/16"), List.of(), List.of(),
                           3),
            new SiteStatus("edge-b", "device:s2", List.of("device:b2", "device:b3"), List.of("10.2.0.0/16"),
                           List.of(), List.of(), 2));

    @Rule
    public final StdoutCapture stdout = new StdoutCapture();

    private String run(OffloadService service) {
        return run(service, List.of(), null);
    }

    private String run(OffloadService service, List<SiteStatus> sites, String site) {
        HupfService hupf = createMock(HupfService.class);
        expect(hupf.sites()).andReturn(sites).anyTimes();
        replay(hupf);
        stdout.reset();
        OffloadCommand command = new OffloadCommand() {
            @Override
            protected OffloadService offload() {
                return service;
            }

            @Override
            protected HupfService service() {
                return hupf;
            }
        };
        command.site = site;
        command.doExecute();
        return stdout.text();
    }

    @Test
    public void showsMetricsOccupancyAndOffloadedUes() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(2);
        offload.onHeavyHitter(TestOffloadService.ue(0));
        String text = run(offload);
        assertTrue(text, text.contains("backends backend\n"));
        assertTrue(text, text.contains("steered_to backend\n"));
        assertTrue(text, !text.contains("drained"));
        assertFalse("one implicit site: no site lines", text.contains("site "));
        offload.drain("backend2", 500, 10_000);
        assertTrue(run(offload).contains("drained backend2 site=default\n"));
        assertTrue(text, text.contains("sessions=2 offloaded=1 hh_reports=1"));
        assertTrue(text, text.contains("switch session_downlink 1/8"));
        assertTrue(text, text.contains("offloaded " + TestOffloadService.ue(0)));
    }

    @Test
    public void twoSitesShowTheSumThenEachSitesOwnLines() throws Exception {
        TestOffloadService offload = TestOffloadService.twoSites();
        offload.onHeavyHitter(TestOffloadService.ue(1));
        offload.onHeavyHitter(TestOffloadService.ue(4));
        String text = run(offload, TWO_SITES, null);
        assertTrue(text, text.startsWith("backends device:b1 device:b2 device:b3\nsteered_to device:b1 device:b2\n"
                                                 + "sessions=5 offloaded=2 hh_reports=2"));
        assertTrue(text, text.contains("\nswitch session_downlink 2/16\n"));
        assertTrue(text, text.contains("\nsite edge-a backends device:b1\nsite edge-a steered_to device:b1\n"
                                               + "site edge-a sessions=3 offloaded=1 hh_reports=1"));
        assertTrue(text, text.contains("\nsite edge-a offloaded " + TestOffloadService.ue(1) + "\n"));
        assertTrue(text, text.contains("\nsite edge-b backends device:b2 device:b3\nsite edge-b steered_to device:b2\n"
                                               + "site edge-b sessions=2 offloaded=1 hh_reports=1"));
        assertTrue(text, text.contains("\nsite edge-b switch session_downlink 1/8\n"));
        assertTrue(text, text.contains("\nsite edge-b offloaded " + TestOffloadService.ue(4) + "\n"));

        String onlyB = run(offload, TWO_SITES, "edge-b");
        assertTrue(onlyB, onlyB.startsWith("site edge-b backends device:b2 device:b3\n"));
        assertFalse(onlyB, onlyB.contains("edge-a"));
        assertFalse("no sum with --site", onlyB.contains("\nsessions="));
    }

    @Test
    public void anUnknownSiteIsAnErrorNamingTheSites() throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals("", run(TestOffloadService.twoSites(), TWO_SITES, "edge-c"));
        } finally {
            System.setErr(err);
        }
        assertEquals("no site 'edge-c': the netcfg's sites are edge-a, edge-b\n",
                     captured.toString(StandardCharsets.UTF_8));
    }

    @Test
    public void saysSoWithoutABackend() {
        assertTrue(run(TestOffloadService.withoutBackend()).contains("no hupf backend available"));
        assertTrue(run(TestOffloadService.withoutBackend(), TWO_SITES, "edge-a")
                           .contains("no hupf backend available at site edge-a"));
    }
}
