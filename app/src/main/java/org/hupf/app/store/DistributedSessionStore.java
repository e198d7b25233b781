package org.hupf.app.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionJson;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.DistributedPrimitive;
import org.onosproject.store.service.MapEvent;
import org.onosproject.store.service.MapEventListener;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Sessions in an ONOS ConsistentMap (Raft-replicated), so they survive the loss of a cluster node and an
 * app restart. Values are the sessions' JSON form, so the serializer needs only Long and String. Reads
 * come from a local decoded copy that map events keep current (also for writes by other nodes).
 *
 * <p>The response to the request that changed a session rides in the session's own entry (field
 * {@value #KEPT}), so that one map write, one Raft commit, carries both: a new leader answers a
 * retransmission with the bytes its predecessor sent. A deletion's response stays in an entry of the
 * session's SEID that holds nothing else (a tombstone) until it leaves the retransmission window. A
 * session's entry keeps the response of its last change (an entry is not written again to drop it).
 *
 * <p>Each write is a Raft commit, a round trip: writes run on {@value #COMMITTERS} threads, a session's always on
 * the same one (its changes commit in order), so that the commits of a burst of sessions are under way together
 * and the caller is not held for each ({@link #putCommitted}, {@link #removeCommitted}).
 *
 * <p>The map's event for this node's own write carries the entry it wrote: the local copies take the record
 * kept with the write instead of decoding its JSON again. Events come in commit order, so the copies end as the
 * last event says whoever wrote it. A write whose event never comes is forgotten with the writes before the
 * next event of its session, its entry's removal, the map's clearing, or a change of the map's status (its Raft
 * partition's session suspended or lost: events may have been missed); one that failed, at once.
 *
 * <p>The removals of many sessions at once (a CP function's, every session) are recorded in {@link SessionRemovals}
 * while they run: {@link #finishInterruptedRemovals} finishes those a node that stopped or was lost left behind.
 */
public final class DistributedSessionStore implements SessionStore {

    static final String MAP_NAME = "hupf-sessions";
    private static final String KEPT = "keptResponse";
    private static final String TOMBSTONE = "deleted";
    private static final Logger log = LoggerFactory.getLogger(DistributedSessionStore.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Threads committing writes: about the PFCP client's requests in flight that one Raft partition takes well. */
    static final int COMMITTERS = 8;
    /** How long closing waits for the writes taken (each bounded by ONOS's storage timeout), in all. */
    private static final long CLOSE_WAIT_MS = 30_000;

    private final ConsistentMap<Long, String> map;
    private final Map<Long, PfcpSession> local = new ConcurrentHashMap<>();
    /** The responses in the map's entries, by UP SEID. */
    private final Map<Long, KeptResponse> responses = new ConcurrentHashMap<>();
    /** The UP SEIDs whose entry holds a deletion's response only. */
    private final Set<Long> tombstones = ConcurrentHashMap.newKeySet();
    private final MapEventListener<Long, String> listener = this::onEvent;
    private final Consumer<DistributedPrimitive.Status> statusListener = this::onStatus;
    private final ExecutorService[] committers = new ExecutorService[COMMITTERS];
    /** This node's entry writes whose map event has not come yet, by UP SEID, in commit order. */
    private final Map<Long, Deque<Written>> unechoed = new ConcurrentHashMap<>();
    private final SessionRemovals removals;

    /** An entry this node wrote and what it holds: a session (none in a tombstone) and a response. */
    private static final class Written {
        final String entry;
        final PfcpSession session;
        final KeptResponse response;

        Written(String entry, PfcpSession session, KeptResponse response) {
            this.entry = entry;
            this.session = session;
            this.response = response;
        }
    }

    /**
     * Opens (or joins) the session map.
     *
     * @param storage ONOS storage service
     */
    public DistributedSessionStore(StorageService storage) {
        this.map = storage.<Long, String>consistentMapBuilder().withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespace.newBuilder()
                        .register(Long.class, String.class).build(MAP_NAME))).build();
        map.addListener(listener);
        map.addStatusChangeListener(statusListener);
        map.entrySet().forEach(e -> follow(e.getKey(), e.getValue().value()));
        removals = new SessionRemovals(storage);
        for (int i = 0; i < COMMITTERS; i++) {
            String name = "hupf-store-commit-" + i;
            committers[i] = Executors.newSingleThreadExecutor(r -> new Thread(r, name));
        }
    }

    /** A write of a session's entry on its committer: failed, not forgotten, if the committer stops first. */
    private static final class Commit implements Runnable {
        final Runnable write;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Commit(Runnable write) {
            this.write = write;
        }

        @Override
        public void run() {
            try {
                write.run();
                done.complete(null);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        }
    }

    /** Runs a write of a session's entry on that session's committer. */
    private CompletableFuture<Void> commit(long upSeid, Runnable write) {
        Commit c = new Commit(write);
        try {
            committers[Math.floorMod(Long.hashCode(upSeid), COMMITTERS)].execute(c);
        } catch (RejectedExecutionException e) {
            // Its committers stopped: the store was closed (the executor's own exception says less).
            throw new IllegalStateException("hupf's session store is closed: hupf is stopping on this node");
        }
        return c.done;
    }

    private static void join(CompletableFuture<Void> committed) {
        try {
            committed.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
        }
    }

    private static JsonNode tree(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt stored session", e);
        }
    }

    /** Takes an entry's JSON into the local copies. */
    private void follow(long upSeid, String json) {
        JsonNode n = tree(json);
        JsonNode kept = n.get(KEPT);
        KeptResponse response = kept == null ? null
                : new KeptResponse(kept.get("key").asText(), Base64.getDecoder().decode(kept.get("bytes").asText()),
                                   kept.get("atMillis").asLong());
        take(upSeid, n.path(TOMBSTONE).asBoolean() ? null : SessionJson.decode(n), response);
    }

    /** Takes an entry into the local copies: its session (null: a tombstone) and its response (or none). */
    private void take(long upSeid, PfcpSession session, KeptResponse response) {
        if (response == null) {
            responses.remove(upSeid);
        } else {
            responses.put(upSeid, response);
        }
        if (session == null) {
            tombstones.add(upSeid);
            local.remove(upSeid);
        } else {
            tombstones.remove(upSeid);
            local.put(upSeid, session);
        }
    }

    /** Writes an entry on its session's committer, noting it first so that its event is known as this node's. */
    private CompletableFuture<Void> write(long upSeid, Written w) {
        return commit(upSeid, () -> {
            unechoed.computeIfAbsent(upSeid, k -> new ConcurrentLinkedDeque<>()).add(w);
            try {
                map.put(upSeid, w.entry);
            } catch (RuntimeException | Error e) {
                unechoed.computeIfPresent(upSeid, (k, q) -> q.remove(w) && q.isEmpty() ? null : q);
                throw e;
            }
        });
    }

    /**
     * This node's write whose event this is, and the writes noted before it (they never committed), forgotten;
     * null for another node's write.
     */
    private Written echoOf(long upSeid, String entry) {
        Written[] own = new Written[1];
        unechoed.computeIfPresent(upSeid, (k, q) -> {
            if (q.stream().noneMatch(w -> w.entry.equals(entry))) {
                return q;
            }
            do {
                own[0] = q.poll();
            } while (!own[0].entry.equals(entry));
            return q.isEmpty() ? null : q;
        });
        return own[0];
    }

    private static String withResponse(ObjectNode entry, KeptResponse r) {
        entry.putObject(KEPT).put("key", r.key()).put("bytes", Base64.getEncoder().encodeToString(r.bytes))
                .put("atMillis", r.atMillis);
        return entry.toString();
    }

    private void onEvent(MapEvent<Long, String> e) {
        if (e.type() == MapEvent.Type.REMOVE) {
            // The writes noted before the removal will not come back; one noted after it is decoded when it does.
            unechoed.remove(e.key());
            local.remove(e.key());
            responses.remove(e.key());
            tombstones.remove(e.key());
        } else if (e.newValue() != null) {
            Written own = echoOf(e.key(), e.newValue().value());
            if (own == null) {
                follow(e.key(), e.newValue().value());
            } else {
                take(e.key(), own.session, own.response);
            }
        }
    }

    /** The map's partition lost or regained its session: the events of writes noted until now may never come. */
    private void onStatus(DistributedPrimitive.Status status) {
        unechoed.clear();
    }

    /** @return how many of this node's writes wait for their event */
    int unechoedWrites() {
        return unechoed.values().stream().mapToInt(Deque::size).sum();
    }

    /**
     * Empties the map for every node, sessions, tombstones and kept responses alike, recorded while it runs.
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
        map.clear();
        unechoed.clear();
        local.clear();
        responses.clear();
        tombstones.clear();
        return n;
    }

    /**
     * Removes a CP function's sessions together, the removal recorded while it runs: their entries' commits are
     * under way at once, each on its session's committer (after the session's writes before it).
     */
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
            responses.remove(upSeid);
            tombstones.remove(upSeid);
            local.remove(upSeid);
            removed.add(commit(upSeid, () -> map.remove(upSeid)));
        }
        // Every commit settles before a failure is told: what the map holds afterwards does not change under it.
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
     * @return the Node ID of the session the map holds under a SEID, null if none: from the local copy, else (this
     *         node cut the removal off itself, its copy already gone) from the map's entry
     */
    private String storedNodeId(long upSeid) {
        PfcpSession s = local.get(upSeid);
        if (s != null) {
            return s.nodeId;
        }
        Versioned<String> entry = map.get(upSeid);
        return entry == null ? null : tree(entry.value()).path("nodeId").asText(null);
    }

    /**
     * Stops following the map (the app is going away): takes no more writes and commits those already taken, for
     * at most {@value #CLOSE_WAIT_MS} ms in all; the writes still queued then fail (a removal they carried stays
     * recorded, for the next leader to finish).
     */
    public void close() {
        for (ExecutorService c : committers) {
            c.shutdown();
        }
        long deadline = System.currentTimeMillis() + CLOSE_WAIT_MS;
        int dropped = 0;
        int stuck = 0;
        for (ExecutorService c : committers) {
            try {
                if (c.awaitTermination(Math.max(0, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS)) {
                    continue;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stuck++;
            for (Runnable r : c.shutdownNow()) {
                dropped++;
                ((Commit) r).done.completeExceptionally(new IllegalStateException("not committed: hupf stopped"));
            }
        }
        if (stuck > 0) {
            log.error("{} of the session store's {} committers still writing {} ms after hupf began stopping: "
                              + "interrupted, {} writes not committed", stuck, COMMITTERS, CLOSE_WAIT_MS,
                      dropped);
        }
        map.removeListener(listener);
        map.removeStatusChangeListener(statusListener);
    }

    @Override
    public PfcpSession get(long upSeid) {
        return local.get(upSeid);
    }

    @Override
    public void put(PfcpSession session) {
        join(putCommitted(session, null));
    }

    @Override
    public void put(PfcpSession session, KeptResponse response) {
        join(putCommitted(session, response));
    }

    @Override
    public CompletableFuture<Void> putCommitted(PfcpSession session, KeptResponse response) {
        String entry = response == null ? SessionJson.encode(session).toString()
                : withResponse(SessionJson.encode(session), response);
        local.put(session.upSeid, session);
        if (response != null) {
            responses.put(session.upSeid, response);
            tombstones.remove(session.upSeid);
        }
        return write(session.upSeid, new Written(entry, session, response));
    }

    @Override
    public PfcpSession remove(long upSeid) {
        PfcpSession s = local.get(upSeid);
        AtomicReference<Versioned<String>> removed = new AtomicReference<>();
        responses.remove(upSeid);
        tombstones.remove(upSeid);
        local.remove(upSeid);
        join(commit(upSeid, () -> removed.set(map.remove(upSeid))));
        Versioned<String> v = removed.get();
        return s != null || v == null || tree(v.value()).path(TOMBSTONE).asBoolean() ? s
                : SessionJson.decode(tree(v.value()));
    }

    @Override
    public PfcpSession remove(long upSeid, KeptResponse response) {
        PfcpSession s = local.get(upSeid);
        join(removeCommitted(upSeid, response));
        return s;
    }

    @Override
    public CompletableFuture<Void> removeCommitted(long upSeid, KeptResponse response) {
        if (response == null) {
            responses.remove(upSeid);
            tombstones.remove(upSeid);
            local.remove(upSeid);
            return commit(upSeid, () -> map.remove(upSeid));
        }
        String tombstone = withResponse(MAPPER.createObjectNode().put(TOMBSTONE, true), response);
        responses.put(upSeid, response);
        tombstones.add(upSeid);
        local.remove(upSeid);
        return write(upSeid, new Written(tombstone, null, response));
    }

    @Override
    public List<KeptResponse> keptResponses() {
        return responses.values().stream().sorted(Comparator.comparingLong(r -> r.atMillis))
                .collect(Collectors.toList());
    }

    /** Removes the tombstones out of the window; a live session's entry keeps its last response (the count is
     *  bounded by the sessions and the deletions of one window). */
    @Override
    public void pruneResponses(long beforeMillis, int maxKept) {
        List<CompletableFuture<Void>> pruned = new ArrayList<>();
        for (Long upSeid : List.copyOf(tombstones)) {
            KeptResponse r = responses.get(upSeid);
            if (r == null || r.atMillis < beforeMillis) {
                pruned.add(commit(upSeid, () -> map.remove(upSeid)));
                responses.remove(upSeid);
                tombstones.remove(upSeid);
            }
        }
        pruned.forEach(DistributedSessionStore::join);
    }

    @Override
    public Collection<PfcpSession> all() {
        return new ArrayList<>(local.values());
    }
}
