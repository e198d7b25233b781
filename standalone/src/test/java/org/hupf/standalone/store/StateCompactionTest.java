package org.hupf.standalone.store;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The state's file stays in proportion to its sessions however many changes wrote it: each commit appends a chunk,
 * and the maintenance's compaction (its rewritten pages committed) leaves a bounded number of chunks.
 */
public class StateCompactionTest {

    private static final long START = 3_900_000_000L;
    private static final int KEPT = 500;
    private static final int CYCLES = 3_000;
    /** A bare MVStore given the same commits keeps 7 chunks once compacted. */
    private static final int MAX_CHUNKS = 16;
    /** 500 sessions take under 1 MB; the uncompacted file of these commits is over 10 MB. */
    private static final long MAX_BYTES = 4L << 20;
    /** Passes that changed the file before it settles: about 40 measured; more means compaction churns. */
    private static final int MAX_PROGRESSING_PASSES = 400;
    private static final long SYNC_MILLIS = 100;

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void establishDeleteCyclesLeaveAFileBoundedByItsSessions() throws Exception {
        Path dir = tmp.getRoot().toPath().resolve("state");
        try (DurableState s = DurableState.open(dir, SYNC_MILLIS, START)) {
            for (long i = 1; i <= KEPT; i++) {
                s.sessions().put(DurableStateTest.session(spread(i)));
            }
            for (int round = 1; round <= 2; round++) {
                for (long i = 1; i <= CYCLES; i++) {
                    long seid = spread(KEPT + round * CYCLES + i);
                    s.sessions().put(DurableStateTest.session(seid));
                    s.sessions().remove(seid);
                }
                assertTrue(s.chunks() + " chunks after " + CYCLES + " establish/delete cycles: the test needs more",
                           s.chunks() > MAX_CHUNKS);
                compactUntilSettled(s, dir);
                assertTrue(s.chunks() + " chunks once compacted", s.chunks() <= MAX_CHUNKS);
                assertTrue(Files.size(dir.resolve(DurableState.FILE)) + " bytes once compacted",
                           Files.size(dir.resolve(DurableState.FILE)) <= MAX_BYTES);
            }
        }
        try (DurableState s = DurableState.open(dir, SYNC_MILLIS, START)) {
            assertEquals(KEPT, s.sessions().size());
            assertEquals(DurableStateTest.session(spread(7)), s.sessions().get(spread(7)));
        }
    }

    @Test
    public void freedChunksAreKeptTenFsyncPeriodsAtLeastASecond() {
        assertEquals(1_000, DurableState.retentionMillis(0));
        assertEquals(1_000, DurableState.retentionMillis(100));
        assertEquals(50_000, DurableState.retentionMillis(5_000));
    }

    /**
     * Runs compaction passes (beside the maintenance's own) until the file settles: no pass changed it for longer
     * than the retention, after which every chunk a pass left empty has been free to go. However slow the machine,
     * the passes that changed something are counted, not timed.
     */
    private static void compactUntilSettled(DurableState s, Path dir) throws Exception {
        long settleNanos = 2_000_000L * DurableState.retentionMillis(SYNC_MILLIS);
        int progressing = 0;
        String last = "";
        long unchangedSince = System.nanoTime();
        while (System.nanoTime() - unchangedSince < settleNanos) {
            String now = s.chunks() + " chunks, " + Files.size(dir.resolve(DurableState.FILE)) + " bytes";
            if (s.compact() || !now.equals(last)) {
                progressing++;
                assertTrue(now + " after " + progressing + " passes that changed the file: compaction churns",
                           progressing <= MAX_PROGRESSING_PASSES);
                unchangedSince = System.nanoTime();
                last = now;
            }
            Thread.sleep(50);
        }
    }

    /** Spread over the key space, as the manager's random UP SEIDs are: every leaf page is rewritten. */
    private static long spread(long i) {
        return i * 0x9E3779B97F4A7C15L & Long.MAX_VALUE;
    }
}
