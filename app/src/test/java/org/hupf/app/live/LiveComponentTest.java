package org.hupf.app.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.app.offload.TestOffloadService;
import org.junit.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The live view's samples: the offload manager's totals and each backend's counts at each time, the last ones
 * kept, those after a time sent; nothing but the time while no backend is driven.
 */
public class LiveComponentTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode history(LiveService live, long after) {
        ObjectNode root = MAPPER.createObjectNode();
        live.history(root, after);
        return root;
    }

    private static LiveComponent component(TestOffloadService offload, Map<String, long[]> backends, AtomicLong now) {
        LiveComponent c = new LiveComponent();
        c.offloadService = offload;
        c.backendTraffic = () -> backends;
        c.clock = now::get;
        return c;
    }

    @Test
    public void eachSampleHoldsTheTotalsOfItsTime() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(3);
        offload.onHeavyHitter(TestOffloadService.ue(1));
        AtomicLong now = new AtomicLong(1000);
        LiveComponent c = component(offload, Map.of("device:backend:b1", new long[]{7, 700}), now);
        c.sample();
        now.set(3000);
        c.sample();

        JsonNode all = history(c, 0);
        assertEquals(LiveComponent.SAMPLE_MS, all.get("intervalMs").asLong());
        assertEquals(2, all.get("samples").size());
        JsonNode s = all.get("samples").get(1);
        assertEquals(3000, s.get("time").asLong());
        assertTrue(s.get("driving").asBoolean());
        assertEquals(offload.metrics().hwBytes(), s.get("switchBytes").asLong());
        assertEquals(offload.metrics().promotions(), s.get("promotions").asLong());
        assertEquals(offload.metrics().offloaded(), s.get("offloaded").asInt());
        assertEquals(7, s.get("backends").get("device:backend:b1").get("packets").asLong());
        assertEquals(700, s.get("backends").get("device:backend:b1").get("bytes").asLong());
        assertEquals("the switch's tables", offload.metrics().occupancy().size(), s.get("switchTables").size());
        assertEquals("only the samples after a time", 1, history(c, 1000).get("samples").size());
        assertEquals(0, history(c, 3000).get("samples").size());
    }

    @Test
    public void withoutABackendASampleSaysSo() {
        AtomicLong now = new AtomicLong(5);
        LiveComponent c = component(TestOffloadService.withoutBackend(), Map.of(), now);
        c.sample();
        JsonNode s = history(c, 0).get("samples").get(0);
        assertFalse(s.get("driving").asBoolean());
        assertEquals(0, s.get("switchBytes").asLong());
        assertEquals(0, s.get("backends").size());
    }

    @Test
    public void theOldestSamplesGoFirst() {
        LiveHistory h = new LiveHistory(3);
        for (long t = 1; t <= 5; t++) {
            h.add(LiveSample.of(t, null, Map.of()));
        }
        ObjectNode root = MAPPER.createObjectNode();
        h.since(root, 0);
        assertEquals(3, root.get("samples").size());
        assertEquals(3, root.get("samples").get(0).get("time").asLong());
        assertEquals(5, root.get("samples").get(2).get("time").asLong());
    }

    @Test(expected = IllegalArgumentException.class)
    public void aHistoryKeepsAtLeastOneSample() {
        new LiveHistory(0);
    }

    @Test
    public void aFailingSourceCostsOneSampleNotTheSampler() {
        AtomicLong now = new AtomicLong(1);
        LiveComponent c = component(TestOffloadService.withoutBackend(), Map.of(), now);
        c.backendTraffic = () -> {
            throw new IllegalStateException("ledger gone");
        };
        c.sample();
        assertEquals(0, history(c, 0).get("samples").size());
    }
}
