package org.hupf.app.core;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.app.device.BatchDevices;
import org.hupf.app.device.BatchUpfDevice;
import org.hupf.app.device.CounterCellReader;
import org.hupf.app.device.DeviceUpdate;
import org.hupf.app.device.DeviceWriter;
import org.hupf.app.device.EntityKeys;
import org.hupf.app.device.Shutdowns;
import org.hupf.app.device.WriteResult;
import org.hupf.app.session.ResourcePool;
import org.hupf.app.session.SessionTranslator;
import org.hupf.app.store.KeptResponse;
import org.hupf.app.store.SessionStore;
import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Keeps devices in line with the session store: installs a session's entities when it is created or
 * changed, removes what it no longer needs, and reconciles whole devices (re-applies what the store
 * implies, removes what it does not). Shared entities (applications, tunnel peers) are reference-counted
 * across sessions. Same code inside ONOS and in the standalone runner.
 *
 * <p>A change is a pipeline: its checks, allocations and reference counts are settled under this
 * object's lock, its device updates are queued, as one batch, to the {@link DeviceWriter} (which keeps
 * the order in which changes were settled), and the store takes the session only once every device
 * acknowledged. A batch a device refuses, even in part, is undone: the reference counts, indexes and
 * allocations go back, the updates that did land are reverted, the store is unchanged, and the future
 * fails with the cause to answer (77 when a device was unreachable, 75 for a full table, 73 otherwise).
 */
