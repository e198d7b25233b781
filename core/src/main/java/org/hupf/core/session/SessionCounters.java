package org.hupf.core.session;

import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.device.CounterCellReader;
import org.hupf.core.device.Shutdowns;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The sessions' counter cells summed over every device, for {@link SessionManager}: single reads, reads of a
 * session's PDRs, and snapshots that serve a periodic check's reads with one bulk read per device.
 */
final class SessionCounters implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SessionCounters.class);

    /** Prefix of a PDR's counter cell among a session's allocations (see ResourcePool). */
    static final String COUNTER_ALLOCATION = "ctr:";

    private final SessionStore store;
    private final Supplier<Collection<HupfUpfDevice>> devices;
    private final AtomicLong deviceErrors;
    private final ThreadLocal<Map<HupfUpfDevice, Map<Integer, UpfCounter>>> snapshot = new ThreadLocal<>();
    /** Reads the final counts of deleted sessions whose devices did not return them with the removal. */
    private final ExecutorService finalReader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hupf-usage-read");
        t.setDaemon(true);
        return t;
    });

    SessionCounters(SessionStore store, Supplier<Collection<HupfUpfDevice>> devices, AtomicLong deviceErrors) {
        this.store = store;
        this.devices = devices;
        this.deviceErrors = deviceErrors;
    }

    /** See {@link SessionManager#readCounters}. */
    Map<Integer, UpfCounter> read(Collection<Integer> cells) {
        Map<Integer, long[]> sums = new HashMap<>();
        cells.forEach(c -> sums.put(c, new long[4]));
        Map<HupfUpfDevice, Map<Integer, UpfCounter>> taken = snapshot.get();
        for (HupfUpfDevice d : devices.get()) {
            try {
                Map<Integer, UpfCounter> read = taken == null
                        ? CounterCellReader.of(d).readCounterCells(sums.keySet()) : taken.getOrDefault(d, Map.of());
                sums.forEach((cell, sum) -> {
                    UpfCounter c = read.get(cell);
                    if (c != null) {
                        sum[0] += c.ingressPkts();
                        sum[1] += c.ingressBytes();
                        sum[2] += c.egressPkts();
                        sum[3] += c.egressBytes();
                    }
                });
            } catch (UpfProgrammableException e) {
                deviceErrors.incrementAndGet();
                log.warn("reading counters {} from {} failed: {}", sums.keySet(), d, e.getMessage());
            }
        }
        Map<Integer, UpfCounter> out = new HashMap<>();
        sums.forEach((cell, v) -> out.put(cell, UpfCounter.builder().withCellId(cell).setIngress(v[0], v[1])
                .setEgress(v[2], v[3]).build()));
        return out;
    }

    /** See {@link SessionManager#withCounterSnapshot}. */
    <T> T withSnapshot(Supplier<T> work) {
        int cells = highestCell() + 1;
        Map<HupfUpfDevice, Map<Integer, UpfCounter>> taken = new HashMap<>();
        // Read before the work starts: the work may hold locks (the usage reporter's) that PFCP answers need.
        for (HupfUpfDevice d : devices.get()) {
            Map<Integer, UpfCounter> read = new HashMap<>();
            try {
                // The cells sessions use, not every cell of the device (a million in the sw profile).
                for (UpfCounter c : cells == 0 ? List.<UpfCounter>of() : d.readCounters(cells)) {
                    read.put(c.cellId(), c);
                }
            } catch (UpfProgrammableException e) {
                // Reported once; the work sees no usage on that device.
                deviceErrors.incrementAndGet();
                log.warn("bulk counter read from {} failed: {}", d, e.getMessage());
            }
            taken.put(d, read);
        }
        snapshot.set(taken);
        try {
            return work.get();
        } finally {
            snapshot.remove();
        }
    }

    private int highestCell() {
        int max = -1;
        for (PfcpSession s : store.all()) {
            for (Map.Entry<String, Integer> a : s.allocations.entrySet()) {
                if (a.getKey().startsWith(COUNTER_ALLOCATION)) {
                    max = Math.max(max, a.getValue());
                }
            }
        }
        return max;
    }

    /** See {@link SessionManager#sessionCounters}. */
    Map<Integer, UpfCounter> ofSession(long upSeid) {
        Map<Integer, UpfCounter> out = new TreeMap<>();
        PfcpSession s = store.get(upSeid);
        if (s != null) {
            for (Pdr p : s.pdrs.values()) {
                Integer cell = s.allocations.get(COUNTER_ALLOCATION + p.pdrId);
                if (cell != null) {
                    out.put(p.pdrId, read(List.of(cell)).get(cell));
                }
            }
        }
        return out;
    }

    /**
     * A deleted session's final counts: those its devices read once for their whole write (see {@link
     * WriteResult#finalCells}), else one read after the removal, off the caller's thread and before the cells go
     * back to the pool; none when a device did not take the removal.
     */
    CompletableFuture<CellCounts> finalCounts(List<WriteResult> results, PfcpSession s) {
        if (!allOk(results)) {
            return CompletableFuture.completedFuture(CellCounts.NONE);
        }
        int[] cells = cellsOf(s);
        return DeletedSession.fromWrites(results, cells).map(CompletableFuture::completedFuture)
                .orElseGet(() -> CompletableFuture.supplyAsync(() -> {
                    List<Integer> boxed = new ArrayList<>(cells.length);
                    for (int cell : cells) {
                        boxed.add(cell);
                    }
                    return CellCounts.of(read(boxed).values());
                }, finalReader));
    }

    private static boolean allOk(List<WriteResult> results) {
        for (WriteResult r : results) {
            if (!r.ok()) {
                return false;
            }
        }
        return true;
    }

    /** @return a session's counter cells */
    static int[] cellsOf(PfcpSession s) {
        int[] cells = new int[s.allocations.size()];
        int n = 0;
        for (Map.Entry<String, Integer> a : s.allocations.entrySet()) {
            if (a.getKey().startsWith(COUNTER_ALLOCATION)) {
                cells[n++] = a.getValue();
            }
        }
        return n == cells.length ? cells : Arrays.copyOf(cells, n);
    }

    /**
     * The counter cells a change gives a session that it did not hold, set to zero: a cell keeps what it
     * counted for its previous owner until it is written (device counters are never cleared by themselves).
     */
    static List<UpfCounter> resets(PfcpSession old, PfcpSession stored) {
        if (old != null && old.allocations == stored.allocations) {
            return List.of();  // a modification that kept what the session held
        }
        List<UpfCounter> out = new ArrayList<>(2);
        for (Map.Entry<String, Integer> a : stored.allocations.entrySet()) {
            if (a.getKey().startsWith(COUNTER_ALLOCATION) && !heldCell(old, a.getKey(), a.getValue())) {
                out.add(UpfCounter.builder().withCellId(a.getValue()).build());
            }
        }
        return out;
    }

    /** Whether a session held a counter cell: commonly under the same key (the same PDR's), else another's. */
    private static boolean heldCell(PfcpSession old, String key, Integer cell) {
        if (old == null) {
            return false;
        }
        if (cell.equals(old.allocations.get(key))) {
            return true;
        }
        for (Map.Entry<String, Integer> a : old.allocations.entrySet()) {
            if (a.getKey().startsWith(COUNTER_ALLOCATION) && cell.equals(a.getValue())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        Shutdowns.interrupt(finalReader, "hupf-usage-read");
    }
}
