package org.hupf.standalone.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.HupfService;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.session.SessionManager;
import org.hupf.core.impl.SessionManagerService;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.site.Site;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The app's JAX-RS resources and the lab hooks over HTTP on embedded Jersey, against the real session core.
 */
public class ControlApiTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String TOKEN = "secret";
    private static final String SESSION = "{\"cpSeid\": 5, \"nodeId\": \"smf\", \"pdrs\": [{\"pdrId\": 1,"
            + " \"precedence\": 10, \"pdi\": {\"sourceInterface\": \"CORE\", \"ueIpAddress\": \"10.250.0.7\"},"
            + " \"farId\": 1}], \"fars\": [{\"farId\": 1, \"applyAction\": [\"DROP\"]}]}";

    private final HttpClient http = HttpClient.newHttpClient();
    private InMemoryUpfDevice device;
    private ControlApi api;

    @Before
    public void setUp() throws Exception {
        device = new InMemoryUpfDevice("in-memory", 1024);
        Ip4Address n3 = Ip4Address.valueOf("192.168.0.1");
        SessionManager m = new SessionManager(new InMemorySessionStore(), new SessionTranslator(n3, 0, Map.of(), 10),
                                              new ResourcePool(1024, 1024), () -> List.of(device), n3);
        ServiceRegistry services = new ServiceRegistry()
                .register(HupfService.class, new SessionManagerService(m, List.of(Ip4Prefix.valueOf("10.250.0.0/16"))))
                .register(InMemoryUpfDevice.class, device)
                .register(InMemorySites.class, new InMemorySites(Map.of(Site.IMPLICIT_ID, device)));
        api = new ControlApi(0, TOKEN, services);
    }

    @After
    public void tearDown() {
        api.close();
    }

    private HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        return MAPPER.readTree(r.body());
    }

    @Test
    public void sessionsThroughTheSharedResourceReachTheDevice() throws Exception {
        HttpResponse<String> created = send("POST", "/sessions", TOKEN, SESSION);
        assertEquals(201, created.statusCode());
        String seid = json(created).get("upSeid").asText();
        assertEquals(1, json(send("GET", "/sessions", null, null)).get("sessions").size());
        assertEquals(1, device.entities(UpfEntityType.SESSION_DOWNLINK).size());

        assertEquals(200, send("POST", "/lab/device/clear", TOKEN, null).statusCode());
        assertEquals(0, device.entities(UpfEntityType.SESSION_DOWNLINK).size());
        assertTrue(json(send("POST", "/reconcile", TOKEN, null)).get("operations").asInt() > 0);
        assertEquals(1, device.entities(UpfEntityType.SESSION_DOWNLINK).size());

        assertEquals(204, send("DELETE", "/sessions/" + seid, TOKEN, null).statusCode());
        assertEquals(0, json(send("GET", "/lab/entities", null, null)).get("session_downlink").size());
    }

    @Test
    public void changesNeedTheTokenAndChangeNothingWithoutIt() throws Exception {
        HttpResponse<String> r = send("POST", "/sessions", null, SESSION);
        assertEquals(401, r.statusCode());
        assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElse(""));
        assertEquals(401, send("POST", "/sessions", "wrong", SESSION).statusCode());
        assertEquals(401, send("POST", "/no/such/path", null, null).statusCode());
        assertEquals(0, json(send("GET", "/sessions", null, null)).get("sessions").size());
    }

    @Test
    public void everyFailureIsAJsonError() throws Exception {
        HttpResponse<String> r = send("GET", "/nowhere", null, null);
        assertEquals(404, r.statusCode());
        assertEquals("no such resource GET /nowhere", json(r).get("error").asText());
        assertEquals(405, send("PUT", "/health", TOKEN, "{}").statusCode());
        r = send("GET", "/offload", null, null);
        assertEquals(503, r.statusCode());
        assertEquals("no OffloadService in this host", json(r).get("error").asText());
        r = send("GET", "/rps", null, null);
        assertEquals(503, r.statusCode());
        assertEquals("no RpsService in this host", json(r).get("error").asText());
        r = send("GET", "/devices", null, null);
        assertEquals(503, r.statusCode());
        r = send("POST", "/lab/device/counter?cell=1&pkts=1", TOKEN, null);
        assertEquals(400, r.statusCode());
        assertEquals("missing query parameter bytes", json(r).get("error").asText());
        r = send("POST", "/sessions", TOKEN, "[".repeat(100_000));
        assertEquals(400, r.statusCode());
        assertEquals("body nested deeper than 32 levels", json(r).get("error").asText());
        r = send("POST", "/reconcile", TOKEN, "x".repeat((1 << 20) + 1));
        assertEquals(413, r.statusCode());
        assertEquals("body exceeds 1048576 bytes", json(r).get("error").asText());
        assertEquals("ok", json(send("GET", "/health", null, null)).get("status").asText());
    }

    @Test
    public void aBugIsA500WithItsReasonAndTheApiKeepsServing() throws Exception {
        api.close();
        HupfService broken = new SessionManagerService(null, List.of()) {
            @Override
            public Collection<PfcpSession> sessions() {
                throw new IllegalStateException("store gone");
            }
        };
        api = new ControlApi(0, TOKEN, new ServiceRegistry().register(HupfService.class, broken));
        HttpResponse<String> r = send("GET", "/sessions", null, null);
        assertEquals(500, r.statusCode());
        assertEquals("internal error: java.lang.IllegalStateException: store gone", json(r).get("error").asText());
        assertEquals(200, send("GET", "/ue-pools", null, null).statusCode());
    }

    @Test
    public void withoutATokenTheApiIsReadOnly() throws Exception {
        api.close();
        api = new ControlApi(0, "", new ServiceRegistry());
        HttpResponse<String> r = send("POST", "/lab/device/clear", "", null);
        assertEquals(403, r.statusCode());
        assertTrue(json(r).get("error").asText().startsWith("read-only"));
    }
}
