package org.hupf.standalone;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.HupfService;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.impl.SessionManagerService;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.standalone.rest.ControlApi;
import org.hupf.standalone.rest.ServiceRegistry;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The standalone host's {@code --tenants} file: the netcfg's tenants block, checked as the netcfg is, binding
 * sessions as in ONOS and listed by the app's {@code GET /tenants} on the host's REST API.
 */
public class TenantsFileTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String TOKEN = "secret";
    private static final String TENANTS = "{\"tenants\": [{\"vni\": 100, \"vtep\": \"192.168.0.1\", \"tenantId\": 1,"
            + " \"tc\": 2, \"dscp\": 46, \"networkInstance\": \"tenant-a\", \"overlay\": {\"vtepSrc\": \"192.168.0.1\","
            + " \"vtepDst\": \"172.16.0.2\", \"innerSrcMac\": \"02:00:00:00:0a:01\","
            + " \"innerDstMac\": \"02:00:00:00:0a:02\"}, \"slices\": [{\"qfi\": 9, \"tc\": 3, \"dscp\": 34}]},"
            + " {\"vni\": 101, \"vtep\": \"192.168.0.1\", \"tenantId\": 2,"
            + " \"tc\": 0, \"dscp\": 0}]}";
    /** A UE's downlink towards gNB 192.168.1.10, its FAR naming tenant-a. */
    private static final String SESSION = "{\"cpSeid\": 5, \"nodeId\": \"smf\", \"pdrs\": [{\"pdrId\": 1,"
            + " \"precedence\": 10, \"pdi\": {\"sourceInterface\": \"CORE\", \"ueIpAddress\": \"10.250.0.7\"},"
            + " \"farId\": 1}], \"fars\": [{\"farId\": 1, \"applyAction\": [\"FORW\"], \"forwardingParameters\":"
            + " {\"destinationInterface\": \"ACCESS\", \"networkInstance\": \"tenant-a\", \"outerHeaderCreation\":"
            + " {\"teid\": 9, \"ipv4\": \"192.168.1.10\"}}}]}";

    private static Path file(String json) throws Exception {
        Path p = Files.createTempFile("hupf-tenants", ".json");
        Files.writeString(p, json);
        p.toFile().deleteOnExit();
        return p;
    }

    @Test
    public void sessionsAreBoundAndTheRestApiListsTheTenants() throws Exception {
        TenantsFile tenants = TenantsFile.load(file(TENANTS));
        assertEquals(2, tenants.entries.size());
        assertEquals(List.of("tenant-a"), List.copyOf(tenants.bindable.keySet()));
        InMemoryUpfDevice device = new InMemoryUpfDevice("in-memory", 1024);
        Ip4Address n3 = Ip4Address.valueOf("192.168.0.1");
        SessionManager m = new SessionManager(new InMemorySessionStore(),
                                              new SessionTranslator(n3, 0, Map.of(), 10, () -> tenants.bindable),
                                              new ResourcePool(1024, 1024), () -> List.of(device), n3);
        ControlApi api = new ControlApi(0, TOKEN, new ServiceRegistry().register(HupfService.class,
                new SessionManagerService(m, List.of(Ip4Prefix.valueOf("10.250.0.0/16")), null, tenants.entries,
                                          tenants.bindable)));
        try {
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + api.port();
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/sessions"))
                    .POST(HttpRequest.BodyPublishers.ofString(SESSION)).header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(created.body(), 201, created.statusCode());
            assertEquals("the gNB sits in tenant-a's overlay", 1, device.count(UpfEntityType.PEER_VXLAN));
            JsonNode listed = MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/tenants")).build(),
                                                        HttpResponse.BodyHandlers.ofString()).body()).get("tenants");
            assertEquals(2, listed.size());
            assertEquals("tenant-a", listed.get(0).get("networkInstance").asText());
            assertEquals(1, listed.get(0).get("sessions").asInt());
            assertEquals("172.16.0.2", listed.get(0).get("overlay").get("vtepDst").asText());
            assertEquals("no device of this host counts tenants", 0,
                         listed.get(0).get("counters").get("devices").size());
            JsonNode slice = listed.get(0).get("slices").get(0);
            assertEquals(List.of(9, 3, 34), List.of(slice.get("qfi").asInt(), slice.get("tc").asInt(),
                                                    slice.get("dscp").asInt()));
            assertEquals(0, slice.get("counters").get("devices").size());
            assertEquals(0, listed.get(1).get("sessions").asInt());
            HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create(base + "/tenants?tenantId=x"))
                                                         .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, bad.statusCode());
            assertEquals("tenantId: an integer in [0, 255] expected, got x",
                         MAPPER.readTree(bad.body()).get("error").asText());
        } finally {
            api.close();
        }
    }

    @Test
    public void aBrokenFileIsRefusedNamingItsEntryAndField() throws Exception {
        Path p = file(TENANTS.replace("\"172.16.0.2\"", "\"edge\""));
        try {
            TenantsFile.load(p);
            fail("loaded a bad overlay");
        } catch (IllegalArgumentException e) {
            assertEquals(p + ": tenants[0]: overlay: vtepDst: an IPv4 address expected, got \"edge\"", e.getMessage());
        }
        Path dup = file(TENANTS.replace("\"tc\": 3, \"dscp\": 34}", "\"tc\": 3, \"dscp\": 34}, {\"qfi\": 9, \"tc\": 0,"
                                        + " \"dscp\": 0}"));
        try {
            TenantsFile.load(dup);
            fail("loaded a QFI given two slices");
        } catch (IllegalArgumentException e) {
            assertEquals(dup + ": tenants[0]: slices[1]: qfi 9 is already slices[0]'s", e.getMessage());
        }
        Path other = file("{\"routes\": []}");
        try {
            TenantsFile.load(other);
            fail("loaded a file without tenants");
        } catch (IllegalArgumentException e) {
            assertEquals(other + ": an object {\"tenants\": [...]} expected", e.getMessage());
        }
    }
}
