package org.hupf.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.RpsService;
import org.hupf.api.RpsStatus;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.junit.Rule;
import org.junit.Test;

import java.util.List;
import java.util.Map;

import static org.hupf.pipeconf.HupfConstants.RPS_EVENTS;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_DIRECT;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_OBSERVED;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_TRACK_OVERRUN;
import static org.hupf.pipeconf.HupfConstants.RPS_POINTS;
import static org.hupf.pipeconf.HupfConstants.RPS_POINT_IN;
import static org.hupf.pipeconf.HupfConstants.RPS_POINT_OUT;
import static org.junit.Assert.assertEquals;

public class RpsCommandTest {

    @Rule
    public final ConsoleCapture console = new ConsoleCapture();

    private static RpsStatus status(RpsStatus.Exporter exporter) throws Exception {
        long[][] events = new long[RPS_POINTS][RPS_EVENTS];
        events[RPS_POINT_IN][RPS_EV_OBSERVED] = 1000;
        events[RPS_POINT_IN][RPS_EV_DIRECT] = 10;
        events[RPS_POINT_OUT][RPS_EV_OBSERVED] = 990;
        events[RPS_POINT_OUT][RPS_EV_TRACK_OVERRUN] = 7;
        ObjectNode settings = (ObjectNode) new ObjectMapper().readTree("{\"mode\":\"DATA_PLANE\",\"quietUs\":100000}");
        return new RpsStatus(RpsConfig.Mode.DATA_PLANE, settings, Map.of(
                "device:s1", RpsStatus.Device.of(new RpsState(4096, 256, 64, events), List.of("rps.flows[0] (flow 1): ...")),
                "device:s0", RpsStatus.Device.unreadable("readRps: UNAVAILABLE")), 21, 1, 2, exporter);
    }

    private String run(RpsStatus status, String device) {
        RpsCommand c = new RpsCommand() {
            @Override
            protected RpsService rps() {
                return () -> status;
            }
        };
        c.device = device;
        c.doExecute();
        return console.take();
    }

    @Test
    public void settingsExportAndEachDevicesEventsPerPointWithItsWarnings() throws Exception {
        assertEquals("mode=DATA_PLANE settings={\"mode\":\"DATA_PLANE\",\"quietUs\":100000}\n"
                             + "export records=21 malformed=1 notExported=2 monitor=127.0.0.1:9700 offered=20 queued=1"
                             + " sent=18 datagrams=2 dropped=1 sendErrors=0\n"
                             + "device:s0 error(readRps: UNAVAILABLE)\n"
                             + "device:s1 bufferSize=4096 flows=256 trackDepth=64\n"
                             + "  in observed=1000 direct=10 delayed=0 late=0 trackOverrun=0 exported=0"
                             + " lateRepeated=0 invalid=0\n"
                             + "  out observed=990 direct=0 delayed=0 late=0 trackOverrun=7 exported=0"
                             + " lateRepeated=0 invalid=0\n"
                             + "  warning: rps.flows[0] (flow 1): ...\n",
                     run(status(new RpsStatus.Exporter("127.0.0.1:9700", 20, 1, 18, 2, 1, 0)), null));
    }

    @Test
    public void oneDeviceAndWithoutExporterAndAnUnknownDeviceIsAnError() throws Exception {
        assertEquals("mode=DATA_PLANE settings={\"mode\":\"DATA_PLANE\",\"quietUs\":100000}\n"
                             + "export records=21 malformed=1 notExported=2\n"
                             + "device:s0 error(readRps: UNAVAILABLE)\n", run(status(null), "device:s0"));
        assertEquals("device device:s9 has no RPS counters here (devices: device:s0, device:s1)\n",
                     run(status(null), "device:s9"));
    }
}
