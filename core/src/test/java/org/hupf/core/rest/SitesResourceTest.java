package org.hupf.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.HupfService;
import org.hupf.api.OffloadService;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.impl.SessionManagerService;
import org.hupf.core.offload.ControlPlane;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.site.Site;
import org.hupf.core.site.SiteIndex;
import org.hupf.core.site.SitePlacement;
import org.hupf.core.store.InMemorySessionStore;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import javax.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** {@code GET /sites} and each session's site in {@code GET /sessions}, against the real core. */
public class SitesResourceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<Site> SITES = List.of(
            new Site("edge-a", DeviceId.deviceId("device:s1"), List.of(DeviceId.deviceId("device:b1")),
                     List.of(Ip4Prefix.valueOf("192.168.1.0/24")), Set.of(), List.of()),
            new Site("edge-b", null, List.of(DeviceId.deviceId("device:b2")),
                     List.of(Ip4Prefix.valueOf("192.168.2.0/24")), Set.of("access-b"), List.of()));

    private static final InMemoryUpfDevice BACKEND = new InMemoryUpfDevice("backend", 1024);

    private final SessionManager manager = ControlPlane.builder().store(new InMemorySessionStore())
            .pool(new ResourcePool(1024, 1024)).devices(() -> List.of(BACKEND)).siteDevices(site -> List.of(BACKEND))
            .n3Addresses(List.of(Ip4Address.valueOf("192.168.0.1")))
            .uePools(List.of(Ip4Prefix.valueOf("10.250.0.0/16"))).sites(SITES).build().sessionManager();
    private final HupfService service = new SessionManagerService(manager, List.of()) {
        @Override
        protected SiteIndex siteIndex() {
            return new SiteIndex(new SitePlacement(SITES));
        }
    };
    private final HupfWebResource resource = new HupfWebResource() {
        @Override
        protected HupfService service() {
            return service;
        }

        @Override
        protected OffloadService offloadService() {
            // This node drives edge-a's hybrid only (edge-b's backend not up).
            OffloadService offload = createMock(OffloadService.class);
            expect(offload.sites()).andReturn(Map.of("edge-a", new OffloadService.SiteHybrid(
                    null, Set.of(Ip4Address.valueOf("10.250.0.3")), List.of("device:b1"), List.of("device:b1"))));
            replay(offload);
            return offload;
        }
    };

    private static String session(int ue, String gnb) {
        return HupfWebResourceTest.SESSION.replace("10.250.0.9", "10.250.0." + ue).replace(
                "{\"farId\": 2, \"applyAction\": [\"BUFF\", \"NOCP\"]}",
                "{\"farId\": 2, \"applyAction\": [\"FORW\"], \"forwardingParameters\": {\"destinationInterface\":"
                        + " \"ACCESS\", \"outerHeaderCreation\": {\"teid\": 4660, \"ipv4\": \"" + gnb + "\"}}}");
    }

    private static JsonNode json(Response r) throws Exception {
        return MAPPER.readTree((String) r.getEntity());
    }

    private Response create(String body) {
        return resource.create(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    public void sitesWithTheirSessionsAndEachSessionWithItsSite() throws Exception {
        assertEquals(201, create(session(1, "192.168.2.10")).getStatus());
        assertEquals(201, create(session(2, "192.168.2.11")).getStatus());
        assertEquals(201, create(session(3, "192.168.1.10")).getStatus());
        Response refused = create(session(4, "192.168.3.10"));
        assertTrue(refused.getEntity().toString(), refused.getEntity().toString().contains("served by no site"));

        JsonNode sites = json(resource.sites()).get("sites");
        assertEquals(2, sites.size());
        assertEquals("edge-a", sites.at("/0/siteId").asText());
        assertEquals("device:s1", sites.at("/0/switch").asText());
        assertEquals(1, sites.at("/0/sessions").asInt());
        assertTrue("edge-b has no switch", sites.get(1).path("switch").isMissingNode());
        assertEquals("access-b", sites.at("/1/n3NetworkInstances/0").asText());
        assertEquals(2, sites.at("/1/sessions").asInt());
        assertEquals(1, sites.at("/0/offloaded").asInt());
        assertEquals("device:b1", sites.at("/0/backendsUp/0").asText());
        assertTrue("no hybrid at edge-b", sites.get(1).path("offloaded").isMissingNode());

        int atB = 0;
        for (JsonNode s : json(resource.sessions()).get("sessions")) {
            atB += s.get("site").asText().equals("edge-b") ? 1 : 0;
        }
        assertEquals(2, atB);
    }
}
