package org.hupf.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.OffloadService;
import org.hupf.app.offload.TestOffloadService;
import org.junit.Test;

import javax.ws.rs.core.Response;

import static org.junit.Assert.assertEquals;

/**
 * GET /offload over a real offload manager (only the service lookup replaced).
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
}
