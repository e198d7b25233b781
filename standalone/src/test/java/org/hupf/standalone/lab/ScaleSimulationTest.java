package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

public class ScaleSimulationTest {

    @Test
    public void hhConfigIsWhatTheAppDerivesForTheThreshold() throws Exception {
        JsonNode c = new ObjectMapper().readTree(ScaleSimulation.hhConfigJson(2_000_000, 1000, 256));
        assertEquals(4000, c.get("ipg_th").asLong());          // one 1000-byte packet at 2 Mbit/s
        assertEquals(4000, c.get("ipg_init").asLong());
        assertEquals(16_384, c.get("timeslot_us").asLong());   // >= 4 x IPG_th
        assertEquals(1850, c.get("tau_th").asInt());
        JsonNode entries = c.get("entries");
        assertTrue(entries.size() > 0 && entries.size() <= 256);
        assertEquals(1, entries.get(0).get(0).asLong());
        assertEquals(4000, entries.get(entries.size() - 1).get(1).asLong());   // ranges end at IPG_init
    }
}
