package org.hupf.app.offload;

import org.hupf.app.device.BatchDevices;
import org.hupf.app.device.BatchUpfDevice;
import org.hupf.app.device.CounterCellReader;
import org.hupf.app.device.DeviceUpdate;
import org.hupf.app.device.WriteResult;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
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
        if (cells.isEmpty()) {
            return BatchDevices.of(backend).write(updates);
        }
        ledger.writing(key, cells);
        CompletableFuture<WriteResult> result;
        try {
            result = BatchDevices.of(backend).write(updates);
        } catch (RuntimeException e) {
            ledger.written(key, cells);
            throw e;
        }
        return result.whenComplete((r, e) -> ledger.written(key, cells));
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

    @Override
    public String toString() {
        return backend.toString();
    }
}
