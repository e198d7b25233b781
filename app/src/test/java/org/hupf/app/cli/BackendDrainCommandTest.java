package org.hupf.app.cli;

import org.hupf.api.OffloadService;
import org.hupf.core.offload.TestOffloadService;
import org.junit.Rule;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

public class BackendDrainCommandTest {

    @Rule
    public final ConsoleCapture console = new ConsoleCapture();

    private String run(OffloadService service, String backend, boolean restore) {
        BackendDrainCommand c = new BackendDrainCommand() {
            @Override
            protected OffloadService offload() {
                return service;
            }
        };
        c.backend = backend;
        c.restore = restore;
        c.doExecute();
        return console.take();
    }

    @Test
    public void drainsRefusesAndRestores() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(1);
        assertEquals("backend2 drained: steered away in 3 ms, quiet after 503 ms, 0 packets after the steering, 7 in "
                             + "all; it may stop\n", run(offload, "backend2", false));
        assertEquals("backend2 is drained already\n", run(offload, "backend2", false));
        assertEquals("backend2 restored: its sessions reconciled, then steered to\n", run(offload, "backend2", true));
        assertEquals("backend2 is not drained\n", run(offload, "backend2", true));
        assertEquals("the switch did not take the steering without backend2\n",
                     run(TestOffloadService.withoutBackend(), "backend2", false));
    }
}
