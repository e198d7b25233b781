package org.hupf.core.session;

import org.hupf.core.util.LongMap;
import org.hupf.api.session.PfcpSession;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfInterface;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The deletion of every session of a CP function (restarted, or its association gone), for
 * {@link SessionManager}: its methods are called holding the manager's lock, as its changes are.
 */
final class CpFunctionRelease {

    /** Sessions of a bulk deletion per device batch: bounds one P4Runtime WriteRequest. */
    private static final int BULK_DELETE_CHUNK = 256;

    private final SessionStore store;
    private final SiteRefs held;
    private final ResourcePool pool;
    private final SessionIndex index;
    private final DeviceChanges changes;
    private final Supplier<Set<UpfInterface>> interfaces;
    /** The manager's sessions with a change on its way to the devices ({@link SessionChanges} marks them). */
    final LongMap<Boolean> changing = new LongMap<>();
    /** Sessions of a deleted CP function that had a change on its way: released when it settles. */
    private final Set<Long> releaseAfterChange = new HashSet<>();
    private final AtomicInteger inProgress = new AtomicInteger();

    CpFunctionRelease(SessionStore store, SiteRefs held, ResourcePool pool, SessionIndex index,
                      DeviceChanges changes, Supplier<Set<UpfInterface>> interfaces) {
        this.store = store;
        this.held = held;
        this.pool = pool;
        this.index = index;
        this.changes = changes;
        this.interfaces = interfaces;
    }

    /** @see SessionManager#deleteByNodeAsync */
    CompletableFuture<Integer> releaseAll(String nodeId) {
        List<PfcpSession> doomed = new ArrayList<>();
        for (PfcpSession s : store.all()) {
            if (!s.nodeId.equals(nodeId)) {
                continue;
            }
            if (changing.containsKey(s.upSeid)) {
                releaseAfterChange.add(s.upSeid);
            } else {
                doomed.add(s);
            }
        }
        inProgress.incrementAndGet();
        return release(doomed).whenComplete((n, e) -> inProgress.decrementAndGet());
    }

    /** @return bulk deletions whose device removals are still running */
    int inProgress() {
        return inProgress.get();
    }

    /** Releases a session {@link #releaseAll} found with a change on its way, now that it settled. */
    void releaseIfOrphaned(PfcpSession s) {
        if (releaseAfterChange.remove(s.upSeid) && store.get(s.upSeid) != null) {
            release(List.of(s));
        }
    }

    /** Takes sessions out of the store and every index at once; queues their removals, a chunk per batch. */
    private CompletableFuture<Integer> release(List<PfcpSession> doomed) {
        List<Long> seids = new ArrayList<>(doomed.size());
        doomed.forEach(s -> seids.add(s.upSeid));
        store.removeAll(seids);
        List<CompletableFuture<List<WriteResult>>> writes = new ArrayList<>();
        for (int from = 0; from < doomed.size(); from += BULK_DELETE_CHUNK) {
            Map<String, Set<UpfEntity>> previous = new HashMap<>();
            for (PfcpSession s : doomed.subList(from, Math.min(doomed.size(), from + BULK_DELETE_CHUNK))) {
                String site = held.siteOf(s.upSeid);
                if (site != null) {
                    previous.computeIfAbsent(site, x -> new HashSet<>()).addAll(held.of(s.upSeid));
                    held.track(s.upSeid, site, Set.of());
                }
                pool.releaseAll(s.allocations);
                index.remove(s);
            }
            previous.forEach((site, entities) ->
                    writes.add(changes.program(site, Set.of(), entities, List.of(), interfaces.get())));
        }
        return CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).thenApply(x -> {
            writes.forEach(w -> changes.countFailures(w.join()));
            return doomed.size();
        });
    }
}
