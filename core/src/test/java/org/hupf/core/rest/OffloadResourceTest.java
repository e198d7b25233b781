package org.hupf.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.HupfService;
import org.hupf.api.OffloadService;
import org.hupf.api.SiteStatus;
import org.hupf.core.offload.TestOffloadService;
import org.junit.Test;

import javax.ws.rs.core.Response;
import java.util.List;

import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;

/**
 * GET /offload over a real offload manager (only the service lookup replaced); the backends' drain answers.
 */
public class OffloadResourceTest {

    /** The netcfg's two sites, as {@link TestOffloadService#twoSites()} drives them. */
    private static final List<SiteStatus> TWO_SITES = List.of(
            new SiteStatus("edge-a", "device:s1", List.of("device:b1"), List.of("10.1.0.0/16"), List.of(), List.of(),
                           3),
            new SiteStatus("edge-b", "device:s2", List.of("device:b2", "device:b3"), List.of("10.2.0.0/16"),
                           List.of(), List.of(), 2));

    private static HupfWebResource resource(OffloadService offload) {
        return resource(offload, List.of());
    }

    private static HupfWebResource resource(OffloadService offload, List<SiteStatus> sites) {
        HupfService service = createMock(HupfService.class);
        expect(service.sites()).andReturn(sites).anyTimes();
        replay(service);
        return new HupfWebResource() {
            @Override
            protected OffloadService offloadService() {
                return offload;
            }

            @Override
            protected HupfService service() {
                return service;
            }
        };
    }

