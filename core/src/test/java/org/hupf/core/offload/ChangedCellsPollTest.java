package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.concurrent.atomic.AtomicLong;

import static org.hupf.core.offload.OffloadManagerTest.session;
import static org.hupf.core.offload.OffloadManagerTest.ue;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The poll over a backend with a changed-cells read: it applies the sessions whose cells changed and those
 * whose rate must fall, with the same usages and rates as a poll that reads every cell.
 */
public class ChangedCellsPollTest {

    private static final int SESSIONS = 200;

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private FakeUpfDevice changed;
    private FakeUpfDevice full;
    private OffloadManager onChanged;
    private OffloadManager onFull;

    @Before
    public void setUp() throws Exception {
        changed = new FakeUpfDevice(4096, 501_000, 1024);
        changed.changedReads = true;
        full = new FakeUpfDevice(4096, 501_000, 1024);
        OffloadPolicy policy = OffloadPolicy.builder().thresholdBitsPerSec(2_000_000).build();
        onChanged = new OffloadManager(changed, null, policy, clock::get);
        onFull = new OffloadManager(full, null, policy, clock::get);
        for (int i = 1; i <= SESSIONS; i++) {
            onChanged.put(session(i));
            onFull.put(session(i));
        }
    }

    /** Counts bytes of UE i on both backends, then polls both a second later. */
    private void sendAndPoll(int i, long bytes) {
        if (bytes > 0) {
            assertTrue(changed.countUplink(OffloadManagerTest.uplink(i, 1000 + i), ue(i), bytes));
            assertTrue(full.countUplink(OffloadManagerTest.uplink(i, 1000 + i), ue(i), bytes));
        }
        clock.addAndGet(1000);
        onChanged.poll();
        onFull.poll();
        for (int u = 1; u <= SESSIONS; u++) {
            Ip4Address ue = ue(u);
            assertEquals("usage of " + ue, onFull.lastUsages().get(ue).toString(),
                         onChanged.lastUsages().get(ue).toString());
            assertEquals("rate of " + ue, onFull.rateBitsPerSec(ue), onChanged.rateBitsPerSec(ue), 0);
        }
    }

    @Test
    public void usagesAndRatesAreThoseOfAFullReadAndReadsCostWhatChanged() {
        sendAndPoll(0, 0);
        sendAndPoll(7, 1000);
        assertEquals(8000, onChanged.rateBitsPerSec(ue(7)), 0);
        changed.changedCellsReturned.set(0);
        sendAndPoll(7, 500);
        assertEquals(4000, onChanged.rateBitsPerSec(ue(7)), 0);
        assertEquals("one cell changed", 1, changed.changedCellsReturned.get());
        sendAndPoll(7, 0);
        assertEquals("the rate falls to 0 with no cell changed", 0, onChanged.rateBitsPerSec(ue(7)), 0);
        assertEquals(1500, onChanged.lastUsages().get(ue(7)).ingressBytes());
        for (int p = 0; p < 5; p++) {
            sendAndPoll(0, 0);
        }
        assertEquals("idle polls return nothing", 1, changed.changedCellsReturned.get());
        // Quiet for seconds, then 1000 bytes within the last second: the rate is over that second.
        sendAndPoll(7, 1000);
        assertEquals(8000, onChanged.rateBitsPerSec(ue(7)), 0);
        sendAndPoll(150, 250);
        assertEquals(2500, onChanged.lastUsages().get(ue(7)).ingressBytes());
        assertEquals(250, onChanged.lastUsages().get(ue(150)).ingressBytes());
        assertEquals(2750, onChanged.metrics().swBytes());
    }

    @Test
    public void aFailedReadLosesNoChangeAndZeroedCellsAreChanges() throws Exception {
        sendAndPoll(9, 1000);
        changed.failReads = true;
        clock.addAndGet(1000);
        onChanged.poll();
        changed.failReads = false;
        sendAndPoll(9, 400);
        assertEquals(1400, onChanged.lastUsages().get(ue(9)).ingressBytes());
        // The session goes and its cells are zeroed for another: the zeros are changes too.
        for (FakeUpfDevice d : new FakeUpfDevice[]{changed, full}) {
            d.setCounter(500_018, 0, 0);
            d.setCounter(500_019, 0, 0);
        }
        sendAndPoll(0, 0);
        assertEquals(0, onChanged.lastUsages().get(ue(9)).ingressBytes());
    }
}
