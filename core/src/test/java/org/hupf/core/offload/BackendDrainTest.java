package org.hupf.core.offload;

import org.hupf.api.DrainReport;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.junit.Test;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A drained removal steers first, reads until the backend's counts stay still for the quiet time (or the bound
 * passes), and only then lets the backend leave, whose final counts the ledger keeps whole.
 */
public class BackendDrainTest {

    private static final long QUIET = 300;
    private static final long MAX = 2_000;
    private static final long EVERY = 50;

    private final AtomicLong now = new AtomicLong(1_000);
    private final List<String> steps = new ArrayList<>();
    private final BackendDrain drain = new BackendDrain(QUIET, MAX, EVERY, now::get, now::addAndGet);

    /** A count that grows by `step` on each of the first `moving` reads, then stays. */
    private BackendDrain.Count growing(int moving, long step) {
        int[] reads = {0};
        return () -> {
            steps.add("read");
            reads[0]++;
            return 100 + step * Math.min(reads[0], moving);
        };
    }

    @Test
    public void steersThenWaitsForQuietThenLeaves() throws Exception {
        DrainReport r = drain.drain(() -> {
            steps.add("steer");
            now.addAndGet(20);
        }, growing(4, 5), () -> steps.add("leave"));
        assertTrue(r.quiet);
        assertNull(r.error);
        assertEquals(20, r.steeredMillis);
        assertEquals("the last read's count", 120, r.packets);
        assertEquals("counted after the first read that followed the steering", 15, r.afterSteering);
        // Changed at reads 2-4 (t = 50, 100, 150 after the steering); still from then on: quiet at t = 450.
        assertEquals(10, r.reads);
        assertEquals(20 + 450, r.drainedMillis);
        assertEquals("steer", steps.get(0));
        assertEquals("leave", steps.get(steps.size() - 1));
        assertEquals(12, steps.size());
    }

    @Test
    public void countsThatNeverStopEndTheWaitAtTheBound() throws Exception {
        DrainReport r = drain.drain(() -> steps.add("steer"), growing(Integer.MAX_VALUE, 1),
                                            () -> steps.add("leave"));
        assertFalse(r.quiet);
        assertEquals(MAX, r.drainedMillis);
        assertEquals("leave", steps.get(steps.size() - 1));
    }

    @Test
    public void aFailedSteeringLeavesTheBackendAsItWas() {
        try {
            drain.drain(() -> {
                throw new IllegalStateException("switch refused");
            }, growing(1, 1), () -> steps.add("leave"));
            fail("the steering's failure must end the drain");
        } catch (Exception e) {
            assertEquals("switch refused", e.getMessage());
        }
        assertTrue("neither read nor left: " + steps, steps.isEmpty());
    }

    @Test
    public void aBackendThatCannotBeReadLeavesWithItsLastCountsAndSaysWhy() throws Exception {
        int[] reads = {0};
        DrainReport r = drain.drain(() -> { }, () -> {
            if (++reads[0] > 2) {
                throw new UpfProgrammableException("stream lost");
            }
            return 7;
        }, () -> steps.add("leave"));
        assertFalse(r.quiet);
        assertEquals("stream lost", r.error);
        assertEquals(7, r.packets);
        assertEquals(List.of("leave"), steps);
    }

    @Test
    public void aDrainedBackendsFinalCountsStayInTheSumOnTheFirst() throws Exception {
        BackendUsageLedger ledger = new BackendUsageLedger();
        InMemoryUpfDevice b1 = new InMemoryUpfDevice("b1", 64);
        InMemoryUpfDevice b2 = new InMemoryUpfDevice("b2", 64);
        LedgeredBackend first = new LedgeredBackend("b1", b1, ledger, true);
        LedgeredBackend second = new LedgeredBackend("b2", b2, ledger, false);
        ledger.present(List.of("b1", "b2"));
        b1.setCounter(cell(5, 10));
        b2.setCounter(cell(5, 7));
        assertEquals(17, first.readCounter(5).ingressPkts() + second.readCounter(5).ingressPkts());
        int[] reads = {0};
        BackendDrain.Count counted = BackendDrain.packets(second, () -> Set.of(5));
        DrainReport r = drain.drain(() -> { }, () -> {
            if (++reads[0] == 2) {
                b2.setCounter(cell(5, 9));  // two packets in flight when the steering changed
            }
            return counted.read();
        }, () -> ledger.present(List.of("b1")));
        assertTrue(r.quiet);
        assertEquals("both directions of cell 5", 18, r.packets);
        assertEquals(4, r.afterSteering);
        b1.setCounter(cell(5, 13));  // b2's UEs now on b1
        assertEquals("b2's final 9 packets stay in the sum", 22, first.readCounter(5).ingressPkts());
    }

    private static UpfCounter cell(int id, long pkts) {
        return UpfCounter.builder().withCellId(id).setIngress(pkts, 100 * pkts).setEgress(pkts, 100 * pkts).build();
    }
}
