package org.hupf.core.offload;

import org.hupf.core.device.CellChanges;
import org.hupf.pipeconf.api.UpfCounter;
import org.junit.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The changed-cells read through the usage ledger gives what the full read would: a restart a complete answer
 * shows is judged, and a cell whose ledger offset a zeroing dropped is answered though the backend's count did
 * not change.
 */
public class LedgeredChangesTest {

    private final FakeUpfDevice backend = new FakeUpfDevice(64, 64, 16);
    private final BackendUsageLedger ledger = new BackendUsageLedger();
    private final LedgeredBackend ledgered = new LedgeredBackend("b1", backend, ledger, true);

    private static Map<Integer, Long> packets(CellChanges c) {
        Map<Integer, Long> m = new HashMap<>();
        c.cells().forEach(u -> m.put(u.cellId(), u.ingressPkts()));
        return m;
    }

    @Test
    public void restartsAndZeroingsAreAnsweredAsByAFullRead() throws Exception {
        backend.changedReads = true;
        backend.setCounter(5, 10, 1000);
        backend.setCounter(6, 3, 300);
        CellChanges c = ledgered.readChangedCells(63, null);
        assertTrue(c.complete());
        assertEquals(Map.of(5, 10L, 6, 3L), packets(c));
        c = ledgered.readChangedCells(63, c);
        assertFalse(c.complete());
        assertEquals(Map.of(), packets(c));

        // The backend restarts, then counts cell 6 again: the changes judged a restart, which changes the
        // offsets of every cell, so the answer is complete.
        backend.setCounter(5, 0, 0);
        backend.setCounter(6, 1, 100);
        c = ledgered.readChangedCells(63, c);
        assertEquals(1, ledger.restarts("b1"));
        assertTrue(c.complete());
        assertEquals("the earlier life's counts kept", Map.of(5, 10L, 6, 4L), packets(c));

        // hupf gives cell 5 to a new session: its count stays 0 on the backend, its offset goes.
        ledgered.apply(UpfCounter.builder().withCellId(5).setIngress(0, 0).setEgress(0, 0).build());
        c = ledgered.readChangedCells(63, c);
        assertFalse(c.complete());
        assertEquals(Map.of(5, 0L), packets(c));
        assertEquals(Map.of(), packets(ledgered.readChangedCells(63, c)));
    }
}