    @Test
    public void metricsListTheOffloadedUesAndTheSwitchOccupancy() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(3);
        offload.onHeavyHitter(TestOffloadService.ue(1));
        Response r = resource(offload).offload(null);
        assertEquals(200, r.getStatus());
        JsonNode o = new ObjectMapper().readTree((String) r.getEntity());
        assertEquals(3, o.get("sessions").asInt());
        assertEquals(1, o.get("offloaded").asInt());
        assertEquals(1, o.get("hh_reports").asInt());
        assertEquals(TestOffloadService.ue(1).toString(), o.get("offloaded_ues").get(0).asText());
        assertEquals(8, o.get("occupancy").get("session_downlink").get(1).asInt());
        assertEquals("[\"backend\"]", o.get("backends").toString());
        assertEquals("[\"backend\"]", o.get("steered_to").toString());
    }

    @Test
    public void withoutABackendItIsUnavailable() throws Exception {
        assertEquals(503, resource(TestOffloadService.withoutBackend()).offload(null).getStatus());
    }

    private static JsonNode body(Response r) throws Exception {
        return new ObjectMapper().readTree((String) r.getEntity());
    }

    /** A drain answers what it saw, the backend is listed DRAINED until restored, and each refusal has its status. */
    @Test
    public void aDrainAnswersItsReportAndEachRefusalItsStatus() throws Exception {
        HupfWebResource rest = resource(TestOffloadService.withSessions(1));
        assertEquals("[{\"id\":\"backend\",\"site\":\"default\",\"state\":\"STEERED\"}]", body(rest.backends(null)).get("backends").toString());
        Response r = rest.drain("backend2", 500, 10_000);
        assertEquals(200, r.getStatus());
        JsonNode o = body(r);
        assertEquals("backend2", o.get("backend").asText());
        assertEquals(true, o.get("quiet").asBoolean());
        assertEquals(7, o.get("packets").asLong());
        assertEquals(503, o.get("drained_ms").asLong());
        assertEquals(2, o.get("reads").asInt());
        assertEquals("[{\"id\":\"backend\",\"site\":\"default\",\"state\":\"STEERED\"},"
                             + "{\"id\":\"backend2\",\"site\":\"default\",\"state\":\"DRAINED\"}]",
                     body(rest.backends(null)).get("backends").toString());
        assertEquals("drained already", 409, rest.drain("backend2", 500, 10_000).getStatus());
        assertEquals("not a backend", 400, rest.drain("device:nope", 500, 10_000).getStatus());
        assertEquals("bad times", 400, rest.drain("backend2", 0, 10_000).getStatus());
        assertEquals(200, rest.restore("backend2").getStatus());
        assertEquals("not drained", 404, rest.restore("backend2").getStatus());
        assertEquals(1, body(rest.backends(null)).get("backends").size());
        Response refused = resource(TestOffloadService.withoutBackend()).drain("backend2", 500, 10_000);
        assertEquals("the switch refused the steering", 502, refused.getStatus());
        assertEquals("the switch did not take the steering without backend2", body(refused).get("error").asText());
    }

    /** Two sites: the sum kept as the total, each site's own metrics, UEs and backends, one site asked for. */
    @Test
    public void twoSitesShowTheirOwnMetricsUesAndBackendsBesideTheirSum() throws Exception {
        TestOffloadService offload = TestOffloadService.twoSites();
        offload.onHeavyHitter(TestOffloadService.ue(1));
        offload.onHeavyHitter(TestOffloadService.ue(4));
        HupfWebResource rest = resource(offload, TWO_SITES);
        JsonNode all = body(rest.offload(null));
        assertEquals(5, all.get("sessions").asInt());
        assertEquals(2, all.get("offloaded").asInt());
        assertEquals("both switches' tables", 16, all.at("/occupancy/session_downlink/1").asInt());
        assertEquals(2, all.get("offloaded_ues").size());
        assertEquals(2, all.get("sites").size());
        JsonNode a = all.at("/sites/0");
        assertEquals("edge-a", a.get("site").asText());
        assertEquals(3, a.get("sessions").asInt());
        assertEquals(8, a.at("/occupancy/session_downlink/1").asInt());
        assertEquals("[\"" + TestOffloadService.ue(1) + "\"]", a.get("offloaded_ues").toString());
        assertEquals("[\"device:b1\"]", a.get("backends").toString());
        JsonNode b = all.at("/sites/1");
        assertEquals("edge-b", b.get("site").asText());
        assertEquals(2, b.get("sessions").asInt());
        assertEquals("[\"" + TestOffloadService.ue(4) + "\"]", b.get("offloaded_ues").toString());
        assertEquals("[\"device:b2\",\"device:b3\"]", b.get("backends").toString());
        assertEquals("[\"device:b2\"]", b.get("steered_to").toString());

        JsonNode onlyB = body(rest.offload("edge-b"));
        assertEquals(2, onlyB.get("sessions").asInt());
        assertEquals(1, onlyB.get("sites").size());
        assertEquals("[\"" + TestOffloadService.ue(4) + "\"]", onlyB.get("offloaded_ues").toString());

        assertEquals("[{\"id\":\"device:b1\",\"site\":\"edge-a\",\"state\":\"STEERED\"},"
                             + "{\"id\":\"device:b2\",\"site\":\"edge-b\",\"state\":\"STEERED\"},"
                             + "{\"id\":\"device:b3\",\"site\":\"edge-b\",\"state\":\"HELD\"}]",
                     body(rest.backends(null)).get("backends").toString());
        assertEquals("[{\"id\":\"device:b1\",\"site\":\"edge-a\",\"state\":\"STEERED\"}]",
                     body(rest.backends("edge-a")).get("backends").toString());
    }

    @Test
    public void anUnknownSiteIsNotFoundNamingTheSitesAndASiteWithoutHybridIsUnavailable() throws Exception {
        HupfWebResource rest = resource(TestOffloadService.twoSites(), TWO_SITES);
        for (Response r : List.of(rest.offload("edge-c"), rest.backends("edge-c"))) {
            assertEquals(404, r.getStatus());
            assertEquals("no site 'edge-c': the netcfg's sites are edge-a, edge-b", body(r).get("error").asText());
        }
        Response implicit = resource(TestOffloadService.withSessions(1)).offload("edge-a");
        assertEquals(404, implicit.getStatus());
        assertEquals("no site 'edge-a': the netcfg names no sites, so there is one, default",
                     body(implicit).get("error").asText());
        assertEquals(200, resource(TestOffloadService.withSessions(1)).offload("default").getStatus());
        Response notDriven = resource(TestOffloadService.withSessions(1), TWO_SITES).offload("edge-b");
        assertEquals(503, notDriven.getStatus());
        assertEquals("no hupf backend available at site edge-b", body(notDriven).get("error").asText());
    }
}
