package org.hupf.app.offload;

import org.junit.Test;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * A manager's poll waits GAP_FACTOR times its last duration after it ended, a failing one a pause that doubles up
 * to a maximum; each manager on its own.
 */
public class PollPacingTest {

    @Test
    public void aPollWaitsForGapFactorTimesItsDuration() {
        PollPacing pacing = new PollPacing();
        Object site = new Object();
        Object other = new Object();
        assertTrue("the first poll is due", pacing.due(site, 0));
        pacing.polled(site, 1_000, 200, true);
        long pause = PollPacing.GAP_FACTOR * 200L;
        assertFalse(pacing.due(site, 1_000 + pause - 1));
        assertTrue(pacing.due(site, 1_000 + pause));
        assertTrue("another manager keeps its own time", pacing.due(other, 1_001));

        pacing.polled(site, 5_000, 0, true);
        assertTrue("a quick poll runs at every tick", pacing.due(site, 5_000));
    }

    @Test
    public void aManagerGoneIsForgotten() {
        PollPacing pacing = new PollPacing();
        Object gone = new Object();
        pacing.polled(gone, 1_000, 10_000, false);
        pacing.retain(List.of(new Object()));
        assertTrue("a manager built again starts due", pacing.due(gone, 1_001));
        assertEquals("and without failures", 0, pacing.failures(gone));
    }

    @Test
    public void failedPollsBackOffDoublingUpToTheMaximumAndASuccessResets() {
        PollPacing pacing = new PollPacing();
        Object site = new Object();
        long now = 0;
        long pause = PollPacing.BACKOFF_FIRST_MS;
        for (int inRow = 1; inRow <= 10; inRow++) {
            assertEquals(inRow, pacing.polled(site, now, 5, false));
            assertFalse("failure " + inRow + " waits " + pause + " ms", pacing.due(site, now + pause - 1));
            assertTrue(pacing.due(site, now + pause));
            now += pause;
            pause = Math.min(2 * pause, PollPacing.BACKOFF_MAX_MS);
        }
        assertEquals(PollPacing.BACKOFF_MAX_MS, PollPacing.backoff(Integer.MAX_VALUE));

        assertEquals(0, pacing.polled(site, now, 5, true));
        assertTrue("a success is paced on its duration again", pacing.due(site, now + PollPacing.GAP_FACTOR * 5));
        assertEquals(1, pacing.polled(site, now, 5, false));
        assertTrue("the next failure starts from the first pause", pacing.due(site, now + PollPacing.BACKOFF_FIRST_MS));
    }
}
