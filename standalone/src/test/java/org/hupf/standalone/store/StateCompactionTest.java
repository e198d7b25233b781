package org.hupf.standalone.store;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The state's file stays in proportion to its sessions however many commits wrote them. */
public class StateCompactionTest {

    private static final long START = 3_900_000_000L;
    private static final int SESSIONS = 3_000;

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void aCommitPerSessionLeavesFewChunksOnceCompacted() throws Exception {
        Path dir = tmp.getRoot().toPath().resolve("state");
        try (DurableState s = DurableState.open(dir, 100, START)) {
            for (long seid = 1; seid <= SESSIONS; seid++) {
                // Spread over the key space, as the manager's random UP SEIDs are: every leaf page is rewritten.
                s.sessions().put(DurableStateTest.session(seid * 0x9E3779B97F4A7C15L));
            }
            // The maintenance compacts every few seconds; freed chunks go after the retention time (1 s here).
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (s.chunks() >= SESSIONS / 8 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(s.chunks() + " chunks for " + SESSIONS + " sessions", s.chunks() < SESSIONS / 8);
        }
        try (DurableState s = DurableState.open(dir, 100, START)) {
            assertEquals(SESSIONS, s.sessions().size());
            assertEquals(DurableStateTest.session(5 * 0x9E3779B97F4A7C15L),
                         s.sessions().get(5 * 0x9E3779B97F4A7C15L));
        }
    }

    @Test
    public void freedChunksAreKeptTenFsyncPeriodsAtLeastASecond() {
        assertEquals(1_000, DurableState.retentionMillis(0));
        assertEquals(1_000, DurableState.retentionMillis(100));
        assertEquals(50_000, DurableState.retentionMillis(5_000));
    }
}
