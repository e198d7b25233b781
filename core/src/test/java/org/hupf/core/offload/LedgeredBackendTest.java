package org.hupf.core.offload;

import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.junit.Test;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

/**
 * A session's usage summed over the backends present keeps what a backend counted when it leaves the hybrid,
 * comes back with its counts, or comes back restarted; hupf zeroing a cell for a new session drops the cell's
 * old counts everywhere, and the zeroing is never taken for a restart.
 */
public class LedgeredBackendTest {

    private static final int CELL = 5;

    private final BackendUsageLedger ledger = new BackendUsageLedger();
    private final InMemoryUpfDevice b1 = new InMemoryUpfDevice("b1", 64);
    private final InMemoryUpfDevice b2 = new InMemoryUpfDevice("b2", 64);
    private final LedgeredBackend first = new LedgeredBackend("b1", b1, ledger, true);
    private final LedgeredBackend second = new LedgeredBackend("b2", b2, ledger, false);

    private static void count(InMemoryUpfDevice d, long pkts) {
        d.setCounter(UpfCounter.builder().withCellId(CELL).setIngress(pkts, 100 * pkts).setEgress(0, 0).build());
    }

    /** What the session core reads: the cell summed over the backends present. */
    private static long packets(HupfUpfDevice... present) throws UpfProgrammableException {
        long sum = 0;
        for (HupfUpfDevice d : present) {
            sum += d.readCounter(CELL).ingressPkts();
        }
        return sum;
    }

    private long bothThenFirstAlone() throws UpfProgrammableException {
        count(b1, 10);
        count(b2, 7);
        ledger.present(List.of("b1", "b2"));
        assertEquals(17, packets(first, second));
        ledger.present(List.of("b1"));
        count(b1, 12);
        return packets(first);
    }

    @Test
    public void aBackendAwayKeepsItsShareOnTheFirst() throws UpfProgrammableException {
        assertEquals("b2's 7 packets stay in the sum while it is away", 19, bothThenFirstAlone());
        assertEquals(12, new LedgeredBackend("b1", b1, new BackendUsageLedger(), true).readCounter(CELL)
                .ingressPkts());
    }

    @Test
    public void aBackendBackWithItsCountsIsNotCountedTwice() throws UpfProgrammableException {
        bothThenFirstAlone();
        ledger.present(List.of("b1", "b2"));
        count(b2, 9);
        assertEquals(21, packets(first, second));
        assertEquals(0, ledger.restarts("b2"));
    }

    @Test
    public void aRestartedBackendAddsItsNewCountsToItsOldOnes() throws UpfProgrammableException {
        bothThenFirstAlone();
        ledger.present(List.of("b1", "b2"));
        count(b2, 2);  // started again from zero, then took 2 packets
        assertEquals(12 + 7 + 2, packets(first, second));
        assertEquals(1, ledger.restarts("b2"));
        count(b2, 5);
        assertEquals(12 + 7 + 5, packets(first, second));
    }

    @Test
    public void aBackendThatRestartsWithoutLeavingKeepsItsCounts() throws UpfProgrammableException {
        count(b1, 40);
        assertEquals(40, packets(first));
        count(b1, 3);
        assertEquals(43, packets(first));
        assertEquals(1, ledger.restarts("b1"));
    }

    @Test
    public void zeroingACellForANewSessionDropsItsOldCountsEverywhere() throws UpfProgrammableException {
        bothThenFirstAlone();
        // The cell goes to a new session: hupf zeroes it on the backend present (b2, away, is not written).
        first.write(List.of(DeviceUpdate.apply(UpfCounter.builder().withCellId(CELL).build()))).join();
        assertEquals(0, packets(first));
        count(b1, 4);
        assertEquals("b2's old 7 packets were the old session's", 4, packets(first));
        assertEquals(0, ledger.restarts("b1"));

        // b2 comes back without having restarted: its cell still holds the old session's 7.
        ledger.present(List.of("b1", "b2"));
        assertEquals(4, packets(first, second));
        count(b2, 8);
        assertEquals("the new session's packet on b2 counts", 5, packets(first, second));
    }

    @Test
    public void aBackendRestartedAfterItsCellWasZeroedCountsOnlyTheNewSession() throws UpfProgrammableException {
        bothThenFirstAlone();
        first.apply(UpfCounter.builder().withCellId(CELL).build());
        ledger.present(List.of("b1", "b2"));
        count(b2, 3);
        assertEquals(3, packets(first, second));
        assertEquals(1, ledger.restarts("b2"));
    }

