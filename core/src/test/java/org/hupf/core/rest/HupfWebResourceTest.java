package org.hupf.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.BoundedJson;
import org.hupf.api.DeviceStatus;
import org.hupf.api.DeviceStatusService;
import org.hupf.api.HupfService;
import org.hupf.core.session.SessionManager;
import org.hupf.core.impl.SessionManagerService;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import javax.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The REST resource against hupf's real core; only the OSGi service lookup is replaced.
 */
public class HupfWebResourceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    static final String SESSION = "{\"cpSeid\": 77, \"nodeId\": \"controller\", \"pdrs\": ["
            + "{\"pdrId\": 1, \"precedence\": 10, \"pdi\": {\"sourceInterface\": \"ACCESS\","
            + " \"fTeid\": {\"choose\": true}, \"ueIpAddress\": \"10.250.0.9\"}, \"farId\": 1, \"urrIds\": [1]},"
            + "{\"pdrId\": 2, \"precedence\": 10, \"pdi\": {\"sourceInterface\": \"CORE\","
            + " \"ueIpAddress\": \"10.250.0.9\"}, \"farId\": 2}],"
            + " \"fars\": [{\"farId\": 1, \"applyAction\": [\"FORW\"], \"forwardingParameters\":"
            + " {\"destinationInterface\": \"CORE\"}}, {\"farId\": 2, \"applyAction\": [\"BUFF\", \"NOCP\"]}],"
            + " \"urrs\": [{\"urrId\": 1, \"measurementMethod\": [\"VOLUM\"], \"reportingTriggers\": [\"PERIO\"],"
            + " \"measurementPeriod\": 60}]}";

    private InMemoryUpfDevice device;
    private HupfWebResource resource;

    @Before
    public void setUp() {
        device = new InMemoryUpfDevice("backend", 1024);
        Ip4Address n3 = Ip4Address.valueOf("192.168.0.1");
        SessionManager m = new SessionManager(new InMemorySessionStore(),
                                              new SessionTranslator(n3, 0, Map.of(), 10),
                                              new ResourcePool(1024, 1024), () -> List.of(device), n3);
        HupfService core = new SessionManagerService(m, List.of(Ip4Prefix.valueOf("10.250.0.0/16")));
        resource = new HupfWebResource() {
            @Override
            protected HupfService service() {
                return core;
            }
        };
    }

    private static InputStream body(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode json(Response r) throws Exception {
        return MAPPER.readTree((String) r.getEntity());
    }

    @Test
    public void createReadModifyDelete() throws Exception {
        Response created = resource.create(body(SESSION));
        assertEquals(201, created.getStatus());
        JsonNode s = json(created);
        String seid = s.get("upSeid").asText();
        assertEquals("sessions/" + seid, created.getLocation().toString());
        assertTrue(s.at("/pdrs/0/pdi/fTeid/teid").asLong() > 0);

        assertEquals(1, json(resource.sessions()).get("sessions").size());
        JsonNode one = json(resource.session(seid));
        assertEquals(77, one.get("cpSeid").asLong());
        assertTrue(one.get("entities").size() >= 4);

        Map<String, Integer> alloc = MAPPER.convertValue(s.get("allocations"), Map.class);
        device.setCounter(UpfCounter.builder().withCellId(alloc.get("ctr:1")).setEgress(3, 300).build());
        assertEquals(300, json(resource.counters(seid)).at("/1/egressBytes").asLong());

        String forward = SESSION.replace("{\"farId\": 2, \"applyAction\": [\"BUFF\", \"NOCP\"]}",
                "{\"farId\": 2, \"applyAction\": [\"FORW\"], \"forwardingParameters\": {\"destinationInterface\":"
                        + " \"ACCESS\", \"outerHeaderCreation\": {\"teid\": 4660, \"ipv4\": \"192.168.1.10\"}}}");
        Response modified = resource.modify(seid, body(forward));
        assertEquals(200, modified.getStatus());
        assertEquals("FORW", json(modified).at("/fars/1/applyAction/0").asText());
        assertEquals(1, device.entities(org.hupf.pipeconf.api.UpfEntityType.TUNNEL_PEER).size());

        assertEquals(204, resource.delete(seid).getStatus());
        assertEquals(404, resource.delete(seid).getStatus());
        assertEquals(404, resource.session(seid).getStatus());
        assertEquals(0, device.entities(org.hupf.pipeconf.api.UpfEntityType.SESSION_UPLINK).size());
    }

    @Test
    public void invalidInputIsA400WithTheReason() throws Exception {
        Response r = resource.create(body("{not json"));
        assertEquals(400, r.getStatus());
        assertTrue(json(r).get("error").asText().startsWith("body is not JSON"));

        r = resource.create(body(SESSION.replace("\"ueIpAddress\": \"10.250.0.9\"}, \"farId\": 1",
                                                 "\"ueIpAddress\": \"10.250.0.999\"}, \"farId\": 1")));
        assertEquals(400, r.getStatus());
        assertEquals("$.pdrs[0].pdi.ueIpAddress: is not an IPv4 address: \"10.250.0.999\"",
                     json(r).get("error").asText());

        r = resource.create(body(SESSION.replace("\"ueIpAddress\": \"10.250.0.9\"}, \"farId\": 1",
                "\"ueIpAddress\": \"10.250.0.9\", \"sdfFilters\": [\"permit in ip from any to any\"]}, \"farId\": 1")));
        assertEquals(400, r.getStatus());
        assertEquals(73, json(r).get("pfcpCause").asInt());

        assertEquals(400, resource.session("-1").getStatus());
        assertEquals(400, resource.delete("x").getStatus());
        assertEquals(404, resource.modify("12345", body(SESSION)).getStatus());
        assertEquals(0, json(resource.sessions()).get("sessions").size());
    }

    @Test
    public void poolsAndHealth() throws Exception {
        assertEquals("10.250.0.0/16", json(resource.uePools()).at("/uePools/0").asText());
        JsonNode h = json(resource.health());
        assertEquals("ok", h.get("status").asText());
        assertEquals(0, h.get("sessions").asInt());
        assertEquals(0, json(resource.peers()).get("peers").size());
        // No PFCP agent here, so nobody to notify; a bad address is refused.
        assertEquals(false, json(resource.downlinkData("10.250.0.9")).get("reported").asBoolean());
        assertEquals(400, resource.downlinkData("10.250.0").getStatus());
    }

    @Test
    public void devicesShowEachTargetsState() throws Exception {
        DeviceStatusService status = () -> List.of(
                new DeviceStatus("device:backend1", DeviceStatus.State.RECONCILING, true, 12, null),
                new DeviceStatus("device:switch1", DeviceStatus.State.DOWN, false, -1, "connection refused"));
        HupfWebResource r = new HupfWebResource() {
            @Override
            protected DeviceStatusService deviceStatus() {
                return status;
            }
        };
        JsonNode d = json(r.devices()).get("devices");
        assertEquals(2, d.size());
        assertEquals("reconciling", d.at("/0/state").asText());
        assertTrue(d.at("/0/pipelinePushed").asBoolean());
        assertEquals(12, d.at("/0/entries").asLong());
        assertTrue(d.at("/0/lastError").isNull());
        assertEquals("down", d.at("/1/state").asText());
        assertEquals("connection refused", d.at("/1/lastError").asText());
    }

    @Test
    public void reconcilePutsTheStoreBackOnAClearedDevice() throws Exception {
        assertEquals(201, resource.create(body(SESSION)).getStatus());
        assertEquals(0, json(resource.reconcile()).get("operations").asInt());
        for (UpfEntityType t : UpfEntityType.values()) {
            device.deleteAll(t);
        }
        assertTrue(json(resource.reconcile()).get("operations").asInt() >= 4);
        assertTrue(device.entities(UpfEntityType.SESSION_UPLINK).size() == 1);
    }

    private void assertRefused(Response r, int status, String error) throws Exception {
        assertEquals(status, r.getStatus());
        assertTrue(json(r).get("error").asText(), json(r).get("error").asText().contains(error));
    }

    @Test
    public void abusiveBodiesAre4xxAndChangeNothing() throws Exception {
        // 100,000 nested '[' (CVE-2020-36518): refused by depth before a tree is built.
        assertRefused(resource.create(body("[".repeat(100_000))), 400, "nested deeper than 32");
        assertRefused(resource.modify("1", body("{\"a\": " + "[".repeat(100_000))), 400, "nested deeper");
        assertRefused(resource.create(body("{\"pdrs\": " + "[".repeat(40) + "]".repeat(40) + "}")), 400,
                      "nested deeper");
        assertRefused(resource.create(body("{\"cpSeid\": \"" + "7".repeat(BoundedJson.MAX_BYTES) + "\"}")), 413,
                      "body exceeds");
        assertRefused(resource.create(body("")), 400, "body is empty");
        assertRefused(resource.create(body("[]")), 400, "must be a JSON object");
        assertRefused(resource.create(body(SESSION.replace("\"cpSeid\": 77", "\"cpSeid\": \"77\""))), 400,
                      "cpSeid");
        assertRefused(resource.create(body(SESSION.replace("\"pdrs\": [", "\"pdrs\": 5, \"x\": ["))), 400,
                      "pdrs");
        assertEquals(0, json(resource.sessions()).get("sessions").size());
    }

    @Test
    public void teidZeroAndAUeAddressInUseAreRefused() throws Exception {
        assertEquals(201, resource.create(body(SESSION)).getStatus());
        Response r = resource.create(body(SESSION.replace("\"cpSeid\": 77", "\"cpSeid\": 78")));
        assertEquals(400, r.getStatus());
        assertEquals(73, json(r).get("pfcpCause").asInt());
        r = resource.create(body(SESSION.replace("\"cpSeid\": 77", "\"cpSeid\": 79")
                                         .replace("\"fTeid\": {\"choose\": true}",
                                                  "\"fTeid\": {\"teid\": 0, \"ipv4\": \"192.168.0.1\"}")
                                         .replace("10.250.0.9", "10.250.0.10")));
        assertEquals(400, r.getStatus());
        assertEquals(69, json(r).get("pfcpCause").asInt());
        assertEquals(1, json(resource.sessions()).get("sessions").size());
    }
}
