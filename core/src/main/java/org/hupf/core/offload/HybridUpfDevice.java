package org.hupf.core.offload;

import org.hupf.core.util.IntMap;
import org.hupf.core.device.BatchDevices;
import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.core.device.CounterCellReader;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The hybrid UPF seen as one device: whoever programs sessions (the session manager, inside ONOS or in
 * the lab runner) writes here, every entity lands on the backend, and the offload manager mirrors the
 * sessions of heavy hitters on the switch. Interfaces and applications are device-wide and go to both.
 * Reading a counter cell returns the backend's count plus what the switch counted for that cell while
 * the session was offloaded, so usage reports stay right across moves.
 *
 * <p>Entities are grouped per UE: sessions and terminations name their UE; session meters, application
 * meters and tunnel peers belong to the UEs whose entries refer to them. A write that removes part of
 * an offloaded session first takes the session off the switch (its packets fall back to the backend,
 * which still has everything), so a change never leaves half a session on the hardware path.
 *
 * <p>A batch goes to the backend as one write, without the writer waiting for it, once the previous batch's
 * outcome is recorded (what a batch removes is judged against what the batches before left); on the thread that
 * completes the backend's write, the offload manager hears once about each UE the batch touched, for the updates
 * the backend took, and the batch's future completes.
 */
public final class HybridUpfDevice implements HupfUpfDevice, BatchUpfDevice, CounterCellReader {

    private static final Logger log = LoggerFactory.getLogger(HybridUpfDevice.class);

    private final HupfUpfDevice backend;
    private final HupfUpfDevice hardware;
    private final OffloadManager manager;
    private final boolean measuresBackend;
    /** The entities UEs' entries refer to (meters, tunnel peers), with their users; each UE's own entries. */
    private final SharedEntities shared = new SharedEntities();
    private final UeBook ues = new UeBook(shared);
    private final Map<Ip4Address, UpfInterface> corePools = new LinkedHashMap<>();
    /** Changes with corePools: a UE's slice worked out under another version is worked out again. */
    private int corePoolsVersion;
    /** Completes once the last batch written has its outcome recorded; the next batch goes to the backend then. */
    private CompletableFuture<Void> previousWrite = CompletableFuture.completedFuture(null);

    /**
     * @param backend          the x86 backend
     * @param hardware         the switch, or null (backend only)
     * @param manager          offload manager built over the same two devices
     * @param measuresBackend  whether the manager measures the sessions on {@code backend} alone (no replicas): the
     *                         final counts its writes return are then the removed sessions' backend usage
     */
    public HybridUpfDevice(HupfUpfDevice backend, HupfUpfDevice hardware, OffloadManager manager,
                           boolean measuresBackend) {
        this.backend = backend;
        this.hardware = hardware;
        this.manager = manager;
        this.measuresBackend = measuresBackend;
    }

    /**
     * Takes over a backend that already holds sessions (the app or the switch restarted): indexes what
     * the backend has, without writing it again, and gives the switch the device-wide entries.
     *
     * @throws UpfProgrammableException if the backend cannot be read or the switch refuses an entry
     */
    public synchronized void adoptBackend() throws UpfProgrammableException {
        for (UpfEntityType t : List.of(UpfEntityType.INTERFACE, UpfEntityType.APPLICATION)) {
            for (UpfEntity e : backend.readAll(t)) {
                mirrorDeviceWide(e);
            }
        }
        IntMap<Ip4Address> adopted = new IntMap<>();
        for (UpfEntityType t : List.of(UpfEntityType.TUNNEL_PEER, UpfEntityType.PEER_VXLAN,
                                       UpfEntityType.SESSION_METER, UpfEntityType.APPLICATION_METER,
                                       UpfEntityType.SESSION_UPLINK,
                                       UpfEntityType.SESSION_DOWNLINK, UpfEntityType.TERMINATION_UPLINK,
                                       UpfEntityType.TERMINATION_DOWNLINK)) {
            for (UpfEntity e : backend.readAll(t)) {
                Ip4Address ue = ueOf(e);
                if (ue == null) {
                    putShared(e);
                } else {
                    int bits = Ip4Bits.of(ue);
                    ues.put(ue, bits, e);
                    adopted.put(bits, ue);
                }
            }
        }
        retrack(adopted, CellCounts.NONE);
    }

