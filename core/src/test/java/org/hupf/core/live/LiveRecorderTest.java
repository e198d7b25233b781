package org.hupf.core.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadEvent;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadPolicy;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.offload.OffloadManager;
import org.hupf.core.offload.OffloadManagerTest;
import org.hupf.core.offload.TestOffloadService;
import org.junit.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The live view's series and event stream: each sample holds the totals a poll left, the last ones kept, those
 * after a time sent; backends up and down and drains told from consecutive samples, the offload manager's events
 * but its heavy-hitter reports kept, the last ones, those after a sequence number sent.
 */
public class LiveRecorderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String B1 = "device:backend:b1";
    private static final String B2 = "device:backend:b2";
    private static final String SITE1 = "edge-a";
    private static final String SITE2 = "edge-b";

    private static Map<String, LiveSite> site(TestOffloadService offload, String backend) {
        return Map.of(SITE1, new LiveSite(offload.metrics(), List.of(backend)));
    }

    /** The one sample of SITE1 (backend B1) and SITE2 (B2), with the backends' {packets, bytes}. */
    private static JsonNode sampleOfTwoSites(OffloadMetrics site1, OffloadMetrics site2, long[] b1, long[] b2) {
        LiveRecorder live = new LiveRecorder(1000, 10, 10);
        live.sample(1000, Map.of(SITE1, new LiveSite(site1, List.of(B1)), SITE2, new LiveSite(site2, List.of(B2))),
                    Map.of(B1, b1, B2, b2), Map.of());
        return history(live, 0).get("samples").get(0);
    }

    private static JsonNode history(LiveRecorder live, long after) {
        ObjectNode root = MAPPER.createObjectNode();
        live.history(root, after);
        return root;
    }

    private static List<String> events(LiveRecorder live, long after) {
        ObjectNode root = MAPPER.createObjectNode();
        live.events(root, after);
        List<String> out = new ArrayList<>();
        root.get("events").forEach(e -> out.add(e.get("seq").asLong() + " " + e.get("time").asLong() + " "
                                                        + e.get("kind").asText() + " " + e.get("subject").asText()));
        return out;
    }

    @Test
    public void eachSampleHoldsTheTotalsOfItsPoll() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(3);
        offload.onHeavyHitter(TestOffloadService.ue(1));
        LiveRecorder live = new LiveRecorder(1000, 10, 10);
        live.sample(1000, site(offload, B1), Map.of(B1, new long[]{1, 100}), Map.of());
        live.sample(2000, site(offload, B1), Map.of(B1, new long[]{7, 700}), Map.of());

        JsonNode all = history(live, 0);
        assertEquals(1000, all.get("intervalMs").asLong());
        assertEquals(2, all.get("samples").size());
        JsonNode s = all.get("samples").get(1);
        assertEquals(2000, s.get("time").asLong());
        assertTrue(s.get("driving").asBoolean());
        assertEquals(offload.metrics().hwBytes(), s.get("switchBytes").asLong());
        assertEquals(1, s.get("hhReports").asLong());
        assertEquals(offload.metrics().promotions(), s.get("promotions").asLong());
        assertEquals(offload.metrics().offloaded(), s.get("offloaded").asInt());
        assertEquals(7, s.get("backends").get(B1).get("packets").asLong());
        assertEquals(700, s.get("backends").get(B1).get("bytes").asLong());
        assertEquals("the switch's tables", offload.metrics().occupancy().size(), s.get("switchTables").size());
        assertEquals("only the samples after a time", 1, history(live, 1000).get("samples").size());
        assertEquals(0, history(live, 2000).get("samples").size());
    }

    /**
     * The switch's packets and bytes in a sample are what its session entries counted (read by the offload poll),
     * beside each backend's, every site's summed at the top.
     */
    @Test
    public void theSwitchsPacketsAndBytesComeFromItsSessionCounters() throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000);
        InMemoryUpfDevice sw = new InMemoryUpfDevice("switch", 8, 16, 8);
        OffloadManager m = new OffloadManager(new InMemoryUpfDevice("backend", 1024, 2048, 64), sw,
                                              OffloadPolicy.builder().confirmReports(false).build(), clock::get);
        m.put(OffloadManagerTest.session(1));
        m.onHeavyHitter(OffloadManagerTest.ue(1));
        assertTrue(m.isOffloaded(OffloadManagerTest.ue(1)));
        assertTrue(sw.countUplink(OffloadManagerTest.uplink(1, 1001), OffloadManagerTest.ue(1), 5, 5000));
        clock.addAndGet(1000);
        assertTrue(m.poll());
        TestOffloadService other = TestOffloadService.withSessions(1);

        JsonNode s = sampleOfTwoSites(m.metrics(), other.metrics(), new long[]{3, 600}, new long[]{0, 0});
        assertEquals("ingress packets on the switch", 5, s.get("sites").get(SITE1).get("switchPackets").asLong());
        assertEquals(5000, s.get("sites").get(SITE1).get("switchBytes").asLong());
        assertEquals(0, s.get("sites").get(SITE2).get("switchPackets").asLong());
        assertEquals("every site's summed", 5, s.get("switchPackets").asLong());
        assertEquals(5000, s.get("switchBytes").asLong());
        assertEquals("the backend's beside it", 3, s.get("backends").get(B1).get("packets").asLong());
    }

    @Test
    public void eachSiteHasItsOwnCountsAndTheTopTheirSums() throws Exception {
        TestOffloadService a = TestOffloadService.withSessions(3);
        a.onHeavyHitter(TestOffloadService.ue(1));
        TestOffloadService b = TestOffloadService.withSessions(2);
        JsonNode s = sampleOfTwoSites(a.metrics(), b.metrics(), new long[]{1, 100}, new long[]{2, 200});
        JsonNode ofA = s.get("sites").get(SITE1);
        JsonNode ofB = s.get("sites").get(SITE2);
        assertEquals(1, ofA.get("hhReports").asLong());
        assertEquals(0, ofB.get("hhReports").asLong());
        assertEquals(a.metrics().hwBytes(), ofA.get("switchBytes").asLong());
        assertEquals(a.metrics().offloaded() + b.metrics().offloaded(), s.get("offloaded").asInt());
        assertEquals(a.metrics().hwBytes() + b.metrics().hwBytes(), s.get("switchBytes").asLong());
        assertEquals("each site names its backends", B1, ofA.get("backends").get(0).asText());
        assertEquals(B2, ofB.get("backends").get(0).asText());
        assertEquals(a.metrics().occupancy().size(), ofA.get("switchTables").size());
    }

    @Test
    public void eventsCarryTheirSite() throws Exception {
        LiveRecorder live = new LiveRecorder(1000, 10, 10);
        long[] counts = {0, 0};
        live.sample(1000, Map.of(SITE1, new LiveSite(TestOffloadService.withSessions(1).metrics(), List.of(B1))),
                    Map.of(B1, counts), Map.of());
        live.atSite(SITE2).accept(new OffloadEvent(OffloadEvent.Kind.PROMOTED, TestOffloadService.ue(1), 1500));
        live.sample(2000, Map.of(), Map.of(), Map.of());
        ObjectNode root = MAPPER.createObjectNode();
        live.events(root, 0);
        List<String> got = new ArrayList<>();
        root.get("events").forEach(e -> got.add(e.get("kind").asText() + " " + e.get("site").asText()));
        assertEquals("a backend's site when it came and when it went, a UE's from its manager",
                     List.of("BACKEND_UP " + SITE1, "PROMOTED " + SITE2, "BACKEND_DOWN " + SITE1), got);
    }

    @Test
    public void withoutABackendASampleSaysSo() {
        LiveRecorder live = new LiveRecorder(1000, 10, 10);
        live.sample(5, Map.of(), Map.of(), Map.of());
        JsonNode s = history(live, 0).get("samples").get(0);
        assertFalse(s.get("driving").asBoolean());
        assertEquals(0, s.get("switchBytes").asLong());
        assertEquals(0, s.get("backends").size());
    }

    @Test
    public void theOldestSamplesGoFirst() {
        LiveRecorder live = new LiveRecorder(1000, 3, 10);
        for (long t = 1; t <= 5; t++) {
            live.sample(t, Map.of(), Map.of(), Map.of());
        }
        JsonNode samples = history(live, 0).get("samples");
        assertEquals(3, samples.size());
        assertEquals(3, samples.get(0).get("time").asLong());
        assertEquals(5, samples.get(2).get("time").asLong());
    }

    @Test
    public void backendsAndDrainsAreToldFromConsecutiveSamples() {
        LiveRecorder live = new LiveRecorder(1000, 10, 20);
        long[] counts = {0, 0};
        live.sample(1000, Map.of(), Map.of(B1, counts), Map.of());
        live.sample(2000, Map.of(), Map.of(B1, counts, B2, counts), Map.of());
        live.sample(3000, Map.of(), Map.of(B1, counts, B2, counts), Map.of(B2, "DRAINING"));
        live.sample(4000, Map.of(), Map.of(B1, counts, B2, counts), Map.of(B2, "DRAINING"));
        live.sample(5000, Map.of(), Map.of(B1, counts), Map.of(B2, "DRAINED"));
        live.sample(6000, Map.of(), Map.of(B1, counts), Map.of());
        live.sample(7000, Map.of(), Map.of(B1, counts, B2, counts), Map.of());
        live.sample(8000, Map.of(), Map.of(), Map.of());
        assertEquals(List.of("1 1000 BACKEND_UP " + B1, "2 2000 BACKEND_UP " + B2, "3 3000 DRAINING " + B2,
                             "4 5000 BACKEND_DOWN " + B2, "5 5000 DRAINED " + B2, "6 6000 RESTORED " + B2,
                             "7 7000 BACKEND_UP " + B2, "8 8000 BACKEND_DOWN " + B1, "9 8000 BACKEND_DOWN " + B2),
                     events(live, 0));
        assertEquals("after a sequence number", 2, events(live, 7).size());
    }

    @Test
    public void offloadEventsButReportsJoinTheStreamWithTheirTimes() {
        LiveRecorder live = new LiveRecorder(1000, 10, 3);
        live.atSite(SITE1).accept(new OffloadEvent(OffloadEvent.Kind.HH_REPORT, TestOffloadService.ue(1), 10));
        live.atSite(SITE1).accept(new OffloadEvent(OffloadEvent.Kind.PROMOTED, TestOffloadService.ue(1), 11));
        live.atSite(SITE1).accept(new OffloadEvent(OffloadEvent.Kind.DEMOTED, TestOffloadService.ue(1), 20));
        live.atSite(SITE1).accept(new OffloadEvent(OffloadEvent.Kind.EVICTED, TestOffloadService.ue(2), 21));
        live.atSite(SITE1).accept(new OffloadEvent(OffloadEvent.Kind.REJECTED, TestOffloadService.ue(3), 22));
        String ue1 = TestOffloadService.ue(1).toString();
        assertEquals("the last 3, numbered from the first", List.of(
                "2 20 DEMOTED " + ue1, "3 21 EVICTED " + TestOffloadService.ue(2),
                "4 22 REJECTED " + TestOffloadService.ue(3)), events(live, 0));
    }

    @Test
    public void listenersHearEverySampleUntilRemoved() {
        LiveRecorder live = new LiveRecorder(1000, 10, 10);
        AtomicInteger heard = new AtomicInteger();
        Runnable listener = heard::incrementAndGet;
        live.addListener(listener);
        live.sample(1, Map.of(), Map.of(), Map.of());
        live.sample(2, Map.of(), Map.of(), Map.of());
        live.removeListener(listener);
        live.sample(3, Map.of(), Map.of(), Map.of());
        assertEquals(2, heard.get());
        assertEquals(0, live.listeners());
    }

    @Test(expected = IllegalArgumentException.class)
    public void aRecorderKeepsAtLeastOneSample() {
        new LiveRecorder(1000, 0, 10);
    }
}
