package org.hupf.pipeconf.dataplane;

import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class HhConfigTest {

    @Test
    public void defaultsAreTheThesisParameters() {
        HhConfig c = HhConfig.builder().build();
        assertEquals(1850, c.tauTh());
        assertEquals(10_000, c.ipgInit());
        assertEquals(10_000, c.ipgTh());
        assertEquals(10, c.decayK());
        assertEquals(16_384, c.timeslotUs());
    }

    @Test
    public void timeslotMustBeAPowerOfTwo() {
        expectRefusal(HhConfig.builder().timeslotUs(20_000), "timeslot_us");
    }

    @Test
    public void keyModeMustBeKnown() {
        expectRefusal(HhConfig.builder().keyMode(7), "key_mode");
    }

    @Test
    public void tauThresholdFitsSixteenBits() {
        expectRefusal(HhConfig.builder().tauTh(70_000), "tau_th");
    }

    private static void expectRefusal(HhConfig.Builder b, String field) {
        try {
            b.build();
            fail("accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(field));
        }
    }
}
