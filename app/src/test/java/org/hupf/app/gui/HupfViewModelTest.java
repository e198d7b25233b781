package org.hupf.app.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionJson;
import org.hupf.core.offload.TestOffloadService;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.junit.Test;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.ui.table.TableModel;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

public class HupfViewModelTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Session i of UE TestOffloadService.ue(i): uplink F-TEID 0x100+i, downlink to gNB TEID 0x200+i. */
    private static PfcpSession session(int i, boolean downlinkBuffering) throws Exception {
        String dlFar = downlinkBuffering ? "{\"farId\": 2, \"applyAction\": [\"BUFF\"]}"
                : "{\"farId\": 2, \"applyAction\": [\"FORW\"], \"forwardingParameters\": {\"destinationInterface\":"
                + " \"ACCESS\", \"outerHeaderCreation\": {\"teid\": " + (0x200 + i) + ", \"ipv4\": \"10.0.1.1\"}}}";
        String json = "{\"upSeid\": " + (10 + i) + ", \"cpSeid\": " + (20 + i) + ", \"nodeId\": \"smf\", \"pdrs\": ["
                + "{\"pdrId\": 1, \"precedence\": 10, \"pdi\": {\"sourceInterface\": \"ACCESS\", \"fTeid\": {\"teid\": "
                + (0x100 + i) + ", \"ipv4\": \"10.0.0.2\"}, \"ueIpAddress\": \"" + TestOffloadService.ue(i)
                + "\"}, \"farId\": 1},"
                + "{\"pdrId\": 2, \"precedence\": 10, \"pdi\": {\"sourceInterface\": \"CORE\", \"ueIpAddress\": \""
                + TestOffloadService.ue(i) + "\"}, \"farId\": 2}],"
                + "\"fars\": [{\"farId\": 1, \"applyAction\": [\"FORW\"], \"forwardingParameters\":"
                + " {\"destinationInterface\": \"CORE\"}}, " + dlFar + "]}";
        return SessionJson.decode(MAPPER.readTree(json));
    }

    private static Map<String, Object> row(TableModel tm, String upSeid) {
        for (TableModel.Row r : tm.getRows()) {
            if (r.get(HupfViewModel.ID).equals(upSeid)) {
                return Map.of(HupfViewModel.UE, r.get(HupfViewModel.UE), HupfViewModel.TEID_UP,
                              r.get(HupfViewModel.TEID_UP), HupfViewModel.TEID_DOWN, r.get(HupfViewModel.TEID_DOWN),
                              HupfViewModel.PATH, r.get(HupfViewModel.PATH), HupfViewModel.CP_SEID,
                              r.get(HupfViewModel.CP_SEID), HupfViewModel.SITE, r.get(HupfViewModel.SITE));
            }
        }
        throw new AssertionError("no row " + upSeid);
    }

    @Test
    public void sessionRowsShowTeidsAndThePathOfEachUe() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(3);
        offload.onHeavyHitter(TestOffloadService.ue(1));
        TableModel tm = new TableModel(HupfViewModel.SESSION_COLUMNS);
        HupfViewModel.populateSessions(tm, List.of(session(0, false), session(1, false), session(2, true)),
                                       s -> s.upSeid == 12 ? "edge-b" : null, offload);

        assertEquals(3, tm.getRows().length);
        Map<String, Object> r0 = row(tm, "10");
        assertEquals(TestOffloadService.ue(0).toString(), r0.get(HupfViewModel.UE));
        assertEquals("20", r0.get(HupfViewModel.CP_SEID));
        assertEquals("0x100", r0.get(HupfViewModel.TEID_UP));
        assertEquals("0x200", r0.get(HupfViewModel.TEID_DOWN));
        assertEquals(HupfViewModel.SW, r0.get(HupfViewModel.PATH));
        assertEquals("no site where the netcfg names none", HupfViewModel.NONE, r0.get(HupfViewModel.SITE));
        assertEquals("edge-b", row(tm, "12").get(HupfViewModel.SITE));
        assertEquals("the reported heavy hitter is on the switch", HupfViewModel.HW,
                     row(tm, "11").get(HupfViewModel.PATH));
        assertEquals("a buffering session has no downlink TEID yet", HupfViewModel.NONE,
                     row(tm, "12").get(HupfViewModel.TEID_DOWN));
    }

    @Test
    public void withoutABackendEverySessionIsShownOnTheBackendPath() throws Exception {
        TableModel tm = new TableModel(HupfViewModel.SESSION_COLUMNS);
        HupfViewModel.populateSessions(tm, List.of(session(0, false)), s -> null, TestOffloadService.withoutBackend());
        assertEquals(HupfViewModel.SW, row(tm, "10").get(HupfViewModel.PATH));
        assertEquals(0L, tm.getRows()[0].get(HupfViewModel.RATE));
    }

    @Test
    public void summaryHasMetricsEventsOccupancyAndOnlyHupfDevices() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(3);
        offload.onHeavyHitter(TestOffloadService.ue(2));
        ProviderId pid = new ProviderId("p4runtime", "test");
        Device backend = new DefaultDevice(pid, DeviceId.deviceId("device:backend:b1"), Device.Type.OTHER,
                                           "hupf", "1", "1", "1", null);
        Device sw = new DefaultDevice(pid, DeviceId.deviceId("device:bmv2:s1"), Device.Type.SWITCH,
                                      "p4lang", "1", "1", "1", null);
        Device other = new DefaultDevice(pid, DeviceId.deviceId("device:other"), Device.Type.SWITCH,
                                         "x", "1", "1", "1", null);
        Map<DeviceId, PiPipeconfId> pipeconfs = Map.of(backend.id(), HupfPipeconfIds.BACKEND,
                                                       sw.id(), HupfPipeconfIds.BMV2,
                                                       other.id(), new PiPipeconfId("org.onosproject.pipelines.basic"));
        ObjectNode root = MAPPER.createObjectNode();
        HupfViewModel.summary(root, offload, List.of(backend, sw, other),
                              id -> Optional.ofNullable(pipeconfs.get(id)), id -> !id.equals(sw.id()));

        assertEquals(3, root.get("metrics").get("sessions").asInt());
        assertEquals(1, root.get("metrics").get("offloaded").asInt());
        boolean sessionsTable = false;
        for (JsonNode t : root.get("occupancy")) {
            if (t.get("table").asText().equals("session_uplink")) {
                sessionsTable = true;
                assertEquals(1, t.get("used").asLong());
                assertEquals(8, t.get("capacity").asLong());
            }
        }
        assertTrue("the switch's session_uplink table is listed: " + root, sessionsTable);
        JsonNode devices = root.get("devices");
        assertEquals("the device of another pipeconf is not hupf's", 2, devices.size());
        assertEquals("backend", devices.get(0).get("role").asText());
        assertTrue(devices.get(0).get("available").asBoolean());
        assertEquals("switch", devices.get(1).get("role").asText());
        assertEquals("org.hupf.bmv2", devices.get(1).get("pipeconf").asText());
        assertFalse(devices.get(1).get("available").asBoolean());
    }

    @Test
    public void summaryWithoutABackendHasNoMetrics() {
        ObjectNode root = MAPPER.createObjectNode();
        HupfViewModel.summary(root, TestOffloadService.withoutBackend(), List.of(), id -> Optional.empty(),
                              id -> false);
        assertFalse(root.has("metrics"));
        assertEquals(0, root.get("occupancy").size());
    }
}
