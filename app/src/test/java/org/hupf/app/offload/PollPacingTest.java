package org.hupf.app.offload;

import org.junit.Test;

import java.util.List;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** A manager's poll waits GAP_FACTOR times its last duration after it ended; each manager on its own. */
public class PollPacingTest {

    @Test
    public void aPollWaitsForGapFactorTimesItsDuration() {
        PollPacing pacing = new PollPacing();
        Object site = new Object();
        Object other = new Object();
        assertTrue("the first poll is due", pacing.due(site, 0));
        pacing.polled(site, 1_000, 200);
        long pause = PollPacing.GAP_FACTOR * 200L;
        assertFalse(pacing.due(site, 1_000 + pause - 1));
        assertTrue(pacing.due(site, 1_000 + pause));
        assertTrue("another manager keeps its own time", pacing.due(other, 1_001));

        pacing.polled(site, 5_000, 0);
        assertTrue("a quick poll runs at every tick", pacing.due(site, 5_000));
    }

    @Test
    public void aManagerGoneIsForgotten() {
        PollPacing pacing = new PollPacing();
        Object gone = new Object();
        pacing.polled(gone, 1_000, 10_000);
        pacing.retain(List.of(new Object()));
        assertTrue("a manager built again starts due", pacing.due(gone, 1_001));
    }
}
