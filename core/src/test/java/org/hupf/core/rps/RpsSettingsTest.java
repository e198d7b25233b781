package org.hupf.core.rps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.junit.Test;
import org.onlab.packet.Ip4Prefix;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class RpsSettingsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static ObjectNode valid() {
        ObjectNode n = MAPPER.createObjectNode().put("mode", "HYBRID").put("quietUs", 100000).put("sigma", 0.25)
                .put("monitor", "127.0.0.1:9700").put("hostBuffer", 4096).put("bufferLen", 1024);
        ArrayNode flows = n.putArray("flows");
        flows.addObject().put("tenant", "acme").put("uePrefix", "10.250.0.0/24").put("direction", "uplink")
                .put("flowId", 1).put("discThreshold", 42949673L);
        flows.addObject().put("tenant", "acme").put("uePrefix", "10.250.0.0/24").put("direction", "downlink")
                .put("flowId", 2).put("discThreshold", 4294967295L);
        flows.addObject().put("tenant", 7).put("uePrefix", "10.251.0.0/16").put("direction", "uplink")
                .put("flowId", 3).put("discThreshold", 0);
        return n;
    }

    @Test
    public void aFullBlockGivesTheDataPlanesConfigAndTheMonitorsFlowMap() {
        RpsSettings s = RpsSettings.parse(valid());
        RpsConfig c = s.config();
        assertEquals(RpsConfig.Mode.HYBRID, c.mode());
        assertEquals(100000, c.quietUs());
        assertEquals(1L << 30, c.selectThreshold());
        assertEquals(1024, c.bufferLen());
        assertEquals(List.of(new RpsConfig.Flow(Ip4Prefix.valueOf("10.250.0.0/24"), RpsConfig.UPLINK, 1, 42949673L),
                             new RpsConfig.Flow(Ip4Prefix.valueOf("10.250.0.0/24"), RpsConfig.DOWNLINK, 2,
                                                0xFFFFFFFFL),
                             new RpsConfig.Flow(Ip4Prefix.valueOf("10.251.0.0/16"), RpsConfig.UPLINK, 3, 0)),
                     c.flows());
        assertEquals(Map.of(1, "acme", 2, "acme", 3, "7"), s.tenantOfFlow());
        assertEquals(9700, s.monitor().getPort());
        assertEquals(4096, s.hostBuffer());
        assertTrue(s.runsReferenceAlgorithm());
        assertTrue(s.exports());
        assertEquals(Long.valueOf(42949673L), s.discThreshold(1));
        assertNull(s.discThreshold(9));
    }

    /** What REST shows is a block that parses back to the same settings. */
    @Test
    public void theSettingsAsABlockParseBackToThemselves() throws Exception {
        RpsSettings s = RpsSettings.parse(valid());
        ObjectNode json = s.toJson();
        assertEquals(s, RpsSettings.parse(json));
        assertEquals(MAPPER.readTree("{\"mode\": \"HYBRID\", \"quietUs\": 100000, \"sigma\": 0.25, \"monitor\":"
                + " \"127.0.0.1:9700\", \"bufferLen\": 1024, \"hostBuffer\": 4096, \"flows\": ["
                + "{\"tenant\": \"acme\", \"uePrefix\": \"10.250.0.0/24\", \"direction\": \"uplink\", \"flowId\": 1,"
                + " \"discThreshold\": 42949673},"
                + "{\"tenant\": \"acme\", \"uePrefix\": \"10.250.0.0/24\", \"direction\": \"downlink\", \"flowId\": 2,"
                + " \"discThreshold\": 4294967295},"
                + "{\"tenant\": \"7\", \"uePrefix\": \"10.251.0.0/16\", \"direction\": \"uplink\", \"flowId\": 3,"
                + " \"discThreshold\": 0}]}"), MAPPER.readTree(json.toString()));
        ObjectNode whole = valid();
        whole.remove("bufferLen");
        assertFalse("the whole buffer is the absent bufferLen", RpsSettings.parse(whole).toJson().has("bufferLen"));
        assertEquals(MAPPER.readTree("{\"mode\": \"OFF\", \"quietUs\": 0, \"sigma\": 0.0, \"hostBuffer\": 65536,"
                                     + " \"flows\": []}"), MAPPER.readTree(RpsSettings.OFF.toJson().toString()));
        assertEquals(RpsSettings.OFF, RpsSettings.parse(RpsSettings.OFF.toJson()));
    }

    /**
     * A flow whose receipts, were it all a point samples, would see more of its disclosures than the tracker keeps
     * while they wait is named with the share from which they do and the buffer that serves it; in mode
     * DATA_PLANE only.
     */
    @Test
    public void theTrackerWarningsNameTheFlowsABufferOutlasts() {
        ObjectNode n = valid().put("mode", "DATA_PLANE");
        n.remove("bufferLen");
        // Flow 1 (δ ≈ 1 %): 4096 · δ / (1 − δ) = 41.4 disclosures; flow 2: all direct; flow 3: none.
        RpsSettings s = RpsSettings.parse(n);
        assertEquals(List.of(
                "rps.flows[0] (flow 1): a receipt waits for 4096 others (bufferLen) and sees 41.4 of its flow's"
                        + " disclosures (discThreshold 42949673) on average if the flow is all a point samples, the"
                        + " tracker remembers 16: where the flow is more than 38.7 % of a point's sampled packets its"
                        + " receipts outlive their disclosure and are neither disclosed nor warned of (trackOverrun);"
                        + " bufferLen 1583 serves it at any share",
                "rps.flows[1] (flow 2): a receipt waits for 4096 others (bufferLen) and sees 17592186040320.0 of its"
                        + " flow's disclosures (discThreshold 4294967295) on average if the flow is all a point"
                        + " samples, the tracker remembers 16: where the flow is more than 0.0 % of a point's sampled"
                        + " packets its receipts outlive their disclosure and are neither disclosed nor warned of"
                        + " (trackOverrun); no bufferLen serves it at any share"), s.trackerWarnings(4096, 16));
        assertEquals("a deep enough tracker follows flow 1", 1, s.trackerWarnings(4096, 64).size());
        assertEquals("bufferLen 1583 serves flow 1", 1,
                     RpsSettings.parse(n.put("bufferLen", 1583)).trackerWarnings(4096, 16).size());
        assertEquals(2, RpsSettings.parse(n.put("bufferLen", 1584)).trackerWarnings(4096, 16).size());
        assertEquals("no tracker in mode HYBRID", List.of(),
                     RpsSettings.parse(n.put("mode", "HYBRID")).trackerWarnings(4096, 16));
    }

    @Test
    public void noBlockIsRpsOff() {
        assertEquals(RpsSettings.OFF, RpsSettings.parse(null));
        assertEquals(RpsSettings.OFF, RpsSettings.parse(MAPPER.createObjectNode().path("rps")));
        assertFalse(RpsSettings.OFF.exports());
        assertEquals(RpsConfig.OFF, RpsSettings.OFF.config());
    }

    @Test
    public void sigmaOneSelectsEveryHashButTheLargest() {
        assertEquals(0xFFFFFFFFL, RpsConfig.selectThreshold(1.0));
        assertEquals(0, RpsConfig.selectThreshold(0));
    }

    private static void refused(String expected, Consumer<ObjectNode> change) {
        ObjectNode n = valid();
        change.accept(n);
        try {
            RpsSettings.parse(n);
            fail("accepted " + n);
        } catch (IllegalArgumentException e) {
            assertTrue("'" + e.getMessage() + "' names " + expected, e.getMessage().contains(expected));
        }
    }

    private static ObjectNode flow(ObjectNode n, int i) {
        return (ObjectNode) n.get("flows").get(i);
    }

    @Test
    public void eachBadFieldIsRefusedByName() {
        refused("rps.mode", n -> n.put("mode", "SOMETIMES"));
        refused("rps.mode", n -> n.remove("mode"));
        refused("rps.quietUs", n -> n.put("quietUs", -1));
        refused("rps.quietUs", n -> n.put("quietUs", 1L << 32));
        refused("rps.sigma", n -> n.put("sigma", 1.5));
        refused("rps.sigma", n -> n.put("sigma", "often"));
        refused("rps.monitor", n -> n.put("monitor", "127.0.0.1"));
        refused("rps.monitor", n -> n.put("monitor", "127.0.0.1:70000"));
        refused("rps.monitor is required", n -> n.remove("monitor"));
        refused("rps.hostBuffer", n -> n.put("hostBuffer", 0));
        refused("rps.bufferLen", n -> n.put("bufferLen", -1));
        refused("unknown field among [buffer]", n -> n.put("buffer", 1));
        refused("rps.flows: a list", n -> n.put("flows", 3));
        refused("rps.flows[1].uePrefix", n -> flow(n, 1).put("uePrefix", "10.250.0.0/33"));
        refused("rps.flows[0].direction", n -> flow(n, 0).put("direction", "sideways"));
        refused("rps.flows[0].flowId", n -> flow(n, 0).put("flowId", 65536));
        refused("rps.flows[2].discThreshold", n -> flow(n, 2).put("discThreshold", 1L << 32));
        refused("rps.flows[2].tenant", n -> flow(n, 2).put("tenant", " "));
        refused("rps.flows[0].tenant is required", n -> flow(n, 0).remove("tenant"));
        refused("rps.flows[0]: unknown field", n -> flow(n, 0).put("rate", 1));
    }

    @Test
    public void aFlowIdBelongsToOneTenantAndOneDirectionAndAPrefixDirectionToOneFlow() {
        refused("rps.flows[2]: flowId 1 is already tenant acme's", n -> flow(n, 2).put("flowId", 1));
        refused("rps.flows[1]: flowId 1 is already uplink", n -> flow(n, 1).put("flowId", 1));
        refused("rps.flows[1]: 10.250.0.0/24 uplink is already a flow", n -> flow(n, 1).put("direction", "uplink"));
        // Two prefixes of one tenant and direction may share a flow id.
        ObjectNode n = valid();
        flow(n, 2).put("tenant", "acme").put("flowId", 1);
        assertEquals(2, RpsSettings.parse(n).config().flows().stream().filter(f -> f.flowId() == 1).count());
    }

    @Test
    public void offNeedsNoMonitor() {
        JsonNode n = MAPPER.createObjectNode().put("mode", "OFF");
        RpsSettings s = RpsSettings.parse(n);
        assertEquals(RpsConfig.Mode.OFF, s.config().mode());
        assertFalse(s.exports());
    }
}
