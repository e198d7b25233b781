package org.hupf.core.session;

import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.device.CounterCellReader;
import org.hupf.core.device.DeviceWriter;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfInterface;
import org.onlab.packet.Ip4Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Keeps devices in line with the session store: installs a session's entities when it is created or
 * changed, removes what it no longer needs, and reconciles whole devices (re-applies what the store
 * implies, removes what it does not). Shared entities (applications, tunnel peers) are reference-counted
 * across sessions. Same code inside ONOS and in the standalone runner.
 *
 * <p>A change is a pipeline ({@link SessionChanges}): its checks, allocations and reference counts are settled
 * under this object's lock, its device updates are queued, as one batch, to the {@link DeviceWriter} (which keeps
 * the order in which changes were settled), and the store takes the session only once every device
 * acknowledged. A batch a device refuses, even in part, is undone: the reference counts, indexes and
 * allocations go back, the updates that did land are reverted, the store is unchanged, and the future
 * fails with the cause to answer (77 when a device was unreachable, 75 for a full table, 73 otherwise). A CP
 * function's sessions go all at once ({@link CpFunctionRelease}); {@link Reconciliation} repairs a device.
 */
public final class SessionManager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SessionManager.class);

    private final SessionStore store;
    private final SessionSites sites;
    private final Ip4Address n3Address;
    /** Each session's entities and their reference counts across the sessions of its site. */
    private final SiteRefs held = new SiteRefs();
    /** CP F-SEIDs, TEIDs and UE addresses to the session holding each. */
    private final SessionIndex index;
    private Set<UpfInterface> interfaces = Set.of();
    private final AtomicLong deviceErrors = new AtomicLong();
    private final SessionCounters counters;
    private final DeviceChanges changes;
    private final CpFunctionRelease cpRelease;
    private final SessionChanges pipeline;
    /**
     * Creates a manager and loads the sessions already in the store (after an app restart).
     *
     * @param store      session store
     * @param translator translator
     * @param pool       resource pool
     * @param devices    the devices to program, read at every use
     * @param n3Address  address answered for F-TEID CHOOSE
     */
    public SessionManager(SessionStore store, SessionTranslator translator, ResourcePool pool,
                          Supplier<Collection<HupfUpfDevice>> devices, Ip4Address n3Address) {
        this(store, translator, pool, devices, SessionSites.one(devices), n3Address);
    }

    /**
     * Creates a manager that writes each session to its site's devices only, and loads the sessions already in the
     * store (after an app restart).
     *
     * @param store      session store
     * @param translator translator, placing each session at a site
     * @param pool       resource pool, shared by the sites (a counter cell is one session's on every device)
     * @param devices    every site's devices, read at every use (usage is summed over them)
     * @param sites      each session's site and each site's devices
     * @param n3Address  address answered for F-TEID CHOOSE
     */
    public SessionManager(SessionStore store, SessionTranslator translator, ResourcePool pool,
                          Supplier<Collection<HupfUpfDevice>> devices, SessionSites sites, Ip4Address n3Address) {
        this.store = store;
        this.sites = sites;
        this.n3Address = n3Address;
        this.index = new SessionIndex(n3Address);
        this.counters = new SessionCounters(store, devices, deviceErrors);
        this.changes = new DeviceChanges(this, devices, sites, held, deviceErrors);
        this.cpRelease = new CpFunctionRelease(store, held, pool, index, changes, () -> interfaces);
        this.pipeline = new SessionChanges(this, store, translator, pool, index, held, sites, changes, counters,
                                           cpRelease, () -> interfaces);
        Collection<PfcpSession> stored = store.all();
        pool.rebuild(stored);
        stored.forEach(index::add);
        // Their entities are worked out at the first request that needs them, or by trackStoredSessions: what a
        // restart must do before it answers PFCP is the store's load and the indexes above.
        held.trackLater(stored, sites::siteOf, s -> {
            try {
                return translator.translate(s, pool.begin(s.allocations));
            } catch (RuleException e) {
                log.error("stored session {} no longer translates: {}", s.upSeid, e.getMessage());
                return null;
            }
        });
    }

    /**
     * Works out the entities of the sessions the store held at start (translated and reference-counted), unless a
     * request did it already. A restarted host calls it once it answers PFCP, off PFCP's threads: the first
     * session request then finds them done.
     */
    public synchronized void trackStoredSessions() {
        held.trackStored();
    }

    /** @return whether the sessions stored at start are tracked; asked without this object's lock (tracking's) */
    public boolean storedSessionsTracked() {
        return held.storedTracked();
    }

    /**
     * Finds the session a CP function identifies by its F-SEID.
     *
     * @param cpAddress CP F-SEID address
     * @param cpSeid    CP SEID
     * @return UP SEID, or null
     */
    public synchronized Long findByCpFseid(String cpAddress, long cpSeid) {
        return index.findByCpFseid(cpAddress, cpSeid);
    }

    /** @return the N3 address F-TEIDs are allocated on */
    public Ip4Address n3Address() {
        return n3Address;
    }

    /**
     * Sets the UPF interfaces (N3 prefixes, UE pools) every device needs, and installs them.
     *
     * @param ifaces interfaces
     */
    public void setInterfaces(Set<UpfInterface> ifaces) {
        List<CompletableFuture<List<WriteResult>>> written = new ArrayList<>();
        synchronized (this) {
            Set<UpfInterface> old = interfaces;
            interfaces = Set.copyOf(ifaces);
            for (String site : sites.sites()) {
                written.add(changes.program(site, new LinkedHashSet<>(interfaces), new LinkedHashSet<>(old),
                                            List.of(), interfaces));
            }
        }
        // Interfaces are device-wide and re-applied by reconciliation: a failure is counted, not undone.
        written.forEach(w -> changes.countFailures(w.join()));
    }

    /**
     * Creates a session: allocates its SEID and CHOOSE F-TEIDs, installs its entities, stores it.
     *
     * @param draft session with upSeid 0
     * @return the stored session
     * @throws RuleException if it cannot be translated, resources ran out or a device refused it
     */
    public PfcpSession establish(PfcpSession draft) throws RuleException {
        return SessionChanges.await(establishAsync(draft));
    }

    /**
     * Creates a session; the future completes when every device acknowledged its entities.
     *
     * @param draft session with upSeid 0
     * @return the stored session, or a failure with a {@link RuleException} (nothing installed, nothing stored)
     */
    public CompletableFuture<PfcpSession> establishAsync(PfcpSession draft) {
        return establishAsync(draft, null);
    }

    /**
     * Creates a session as {@link #establishAsync(PfcpSession)} does, and stores it with the response its
     * request gets, in one commit of the store.
     *
     * @param draft    session with upSeid 0
     * @param response builds the response from the stored session (called once, under this object's lock,
     *                 when every device acknowledged); null to keep none
     * @return the stored session, or a failure with a {@link RuleException} (nothing installed, nothing stored)
     */
    public CompletableFuture<PfcpSession> establishAsync(PfcpSession draft,
                                                         Function<PfcpSession, KeptResponse> response) {
        return change(() -> pipeline.establish(draft, response));
    }

    /** Requests (PFCP, REST) enter the session core here: see {@link DeviceChanges#admitted}. */
    private <T> CompletableFuture<T> change(Supplier<CompletableFuture<T>> start) {
        return changes.admitted(this, start);
    }

    /**
     * Replaces a session's rules.
     *
     * @param edited session with the new rules and its current allocations
     * @return the stored session
     * @throws RuleException if the new rules cannot be installed; the old session stays
     */
    public PfcpSession modify(PfcpSession edited) throws RuleException {
        return SessionChanges.await(modifyAsync(edited));
    }

    /**
     * Replaces a session's rules; the future completes when every device acknowledged.
     *
     * @param edited session with the new rules and its current allocations
     * @return the stored session, or a failure with a {@link RuleException} (the old session stays)
     */
    public CompletableFuture<PfcpSession> modifyAsync(PfcpSession edited) {
        return modifyAsync(edited, null);
    }

    /**
     * Replaces a session's rules as {@link #modifyAsync(PfcpSession)} does, and stores it with the response
     * its request gets, in one commit of the store.
     *
     * @param edited   session with the new rules and its current allocations
     * @param response builds the response from the stored session (see {@link #establishAsync(PfcpSession,
     *                 Function)}); null to keep none
     * @return the stored session, or a failure with a {@link RuleException} (the old session stays)
     */
    public CompletableFuture<PfcpSession> modifyAsync(PfcpSession edited,
                                                      Function<PfcpSession, KeptResponse> response) {
        return change(() -> pipeline.modify(edited, response));
    }

    /**
     * @param ue UE address
     * @return the session whose PDRs name it (a UE address belongs to one session), or null
     */
    public synchronized PfcpSession sessionOfUe(Ip4Address ue) {
        Long seid = index.sessionOfUe(ue);
        return seid == null ? null : store.get(seid);
    }

    /**
     * Deletes a session and the entities only it needed.
     *
     * @param upSeid local SEID
     * @return the deleted session, or null if unknown
     */
    public PfcpSession delete(long upSeid) throws RuleException {
        return SessionChanges.await(deleteAsync(upSeid));
    }

    /**
     * Deletes a session and the entities only it needed; the future completes when every device
     * acknowledged the removal.
     *
     * @param upSeid local SEID
     * @return the deleted session, null if unknown, or a failure with a {@link RuleException} (the session stays)
     */
    public CompletableFuture<PfcpSession> deleteAsync(long upSeid) {
        return deleteWithUsage(upSeid).thenApply(d -> d == null ? null : d.session());
    }

    /**
     * Deletes a session as {@link #deleteAsync} does and returns its counter cells' final counts: those the
     * devices read once for their whole write (see {@link WriteResult#finalCounts}), else one read after the
     * removal, off the caller's thread and before the cells go back to the pool.
     *
     * @param upSeid local SEID
     * @return the deleted session with its final counts, null if unknown, or a failure with a
     *         {@link RuleException} (the session stays)
     */
    public CompletableFuture<DeletedSession> deleteWithUsage(long upSeid) {
        return deleteWithUsage(upSeid, null);
    }

    /**
     * Deletes a session as {@link #deleteWithUsage(long)} does, and removes it from the store with the
     * response its request gets, in one commit.
     *
     * @param upSeid   local SEID
     * @param response builds the response from the deleted session and its final counts (called once, under
     *                 this object's lock, when every device acknowledged); null to keep none
     * @return the deleted session with its final counts, null if unknown, or a failure with a
     *         {@link RuleException} (the session stays)
     */
    public CompletableFuture<DeletedSession> deleteWithUsage(long upSeid,
                                                             Function<DeletedSession, KeptResponse> response) {
        return change(() -> pipeline.delete(upSeid, response));
    }

    /**
     * Deletes every session of a CP function (restarted, or its association gone) at once as far as anyone
     * can tell: under this object's lock they leave the store (one commit), their UE addresses, TEIDs,
     * SEIDs, CP F-SEIDs and counter cells are free, and their device removals are queued, ahead of any change
     * that follows (the writer keeps the order): the CP function's re-establishments of the same UEs are taken
     * at once and the devices never see them clash. A session with a change on its way goes when the change
     * settles. A removal a device refuses is left to reconciliation: the store no longer wants the entries.
     *
     * @param nodeId CP Node ID
     * @return completes with the number of sessions deleted once the devices acknowledged their removal
     */
    public synchronized CompletableFuture<Integer> deleteByNodeAsync(String nodeId) {
        return cpRelease.releaseAll(nodeId);
    }

    /** @return bulk deletions (of a CP function's sessions) whose device removals are still running */
    public int bulkDeletionsInProgress() {
        return cpRelease.inProgress();
    }

    /**
     * Makes every device hold exactly what the store and the interfaces imply: one bulk read per table, a diff
     * against what the store implies, and the difference written in batches (removals of what nobody needs,
     * dependents first; then what is missing or different, referenced entities first). Run periodically, when a
     * device (re)joins or changes master, and on demand.
     *
     * <p>The tables are read without holding the manager: a device's read takes seconds at 100,000 sessions (inside
     * ONOS, every entry decoded into PI objects), and requests go on meanwhile. The diff is made against what the
     * store implies once the read is done, leaving out the entries that changes wrote during the read: they are on
     * their way to the device, or gone from it (written twice, a removal would be refused NOT_FOUND).
     *
     * @return number of device operations performed
     */
    public int reconcile() {
        int ops = 0;
        for (String site : sites.sites()) {
            for (HupfUpfDevice d : sites.devices(site)) {
                Reconciliation r = new Reconciliation(d, deviceErrors);
                watchChanges(site);
                Map<UpfEntityType, Collection<? extends UpfEntity>> present = r.readTables();
                ops += reconcile(site, r, present);
            }
        }
        return ops;
    }

    private synchronized void watchChanges(String site) {
        held.site(site).watchChanges();
    }

    /** What a host starts before its first reconciliation (its PFCP agent). */
    public interface Opening<E extends Exception> {
        void run() throws E;
    }

    /**
     * Runs {@code opening}, then {@link #reconcile()}, holding this object's lock throughout: a change that
     * arrives meanwhile is settled only after the reconciliation, on devices that hold what the store says.
     * A restarted host answers PFCP (heartbeats, associations) while it reads its devices; session requests
     * wait behind the read-and-diff instead of being refused.
     *
     * @param opening started before the reconciliation, e.g. the PFCP agent
     * @param <E>     what opening throws
     * @return number of device operations the reconciliation performed
     * @throws E when opening fails (nothing reconciled then)
     */
    public synchronized <E extends Exception> int reconcileAfter(Opening<E> opening) throws E {
        opening.run();
        return reconcile();
    }

    /** The diff and its writes, leaving out what changed during the read: those writes are on their way. */
    private synchronized int reconcile(String site, Reconciliation r,
                                       Map<UpfEntityType, Collection<? extends UpfEntity>> present) {
        EntityRefs ofSite = held.site(site);
        Set<Object> changed = ofSite.changesWatched();
        if (present == null) {
            return 0;
        }
        Set<UpfEntity> desired = new LinkedHashSet<>(interfaces);
        desired.addAll(ofSite.all());
        return r.apply(present, desired, changed);
    }

    /**
     * Reads a counter cell summed over every device (a session may be served by switch and backend).
     *
     * @param cellId counter index
     * @return summed counter
     */
    public UpfCounter readCounter(int cellId) {
        return readCounters(List.of(cellId)).get(cellId);
    }

    /**
     * Reads counter cells summed over every device, with one read per device (a device that reads cells
     * in one request, see {@link CounterCellReader}), or from the snapshot of {@link #withCounterSnapshot}.
     *
     * @param cells counter indexes
     * @return cell to summed counter, for every cell asked (zeros where a device failed, counted)
     */
    public Map<Integer, UpfCounter> readCounters(Collection<Integer> cells) {
        return counters.read(cells);
    }

    /**
     * Runs work whose counter reads ({@link #readCounter}) are served by one bulk read per device, taken
     * first: for periodic checks over many sessions (usage thresholds), where one Read RPC per
     * session would not keep up. Final reports must not use it: they need the cell's value now.
     *
     * @param work work reading counters
     * @param <T>  its result
     * @return its result
     */
    public <T> T withCounterSnapshot(Supplier<T> work) {
        return counters.withSnapshot(work);
    }

    /**
     * Returns the entities one session needs.
     *
     * @param upSeid local SEID
     * @return entities
     */
    public synchronized Set<UpfEntity> entities(long upSeid) {
        return held.of(upSeid);
    }

    /**
     * Replaces a session's rules as a client (REST, CLI) gives them: without allocations, so the stored
     * session's are kept (the pool frees what the new rules no longer use).
     *
     * @param edited session with its upSeid and new rules
     * @return the stored session
     * @throws RuleException if the new rules cannot be installed (cause 65 if the session is unknown)
     */
    public PfcpSession replaceRules(PfcpSession edited) throws RuleException {
        return SessionChanges.await(replaceRulesAsync(edited));
    }

    private CompletableFuture<PfcpSession> replaceRulesAsync(PfcpSession edited) {
        PfcpSession old;
        synchronized (this) {
            old = store.get(edited.upSeid);
        }
        return modifyAsync(old == null ? edited
                : edited.with(edited.pdrs, edited.fars, edited.qers, edited.urrs, old.allocations));
    }

    /**
     * Returns the counters of a session's PDRs, summed over devices.
     *
     * @param upSeid local SEID
     * @return PDR id to counter; empty if the session is unknown
     */
    public Map<Integer, UpfCounter> sessionCounters(long upSeid) {
        return counters.ofSession(upSeid);
    }

    /** @return sessions, entities and device errors, as health counters */
    public Map<String, Long> stats() {
        Map<String, Long> out = new TreeMap<>();
        out.put("sessions", (long) store.all().size());
        out.put("entities", (long) entityCount());
        out.put("deviceErrors", deviceErrors());
        out.put("bulkDeletions", (long) bulkDeletionsInProgress());
        return out;
    }

    public SessionStore store() {
        return store;
    }

    /** @return device calls that failed since start */
    public long deviceErrors() {
        return deviceErrors.get();
    }

    /** @return batches waiting for the device writer */
    int writerQueued() {
        return changes.queued();
    }

    /** @return device writes sent and the batches they carried: {writes, batches} */
    public long[] writerCounts() {
        return changes.counts();
    }

    /**
     * Stops the device writer once it has written the changes queued (see {@link DeviceWriter#close}), then the
     * final usage reads their completions may have started.
     */
    @Override
    public void close() {
        changes.close();
        counters.close();
    }

    /** @return distinct entities the store implies (without interfaces) */
    public synchronized int entityCount() {
        return held.size();
    }
}
