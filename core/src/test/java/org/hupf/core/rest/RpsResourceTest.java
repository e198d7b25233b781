package org.hupf.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.RpsService;
import org.hupf.api.RpsStatus;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.junit.Test;

import javax.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

import static org.hupf.pipeconf.HupfConstants.RPS_EVENTS;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_DELAYED;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_DIRECT;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_OBSERVED;
import static org.hupf.pipeconf.HupfConstants.RPS_EV_TRACK_OVERRUN;
import static org.hupf.pipeconf.HupfConstants.RPS_POINTS;
import static org.hupf.pipeconf.HupfConstants.RPS_POINT_IN;
import static org.hupf.pipeconf.HupfConstants.RPS_POINT_OUT;
import static org.junit.Assert.assertEquals;

/**
 * GET /rps: the RPS service's status as JSON, all devices or one; a device that is empty or has no counters is
 * refused with a message.
 */
public class RpsResourceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A switch with counters and a warning, another that cannot be read, an exporter. */
    static RpsStatus status() throws Exception {
        long[][] events = new long[RPS_POINTS][RPS_EVENTS];
        events[RPS_POINT_IN][RPS_EV_OBSERVED] = 1000;
        events[RPS_POINT_IN][RPS_EV_DIRECT] = 10;
        events[RPS_POINT_IN][RPS_EV_DELAYED] = 4;
        events[RPS_POINT_OUT][RPS_EV_OBSERVED] = 990;
        events[RPS_POINT_OUT][RPS_EV_TRACK_OVERRUN] = 7;
        ObjectNode settings = (ObjectNode) MAPPER.readTree("{\"mode\": \"DATA_PLANE\", \"quietUs\": 100000}");
        return new RpsStatus(RpsConfig.Mode.DATA_PLANE, settings, Map.of(
                "device:bmv2:s1", RpsStatus.Device.of(new RpsState(4096, 256, 64, events), List.of("rps.flows[0] ...")),
                "device:bmv2:s2", RpsStatus.Device.unreadable("readRps: UNAVAILABLE")), 21, 1, 2,
                             new RpsStatus.Exporter("127.0.0.1:9700", 20, 1, 18, 2, 1, 0));
    }

    private static HupfWebResource resource() throws Exception {
        RpsStatus s = status();
        RpsService service = () -> s;
        return new HupfWebResource() {
            @Override
            protected RpsService rpsService() {
                return service;
            }
        };
    }

    private static final String SWITCH = "\"device:bmv2:s1\": {\"bufferSize\": 4096, \"flows\": 256, \"trackDepth\": 64,"
            + " \"in\": {\"observed\": 1000, \"direct\": 10, \"delayed\": 4, \"late\": 0, \"trackOverrun\": 0,"
            + " \"exported\": 0, \"lateRepeated\": 0, \"invalid\": 0},"
            + " \"out\": {\"observed\": 990, \"direct\": 0, \"delayed\": 0, \"late\": 0, \"trackOverrun\": 7,"
            + " \"exported\": 0, \"lateRepeated\": 0, \"invalid\": 0}, \"warnings\": [\"rps.flows[0] ...\"]}";
    private static final String HEAD = "{\"mode\": \"DATA_PLANE\", \"settings\": {\"mode\": \"DATA_PLANE\","
            + " \"quietUs\": 100000}, \"export\": {\"records\": 21, \"malformed\": 1, \"notExported\": 2,"
            + " \"exporter\": {\"monitor\": \"127.0.0.1:9700\", \"offered\": 20, \"queued\": 1, \"sent\": 18,"
            + " \"datagrams\": 2, \"dropped\": 1, \"sendErrors\": 0}}, ";

    @Test
    public void theModeSettingsExportAndEveryDevicesEventsPerPoint() throws Exception {
        Response r = resource().rps(null);
        assertEquals(200, r.getStatus());
        assertEquals(MAPPER.readTree(HEAD + "\"devices\": {" + SWITCH + ", \"device:bmv2:s2\": {\"error\":"
                                             + " \"readRps: UNAVAILABLE\"}}}"),
                     MAPPER.readTree((String) r.getEntity()));
    }

    @Test
    public void aDeviceSelectsItsCountersAndABadOneIsRefusedWithAMessage() throws Exception {
        Response one = resource().rps("device:bmv2:s1");
        assertEquals(200, one.getStatus());
        assertEquals(MAPPER.readTree(HEAD + "\"devices\": {" + SWITCH + "}}"), MAPPER.readTree((String) one.getEntity()));

        Response unknown = resource().rps("device:bmv2:s9");
        assertEquals(404, unknown.getStatus());
        assertEquals("device device:bmv2:s9 has no RPS counters here (devices: device:bmv2:s1, device:bmv2:s2)",
                     error(unknown));
        for (String blank : List.of("", "  ")) {
            Response r = resource().rps(blank);
            assertEquals(400, r.getStatus());
            assertEquals("device: a device id expected, got '" + blank + "'", error(r));
        }
    }

    private static String error(Response r) throws Exception {
        JsonNode body = MAPPER.readTree((String) r.getEntity());
        return body.get("error").asText();
    }
}
