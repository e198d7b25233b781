package org.hupf.app.store;

import org.hupf.api.session.PfcpSession;
import org.hupf.core.device.WriterBurst;
import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.AsyncConsistentMultimap;
import org.onosproject.store.service.DistributedPrimitive;
import org.onosproject.store.service.MultimapEvent;
import org.onosproject.store.service.MultimapEventListener;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageException;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Sessions in an ONOS ConsistentMultimap (Raft-replicated), so they survive the loss of a cluster node and an app
 * restart. A UP SEID holds one {@link StoreEntry}, a binary value: the session's record and the response to the
 * request that made the change, so that one commit carries both and a new leader answers a retransmission with the
 * bytes its predecessor sent. A deletion's response stays in a tombstone entry until it leaves the retransmission
 * window. Reads come from a local decoded copy that the multimap's events keep current (also for writes by other
 * nodes).
 *
 * <p>Writes are gathered into batches ({@link EntryBatches}): a burst of the device writer's settlements reaches
 * Atomix as one put of every new value and one removal of every value replaced (one Raft operation each per
 * partition), not one operation per session. A change puts its value (one revision above the SEID's) before the
 * value it replaces is removed: a SEID always holds its last committed value, and an event of a value older than
 * the one this node knows is its own write coming back (or stale): it is not decoded. A loaded multimap that holds two
 * values of a SEID (a node stopped between the two operations) is read at the higher revision, the other removed.
 *
 * <p>The removals of many sessions at once (a CP function's, every session) are recorded in {@link SessionRemovals}
 * while they run: {@link #finishInterruptedRemovals} finishes those a node that stopped or was lost left behind.
 */
public final class DistributedSessionStore implements SessionStore {

    static final String MAP_NAME = "hupf-session-entries";
    private static final Logger log = LoggerFactory.getLogger(DistributedSessionStore.class);

    private final AsyncConsistentMultimap<Long, byte[]> entries;
    private final EntryBatches batches;
    /** The entry each SEID holds, as this node knows it: sessions and tombstones. */
    private final Map<Long, StoreEntry> current = new ConcurrentHashMap<>();
    private final Map<Long, PfcpSession> local = new ConcurrentHashMap<>();
    /** The UP SEIDs whose entry is a tombstone (the pruning looks at these only). */
    private final Set<Long> tombstones = ConcurrentHashMap.newKeySet();
    /** The revisions of entries this node removed whose removal's event has not come yet, by SEID. */
    private final Map<Long, Long> removedAt = new ConcurrentHashMap<>();
    private final MultimapEventListener<Long, byte[]> listener = this::onEvent;
    private final Consumer<DistributedPrimitive.Status> statusListener = this::onStatus;
    private final SessionRemovals removals;

    /**
     * Opens (or joins) the session multimap.
     *
     * @param storage ONOS storage service
     */
    public DistributedSessionStore(StorageService storage) {
        this(storage, WriterBurst::atEnd);
    }

    /**
     * @param storage    ONOS storage service
     * @param atBurstEnd runs what it is given at the end of the burst being completed (at once outside one): a
     *                   batch's sending
     */
    DistributedSessionStore(StorageService storage, Consumer<Runnable> atBurstEnd) {
        this.entries = storage.<Long, byte[]>consistentMultimapBuilder().withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespace.newBuilder()
                        .register(Long.class, byte[].class).build(MAP_NAME))).buildMultimap();
        this.batches = new EntryBatches(entries, atBurstEnd);
        await(entries.addListener(listener));
        entries.addStatusChangeListener(statusListener);
        load();
        removals = new SessionRemovals(storage);
    }

    /** Takes what the multimap holds: each SEID's latest value; the older ones a stopped node left are removed. */
    private void load() {
        Map<Long, StoreEntry> latest = new HashMap<>();
        Map<Long, List<byte[]>> older = new HashMap<>();
        for (Map.Entry<Long, byte[]> e : await(entries.entries())) {
            StoreEntry entry = StoreEntry.decode(e.getValue());
            StoreEntry had = latest.get(e.getKey());
            if (had != null && had.revision > entry.revision) {
                older.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(entry.bytes);
                continue;
            }
            if (had != null) {
                older.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(had.bytes);
            }
            latest.put(e.getKey(), entry);
        }
        latest.forEach(this::take);
        older.forEach((upSeid, stale) -> batches.write(upSeid, null, stale));
        batches.flush();
    }

    private static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(DistributedPrimitive.DEFAULT_OPERATION_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException.Interrupted();
        } catch (TimeoutException e) {
            throw new StorageException.Timeout();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
                    : new StorageException(e.getCause());
        }
    }

    private static void join(CompletableFuture<Void> committed) {
        try {
            committed.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
        }
    }

    /** Takes an entry into the local copy. */
    private void take(long upSeid, StoreEntry entry) {
        current.put(upSeid, entry);
        if (entry.session == null) {
            tombstones.add(upSeid);
            local.remove(upSeid);
        } else {
            local.put(upSeid, entry.session);
            tombstones.remove(upSeid);
        }
    }

    /** Forgets a SEID's entry locally: @return the entry it held, or null */
    private StoreEntry forget(long upSeid) {
        local.remove(upSeid);
        tombstones.remove(upSeid);
        return current.remove(upSeid);
    }

    private void onEvent(MultimapEvent<Long, byte[]> e) {
        long upSeid = e.key();
        if (e.type() == MultimapEvent.Type.INSERT) {
            long revision = StoreEntry.revisionOf(e.newValue());
            StoreEntry known = current.get(upSeid);
            Long removed = removedAt.get(upSeid);
            if (known != null ? known.revision >= revision : removed != null && removed >= revision) {
                return; // this node's own write, or one it already replaced or removed
            }
            removedAt.remove(upSeid);
            take(upSeid, StoreEntry.decode(e.newValue()));
        } else {
            long revision = StoreEntry.revisionOf(e.oldValue());
            StoreEntry known = current.get(upSeid);
            if (known != null && known.revision == revision) {
                forget(upSeid); // another node removed it
            } else if (known == null) {
                removedAt.remove(upSeid, revision);
            }
        }
    }

    /** The multimap's partition lost or regained its session: removals' events noted until now may never come. */
    private void onStatus(DistributedPrimitive.Status status) {
        removedAt.clear();
    }

    /** @return how many of this node's removals wait for their event */
    int unechoedRemovals() {
        return removedAt.size();
    }

    /** Writes a SEID's next entry: its value put, the one it replaces removed, in this burst's batch. */
    private CompletableFuture<Void> write(long upSeid, PfcpSession session, KeptResponse response) {
        StoreEntry old = current.get(upSeid);
        Long removed = removedAt.get(upSeid);
        long revision = 1 + (old != null ? old.revision : removed != null ? removed : 0);
        removedAt.remove(upSeid);
        StoreEntry entry = StoreEntry.of(revision, session, response);
        take(upSeid, entry);
        return batches.write(upSeid, entry.bytes, old == null ? null : List.of(old.bytes));
    }

    /** Removes a SEID's entry, in this burst's batch; what this node does not know the multimap holds goes too. */
    private CompletableFuture<Void> removeEntry(long upSeid) {
        StoreEntry old = forget(upSeid);
        if (old != null) {
            removedAt.put(upSeid, old.revision);
            return batches.write(upSeid, null, List.of(old.bytes));
        }
        return entries.removeAll(upSeid).thenApply(v -> null);
    }

    /**
     * Empties the multimap for every node, sessions, tombstones and kept responses alike, recorded while it runs.
     *
     * @return the sessions it held
     */
    public int clear() {
        String key = removals.beginEverySession();
        int n = clearEntries();
        removals.end(key);
        return n;
    }

    private int clearEntries() {
        int n = local.size();
        batches.flush();
        await(entries.clear());
        current.clear();
        local.clear();
        tombstones.clear();
        removedAt.clear();
        return n;
    }

    /** Removes a CP function's sessions together, the removal recorded while it runs: in one batch. */
    @Override
    public void removeAll(Collection<Long> upSeids) {
        Map<Long, String> nodeOf = new HashMap<>();
        for (Long upSeid : upSeids) {
            PfcpSession s = local.get(upSeid);
            if (s != null) {
                nodeOf.put(upSeid, s.nodeId);
            }
        }
        String key = removals.begin(nodeOf);
        removeEntries(upSeids);
        removals.end(key);
    }

    private void removeEntries(Collection<Long> upSeids) {
        List<CompletableFuture<Void>> removed = new ArrayList<>(upSeids.size());
        for (Long upSeid : upSeids) {
            removed.add(removeEntry(upSeid));
        }
        batches.flush();
        // Every removal settles before a failure is told: what the multimap holds afterwards does not change under it.
        RuntimeException failed = null;
        for (CompletableFuture<Void> r : removed) {
            try {
                join(r);
            } catch (RuntimeException e) {
                failed = failed == null ? e : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Finishes the removals of many sessions that a node which stopped, or was lost, left under way: for the node
     * that starts leading hupf, before it serves PFCP (their device entries go with the reconciliation that
     * follows: the store no longer holds them).
     *
     * @return the sessions removed
     */
    public int finishInterruptedRemovals() {
        Map<String, Map<Long, String>> pending = removals.pending();
        int removed = 0;
        for (Map.Entry<String, Map<Long, String>> r : pending.entrySet()) {
            if (r.getKey().equals(SessionRemovals.EVERY_SESSION)) {
                removed += clearEntries();
            } else {
                List<Long> doomed = new ArrayList<>();
                r.getValue().forEach((upSeid, node) -> {
                    if (node.equals(storedNodeId(upSeid))) {
                        doomed.add(upSeid);
                    }
                });
                removeEntries(doomed);
                removed += doomed.size();
            }
            removals.end(r.getKey());
        }
        if (!pending.isEmpty()) {
            log.warn("Finished {} session removals a stopped node left under way: {} sessions of released "
                             + "associations or of a deactivated hupf left the store", pending.size(), removed);
        }
        return removed;
    }

    /**
     * @return the Node ID of the session the multimap holds under a SEID, null if none: from the local copy, else
     *         (this node cut the removal off itself, its copy already gone) from the multimap
     */
    private String storedNodeId(long upSeid) {
        PfcpSession s = local.get(upSeid);
        if (s != null) {
            return s.nodeId;
        }
        PfcpSession stored = latestSession(await(entries.get(upSeid)));
        return stored == null ? null : stored.nodeId;
    }

    /** @return the session of a SEID's latest value among those given (none: null) */
    private static PfcpSession latestSession(Versioned<Collection<? extends byte[]>> values) {
        if (values == null) {
            return null;
        }
        return values.value().stream().map(StoreEntry::decode).max(Comparator.comparingLong(e -> e.revision))
                .map(e -> e.session).orElse(null);
    }

    /**
     * Stops following the multimap (the app is going away): takes no more writes and commits those already taken,
     * for at most {@value EntryBatches#CLOSE_WAIT_MS} ms in all.
     */
    public void close() {
        int stuck = batches.close();
        if (stuck > 0) {
            log.error("{} of the session store's batches still not committed {} ms after hupf began stopping",
                      stuck, EntryBatches.CLOSE_WAIT_MS);
        }
        entries.removeListener(listener);
        entries.removeStatusChangeListener(statusListener);
    }

    @Override
    public PfcpSession get(long upSeid) {
        return local.get(upSeid);
    }

    @Override
    public int size() {
        return local.size();
    }

    @Override
    public void put(PfcpSession session) {
        put(session, null);
    }

    @Override
    public void put(PfcpSession session, KeptResponse response) {
        CompletableFuture<Void> committed = putCommitted(session, response);
        batches.flush();
        join(committed);
    }

    @Override
    public CompletableFuture<Void> putCommitted(PfcpSession session, KeptResponse response) {
        return write(session.upSeid, session, response);
    }

    @Override
    public PfcpSession remove(long upSeid) {
        PfcpSession s = local.get(upSeid);
        if (s != null || current.containsKey(upSeid)) {
            CompletableFuture<Void> removed = removeEntry(upSeid);
            batches.flush();
            join(removed);
            return s;
        }
        return latestSession(await(entries.removeAll(upSeid)));
    }

    @Override
    public PfcpSession remove(long upSeid, KeptResponse response) {
        PfcpSession s = local.get(upSeid);
        CompletableFuture<Void> removed = removeCommitted(upSeid, response);
        batches.flush();
        join(removed);
        return s;
    }

    @Override
    public CompletableFuture<Void> removeCommitted(long upSeid, KeptResponse response) {
        return response == null ? removeEntry(upSeid) : write(upSeid, null, response);
    }

    @Override
    public List<KeptResponse> keptResponses() {
        return current.values().stream().map(e -> e.response).filter(r -> r != null)
                .sorted(Comparator.comparingLong(r -> r.atMillis)).collect(Collectors.toList());
    }

    /** Removes the tombstones out of the window; a live session's entry keeps its last response (the count is
     *  bounded by the sessions and the deletions of one window). */
    @Override
    public void pruneResponses(long beforeMillis, int maxKept) {
        List<CompletableFuture<Void>> pruned = new ArrayList<>();
        for (Long upSeid : List.copyOf(tombstones)) {
            StoreEntry e = current.get(upSeid);
            if (e != null && e.session == null && (e.response == null || e.response.atMillis < beforeMillis)) {
                pruned.add(removeEntry(upSeid));
            }
        }
        batches.flush();
        pruned.forEach(DistributedSessionStore::join);
    }

    @Override
    public Collection<PfcpSession> all() {
        return new ArrayList<>(local.values());
    }
}
