package org.hupf.app.cli;

import org.hupf.api.OffloadService;
import org.hupf.core.offload.TestOffloadService;
import org.junit.Rule;
import org.junit.Test;

import static org.junit.Assert.assertTrue;

public class OffloadCommandTest {

    @Rule
    public final StdoutCapture stdout = new StdoutCapture();

    private String run(OffloadService service) {
        stdout.reset();
        new OffloadCommand() {
            @Override
            protected OffloadService offload() {
                return service;
            }
        }.doExecute();
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
        offload.drain("backend2", 500, 10_000);
        assertTrue(run(offload).contains("steered_to backend\ndrained backend2\n"));
        assertTrue(text, text.contains("sessions=2 offloaded=1 hh_reports=1"));
        assertTrue(text, text.contains("switch session_downlink 1/8"));
        assertTrue(text, text.contains("offloaded " + TestOffloadService.ue(0)));
    }

    @Test
    public void saysSoWithoutABackend() {
        assertTrue(run(TestOffloadService.withoutBackend()).contains("no hupf backend available"));
    }
}
