package org.hupf.standalone.store;

import org.junit.Test;

import static org.junit.Assert.assertEquals;

/** How long the state keeps the chunks a commit freed before it reuses their space. */
public class StateRetentionTest {

    @Test
    public void freedChunksAreKeptTenFsyncPeriodsAtLeastASecond() {
        assertEquals(1_000, DurableState.retentionMillis(0));
        assertEquals(1_000, DurableState.retentionMillis(100));
        assertEquals(50_000, DurableState.retentionMillis(5_000));
    }
}
