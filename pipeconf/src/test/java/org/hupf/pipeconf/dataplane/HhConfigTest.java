package org.hupf.pipeconf.dataplane;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class HhConfigTest {

    @Test
    public void defaultsAreTheThesisParametersAtTenMegabits() {
        HhConfig c = HhConfig.builder().build();
        assertEquals(1850, c.tauTh());
        assertEquals(800, c.ipgTh());                  // one 1000-byte packet at 10 Mbit/s
        assertEquals(1, c.decayK());                   // IPG_th / 1000, at least 1
        assertEquals(16_384, c.timeslotUs());
    }

    @Test
    public void ipgThresholdFollowsTheThresholdAndPacketSize() {
        assertEquals(4000, HhConfig.builder().hhThresholdBps(2_000_000).build().ipgTh());
        assertEquals(2240, HhConfig.builder().hhThresholdBps(5_000_000).packetBytes(1400).build().ipgTh());
    }

    @Test
    public void unsetDecayKeepsTheThesisRatioToIpgTh() {
        assertEquals(8, HhConfig.builder().hhThresholdBps(1_000_000).build().decayK());     // 8000 us
        assertEquals(10, HhConfig.builder().hhThresholdBps(800_000).build().decayK());      // thesis: 10 ms, k 10
        assertEquals(1, HhConfig.builder().hhThresholdBps(20_000_000).build().decayK());    // 400 us
        assertEquals(25, HhConfig.builder().decayK(25).build().decayK());
        expectRefusal(HhConfig.builder().decayK(-1), "decay_k");
    }

    @Test
    public void unsetTimeslotIsTheSmallestPowerOfTwoOfFourGapsFrom16ms() {
        assertEquals(16_384, HhConfig.builder().hhThresholdBps(2_000_000).build().timeslotUs());   // 4 x 4000
        assertEquals(32_768, HhConfig.builder().hhThresholdBps(1_000_000).build().timeslotUs());   // 4 x 8000
        assertEquals(2048, HhConfig.builder().hhThresholdBps(20_000_000).timeslotUs(2048).build().timeslotUs());
    }

    @Test
    public void timeslotShorterThanFourGapsIsRefusedPrecisely() {
        expectRefusal(HhConfig.builder().hhThresholdBps(1_000_000).timeslotUs(16_384),
                      "timeslot_us 16384 is shorter than 4 x IPG_th = 32000 us (IPG_th 8000 us: one 1000-byte "
                              + "packet at 1000000 bit/s); use 32768 or more");
    }

    @Test
    public void timeslotMustBeAPowerOfTwo() {
        expectRefusal(HhConfig.builder().timeslotUs(20_000), "timeslot_us must be a power of two");
    }

    @Test
    public void thresholdAbovePacketRateIsRefused() {
        expectRefusal(HhConfig.builder().hhThresholdBps(9_000_000_000L), "IPG_th of a 1000-byte packet");
    }

    @Test
    public void keyModeMustBeKnown() {
        expectRefusal(HhConfig.builder().keyMode(7), "key_mode");
    }

    @Test
    public void tauThresholdFitsSixteenBits() {
        expectRefusal(HhConfig.builder().tauTh(70_000), "tau_th");
    }

    @Test
    public void agreesWithTheReferenceModel() throws Exception {
        // Cases and results of tools/hupf_tools/model/hkipg.py configure (tests/model/test_hkipg.py checks the
        // same file against the model).
        try (InputStream in = getClass().getResourceAsStream("/golden/hh_config_hkipg_model.json")) {
            for (JsonNode c : new ObjectMapper().readTree(in)) {
                JsonNode g = c.get("given");
                HhConfig.Builder b = HhConfig.builder().hhThresholdBps(g.get("hh_bps").asLong())
                        .packetBytes(g.get("pkt_bytes").asInt());
                if (!g.get("timeslot_us").isNull()) {
                    b.timeslotUs(g.get("timeslot_us").asLong());
                }
                if (c.has("error")) {
                    expectRefusal(b, c.get("error").asText());
                    continue;
                }
                HhConfig cfg = b.build();
                JsonNode p = c.get("params");
                assertEquals(g.toString(), p.get("ipg_th").asLong(), cfg.ipgTh());
                assertEquals(g.toString(), p.get("ipg_init").asLong(), cfg.ipgTh());
                assertEquals(g.toString(), p.get("timeslot_us").asLong(), cfg.timeslotUs());
                assertEquals(g.toString(), p.get("decay_k").asLong(), cfg.decayK());
                List<TauTable.Entry> expected = new ArrayList<>();
                c.get("entries").forEach(e -> expected.add(
                        new TauTable.Entry(e.get(0).asLong(), e.get(1).asLong(), e.get(2).asInt())));
                assertEquals(g.toString(), expected, cfg.tauEntries(256));
            }
        }
    }

    private static void expectRefusal(HhConfig.Builder b, String message) {
        try {
            b.build();
            fail("accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(message));
        }
    }
}
