package org.hupf.core.session;

import org.hupf.core.util.LongMap;
import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.core.device.WriterBurst;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfInterface;

import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A session's change as a pipeline, for {@link SessionManager}: its checks, allocations and reference counts are
 * settled holding the manager's lock (its callers hold it), its device updates are queued as one batch, and the
 * store takes the session once every device acknowledged, back under the lock (which the device writer holds
 * already for a whole write's settlements; what follows a settlement, the answer, runs once it let it go). A batch a device refuses, even in
 * part, is undone: reference counts, indexes and allocations go back, the updates that landed are reverted, the
 * store is unchanged and the future fails with the cause to answer.
 */
final class SessionChanges {

    private final Object lock;
    private final SessionStore store;
    private final SessionTranslator translator;
    private final ResourcePool pool;
    private final SessionIndex index;
    private final SiteRefs held;
    private final SessionSites sites;
    private final DeviceChanges changes;
    private final SessionCounters counters;
    private final CpFunctionRelease cpRelease;
    private final Supplier<Set<UpfInterface>> interfaces;
    /** Sessions with a change on its way to the devices: a second change waits for the first's answer. */
    private final LongMap<Boolean> changing;
    /** UP SEIDs are drawn at random: an off-path sender cannot find the sessions by counting from 1. */
    private final SecureRandom seids = new SecureRandom();

    SessionChanges(Object lock, SessionStore store, SessionTranslator translator, ResourcePool pool,
                   SessionIndex index, SiteRefs held, SessionSites sites, DeviceChanges changes,
                   SessionCounters counters,
                   CpFunctionRelease cpRelease, Supplier<Set<UpfInterface>> interfaces) {
        this.lock = lock;
        this.store = store;
        this.translator = translator;
        this.pool = pool;
        this.index = index;
        this.held = held;
        this.sites = sites;
        this.changes = changes;
        this.counters = counters;
        this.cpRelease = cpRelease;
        this.interfaces = interfaces;
        this.changing = cpRelease.changing;
    }

    /** @see SessionManager#establishAsync(PfcpSession, Function) */
    CompletableFuture<PfcpSession> establish(PfcpSession draft, Function<PfcpSession, KeptResponse> response) {
        PfcpSession s = new PfcpSession(newSeid(), draft.cpSeid, draft.cpAddress, draft.nodeId, draft.pdrs, draft.fars,
                                        draft.qers, draft.urrs, Map.of());
        try {
            return install(s, null, response);
        } catch (RuleException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** @see SessionManager#modifyAsync(PfcpSession, Function) */
    CompletableFuture<PfcpSession> modify(PfcpSession edited, Function<PfcpSession, KeptResponse> response) {
        try {
            PfcpSession old = current(edited.upSeid);
            return install(edited, old, response);
        } catch (RuleException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Waits for a change (never holding the manager's lock: completions take it). */
    static <T> T await(CompletableFuture<T> change) throws RuleException {
        try {
            return change.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuleException) {
                throw (RuleException) e.getCause();
            }
            throw e;
        }
    }

    /** @return a UP SEID no session has: 63 random bits (positive, as every client's JSON reads it), never 0 */
    private long newSeid() {
        long seid;
        do {
            seid = seids.nextLong() & Long.MAX_VALUE;
        } while (seid == 0 || held.holds(seid) || changing.containsKey(seid));
        return seid;
    }

    /** The stored session, unless another change of it is still on its way to the devices. */
    private PfcpSession current(long upSeid) throws RuleException {
        PfcpSession old = store.get(upSeid);
        if (old == null) {
            throw new RuleException(Cause.SESSION_CONTEXT_NOT_FOUND, -1, 0, "no session " + upSeid);
        }
        if (changing.containsKey(upSeid)) {
            throw new RuleException(Cause.REQUEST_REJECTED, -1, 0, "session " + upSeid + " has a change in progress");
        }
        return old;
    }

    private CompletableFuture<PfcpSession> install(PfcpSession s, PfcpSession old,
                                                   Function<PfcpSession, KeptResponse> response) throws RuleException {
        index.checkOwnership(s, old);
        SessionIndex.checkUePools(s, interfaces.get());
        PfcpSession chosen = index.chooseFteids(s, old, sites.n3Of(s));
        ResourcePool.Allocation a = pool.begin(old == null ? Map.of() : old.allocations);
        Set<UpfEntity> entities;
        String site;
        try {
            entities = translator.translate(chosen, a);
            site = siteOf(chosen, old);
            held.site(site).checkSharedValues(s.upSeid, entities);
        } catch (RuleException e) {
            pool.abort(a);
            throw e;
        }
        PfcpSession stored = chosen.with(chosen.pdrs, chosen.fars, chosen.qers, chosen.urrs, a.allocations());
        index.replace(old, stored);
        Set<UpfEntity> previous = held.of(s.upSeid);
        held.track(s.upSeid, site, entities);
        changing.put(s.upSeid, Boolean.TRUE);
        return WriterBurst.afterSettling(
                changes.program(site, entities, previous, SessionCounters.resets(old, stored), interfaces.get())
                        .thenCompose(results -> settleInstall(results, site, stored, old, a, entities, previous,
                                                              response)));
    }

    /**
     * The site a session is served at. A modification keeps it there: another site's devices hold none of its
     * entries, and moving them is a new session at that site for the SMF to establish.
     */
    private String siteOf(PfcpSession s, PfcpSession old) throws RuleException {
        String site = sites.siteOf(s);
        String was = old == null ? null : held.siteOf(old.upSeid);
        if (was != null && !was.equals(site)) {
            throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, -1, 0, "session " + s.upSeid
                    + " is served at site " + was + ": its new rules name site " + site
                    + ", and a session does not move between sites (establish it there)");
        }
        return site;
    }

    private CompletableFuture<PfcpSession> settleInstall(List<WriteResult> results, String site, PfcpSession stored,
                                                         PfcpSession old, ResourcePool.Allocation a,
                                                         Set<UpfEntity> entities, Set<UpfEntity> previous,
                                                         Function<PfcpSession, KeptResponse> response) {
        synchronized (lock) {
            changing.remove(stored.upSeid);
            RuleException refused = changes.refusal(results, stored.upSeid);
            if (refused == null) {
                pool.commit(a);
                CompletableFuture<Void> committed = store.putCommitted(stored,
                                                                       response == null ? null : response.apply(stored));
                cpRelease.releaseIfOrphaned(stored);
                return committed.thenApply(x -> stored);
            }
            index.remove(stored);
            if (old != null) {
                index.add(old);
            }
            pool.abort(a);
            held.track(stored.upSeid, site, previous);
            CompletableFuture<Void> rolledBack = changes.rollBack(site, previous, entities, interfaces.get());
            if (old != null) {
                cpRelease.releaseIfOrphaned(old);
            }
            return rolledBack.thenCompose(x -> CompletableFuture.failedFuture(refused));
        }
    }

    /** @see SessionManager#deleteWithUsage(long, Function) */
    CompletableFuture<DeletedSession> delete(long upSeid, Function<DeletedSession, KeptResponse> response) {
        PfcpSession s;
        try {
            s = current(upSeid);
        } catch (RuleException e) {
            return e.cause() == Cause.SESSION_CONTEXT_NOT_FOUND ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(e);
        }
        Set<UpfEntity> previous = held.of(upSeid);
        String site = held.siteOf(upSeid);
        String at = site == null ? sites.siteOf(s) : site;
        held.track(upSeid, at, Set.of());
        changing.put(upSeid, Boolean.TRUE);
        return WriterBurst.afterSettling(changes.program(at, Set.of(), previous, List.of(), interfaces.get())
                .thenCompose(results -> counters.finalCounts(results, s)
                        .thenCompose(counts -> settleDelete(results, at, s, previous, counts, response))));
    }

    private CompletableFuture<DeletedSession> settleDelete(List<WriteResult> results, String site, PfcpSession s,
                                                           Set<UpfEntity> previous, CellCounts counts,
                                                           Function<DeletedSession, KeptResponse> response) {
        synchronized (lock) {
            changing.remove(s.upSeid);
            RuleException refused = changes.refusal(results, s.upSeid);
            if (refused != null) {
                held.track(s.upSeid, site, previous);
                CompletableFuture<Void> rolledBack = changes.rollBack(site, previous, Set.of(), interfaces.get());
                cpRelease.releaseIfOrphaned(s);
                return rolledBack.thenCompose(x -> CompletableFuture.failedFuture(refused));
            }
            DeletedSession deleted = new DeletedSession(s, counts);
            CompletableFuture<Void> committed = store.removeCommitted(s.upSeid,
                                                                      response == null ? null : response.apply(deleted));
            pool.releaseAll(s.allocations);
            index.remove(s);
            return committed.thenApply(x -> deleted);
        }
    }
}
