package org.hupf.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.OffloadService;
import org.hupf.core.offload.TestOffloadService;
import org.junit.Test;

import javax.ws.rs.core.Response;

import static org.junit.Assert.assertEquals;

/**
 * GET /offload over a real offload manager (only the service lookup replaced); the backends' drain answers.
 */
public class OffloadResourceTest {

    private static HupfWebResource resource(OffloadService offload) {
        return new HupfWebResource() {
            @Override
            protected OffloadService offloadService() {
                return offload;
            }
        };
    }

    @Test
    public void metricsListTheOffloadedUesAndTheSwitchOccupancy() throws Exception {
        TestOffloadService offload = TestOffloadService.withSessions(3);
        offload.onHeavyHitter(TestOffloadService.ue(1));
        Response r = resource(offload).offload();
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
        assertEquals(503, resource(TestOffloadService.withoutBackend()).offload().getStatus());
    }

    private static JsonNode body(Response r) throws Exception {
        return new ObjectMapper().readTree((String) r.getEntity());
    }

    /** A drain answers what it saw, the backend is listed DRAINED until restored, and each refusal has its status. */
    @Test
    public void aDrainAnswersItsReportAndEachRefusalItsStatus() throws Exception {
        HupfWebResource rest = resource(TestOffloadService.withSessions(1));
        assertEquals("[{\"id\":\"backend\",\"state\":\"STEERED\"}]", body(rest.backends()).get("backends").toString());
        Response r = rest.drain("backend2", 500, 10_000);
        assertEquals(200, r.getStatus());
        JsonNode o = body(r);
        assertEquals("backend2", o.get("backend").asText());
        assertEquals(true, o.get("quiet").asBoolean());
        assertEquals(7, o.get("packets").asLong());
        assertEquals(503, o.get("drained_ms").asLong());
        assertEquals(2, o.get("reads").asInt());
        assertEquals("[{\"id\":\"backend\",\"state\":\"STEERED\"},{\"id\":\"backend2\",\"state\":\"DRAINED\"}]",
                     body(rest.backends()).get("backends").toString());
        assertEquals("drained already", 409, rest.drain("backend2", 500, 10_000).getStatus());
        assertEquals("not a backend", 400, rest.drain("device:nope", 500, 10_000).getStatus());
        assertEquals("bad times", 400, rest.drain("backend2", 0, 10_000).getStatus());
        assertEquals(200, rest.restore("backend2").getStatus());
        assertEquals("not drained", 404, rest.restore("backend2").getStatus());
        assertEquals(1, body(rest.backends()).get("backends").size());
        Response refused = resource(TestOffloadService.withoutBackend()).drain("backend2", 500, 10_000);
        assertEquals("the switch refused the steering", 502, refused.getStatus());
        assertEquals("the switch did not take the steering without backend2", body(refused).get("error").asText());
    }
}
