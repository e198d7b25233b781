package org.hupf.standalone.rest;

import org.hupf.api.DrainReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.core.offload.BackendDrain;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The lab runner's backends over HTTP: states, and a drain asked with the control token and its answer. */
public class BackendsResourceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String TOKEN = "secret";

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<String> drains = new ArrayList<>();
    private final Map<String, String> states = new LinkedHashMap<>(Map.of("backend", "UP"));
    private ControlApi api;

    /** Drains as the runner would, over a backend whose count goes 40, 42, then stays. */
    private final BackendControl control = new BackendControl() {
        @Override
        public Map<String, String> states() {
            return states;
        }

        @Override
        public DrainReport drain(String name, long quietMs, long maxMs) throws Exception {
            drains.add(name + " " + quietMs + " " + maxMs);
            if (name.equals("backend")) {
                throw new IllegalArgumentException("backend is the hybrid's first backend");
            }
            if (states.get(name).equals("DRAINED")) {
                throw new IllegalStateException(name + " is drained already");
            }
            AtomicLong now = new AtomicLong();
            long[] counts = {40, 42};
            int[] reads = {0};
            return new BackendDrain(quietMs, maxMs, 10, now::get, now::addAndGet).drain(
                    () -> now.addAndGet(3), () -> counts[Math.min(reads[0]++, 1)], () -> states.put(name, "DRAINED"));
        }
    };

    @Before
    public void setUp() throws Exception {
        states.put("backend-2", "UP");
        api = new ControlApi(0, TOKEN, new ServiceRegistry().register(BackendControl.class, control),
                             BackendsResource.class);
    }

    @After
    public void tearDown() {
        api.close();
    }

    private HttpResponse<String> send(String method, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    public void aDrainAnswersWhatItSawOnceTheBackendLeft() throws Exception {
        HttpResponse<String> r = send("POST", "/lab/backends/backend-2/drain?quiet_ms=100&max_ms=1000", TOKEN);
        assertEquals(r.body(), 200, r.statusCode());
        JsonNode j = MAPPER.readTree(r.body());
        assertTrue(j.get("quiet").asBoolean());
        assertEquals(3, j.get("steered_ms").asLong());
        assertEquals(42, j.get("packets").asLong());
        assertEquals(2, j.get("after_steering").asLong());
        assertEquals(List.of("backend-2 100 1000"), drains);
        JsonNode s = MAPPER.readTree(send("GET", "/lab/backends", null).body());
        assertEquals("DRAINED", s.get("backend-2").asText());
        assertEquals("UP", s.get("backend").asText());
    }

    @Test
    public void theDefaultsAreHalfASecondOfQuietWithinTenSeconds() throws Exception {
        assertEquals(200, send("POST", "/lab/backends/backend-2/drain", TOKEN).statusCode());
        assertEquals(List.of("backend-2 500 10000"), drains);
    }

    @Test
    public void aDrainNeedsTheTokenAndABackendThatCanLeave() throws Exception {
        assertEquals(401, send("POST", "/lab/backends/backend-2/drain", null).statusCode());
        assertTrue(drains.isEmpty());
        HttpResponse<String> first = send("POST", "/lab/backends/backend/drain", TOKEN);
        assertEquals(400, first.statusCode());
        assertTrue(first.body(), first.body().contains("first backend"));
        assertEquals(200, send("POST", "/lab/backends/backend-2/drain", TOKEN).statusCode());
        HttpResponse<String> again = send("POST", "/lab/backends/backend-2/drain", TOKEN);
        assertEquals(409, again.statusCode());
        assertTrue(again.body(), again.body().contains("drained already"));
    }
}