    private void mirrorDeviceWide(UpfEntity entity) throws UpfProgrammableException {
        if (hardware != null) {
            hardware.apply(entity);
        }
        if (entity instanceof UpfInterface && ((UpfInterface) entity).isCore()) {
            corePools.put(((UpfInterface) entity).prefix().address(), (UpfInterface) entity);
            corePoolsVersion++;
        }
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        throwFailure(write(List.of(DeviceUpdate.apply(entity))).join());
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        throwFailure(write(List.of(DeviceUpdate.remove(entity))).join());
    }

    private static void throwFailure(WriteResult r) throws UpfProgrammableException {
        if (!r.ok()) {
            throw r.firstFailure();
        }
    }

    @Override
    public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        List<DeviceUpdate> batch = List.copyOf(updates);
        synchronized (this) {
            CompletableFuture<WriteResult> written = previousWrite.thenCompose(done -> writeToBackend(batch));
            previousWrite = written.handle((r, e) -> null);
            return written;
        }
    }

    private synchronized CompletableFuture<WriteResult> writeToBackend(List<DeviceUpdate> updates) {
        Ip4Address[] owners = new Ip4Address[updates.size()];
        int[] ownerBits = new int[updates.size()];
        IntMap<Ip4Address> affected = losingEntries(updates, owners, ownerBits);
        // Sessions losing entries leave the switch first: their packets fall back to the backend.
        affected.forEach((bits, ue) -> manager.fallBack(bits));
        return BatchDevices.of(backend).write(updates)
                .thenApply(r -> recordWritten(updates, owners, ownerBits, affected, r));
    }

    /** Notes what the backend took and hands the offload manager the UEs whose sessions changed. */
    private synchronized WriteResult recordWritten(List<DeviceUpdate> updates, Ip4Address[] owners, int[] ownerBits,
                                                   IntMap<Ip4Address> affected, WriteResult onBackend) {
        List<UpfProgrammableException> failures = null;   // made at the first failure: most writes have none
        for (int i = 0; i < updates.size(); i++) {
            UpfProgrammableException failure = onBackend.failure(i);
            if (failure == null) {
                failure = record(updates.get(i), owners[i], ownerBits[i], affected);
            }
            if (failure != null && failures == null) {
                failures = new ArrayList<>(Collections.nCopies(updates.size(), null));
            }
            if (failure != null) {
                failures.set(i, failure);
            }
        }
        CellCounts finalCounts = retrack(affected, measuresBackend ? onBackend.finalCells() : CellCounts.NONE);
        if (onBackend.unreachable()) {
            return onBackend;
        }
        return (failures == null ? WriteResult.ok(updates.size()) : WriteResult.of(failures))
                .withFinalCells(finalCounts);
    }

    /**
     * The UEs whose sessions lose entries in this batch (removals, meter resets), by address bits; notes each
     * update's UE ({@link #ueOf}) and its bits in {@code owners} and {@code ownerBits}, worked out once per write.
     */
    private IntMap<Ip4Address> losingEntries(List<DeviceUpdate> updates, Ip4Address[] owners, int[] ownerBits) {
        IntMap<Ip4Address> losing = new IntMap<>();
        for (int i = 0; i < owners.length; i++) {
            DeviceUpdate u = updates.get(i);
            Ip4Address ue = ueOf(u.entity());
            if (ue != null) {
                owners[i] = ue;
                ownerBits[i] = Ip4Bits.of(ue);
            }
            if (isRemoval(u) && !isDeviceWide(u.entity())) {
                if (ue == null) {
                    addUsersOf(u.entity(), losing);
                } else {
                    losing.put(ownerBits[i], ue);
                }
            }
        }
        return losing;
    }

    private static boolean isRemoval(DeviceUpdate u) {
        return u.kind() == DeviceUpdate.Kind.DELETE || u.entity() instanceof UpfMeter
                && ((UpfMeter) u.entity()).isReset();
    }

    /**
     * Notes an update the backend took, mirrors a device-wide one on the switch, and adds the UEs whose
     * view changed to {@code affected}.
     *
     * @param ue   the UE the update's entity names ({@link #ueOf}), or null
     * @param bits its address's bits
     * @return why the switch refused a device-wide entry, or null
     */
    private UpfProgrammableException record(DeviceUpdate u, Ip4Address ue, int bits, IntMap<Ip4Address> affected) {
        UpfEntity entity = u.entity();
        if (entity.type() == UpfEntityType.COUNTER) {
            // A reset of a newly allocated backend cell: the switch counts per offload episode, from its own.
            return null;
        }
        boolean removal = u.kind() == DeviceUpdate.Kind.DELETE;
        if (isDeviceWide(entity)) {
            return recordDeviceWide(entity, removal);
        }
        if (ue == null) {
            recordShared(entity, removal, isRemoval(u), affected);
        } else {
            if (removal) {
                ues.remove(bits, entity);
            } else {
                ues.put(ue, bits, entity);
            }
            affected.put(bits, ue);
        }
        return null;
    }

    private UpfProgrammableException recordDeviceWide(UpfEntity entity, boolean removal) {
        try {
            if (!removal) {
                mirrorDeviceWide(entity);
                return null;
            }
            if (hardware != null) {
                hardware.delete(entity);
            }
            if (entity instanceof UpfInterface) {
                corePools.remove(((UpfInterface) entity).prefix().address());
                corePoolsVersion++;
            }
            return null;
        } catch (UpfProgrammableException e) {
            return e;
        }
    }

    /**
     * @param removal whether the entity is deleted
     * @param lost    whether its users lose it ({@link #isRemoval}: a deletion or a meter reset), which
     *                {@link #losingEntries} added to {@code affected} already
     */
    private void recordShared(UpfEntity entity, boolean removal, boolean lost, IntMap<Ip4Address> affected) {
        long ref = SharedEntities.refOf(entity);
        if (ref == SharedEntities.NONE) {
            return;   // no UE's entry refers to it (an uplink session without its UE): no user's view changes
        }
        UpfEntity before = removal ? shared.remove(ref) : shared.put(ref, entity);
        // A shared entity new to this device has no users yet but the UEs of this batch, already affected; one
        // written again unchanged (each session that uses a tunnel peer installs it) changes no user's view.
        if (before != null && !lost && !before.equals(entity)) {
            shared.addUsersOf(ref, affected);
        }
    }

    private void putShared(UpfEntity entity) {
        long ref = SharedEntities.refOf(entity);
        if (ref != SharedEntities.NONE) {
            shared.put(ref, entity);
        }
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        return backend.readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        return withHardware(backend.readCounter(cellId));
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        List<UpfCounter> out = new ArrayList<>();
        for (UpfCounter c : backend.readCounters(maxCounterId)) {
            out.add(withHardware(c));
        }
        return out;
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        Map<Integer, UpfCounter> out = new HashMap<>();
        for (UpfCounter c : CounterCellReader.of(backend).readCounterCells(cells).values()) {
            out.put(c.cellId(), withHardware(c));
        }
        return out;
    }

    @Override
    public long tableSize(UpfEntityType type) throws UpfProgrammableException {
        return backend.tableSize(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        List<DeviceUpdate> all = new ArrayList<>();
        for (UpfEntity e : backend.readAll(type)) {
            all.add(DeviceUpdate.remove(e));
        }
        throwFailure(write(all).join());
    }

    /** The counts with what the switch counted added: the same map when it counted none of these cells. */
    private CellCounts withHardware(CellCounts counts) {
        long[][] extra = null;
        for (int i = 0; i < counts.size(); i++) {
            long[] hw = manager.hardwareCounts(counts.cell(i));
            if (hw != null) {
                extra = extra == null ? new long[counts.size()][] : extra;
                extra[i] = hw;
            }
        }
        return extra == null ? counts : counts.plus(extra);
    }

    private UpfCounter withHardware(UpfCounter c) {
        long[] hw = manager.hardwareCounts(c.cellId());
        if (hw == null) {
            return c;   // never counted on the switch: the backend's own, no copy per cell
        }
        return UpfCounter.builder().withCellId(c.cellId())
                .setIngress(c.ingressPkts() + hw[0], c.ingressBytes() + hw[1])
                .setEgress(c.egressPkts() + hw[2], c.egressBytes() + hw[3]).build();
    }

    private static boolean isDeviceWide(UpfEntity e) {
        return e.type() == UpfEntityType.INTERFACE || e.type() == UpfEntityType.APPLICATION;
    }

    /** The UE an entry names, null for meters and tunnel peers (which belong to whoever refers to them). */
    private static Ip4Address ueOf(UpfEntity e) {
        switch (e.type()) {
            case SESSION_UPLINK:
                return ((UpfSessionUplink) e).ueAddress().orElse(null);
            case SESSION_DOWNLINK:
                return ((UpfSessionDownlink) e).ueAddress();
            case TERMINATION_UPLINK:
                return ((UpfTerminationUplink) e).ueSessionId();
            case TERMINATION_DOWNLINK:
                return ((UpfTerminationDownlink) e).ueSessionId();
            default:
                return null;
        }
    }

    /** Adds the UEs whose entries refer to a shared entity. */
    private void addUsersOf(UpfEntity sharedEntity, IntMap<Ip4Address> affected) {
        long ref = SharedEntities.refOf(sharedEntity);
        if (ref != SharedEntities.NONE) {
            shared.addUsersOf(ref, affected);
        }
    }

    /**
     * Hands the offload manager the current view of each UE's session.
     *
     * @param changed UEs by address bits
     * @param written final counts of backend cells the write returned
     * @return final counts of the cells of the sessions that are gone (see {@link #untrack})
     */
    private CellCounts retrack(IntMap<Ip4Address> changed, CellCounts written) {
        int[] gone = null;
        int n = 0;
        for (int bits : changed.keys()) {
            UeBook.Ue entries = ues.get(bits);
            if (entries == null || entries.size() == 0) {
                ues.forget(bits);
                if (manager.isTracked(bits)) {
                    gone = gone == null ? new int[changed.size()] : gone;
                    gone[n++] = bits;
                }
                continue;
            }
            manager.track(sessionOf(entries.address, entries));
        }
        return gone == null ? CellCounts.NONE : untrack(gone, n, changed, written);
    }

    /** A UE's session as the offload manager takes it: the shared entries its own refer to, then its own. */
    private OffloadSession sessionOf(Ip4Address ue, UeBook.Ue own) {
        List<UpfEntity> all = new ArrayList<>(2 * own.size() + 2);
        Set<Integer> qfis = Set.of();
        for (int i = 0; i < own.size(); i++) {
            for (long ref : own.references(i)) {
                UpfEntity s = shared.get(ref);
                if (s != null && !all.contains(s)) {
                    all.add(s);
                }
            }
            UpfEntity e = own.entity(i);
            if (e instanceof UpfTerminationDownlink) {
                qfis = withQfi(qfis, ((UpfTerminationDownlink) e).qfi());
            }
        }
        for (int i = 0; i < own.size(); i++) {
            all.add(own.entity(i));
        }
        if (own.sliceVersion != corePoolsVersion) {
            own.slice = sliceOf(ue);
            own.sliceVersion = corePoolsVersion;
        }
        return OffloadSession.of(ue, own.bits, own.slice, qfis, all);
    }

    /** The set with one more QFI: a session's flows share one or two, so no builder is made for them. */
    private static Set<Integer> withQfi(Set<Integer> qfis, int qfi) {
        if (qfis.contains(qfi)) {
            return qfis;
        }
        if (qfis.isEmpty()) {
            return Set.of(qfi);
        }
        Set<Integer> more = new LinkedHashSet<>(qfis);
        more.add(qfi);
        return more;
    }

    /**
     * Forgets the sessions a write removed, with their backend cells' final counts: those the write returned when
     * it returned every one of them, else one read of all (every backend's).
     *
     * @param gone the removed sessions' UEs, by address bits, the first n
     * @return each of their cells' final count over both targets (what {@link #readCounterCells} said last);
     *         the cells the read missed are left out
     */
    private CellCounts untrack(int[] gone, int n, IntMap<Ip4Address> addresses, CellCounts written) {
        CellCounts finalCounts;
        try {
            finalCounts = manager.countsAll(gone, n, written) ? written : readBackendCells(gone, n, addresses);
        } catch (UpfProgrammableException e) {
            log.warn("final usage of {} removed sessions unread in bulk: {}", n, e.getMessage());
            finalCounts = CellCounts.NONE;
        }
        CellCounts withSwitch = withHardware(finalCounts);
        for (int i = 0; i < n; i++) {
            try {
                manager.untrack(gone[i], finalCounts);
            } catch (UpfProgrammableException e) {
                // The backend no longer holds the session: only its final usage was lost.
                log.warn("final usage of UE {} unread: {}", addresses.get(gone[i]), e.getMessage());
            }
        }
        return withSwitch;
    }

    private CellCounts readBackendCells(int[] gone, int n, IntMap<Ip4Address> addresses)
            throws UpfProgrammableException {
        List<Ip4Address> ues = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ues.add(addresses.get(gone[i]));
        }
        return CellCounts.of(manager.readBackendCells(ues).values());
    }

    /** The slice of the most specific UE pool (core interface) that holds the address, 0 if none. */
    private int sliceOf(Ip4Address ue) {
        UpfInterface best = null;
        for (UpfInterface i : corePools.values()) {
            if (i.prefix().contains(ue) && (best == null || i.prefix().prefixLength() > best.prefix().prefixLength())) {
                best = i;
            }
        }
        return best == null ? 0 : best.sliceId();
    }
}