public final class SessionManager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SessionManager.class);

    /** Install order, the contract's write rank (p4src/contract.toml); removal runs in reverse. */
    private static final List<UpfEntityType> ORDER = HupfTables.INSTALL_ORDER;

    /** Prefix of a PDR's counter cell among a session's allocations (see ResourcePool). */
    private static final String COUNTER_ALLOCATION = "ctr:";
    /** Batches that may wait for the device writer (a PFCP message is one batch). */
    private static final int WRITER_QUEUE = 4096;
    /** Updates beyond which the writer sends what it merged: bounds one P4Runtime WriteRequest. */
    private static final int MAX_UPDATES_PER_WRITE = 2048;
    /** Repairs of one reconciliation pass that are logged one by one. */
    private static final int LOGGED_REPAIRS = 20;
    /** Updates of one reconciliation write: small enough for a device to report each refusal of the batch. */
    private static final int RECONCILE_BATCH = 512;
    /** Sessions of a bulk deletion per device batch: bounds one P4Runtime WriteRequest. */
    private static final int BULK_DELETE_CHUNK = 256;

    private final SessionStore store;
    private final SessionTranslator translator;
    private final ResourcePool pool;
    private final Supplier<Collection<HupfUpfDevice>> devices;
    private final Ip4Address n3Address;
    private final Map<Long, Set<UpfEntity>> sessionEntities = new HashMap<>();
    private final Map<UpfEntity, Integer> refs = new HashMap<>();
    /** The entity sessions hold under each key: a table entry has one value, whichever session asks for it. */
    private final Map<Object, UpfEntity> heldByKey = new HashMap<>();
    /** CP F-SEID ("address/seid") to UP SEID, so a CP's duplicate establishment is found without a scan. */
    private final Map<String, Long> byCpFseid = new HashMap<>();
    /**
     * The UP function's TEID space (TS 29.244 §5.5.1): every TEID a session holds, chosen by hupf or given
     * by the client, to the UP SEID holding it. A TEID belongs to one session only.
     */
    private final Map<Long, Long> teidOwner = new HashMap<>();
    /** UE addresses to the UP SEID whose PDRs match them: one session per UE address. */
    private final Map<Ip4Address, Long> ueOwner = new HashMap<>();
    /** UP SEIDs are drawn at random: an off-path sender cannot find the sessions by counting from 1. */
    private final SecureRandom seids = new SecureRandom();
    private long nextTeid = 1;
    private Set<UpfInterface> interfaces = Set.of();
    private final AtomicLong deviceErrors = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger bulkDeletions = new java.util.concurrent.atomic.AtomicInteger();
    private final ThreadLocal<Map<HupfUpfDevice, Map<Integer, UpfCounter>>> counterSnapshot = new ThreadLocal<>();
    /** Sessions with a change on its way to the devices: a second change waits for the first's answer. */
    private final Set<Long> changing = new HashSet<>();
    /** Sessions of a deleted CP function that had a change on its way: released when it settles. */
    private final Set<Long> releaseAfterChange = new HashSet<>();
    private final DeviceWriter writer = new DeviceWriter("hupf-device-writer", WRITER_QUEUE, MAX_UPDATES_PER_WRITE);
    /** Reads the final counts of deleted sessions whose devices did not return them with the removal. */
    private final ExecutorService usageReader = Executors.newSingleThreadExecutor(r -> daemon(r, "hupf-usage-read"));

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

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
        this.store = store;
        this.translator = translator;
        this.pool = pool;
        this.devices = devices;
        this.n3Address = n3Address;
        Collection<PfcpSession> stored = store.all();
        pool.rebuild(stored);
        for (PfcpSession s : stored) {
            byCpFseid.put(cpKey(s.cpAddress, s.cpSeid), s.upSeid);
            index(s);
            try {
                track(s.upSeid, translator.translate(s, pool.begin(s.allocations)));
            } catch (RuleException e) {
                log.error("stored session {} no longer translates: {}", s.upSeid, e.getMessage());
            }
        }
    }

    private static String cpKey(String cpAddress, long cpSeid) {
        return cpAddress + "/" + cpSeid;
    }

    /**
     * Finds the session a CP function identifies by its F-SEID.
     *
     * @param cpAddress CP F-SEID address
     * @param cpSeid    CP SEID
     * @return UP SEID, or null
     */
    public synchronized Long findByCpFseid(String cpAddress, long cpSeid) {
        return byCpFseid.get(cpKey(cpAddress, cpSeid));
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
        CompletableFuture<List<WriteResult>> written;
        synchronized (this) {
            Set<UpfInterface> old = interfaces;
            interfaces = Set.copyOf(ifaces);
            written = program(new LinkedHashSet<>(interfaces), new LinkedHashSet<>(old));
        }
        // Interfaces are device-wide and re-applied by reconciliation: a failure is counted, not undone.
        countFailures(written.join());
    }

    /**
     * Creates a session: allocates its SEID and CHOOSE F-TEIDs, installs its entities, stores it.
     *
     * @param draft session with upSeid 0
     * @return the stored session
     * @throws RuleException if it cannot be translated, resources ran out or a device refused it
     */
    public PfcpSession establish(PfcpSession draft) throws RuleException {
        return await(establishAsync(draft));
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
    public synchronized CompletableFuture<PfcpSession> establishAsync(PfcpSession draft,
                                                                      Function<PfcpSession, KeptResponse> response) {
        PfcpSession s = new PfcpSession(newSeid(), draft.cpSeid, draft.cpAddress, draft.nodeId, draft.pdrs, draft.fars,
                                        draft.qers, draft.urrs, Map.of());
        try {
            return install(s, null, response);
        } catch (RuleException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** @return a UP SEID no session has: 63 random bits (positive, as every client's JSON reads it), never 0 */
    private long newSeid() {
        long seid;
        do {
            seid = seids.nextLong() & Long.MAX_VALUE;
        } while (seid == 0 || sessionEntities.containsKey(seid) || changing.contains(seid));
        return seid;
    }

    /** Waits for a change (never call it holding this object's lock: completions take it). */
    private static <T> T await(CompletableFuture<T> change) throws RuleException {
        try {
            return change.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuleException) {
                throw (RuleException) e.getCause();
            }
            throw e;
        }
    }

    /**
     * Replaces a session's rules.
     *
     * @param edited session with the new rules and its current allocations
     * @return the stored session
     * @throws RuleException if the new rules cannot be installed; the old session stays
     */
    public PfcpSession modify(PfcpSession edited) throws RuleException {
        return await(modifyAsync(edited));
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
    public synchronized CompletableFuture<PfcpSession> modifyAsync(PfcpSession edited,
                                                                   Function<PfcpSession, KeptResponse> response) {
        try {
            PfcpSession old = current(edited.upSeid);
            return install(edited, old, response);
        } catch (RuleException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The stored session, unless another change of it is still on its way to the devices. */
    private PfcpSession current(long upSeid) throws RuleException {
        PfcpSession old = store.get(upSeid);
        if (old == null) {
            throw new RuleException(Cause.SESSION_CONTEXT_NOT_FOUND, -1, 0, "no session " + upSeid);
        }
        if (changing.contains(upSeid)) {
            throw new RuleException(Cause.REQUEST_REJECTED, -1, 0, "session " + upSeid + " has a change in progress");
        }
        return old;
    }

    private CompletableFuture<PfcpSession> install(PfcpSession s, PfcpSession old,
                                                   Function<PfcpSession, KeptResponse> response) throws RuleException {
        checkOwnership(s);
        checkUePools(s);
        PfcpSession chosen = chooseFteids(s, old);
        ResourcePool.Allocation a = pool.begin(old == null ? Map.of() : old.allocations);
        Set<UpfEntity> entities;
        try {
            entities = translator.translate(chosen, a);
            checkSharedValues(s.upSeid, entities);
        } catch (RuleException e) {
            pool.abort(a);
            throw e;
        }
        PfcpSession stored = chosen.with(chosen.pdrs, chosen.fars, chosen.qers, chosen.urrs, a.allocations());
        if (old != null) {
            unindex(old);
            byCpFseid.remove(cpKey(old.cpAddress, old.cpSeid));
        }
        index(stored);
        byCpFseid.put(cpKey(stored.cpAddress, stored.cpSeid), stored.upSeid);
        Set<UpfEntity> previous = sessionEntities.getOrDefault(s.upSeid, Set.of());
        track(s.upSeid, entities);
        changing.add(s.upSeid);
        return program(entities, previous, counterResets(old, stored))
                .thenCompose(results -> settleInstall(results, stored, old, a, entities, previous, response));
    }

    private synchronized CompletableFuture<PfcpSession> settleInstall(List<WriteResult> results, PfcpSession stored,
                                                                      PfcpSession old, ResourcePool.Allocation a,
                                                                      Set<UpfEntity> entities,
                                                                      Set<UpfEntity> previous,
                                                                      Function<PfcpSession, KeptResponse> response) {
        changing.remove(stored.upSeid);
        RuleException refused = refusal(results, stored.upSeid);
        if (refused == null) {
            pool.commit(a);
            if (response == null) {
                store.put(stored);
            } else {
                store.put(stored, response.apply(stored));
            }
            releaseIfOrphaned(stored);
            return CompletableFuture.completedFuture(stored);
        }
        unindex(stored);
        byCpFseid.remove(cpKey(stored.cpAddress, stored.cpSeid));
        if (old != null) {
            index(old);
            byCpFseid.put(cpKey(old.cpAddress, old.cpSeid), old.upSeid);
        }
        pool.abort(a);
        track(stored.upSeid, previous);
        CompletableFuture<Void> rolledBack = rollBack(previous, entities);
        if (old != null) {
            releaseIfOrphaned(old);
        }
        return rolledBack.thenCompose(x -> CompletableFuture.failedFuture(refused));
    }

    /** The cause to answer for a batch some device refused, null if every device took all of it. */
    private RuleException refusal(List<WriteResult> results, long upSeid) {
        RuleException refused = null;
        for (WriteResult r : results) {
            if (r.ok()) {
                continue;
            }
            deviceErrors.incrementAndGet();
            UpfProgrammableException why = r.firstFailure();
            int cause = r.unreachable() ? Cause.SYSTEM_FAILURE
                    : why.getType() == UpfProgrammableException.Type.TABLE_EXHAUSTED ? Cause.NO_RESOURCES_AVAILABLE
                    : Cause.RULE_CREATION_MODIFICATION_FAILURE;
            if (refused == null || cause == Cause.SYSTEM_FAILURE) {
                refused = new RuleException(cause, -1, 0, "session " + upSeid + ": device refused the change: "
                        + why.getMessage());
            }
        }
        return refused;
    }

    /**
     * Takes the devices back from {@code undone} to {@code restored} after a refused batch (the reference
     * counts already went back). Updates of the refused batch that never landed make some of these no-ops.
     * The refusal is answered once the devices acknowledged the rollback, so a retry finds them clean.
     */
    private CompletableFuture<Void> rollBack(Set<UpfEntity> restored, Set<UpfEntity> undone) {
        return program(restored, undone).thenAccept(results -> {
            if (countFailures(results) > 0) {
                log.warn("rolling back a refused change left devices out of line: reconciliation will repair them");
            }
        });
    }

    private int countFailures(List<WriteResult> results) {
        int failed = 0;
        for (WriteResult r : results) {
            if (!r.ok()) {
                failed++;
                deviceErrors.incrementAndGet();
                log.warn("device write failed (reconciliation will retry): {}", r.firstFailure().getMessage());
            }
        }
        return failed;
    }

    /**
     * Refuses what would take another session's traffic: a TEID 0 (reserved, TS 29.281 §5.1), a TEID
     * another session holds (the TEID space is the UP function's, TS 29.244 §5.5.1: a client-given F-TEID
     * is accepted only when free) and a UE address another session matches.
     */
    private void checkOwnership(PfcpSession s) throws RuleException {
        List<Pdr> ordered = new ArrayList<>(s.pdrs.values());
        ordered.sort(Comparator.comparingInt(p -> p.pdrId));
        for (Pdr p : ordered) {
            if (p.teid != null && p.teid == 0) {
                throw new RuleException(Cause.MANDATORY_IE_INCORRECT, 0, p.pdrId,
                                        "PDR " + p.pdrId + ": F-TEID with TEID 0 (reserved, TS 29.281 §5.1)");
            }
            Long teidHolder = p.teid == null ? null : teidOwner.get(p.teid);
            if (teidHolder != null && teidHolder != s.upSeid) {
                throw new RuleException(Cause.INVALID_FTEID_ALLOCATION_OPTION, 0, p.pdrId,
                                        "PDR " + p.pdrId + ": TEID " + p.teid + " is in use by another session");
            }
            Long ueHolder = p.ueAddress == null ? null : ueOwner.get(p.ueAddress);
            if (ueHolder != null && ueHolder != s.upSeid) {
                throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                                        "PDR " + p.pdrId + ": UE address " + p.ueAddress
                                                + " belongs to another session");
            }
        }
    }

    /**
     * Refuses a UE address outside every UE pool (the core interfaces' prefixes): no device routes its
     * downlink to hupf, so the session would be accepted for traffic it never sees. Without interfaces
     * (a manager not yet configured) there is nothing to check against.
     */
    private void checkUePools(PfcpSession s) throws RuleException {
        List<Ip4Prefix> pools = new ArrayList<>();
        for (UpfInterface i : interfaces) {
            if (i.isCore()) {
                pools.add(i.prefix());
            }
        }
        if (pools.isEmpty()) {
            return;
        }
        List<Pdr> ordered = new ArrayList<>(s.pdrs.values());
        ordered.sort(Comparator.comparingInt(p -> p.pdrId));
        for (Pdr p : ordered) {
            if (p.ueAddress != null && pools.stream().noneMatch(pool -> pool.contains(p.ueAddress))) {
                throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                                        RuleException.UE_IP_ADDRESS_IE, "PDR " + p.pdrId + ": UE address "
                                                + p.ueAddress + " is outside the UE pools " + pools);
            }
        }
    }

    /**
     * @param ue UE address
     * @return the session whose PDRs name it (a UE address belongs to one session), or null
     */
    public synchronized PfcpSession sessionOfUe(Ip4Address ue) {
        Long seid = ueOwner.get(ue);
        return seid == null ? null : store.get(seid);
    }

    private void index(PfcpSession s) {
        for (Pdr p : s.pdrs.values()) {
            if (p.teid != null) {
                teidOwner.put(p.teid, s.upSeid);
            }
            if (p.ueAddress != null) {
                ueOwner.put(p.ueAddress, s.upSeid);
            }
        }
    }

    private void unindex(PfcpSession s) {
        for (Pdr p : s.pdrs.values()) {
            if (p.teid != null) {
                teidOwner.remove(p.teid, s.upSeid);
            }
            if (p.ueAddress != null) {
                ueOwner.remove(p.ueAddress, s.upSeid);
            }
        }
    }

    /** Answers F-TEID CHOOSE: PDRs with the same CHOOSE ID share a TEID; kept across modifications. */
    private PfcpSession chooseFteids(PfcpSession s, PfcpSession old) throws RuleException {
        Map<Integer, Pdr> pdrs = new HashMap<>(s.pdrs);
        Set<Long> taken = new HashSet<>();
        s.pdrs.values().forEach(p -> taken.add(p.teid));
        Map<Integer, Long> byChooseId = new HashMap<>();
        if (old != null) {
            for (Pdr p : old.pdrs.values()) {
                if (p.choose && p.chooseId != null && p.teid != null) {
                    byChooseId.put(p.chooseId, p.teid);
                }
            }
        }
        List<Pdr> ordered = new ArrayList<>(pdrs.values());
        ordered.sort(Comparator.comparingInt(p -> p.pdrId));
        for (Pdr p : ordered) {
            if (!p.choose || p.teid != null) {
                continue;
            }
            Pdr prior = old == null ? null : old.pdrs.get(p.pdrId);
            Long teid = prior != null && prior.choose && prior.teid != null && Objects.equals(prior.chooseId, p.chooseId)
                    ? prior.teid : p.chooseId == null ? null : byChooseId.get(p.chooseId);
            if (teid == null) {
                teid = allocateTeid(taken);
                if (p.chooseId != null) {
                    byChooseId.put(p.chooseId, teid);
                }
            }
            pdrs.put(p.pdrId, p.withFteid(teid, n3Address));
        }
        return s.with(pdrs, s.fars, s.qers, s.urrs, s.allocations);
    }

    /** Picks a TEID no session holds and this one does not use yet (never 0). */
    private long allocateTeid(Set<Long> taken) throws RuleException {
        for (long i = 0; i < 0xFFFFFFFFL; i++) {
            long t = nextTeid;
            nextTeid = nextTeid == 0xFFFFFFFFL ? 1 : nextTeid + 1;
            if (!teidOwner.containsKey(t) && taken.add(t)) {
                return t;
            }
        }
        throw new RuleException(Cause.NO_RESOURCES_AVAILABLE, -1, 0, "no free TEID");
    }

    /**
     * Deletes a session and the entities only it needed.
     *
     * @param upSeid local SEID
     * @return the deleted session, or null if unknown
     */
    public PfcpSession delete(long upSeid) throws RuleException {
        return await(deleteAsync(upSeid));
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
    public synchronized CompletableFuture<DeletedSession> deleteWithUsage(
            long upSeid, Function<DeletedSession, KeptResponse> response) {
        PfcpSession s;
        try {
            s = current(upSeid);
        } catch (RuleException e) {
            return e.cause() == Cause.SESSION_CONTEXT_NOT_FOUND ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(e);
        }
        Set<UpfEntity> previous = sessionEntities.getOrDefault(upSeid, Set.of());
        track(upSeid, Set.of());
        changing.add(upSeid);
        return program(Set.of(), previous).thenCompose(results -> finalCounts(results, s)
                .thenCompose(counts -> settleDelete(results, s, previous, counts, response)));
    }

    private CompletableFuture<Map<Integer, UpfCounter>> finalCounts(List<WriteResult> results, PfcpSession s) {
        if (!results.stream().allMatch(WriteResult::ok)) {
            return CompletableFuture.completedFuture(Map.of());
        }
        List<Integer> cells = new ArrayList<>();
        s.allocations.forEach((k, cell) -> {
            if (k.startsWith(COUNTER_ALLOCATION)) {
                cells.add(cell);
            }
        });
        return DeletedSession.fromWrites(results, cells).map(CompletableFuture::completedFuture)
                .orElseGet(() -> CompletableFuture.supplyAsync(() -> readCounters(cells), usageReader));
    }

    private synchronized CompletableFuture<DeletedSession> settleDelete(List<WriteResult> results, PfcpSession s,
                                                                        Set<UpfEntity> previous,
                                                                        Map<Integer, UpfCounter> counts,
                                                                        Function<DeletedSession, KeptResponse> response) {
        changing.remove(s.upSeid);
        RuleException refused = refusal(results, s.upSeid);
        if (refused != null) {
            track(s.upSeid, previous);
            CompletableFuture<Void> rolledBack = rollBack(previous, Set.of());
            releaseIfOrphaned(s);
            return rolledBack.thenCompose(x -> CompletableFuture.failedFuture(refused));
        }
        DeletedSession deleted = new DeletedSession(s, counts);
        if (response == null) {
            store.remove(s.upSeid);
        } else {
            store.remove(s.upSeid, response.apply(deleted));
        }
        pool.releaseAll(s.allocations);
        unindex(s);
        byCpFseid.remove(cpKey(s.cpAddress, s.cpSeid));
        return CompletableFuture.completedFuture(deleted);
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
        List<PfcpSession> doomed = new ArrayList<>();
        for (PfcpSession s : store.all()) {
            if (!s.nodeId.equals(nodeId)) {
                continue;
            }
            if (changing.contains(s.upSeid)) {
                releaseAfterChange.add(s.upSeid);
            } else {
                doomed.add(s);
            }
        }
        bulkDeletions.incrementAndGet();
        return release(doomed).whenComplete((n, e) -> bulkDeletions.decrementAndGet());
    }

    /** @return bulk deletions (of a CP function's sessions) whose device removals are still running */
    public int bulkDeletionsInProgress() {
        return bulkDeletions.get();
    }

    /** Releases a session {@link #deleteByNodeAsync} found with a change on its way, now that it settled. */
    private void releaseIfOrphaned(PfcpSession s) {
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
            Set<UpfEntity> previous = new HashSet<>();
            for (PfcpSession s : doomed.subList(from, Math.min(doomed.size(), from + BULK_DELETE_CHUNK))) {
                previous.addAll(sessionEntities.getOrDefault(s.upSeid, Set.of()));
                track(s.upSeid, Set.of());
                pool.releaseAll(s.allocations);
                unindex(s);
                byCpFseid.remove(cpKey(s.cpAddress, s.cpSeid));
            }
            writes.add(program(Set.of(), previous));
        }
        return CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).thenApply(x -> {
            writes.forEach(w -> countFailures(w.join()));
            return doomed.size();
        });
    }

    /**
     * Refuses entities that would give an entry other sessions hold another value: a shared entity's value
     * changes only with the configuration (a tenant's overlay edited in the netcfg), and the sessions that hold
     * the entry keep its value until they go.
     */
    private void checkSharedValues(long upSeid, Set<UpfEntity> entities) throws RuleException {
        Set<UpfEntity> own = sessionEntities.getOrDefault(upSeid, Set.of());
        for (UpfEntity e : entities) {
            UpfEntity held = heldByKey.get(EntityKeys.key(e));
            int others = held == null || held.equals(e) ? 0 : refs.get(held) - (own.contains(held) ? 1 : 0);
            if (others > 0) {
                throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, -1, 0, e + " would replace " + held
                        + ", which " + others + " other session(s) hold: the configuration changed since they were"
                        + " set up (a tenant's overlay?); they keep it until they go");
            }
        }
    }

    /** Updates the reference counts for a session's new entity set. */
    private void track(long upSeid, Set<UpfEntity> entities) {
        Set<UpfEntity> old = sessionEntities.getOrDefault(upSeid, Set.of());
        for (UpfEntity e : old) {
            if (refs.computeIfPresent(e, (k, v) -> v == 1 ? null : v - 1) == null) {
                heldByKey.remove(EntityKeys.key(e), e);
            }
        }
        for (UpfEntity e : entities) {
            refs.merge(e, 1, Integer::sum);
            heldByKey.putIfAbsent(EntityKeys.key(e), e);
        }
        if (entities.isEmpty()) {
            sessionEntities.remove(upSeid);
        } else {
            sessionEntities.put(upSeid, Set.copyOf(entities));
        }
    }

    /**
     * The counter cells a change gives a session that it did not hold, set to zero: a cell keeps what it
     * counted for its previous owner until it is written (device counters are never cleared by themselves).
     */
    private static List<UpfCounter> counterResets(PfcpSession old, PfcpSession stored) {
        Set<Integer> held = new HashSet<>();
        if (old != null) {
            old.allocations.forEach((k, cell) -> {
                if (k.startsWith(COUNTER_ALLOCATION)) {
                    held.add(cell);
                }
            });
        }
        List<UpfCounter> out = new ArrayList<>();
        stored.allocations.forEach((k, cell) -> {
            if (k.startsWith(COUNTER_ALLOCATION) && held.add(cell)) {
                out.add(UpfCounter.builder().withCellId(cell).build());
            }
        });
        return out;
    }

    private CompletableFuture<List<WriteResult>> program(Set<UpfEntity> wanted, Set<UpfEntity> previous) {
        return program(wanted, previous, List.of());
    }

    /**
     * Queues, as one batch per device, the removals of what no session or interface needs any more
     * (dependents first), the resets of counter cells new to a session, and the additions (what others refer
     * to first), as the pipeline contract orders them.
     */
    private CompletableFuture<List<WriteResult>> program(Set<UpfEntity> wanted, Set<UpfEntity> previous,
                                                         List<UpfCounter> resets) {
        Set<Object> wantedKeys = new HashSet<>();
        wanted.forEach(e -> wantedKeys.add(EntityKeys.key(e)));
        List<UpfEntity> removals = new ArrayList<>();
        for (UpfEntity e : previous) {
            if (!wanted.contains(e) && !refs.containsKey(e) && !interfaces.contains(e)
                    && !wantedKeys.contains(EntityKeys.key(e))) {
                removals.add(e);
            }
        }
        List<UpfEntity> additions = new ArrayList<>();
        for (UpfEntity e : wanted) {
            // What another session holds is on the devices, or queued ahead of this batch: a gNB's tunnel peer is
            // written with its first session, not again (an INSERT answered ALREADY_EXISTS, then a MODIFY) with each.
            if (!previous.contains(e) && refs.getOrDefault(e, 0) <= 1) {
                additions.add(e);
            }
        }
        additions.sort(Comparator.comparingInt(e -> ORDER.indexOf(e.type())));
        removals.sort(Comparator.comparingInt(e -> -ORDER.indexOf(e.type())));
        List<DeviceUpdate> updates = new ArrayList<>(removals.size() + resets.size() + additions.size());
        removals.forEach(e -> updates.add(DeviceUpdate.remove(e)));
        resets.forEach(c -> updates.add(DeviceUpdate.apply(c)));
        additions.forEach(e -> updates.add(DeviceUpdate.apply(e)));
        List<BatchUpfDevice> targets = new ArrayList<>();
        devices.get().forEach(d -> targets.add(BatchDevices.of(d)));
        return writer.submit(targets, updates);
    }

    /**
     * Makes every device hold exactly what the store and the interfaces imply: one bulk read per table, a diff
     * against what the store implies, and the difference written in batches (removals of what nobody needs,
     * dependents first; then what is missing or different, referenced entities first). Run periodically, when a
     * device (re)joins or changes master, and on demand.
     *
     * <p>The tables are read without holding the manager: a device's read takes seconds at 100,000 sessions (inside
     * ONOS, every entry decoded into PI objects), and requests go on meanwhile. The diff is made against what the
     * store implies once the read is done: what changed during the read is on its way to the device, or gone from
     * it, and written again at worst (install or overwrite; a removal of what is gone is done).
     *
     * @return number of device operations performed
     */
    public int reconcile() {
        int ops = 0;
        for (HupfUpfDevice d : devices.get()) {
            Map<UpfEntityType, Collection<? extends UpfEntity>> present = readTables(d);
            if (present != null) {
                ops += reconcile(d, present);
            }
        }
        return ops;
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

    /** Every table of the device, or null (counted, logged) if a read failed. */
    private Map<UpfEntityType, Collection<? extends UpfEntity>> readTables(HupfUpfDevice d) {
        Map<UpfEntityType, Collection<? extends UpfEntity>> present = new HashMap<>();
        for (UpfEntityType type : ORDER) {
            try {
                present.put(type, d.readAll(type));
            } catch (UpfProgrammableException e) {
                deviceErrors.incrementAndGet();
                log.warn("reading {} from {} failed: {}", type, d, e.getMessage());
                return null;
            }
        }
        return present;
    }

    private synchronized int reconcile(HupfUpfDevice d, Map<UpfEntityType, Collection<? extends UpfEntity>> present) {
        Set<UpfEntity> desired = new LinkedHashSet<>(interfaces);
        desired.addAll(refs.keySet());
        Set<Object> desiredKeys = new HashSet<>();
        desired.forEach(e -> desiredKeys.add(EntityKeys.key(e)));
        List<DeviceUpdate> diff = new ArrayList<>();
        for (int i = ORDER.size() - 1; i >= 0; i--) {
            for (UpfEntity e : present.get(ORDER.get(i))) {
                boolean resetMeter = e instanceof UpfMeter && ((UpfMeter) e).isReset();
                // An entry whose key the store still wants is overwritten below, not removed first.
                if (!desired.contains(e) && !resetMeter && !desiredKeys.contains(EntityKeys.key(e))) {
                    logRepair(d, "removes", e, diff.size());
                    diff.add(DeviceUpdate.remove(e));
                }
            }
        }
        for (UpfEntityType type : ORDER) {
            Set<UpfEntity> have = new HashSet<>(present.get(type));
            for (UpfEntity e : desired) {
                if (e.type() == type && !have.contains(e)) {
                    logRepair(d, "adds", e, diff.size());
                    diff.add(DeviceUpdate.apply(e));
                }
            }
        }
        BatchUpfDevice batches = BatchDevices.of(d);
        for (int from = 0; from < diff.size(); from += RECONCILE_BATCH) {
            List<DeviceUpdate> batch = diff.subList(from, Math.min(diff.size(), from + RECONCILE_BATCH));
            WriteResult r = batches.write(batch).join();
            for (int i = 0; i < r.size(); i++) {
                if (r.failure(i) != null) {
                    deviceErrors.incrementAndGet();
                    log.warn("{} on {} failed (reconciliation will retry): {}", batch.get(i), d,
                             r.failure(i).getMessage());
                }
            }
        }
        return diff.size();
    }

    /** Names the first repairs of a pass: a device that drifted from the store says how. */
    private static void logRepair(HupfUpfDevice d, String what, UpfEntity e, int done) {
        if (done < LOGGED_REPAIRS) {
            log.info("reconciliation {} {} on {}", what, e, d);
        }
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
        Map<Integer, long[]> sums = new HashMap<>();
        cells.forEach(c -> sums.put(c, new long[4]));
        Map<HupfUpfDevice, Map<Integer, UpfCounter>> snapshot = counterSnapshot.get();
        for (HupfUpfDevice d : devices.get()) {
            try {
                Map<Integer, UpfCounter> read = snapshot == null
                        ? CounterCellReader.of(d).readCounterCells(sums.keySet()) : snapshot.getOrDefault(d, Map.of());
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
        int cells = highestCounterCell() + 1;
        Map<HupfUpfDevice, Map<Integer, UpfCounter>> snapshot = new HashMap<>();
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
            snapshot.put(d, read);
        }
        counterSnapshot.set(snapshot);
        try {
            return work.get();
        } finally {
            counterSnapshot.remove();
        }
    }

    private int highestCounterCell() {
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

    /**
     * Returns the entities one session needs.
     *
     * @param upSeid local SEID
     * @return entities
     */
    public synchronized Set<UpfEntity> entities(long upSeid) {
        return sessionEntities.getOrDefault(upSeid, Set.of());
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
        return await(replaceRulesAsync(edited));
    }

    private synchronized CompletableFuture<PfcpSession> replaceRulesAsync(PfcpSession edited) {
        PfcpSession old = store.get(edited.upSeid);
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
        Map<Integer, UpfCounter> out = new TreeMap<>();
        PfcpSession s = store.get(upSeid);
        if (s != null) {
            for (Pdr p : s.pdrs.values()) {
                Integer cell = s.allocations.get(COUNTER_ALLOCATION + p.pdrId);
                if (cell != null) {
                    out.put(p.pdrId, readCounter(cell));
                }
            }
        }
        return out;
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

    /** @return device writes sent and the batches they carried: {writes, batches} */
    public long[] writerCounts() {
        return writer.counts();
    }

    /** Stops the device writer: changes still queued fail as if the devices were unreachable. */
    @Override
    public void close() {
        Shutdowns.interrupt(usageReader, "hupf-usage-read");
        writer.close();
    }

    /** @return distinct entities the store implies (without interfaces) */
    public synchronized int entityCount() {
        return refs.size();
    }
}
