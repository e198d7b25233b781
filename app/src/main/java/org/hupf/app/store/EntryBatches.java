package org.hupf.app.store;

import org.hupf.core.device.WriterBurst;
import org.onosproject.store.service.AsyncConsistentMultimap;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The session store's writes, gathered into batches: a batch's new values reach the multimap as one {@code putAll}
 * and the values they replace or remove as one {@code removeAll} (Atomix makes each one Raft operation per
 * partition they touch), both sent together, the puts first. A write made while the device writer completes a
 * burst joins that burst's batch, sent at the burst's end ({@link WriterBurst#atEnd}); one made anywhere else is
 * sent at once.
 *
 * <p>Order: a partition's Raft session applies its operations in the order they were sent, so a SEID's values change
 * in the order of its writes; a new value is put before the one it replaces is removed, so that a SEID always holds
 * its latest committed value (for a moment both: the reader takes the higher revision). A write's future completes
 * once its batch committed, on the store's own thread (what follows, an answer, does not run on Atomix's).
 */
final class EntryBatches {

    /** How long closing waits for the batches sent (each bounded by ONOS's storage timeout), in all. */
    static final long CLOSE_WAIT_MS = 30_000;

    private final AsyncConsistentMultimap<Long, byte[]> entries;
    private final ExecutorService completer =
            Executors.newSingleThreadExecutor(r -> new Thread(r, "hupf-store-commit"));
    private final Consumer<Runnable> atBurstEnd;
    private final Runnable flush = this::flush;
    private final Set<CompletableFuture<Void>> sent = ConcurrentHashMap.newKeySet();
    private Map<Long, Collection<? extends byte[]>> puts = new HashMap<>();
    private Map<Long, Collection<? extends byte[]>> removes = new HashMap<>();
    private List<CompletableFuture<Void>> waiting = new ArrayList<>();
    private boolean closed;

    /**
     * @param entries    the session multimap
     * @param atBurstEnd runs a batch's sending at the end of the device writer's burst being completed, at once
     *                   outside one ({@link WriterBurst#atEnd})
     */
    EntryBatches(AsyncConsistentMultimap<Long, byte[]> entries, Consumer<Runnable> atBurstEnd) {
        this.entries = entries;
        this.atBurstEnd = atBurstEnd;
    }

    /**
     * Adds a write to the batch being gathered: a value to put, the value(s) it replaces or that go, either may be
     * absent.
     *
     * @return completes once the batch committed
     */
    CompletableFuture<Void> write(long upSeid, byte[] put, Collection<byte[]> remove) {
        CompletableFuture<Void> committed = new CompletableFuture<>();
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("hupf's session store is closed: hupf is stopping on this node");
            }
            if (put != null) {
                add(puts, upSeid, List.of(put));
            }
            if (remove != null && !remove.isEmpty()) {
                add(removes, upSeid, remove);
            }
            waiting.add(committed);
        }
        atBurstEnd.accept(flush);
        return committed;
    }

    private static void add(Map<Long, Collection<? extends byte[]>> batch, long upSeid,
                            Collection<? extends byte[]> values) {
        Collection<? extends byte[]> had = batch.get(upSeid);
        if (had == null) {
            batch.put(upSeid, values);
        } else {
            List<byte[]> both = new ArrayList<>(had);
            both.addAll(values);
            batch.put(upSeid, both);
        }
    }

    /** Sends the batch gathered so far (a write whose caller waits for it sends it at once). */
    void flush() {
        Map<Long, Collection<? extends byte[]>> p;
        Map<Long, Collection<? extends byte[]>> r;
        List<CompletableFuture<Void>> w;
        synchronized (this) {
            if (waiting.isEmpty()) {
                return;
            }
            p = puts;
            r = removes;
            w = waiting;
            puts = new HashMap<>();
            removes = new HashMap<>();
            waiting = new ArrayList<>();
        }
        CompletableFuture<Void> batch = send(p, r);
        sent.add(batch);
        batch.whenComplete((x, failure) -> {
            sent.remove(batch);
            try {
                completer.execute(() -> settle(w, failure));
            } catch (RejectedExecutionException e) {
                settle(w, failure); // closing: settled where the commit came
            }
        });
    }

    /** Sends a batch's puts, then its removals, without waiting between. */
    private CompletableFuture<Void> send(Map<Long, Collection<? extends byte[]>> p,
                                         Map<Long, Collection<? extends byte[]>> r) {
        try {
            return CompletableFuture.allOf(p.isEmpty() ? CompletableFuture.completedFuture(null) : entries.putAll(p),
                                           r.isEmpty() ? CompletableFuture.completedFuture(null)
                                                   : entries.removeAll(r));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static void settle(List<CompletableFuture<Void>> writes, Throwable failure) {
        for (CompletableFuture<Void> c : writes) {
            if (failure == null) {
                c.complete(null);
            } else {
                c.completeExceptionally(failure);
            }
        }
    }

    /**
     * Takes no more writes, sends those gathered and waits for the batches sent, for at most {@value #CLOSE_WAIT_MS}
     * ms in all.
     *
     * @return how many batches were still not committed then
     */
    int close() {
        synchronized (this) {
            closed = true;
        }
        flush();
        long deadline = System.currentTimeMillis() + CLOSE_WAIT_MS;
        int stuck = 0;
        for (CompletableFuture<Void> b : List.copyOf(sent)) {
            try {
                b.get(Math.max(0, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stuck++;
            } catch (ExecutionException e) {
                continue; // failed: its writers are told
            } catch (TimeoutException e) {
                stuck++;
            }
        }
        completer.shutdown();
        return stuck;
    }
}