    @Test
    public void aReadStartedBeforeTheZeroingWasAcknowledgedIsNotARestart() {
        observed(ledger.readStarts(), 30);
        ledger.writing("b1", new int[]{CELL});
        long before = ledger.readStarts();
        ledger.written("b1", new int[]{CELL});
        // Sent before the device applied the zero, answered after the acknowledgement.
        observed(before, 31);
        assertEquals(0, observed(ledger.readStarts(), 0));
        assertEquals(0, ledger.restarts("b1"));
        assertEquals(2, observed(ledger.readStarts(), 2));
    }

    /**
     * Two reads of a busy cell, the earlier answered last (the offload poll and a PFCP deletion's read, say):
     * its lower count is older, not a restart. Taken for one, the cell's whole count was added once more (the
     * cluster test's 50,000 octets where 20,000 were due, docs/CLUSTER.md).
     */
    @Test
    public void anEarlierReadAnsweredLastIsNotARestart() {
        observed(ledger.readStarts(), 40);
        long poll = ledger.readStarts();
        long deletion = ledger.readStarts();
        assertEquals(120, observed(deletion, 120));
        assertEquals("the poll's answer as it was read", 80,
                     observed(poll, 80));
        assertEquals(0, ledger.restarts("b1"));
        assertEquals(120, observed(ledger.readStarts(), 120));
        // A real restart is still seen by the next read in order.
        assertEquals(123, observed(ledger.readStarts(), 3));
        assertEquals(1, ledger.restarts("b1"));
    }

    /** A leader change: the next leader's ledger starts from the journal and owes b2 what the last one did. */
    @Test
    public void aNewLedgerTakesOverWhatTheJournalCarries() throws UpfProgrammableException {
        Map<String, Map<Integer, long[]>> journal = new HashMap<>();
        BackendUsageLedger.Journal toMap = (backend, cell, r) -> {
            if (r == null) {
                journal.getOrDefault(backend, new HashMap<>()).remove(cell);
            } else {
                journal.computeIfAbsent(backend, k -> new HashMap<>()).put(cell, r.clone());
            }
        };
        BackendUsageLedger old = new BackendUsageLedger(toMap, Map.of());
        count(b1, 10);
        count(b2, 7);
        old.present(List.of("b1", "b2"));
        new LedgeredBackend("b1", b1, old, true).readCounter(CELL);
        new LedgeredBackend("b2", b2, old, false).readCounter(CELL);
        assertEquals("a poll journals nothing", Map.of(), journal);
        old.present(List.of("b1"));
        assertEquals(7, journal.get("b2").get(CELL)[0]);

        BackendUsageLedger next = new BackendUsageLedger(toMap, journal);
        next.present(List.of("b1"));
        LedgeredBackend b1Next = new LedgeredBackend("b1", b1, next, true);
        assertEquals(17, b1Next.readCounter(CELL).ingressPkts());
        // b2 back, restarted, under the new leader: its old 7 are carried, not lost.
        next.present(List.of("b1", "b2"));
        count(b2, 1);
        assertEquals(18, packets(b1Next, new LedgeredBackend("b2", b2, next, false)));
        assertEquals(1, next.restarts("b2"));
        assertEquals("the restart's offset is journaled", 7, journal.get("b2").get(CELL)[4]);
        // The cell goes to a new session: nothing of it is carried any more, here or in the journal.
        b1Next.apply(UpfCounter.builder().withCellId(CELL).build());
        new LedgeredBackend("b2", b2, next, false).apply(UpfCounter.builder().withCellId(CELL).build());
        assertEquals(Map.of(), journal.get("b2"));
    }

    /**
     * The live view's traffic per backend: what entered each present backend (ingress, as the switch's beside it),
     * a restart's old counts included.
     */
    @Test
    public void totalsAreWhatEachPresentBackendCounted() throws UpfProgrammableException {
        bothThenFirstAlone();
        b1.setCounter(UpfCounter.builder().withCellId(CELL).setIngress(12, 1200).setEgress(11, 1100).build());
        packets(first);
        assertEquals("b2 is away", List.of("b1"), List.copyOf(ledger.totals().keySet()));
        assertEquals("ingress packets only: a packet forwarded is counted once", 12, ledger.totals().get("b1")[0]);
        assertEquals(1200, ledger.totals().get("b1")[1]);
        ledger.present(List.of("b1", "b2"));
        count(b2, 2);  // restarted: its 7 are carried
        packets(first, second);
        assertEquals(7 + 2, ledger.totals().get("b2")[0]);
        assertEquals(100 * (7 + 2), ledger.totals().get("b2")[1]);
    }

    /** b1's share of the cell, as the ledger gives it for a read started at {@code startedAt} that answered pkts. */
    private long observed(long startedAt, long pkts) {
        CellCounts read = new CellCounts(1);
        read.add(CELL, pkts, pkts, 0, 0);
        return ledger.observe("b1", startedAt, read).count(0, 0);
    }
}
