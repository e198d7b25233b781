package org.hupf.core.offload;

import org.hupf.core.util.IntMap;
import org.hupf.core.device.BatchDevices;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.core.device.CellChanges;
import org.hupf.core.device.CounterCellReader;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A backend whose counter reads go through the {@link BackendUsageLedger}: each cell reads as what the
 * backend counted in all its lives, and on the hybrid's first backend also what the backends away counted,
 * so that a session's usage, summed over the backends present, never loses what a departed or restarted
 * one counted. Cell writes (hupf zeroing a cell for a new session) are told to the ledger. Everything else
 * goes to the backend as is.
 */
public final class LedgeredBackend implements HupfUpfDevice, BatchUpfDevice, CounterCellReader {

    private final String key;
    private final HupfUpfDevice backend;
    private final BackendUsageLedger ledger;
    private final boolean addsAway;
    /**
     * Cells written since the last changed-cells read: the ledger forgot their offsets, which their backend
     * counts need not show. The changed-cells read has one reader (the offload poll); guarded by itself.
     */
    private final IntMap<Boolean> written = new IntMap<>();

    /** A changed-cells answer's token: the backend's, and the ledger's epoch its counts were given in. */
    private static final class Since {
        private final CellChanges backend;
        private final long epoch;

        private Since(CellChanges backend, long epoch) {
            this.backend = backend;
            this.epoch = epoch;
        }
    }

    /**
     * @param key      the backend's name in the ledger (stable across reconnections)
     * @param backend  the backend
     * @param ledger   the ledger shared by the hybrid's backends
     * @param addsAway whether reads add the backends away (exactly one backend present does: the first)
     */
    public LedgeredBackend(String key, HupfUpfDevice backend, BackendUsageLedger ledger, boolean addsAway) {
        this.key = key;
        this.backend = backend;
        this.ledger = ledger;
        this.addsAway = addsAway;
    }

    /** @return the backend written and read */
    public HupfUpfDevice backend() {
        return backend;
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        if (!(entity instanceof UpfCounter)) {
            backend.apply(entity);
            return;
        }
        int[] cell = {((UpfCounter) entity).cellId()};
        ledger.writing(key, cell);
        noteWritten(cell);
        try {
            backend.apply(entity);
        } finally {
            ledger.written(key, cell);
        }
    }

    @Override
    public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        int n = 0;
        for (DeviceUpdate u : updates) {
            n += isCellWrite(u) ? 1 : 0;
        }
        long startedAt = ledger.readStarts();
        if (n == 0) {
            return BatchDevices.of(backend).write(updates).thenApply(r -> throughLedger(r, startedAt));
        }
        int[] cells = new int[n];
        n = 0;
        for (DeviceUpdate u : updates) {
            if (isCellWrite(u)) {
                cells[n++] = ((UpfCounter) u.entity()).cellId();
            }
        }
        ledger.writing(key, cells);
        noteWritten(cells);
        CompletableFuture<WriteResult> result;
        try {
            result = BatchDevices.of(backend).write(updates);
        } catch (RuntimeException e) {
            ledger.written(key, cells);
            throw e;
        }
        return result.whenComplete((r, e) -> ledger.written(key, cells)).thenApply(r -> throughLedger(r, startedAt));
    }

    private static boolean isCellWrite(DeviceUpdate u) {
        return u.kind() == DeviceUpdate.Kind.APPLY && u.entity() instanceof UpfCounter;
    }

    private void noteWritten(int[] cells) {
        synchronized (written) {
            for (int cell : cells) {
                written.put(cell, Boolean.TRUE);
            }
        }
    }

    /** The final counts a write returned, read as the cells' reads are (they are what a read after it answers). */
    private WriteResult throughLedger(WriteResult r, long startedAt) {
        CellCounts counts = r.finalCells();
        return counts.isEmpty() ? r : r.withFinalCells(withAway(ledger.observe(key, startedAt, counts)));
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        backend.delete(entity);
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        return backend.readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        long startedAt = ledger.readStarts();
        UpfCounter c = backend.readCounter(cellId);
        return shares(startedAt, List.of(c)).get(cellId);
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        long startedAt = ledger.readStarts();
        Collection<UpfCounter> read = backend.readCounters(maxCounterId);
        return shares(startedAt, read).values();
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        long startedAt = ledger.readStarts();
        Collection<UpfCounter> read = CounterCellReader.of(backend).readCounterCells(cells).values();
        return shares(startedAt, read);
    }

    /**
     * The backend's changed cells as the ledger gives them; an answer in full when the ledger's offsets or away
     * counts changed since the last one (a restart judged, a backend come or gone), which changes cells the
     * backend's answer leaves out.
     */
    @Override
    public CellChanges readChangedCells(int maxCell, CellChanges since) throws UpfProgrammableException {
        long epoch = ledger.epoch();
        Since s = since != null && since.token() instanceof Since ? (Since) since.token() : null;
        CellChanges read = changedCells(maxCell, s == null || s.epoch != epoch ? null : s.backend);
        if (ledger.epoch() != epoch) {
            epoch = ledger.epoch();
            read = changedCells(maxCell, null);
        }
        return new CellChanges(read.complete(), read.cells(), new Since((CellChanges) read.token(), epoch));
    }

    /** A changed-cells read through the ledger, whose token is the backend's answer. */
    private CellChanges changedCells(int maxCell, CellChanges since) throws UpfProgrammableException {
        int[] rewritten;
        synchronized (written) {
            rewritten = written.keys();
            written.clear();
        }
        try {
            long startedAt = ledger.readStarts();
            CellChanges read = CounterCellReader.changedCells(backend, maxCell, since);
            Map<Integer, UpfCounter> counts = new HashMap<>();
            read.cells().forEach(c -> counts.put(c.cellId(), c));
            if (read.complete()) {
                // Left out: zero on the backend, which the ledger judges, with their offsets and away counts.
                for (int cell : ledger.recorded(key, addsAway)) {
                    counts.putIfAbsent(cell, BackendUsageLedger.counter(cell, new long[4]));
                }
            } else {
                List<Integer> unread = new ArrayList<>();
                for (int cell : rewritten) {
                    if (!counts.containsKey(cell)) {
                        unread.add(cell);
                    }
                }
                if (!unread.isEmpty()) {
                    counts.putAll(CounterCellReader.of(backend).readCounterCells(unread));
                }
            }
            return new CellChanges(read.complete(), shares(startedAt, counts.values()).values(), read);
        } catch (UpfProgrammableException | RuntimeException e) {
            noteWritten(rewritten);
            throw e;
        }
    }

    @Override
    public long tableSize(UpfEntityType type) throws UpfProgrammableException {
        return backend.tableSize(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        backend.deleteAll(type);
    }

    /** What a read answered, as the ledger gives it (with what the backends away counted): cell to count, sorted. */
    private Map<Integer, UpfCounter> shares(long startedAt, Collection<UpfCounter> read) {
        CellCounts shares = withAway(ledger.observe(key, startedAt, CellCounts.of(read)));
        Map<Integer, UpfCounter> out = new TreeMap<>();
        for (int i = 0; i < shares.size(); i++) {
            out.put(shares.cell(i), shares.counter(i));
        }
        return out;
    }

    /** The backend's shares with what the backends away counted added, when this backend adds them; in order. */
    private CellCounts withAway(CellCounts shares) {
        long[][] away = addsAway ? ledger.away(shares) : null;
        return away == null ? shares : shares.plus(away);
    }

    @Override
    public String toString() {
        return backend.toString();
    }
}
