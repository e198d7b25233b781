package org.hupf.core.offload;

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
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

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
     * counts need not show. The changed-cells read has one reader (the offload poll).
     */
    private final Set<Integer> written = ConcurrentHashMap.newKeySet();

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
        List<Integer> cell = List.of(((UpfCounter) entity).cellId());
        ledger.writing(key, cell);
        written.addAll(cell);
        try {
            backend.apply(entity);
        } finally {
            ledger.written(key, cell);
        }
    }

    @Override
    public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        List<Integer> cells = new ArrayList<>();
        for (DeviceUpdate u : updates) {
            if (u.kind() == DeviceUpdate.Kind.APPLY && u.entity() instanceof UpfCounter) {
                cells.add(((UpfCounter) u.entity()).cellId());
            }
        }
        long startedAt = ledger.readStarts();
        if (cells.isEmpty()) {
            return BatchDevices.of(backend).write(updates).thenApply(r -> throughLedger(r, startedAt));
        }
        ledger.writing(key, cells);
        written.addAll(cells);
        CompletableFuture<WriteResult> result;
        try {
            result = BatchDevices.of(backend).write(updates);
        } catch (RuntimeException e) {
            ledger.written(key, cells);
            throw e;
        }
        return result.whenComplete((r, e) -> ledger.written(key, cells)).thenApply(r -> throughLedger(r, startedAt));
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
        return withAway(ledger.observe(key, startedAt, List.of(c))).get(cellId);
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        long startedAt = ledger.readStarts();
        Collection<UpfCounter> read = backend.readCounters(maxCounterId);
        return withAway(ledger.observe(key, startedAt, read)).values();
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        long startedAt = ledger.readStarts();
        Collection<UpfCounter> read = CounterCellReader.of(backend).readCounterCells(cells).values();
        return withAway(ledger.observe(key, startedAt, read));
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
        List<Integer> rewritten = new ArrayList<>(written);
        written.removeAll(rewritten);
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
                List<Integer> unread = new ArrayList<>(rewritten);
                unread.removeAll(counts.keySet());
                if (!unread.isEmpty()) {
                    counts.putAll(CounterCellReader.of(backend).readCounterCells(unread));
                }
            }
            Map<Integer, UpfCounter> out = withAway(ledger.observe(key, startedAt, counts.values()));
            return new CellChanges(read.complete(), out.values(), read);
        } catch (UpfProgrammableException | RuntimeException e) {
            written.addAll(rewritten);
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

    private Map<Integer, UpfCounter> withAway(Map<Integer, UpfCounter> shares) {
        Map<Integer, UpfCounter> out = new TreeMap<>(shares);
        if (!addsAway) {
            return out;
        }
        ledger.away(shares.keySet()).forEach((cell, away) -> {
            UpfCounter c = shares.get(cell);
            out.put(cell, BackendUsageLedger.counter(cell, new long[]{c.ingressPkts() + away[0],
                    c.ingressBytes() + away[1], c.egressPkts() + away[2], c.egressBytes() + away[3]}));
        });
        return out;
    }

    /** {@link #withAway(Map)} of counts in primitive arrays, in their order. */
    private CellCounts withAway(CellCounts shares) {
        long[][] away = addsAway ? ledger.away(shares) : null;
        return away == null ? shares : shares.plus(away);
    }

    @Override
    public String toString() {
        return backend.toString();
    }
}
