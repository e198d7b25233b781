package org.hupf.app.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionJson;
import org.hupf.core.offload.TestOffloadService;
import org.hupf.core.site.Site;
import org.hupf.core.site.SiteIndex;
import org.hupf.core.site.SitePlacement;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.Assert.assertEquals;

/**
 * The sessions go to the view one page at a time, in the order of their UP SEIDs, filtered on the server:
 * a page never holds more than its limit, whatever the store holds.
 */
public class SessionPagesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int SESSIONS = 120;

    /** Session i: UP SEID 1000+i, UE TestOffloadService.ue(i), uplink F-TEID 0x100+i. */
    private static PfcpSession session(int i) throws Exception {
        return session(i, TestOffloadService.ue(i).toString());
    }

    private static PfcpSession session(int i, String ue) throws Exception {
        String json = "{\"upSeid\": " + (1000 + i) + ", \"cpSeid\": " + (5000 + i) + ", \"nodeId\": \"smf\", "
                + "\"pdrs\": [{\"pdrId\": 1, \"precedence\": 10, \"pdi\": {\"sourceInterface\": \"ACCESS\", "
                + "\"fTeid\": {\"teid\": " + (0x100 + i) + ", \"ipv4\": \"10.0.0.2\"}, \"ueIpAddress\": \""
                + ue + "\"}, \"farId\": 1}],"
                + "\"fars\": [{\"farId\": 1, \"applyAction\": [\"FORW\"], \"forwardingParameters\":"
                + " {\"destinationInterface\": \"CORE\"}}]}";
        return SessionJson.decode(MAPPER.readTree(json));
    }

    private static List<PfcpSession> sessions() throws Exception {
        List<PfcpSession> out = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            out.add(session(i));
        }
        Collections.shuffle(out);
        return out;
    }

    private static JsonNode page(List<PfcpSession> sessions, TestOffloadService offload, String filter, int offset,
                                 int limit) {
        return page(sessions, s -> null, offload, filter, null, offset, limit);
    }

    private static JsonNode page(List<PfcpSession> sessions, Function<PfcpSession, String> siteOf,
                                 TestOffloadService offload, String filter, String site, int offset, int limit) {
        ObjectNode root = MAPPER.createObjectNode();
        SessionPages.page(root, sessions, siteOf, offload, new SessionPages.Query(filter, site, offset, limit));
        return root;
    }

    private static Site site(String id) {
        return new Site(id, null, List.of(DeviceId.deviceId("device:b-" + id)), List.of(), Set.of(), List.of());
    }

    /** Two sites: even UP SEIDs at edge-a, odd at edge-b, each placement counted. */
    private static SiteIndex twoSites(AtomicInteger placements) {
        return new SiteIndex(new SitePlacement(List.of(site("edge-a"), site("edge-b"))), s -> {
            placements.incrementAndGet();
            return (s.upSeid & 1) == 0 ? "edge-a" : "edge-b";
        });
    }

    @Test
    public void theSiteFilterKeepsTheSessionsOfOneSiteAndCountsEachSites() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(3);
        List<PfcpSession> all = sessions();
        SiteIndex index = twoSites(new AtomicInteger());
        JsonNode atB = page(all, index::siteOf, offload, "", "edge-b", 0, 50);
        assertEquals(SESSIONS, atB.get("total").asInt());
        assertEquals(SESSIONS / 2, atB.get("matched").asInt());
        assertEquals("{\"edge-a\":60,\"edge-b\":60}", atB.get("sites").toString());
        for (JsonNode row : atB.get("sessions")) {
            assertEquals("edge-b", row.get(HupfViewModel.SITE).asText());
        }
        assertEquals("1001", atB.get("sessions").get(0).get(HupfViewModel.ID).asText());
        String ueAtB = TestOffloadService.ue(107).toString();
        assertEquals("with a text: one UE, at edge-b", 1,
                     page(all, index::siteOf, offload, ueAtB, "edge-b", 0, 50).get("matched").asInt());
        assertEquals("the same UE, not at edge-a", 0,
                     page(all, index::siteOf, offload, ueAtB, "edge-a", 0, 50).get("matched").asInt());
        assertEquals("a site that serves none", 0,
                     page(all, index::siteOf, offload, "", "edge-c", 0, 50).get("matched").asInt());
        assertEquals("blank: every site", SESSIONS,
                     page(all, index::siteOf, offload, "", " ", 0, 50).get("matched").asInt());
        assertEquals("no sites: no counts", "{}", page(all, offload, "", 0, 50).get("sites").toString());
    }

    @Test
    public void aPageHoldsItsLimitInTheOrderOfTheirSeids() throws Exception {
        JsonNode p = page(sessions(), TestOffloadService.withSessions(3), "", 50, 50);
        assertEquals(SESSIONS, p.get("total").asInt());
        assertEquals(SESSIONS, p.get("matched").asInt());
        assertEquals(50, p.get("sessions").size());
        assertEquals("1050", p.get("sessions").get(0).get(HupfViewModel.ID).asText());
        assertEquals("1099", p.get("sessions").get(49).get(HupfViewModel.ID).asText());
        assertEquals("the last page holds the rest", 20,
                     page(sessions(), TestOffloadService.withSessions(3), "", 100, 50).get("sessions").size());
        assertEquals(0, page(sessions(), TestOffloadService.withSessions(3), "", 500, 50).get("sessions").size());
    }

    @Test
    public void theFilterMatchesSeidsUeTeidsAndPath() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(3);
        offload.onHeavyHitter(TestOffloadService.ue(1));
        List<PfcpSession> all = sessions();
        JsonNode byUe = page(all, offload, TestOffloadService.ue(107).toString(), 0, 50);
        assertEquals(1, byUe.get("matched").asInt());
        assertEquals("1107", byUe.get("sessions").get(0).get(HupfViewModel.ID).asText());
        assertEquals("CP SEIDs 5110..5119", 10, page(all, offload, "511", 0, 50).get("matched").asInt());
        assertEquals("uplink TEID 0x10a", "1010", page(all, offload, "0x10a", 0, 50).get("sessions").get(0)
                .get(HupfViewModel.ID).asText());
        JsonNode onSwitch = page(all, offload, "hw", 0, 50);
        assertEquals("the heavy hitter on the switch", 1, onSwitch.get("matched").asInt());
        assertEquals(HupfViewModel.HW, onSwitch.get("sessions").get(0).get(HupfViewModel.PATH).asText());
        assertEquals(SESSIONS - 1, page(all, offload, "SW", 0, 50).get("matched").asInt());
        assertEquals(0, page(all, offload, "no such session", 0, 50).get("matched").asInt());
    }

    @Test
    public void aHundredThousandSessionsArePagedAndFilteredOnePageAtATime() throws Exception {
        int n = 100_000;
        List<PfcpSession> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            all.add(session(i, "10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255)));
        }
        Collections.shuffle(all);
        TestOffloadService offload = TestOffloadService.withSessions(3);
        JsonNode first = page(all, offload, "", 0, 50);
        JsonNode last = page(all, offload, "", n - 50, 50);
        JsonNode block = page(all, offload, "10.0.200.", 250, 50);
        assertEquals(n, first.get("matched").asInt());
        assertEquals(50, first.get("sessions").size());
        assertEquals("1000", first.get("sessions").get(0).get(HupfViewModel.ID).asText());
        assertEquals(String.valueOf(1000 + n - 1), last.get("sessions").get(49).get(HupfViewModel.ID).asText());
        assertEquals("the UEs 10.0.200.0-255, the last page of 6", 256, block.get("matched").asInt());
        assertEquals(6, block.get("sessions").size());
        assertEquals("10.0.200.250", block.get("sessions").get(0).get(HupfViewModel.UE).asText());
        AtomicInteger placements = new AtomicInteger();
        SiteIndex index = twoSites(placements);
        JsonNode atA = page(all, index::siteOf, offload, "", "edge-a", 0, 50);
        assertEquals(n / 2, atA.get("matched").asInt());
        assertEquals("1000", atA.get("sessions").get(0).get(HupfViewModel.ID).asText());
        assertEquals(n, placements.get());
        JsonNode blockAtB = page(all, index::siteOf, offload, "10.0.200.", "edge-b", 0, 50);
        assertEquals(128, blockAtB.get("matched").asInt());
        assertEquals("each session placed once, not at every request", n, placements.get());
        System.out.printf("a page of %d sessions, CPU ms min/median/max of 5 after 2: first %s, middle %s, "
                                  + "filtered %s; with two sites: first %s, one site's first %s, one site's"
                                  + " filtered %s%n", n, cpuMs(() -> page(all, offload, "", 0, 50)),
                          cpuMs(() -> page(all, offload, "", n / 2, 50)),
                          cpuMs(() -> page(all, offload, "10.0.200.", 250, 50)),
                          cpuMs(() -> page(all, index::siteOf, offload, "", null, 0, 50)),
                          cpuMs(() -> page(all, index::siteOf, offload, "", "edge-a", 0, 50)),
                          cpuMs(() -> page(all, index::siteOf, offload, "10.0.200.", "edge-b", 0, 50)));
        assertEquals(n, placements.get());
    }

    /** The CPU time of a call, min/median/max over 5 calls after 2 not counted (the JIT's). */
    private static String cpuMs(Runnable call) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[] ms = new double[5];
        for (int i = -2; i < ms.length; i++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            call.run();
            if (i >= 0) {
                ms[i] = (cpu.getCurrentThreadCpuTime() - t0) / 1e6;
            }
        }
        java.util.Arrays.sort(ms);
        return String.format(java.util.Locale.ROOT, "%.1f/%.1f/%.1f", ms[0], ms[2], ms[4]);
    }

    @Test(expected = IllegalArgumentException.class)
    public void aPageLargerThanTheLimitIsRefused() throws Exception {
        page(sessions(), TestOffloadService.withSessions(3), "", 0, SessionPages.MAX_LIMIT + 1);
    }

    @Test(expected = IllegalArgumentException.class)
    public void aNegativeOffsetIsRefused() throws Exception {
        page(sessions(), TestOffloadService.withSessions(3), "", -1, 10);
    }
}
