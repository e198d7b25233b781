package org.hupf.app.offload;

import org.hupf.app.device.BatchDevices;
import org.hupf.app.device.BatchUpfDevice;
import org.hupf.app.device.CounterCellReader;
import org.hupf.app.device.DeviceUpdate;
import org.hupf.app.device.EntityKeys;
import org.hupf.app.device.WriteResult;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
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
import java.util.HashMap;
import java.util.HashSet;
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
 * <p>A batch goes to the backend as one write; the offload manager then hears once about each UE the
 * batch touched, for the updates the backend took.
 */
public final class HybridUpfDevice implements HupfUpfDevice, BatchUpfDevice, CounterCellReader {

    private static final Logger log = LoggerFactory.getLogger(HybridUpfDevice.class);
    private static final Ip4Address ANY = Ip4Address.valueOf(0);

    private final HupfUpfDevice backend;
    private final HupfUpfDevice hardware;
    private final OffloadManager manager;
    private final Map<Ip4Address, Map<Object, UpfEntity>> perUe = new HashMap<>();
    private final Map<Object, UpfEntity> shared = new LinkedHashMap<>();
    private final Map<Ip4Address, UpfInterface> corePools = new LinkedHashMap<>();
    /** Key of a shared entity to the UEs whose entries refer to it. */
    private final Map<Object, Set<Ip4Address>> referrers = new HashMap<>();

    /**
     * @param backend  the x86 backend
     * @param hardware the switch, or null (backend only)
     * @param manager  offload manager built over the same two devices
     */
    public HybridUpfDevice(HupfUpfDevice backend, HupfUpfDevice hardware, OffloadManager manager) {
        this.backend = backend;
        this.hardware = hardware;
        this.manager = manager;
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
        Set<Ip4Address> ues = new HashSet<>();
        for (UpfEntityType t : List.of(UpfEntityType.TUNNEL_PEER, UpfEntityType.PEER_VXLAN,
                                       UpfEntityType.SESSION_METER, UpfEntityType.APPLICATION_METER,
                                       UpfEntityType.SESSION_UPLINK,
                                       UpfEntityType.SESSION_DOWNLINK, UpfEntityType.TERMINATION_UPLINK,
                                       UpfEntityType.TERMINATION_DOWNLINK)) {
            for (UpfEntity e : backend.readAll(t)) {
                Ip4Address ue = ueOf(e);
                if (ue == null) {
                    shared.put(EntityKeys.key(e), e);
                } else {
                    putOwn(ue, e);
                    ues.add(ue);
                }
            }
        }
        retrack(ues);
    }

    private void mirrorDeviceWide(UpfEntity entity) throws UpfProgrammableException {
        if (hardware != null) {
            hardware.apply(entity);
        }
        if (entity instanceof UpfInterface && ((UpfInterface) entity).isCore()) {
            corePools.put(((UpfInterface) entity).prefix().address(), (UpfInterface) entity);
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
    public synchronized CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        Set<Ip4Address> affected = new HashSet<>();
        for (DeviceUpdate u : updates) {
            if (isRemoval(u) && !isDeviceWide(u.entity())) {
                affected.addAll(ueOf(u.entity()) == null ? usersOf(u.entity()) : Set.of(ueOf(u.entity())));
            }
        }
        // Sessions losing entries leave the switch first: their packets fall back to the backend.
        affected.forEach(manager::fallBack);
        WriteResult onBackend = BatchDevices.of(backend).write(updates).join();
        List<UpfProgrammableException> failures = new ArrayList<>(updates.size());
        for (int i = 0; i < updates.size(); i++) {
            UpfProgrammableException failure = onBackend.failure(i);
            if (failure == null) {
                failure = record(updates.get(i), affected);
            }
            failures.add(failure);
        }
        Map<Integer, UpfCounter> finalCounts = retrack(affected);
        return CompletableFuture.completedFuture(onBackend.unreachable() ? onBackend
                : WriteResult.of(failures).withFinalCounts(finalCounts));
    }

    private static boolean isRemoval(DeviceUpdate u) {
        return u.kind() == DeviceUpdate.Kind.DELETE || u.entity() instanceof UpfMeter
                && ((UpfMeter) u.entity()).isReset();
    }

    /**
     * Notes an update the backend took, mirrors a device-wide one on the switch, and adds the UEs whose
     * view changed to {@code affected}.
     *
     * @return why the switch refused a device-wide entry, or null
     */
    private UpfProgrammableException record(DeviceUpdate u, Set<Ip4Address> affected) {
        UpfEntity entity = u.entity();
        if (entity.type() == UpfEntityType.COUNTER) {
            // A reset of a newly allocated backend cell: the switch counts per offload episode, from its own.
            return null;
        }
        boolean removal = u.kind() == DeviceUpdate.Kind.DELETE;
        if (isDeviceWide(entity)) {
            try {
                if (!removal) {
                    mirrorDeviceWide(entity);
                } else {
                    if (hardware != null) {
                        hardware.delete(entity);
                    }
                    if (entity instanceof UpfInterface) {
                        corePools.remove(((UpfInterface) entity).prefix().address());
                    }
                }
                return null;
            } catch (UpfProgrammableException e) {
                return e;
            }
        }
        Ip4Address ue = ueOf(entity);
        Object key = EntityKeys.key(entity);
        if (ue != null) {
            if (removal) {
                removeOwn(ue, key);
            } else {
                putOwn(ue, entity);
            }
            affected.add(ue);
            return null;
        }
        UpfEntity before = removal ? shared.remove(key) : shared.put(key, entity);
        // A shared entity new to this device has no users yet but the UEs of this batch, already affected; one
        // written again unchanged (each session that uses a tunnel peer installs it) changes no user's view.
        if (before != null && (removal || !before.equals(entity))) {
            affected.addAll(usersOf(entity));
        }
        return null;
    }

    private void putOwn(Ip4Address ue, UpfEntity e) {
        UpfEntity old = perUe.computeIfAbsent(ue, k -> new LinkedHashMap<>()).put(EntityKeys.key(e), e);
        if (old != null) {
            references(old).forEach(ref -> unrefer(ref, ue));
        }
        references(e).forEach(ref -> referrers.computeIfAbsent(ref, k -> new HashSet<>()).add(ue));
    }

    private void removeOwn(Ip4Address ue, Object key) {
        Map<Object, UpfEntity> m = perUe.get(ue);
        UpfEntity old = m == null ? null : m.remove(key);
        if (old != null) {
            references(old).forEach(ref -> unrefer(ref, ue));
        }
    }

    private void unrefer(Object ref, Ip4Address ue) {
        Set<Ip4Address> users = referrers.get(ref);
        // Another entry of the same UE may still refer to it.
        if (users != null && perUe.getOrDefault(ue, Map.of()).values().stream()
                .noneMatch(e -> references(e).contains(ref))) {
            users.remove(ue);
            if (users.isEmpty()) {
                referrers.remove(ref);
            }
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

    private UpfCounter withHardware(UpfCounter c) {
        long[] hw = manager.hardwareCounts(c.cellId());
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

    /** Keys of the shared entities (meters, tunnel peer and its overlay) one UE entry refers to. */
    private static List<Object> references(UpfEntity e) {
        List<Object> refs = new ArrayList<>();
        switch (e.type()) {
            case SESSION_UPLINK:
                meterRef(refs, UpfMeter.Type.SESSION, ((UpfSessionUplink) e).sessionMeterIdx());
                break;
            case SESSION_DOWNLINK:
                UpfSessionDownlink d = (UpfSessionDownlink) e;
                meterRef(refs, UpfMeter.Type.SESSION, d.sessionMeterIdx());
                if (d.tunPeerId() != 0) {
                    // Keys ignore action parameters: any peer with this id has the key of the real one.
                    refs.add(EntityKeys.key(UpfGtpTunnelPeer.builder().withTunnelPeerId(d.tunPeerId())
                                                    .withSrcAddr(ANY).withDstAddr(ANY).withSrcPort(0).build()));
                    // The peer's VXLAN overlay, where it sits in one, goes to the switch with it.
                    refs.add(EntityKeys.peerVxlanKey(d.tunPeerId()));
                }
                break;
            case TERMINATION_UPLINK:
                meterRef(refs, UpfMeter.Type.APPLICATION, ((UpfTerminationUplink) e).appMeterIdx());
                break;
            case TERMINATION_DOWNLINK:
                meterRef(refs, UpfMeter.Type.APPLICATION, ((UpfTerminationDownlink) e).appMeterIdx());
                break;
            default:
                break;
        }
        return refs;
    }

    private static void meterRef(List<Object> refs, UpfMeter.Type type, int cell) {
        if (cell != 0) {
            refs.add(EntityKeys.key(UpfMeter.resetMeter(type, cell)));
        }
    }

    private Set<Ip4Address> usersOf(UpfEntity sharedEntity) {
        return new HashSet<>(referrers.getOrDefault(EntityKeys.key(sharedEntity), Set.of()));
    }

    /**
     * Hands the offload manager the current view of each UE's session.
     *
     * @return final counts of the cells of the sessions that are gone (see {@link #untrack})
     */
    private Map<Integer, UpfCounter> retrack(Set<Ip4Address> ues) {
        List<Ip4Address> gone = new ArrayList<>();
        for (Ip4Address ue : ues) {
            Map<Object, UpfEntity> own = perUe.get(ue);
            if (own == null || own.isEmpty()) {
                perUe.remove(ue);
                if (manager.isTracked(ue)) {
                    gone.add(ue);
                }
                continue;
            }
            Map<Object, UpfEntity> all = new LinkedHashMap<>();
            Set<Integer> qfis = new HashSet<>();
            for (UpfEntity e : own.values()) {
                for (Object ref : references(e)) {
                    UpfEntity s = shared.get(ref);
                    if (s != null) {
                        all.put(ref, s);
                    }
                }
                if (e instanceof UpfTerminationDownlink) {
                    qfis.add(((UpfTerminationDownlink) e).qfi());
                }
            }
            all.putAll(own);
            manager.track(OffloadSession.of(ue, sliceOf(ue), qfis, all.values()));
        }
        return untrack(gone);
    }

    /**
     * Forgets the sessions a write removed, with one read of all their backend cells' final counts (every
     * backend's).
     *
     * @return each of their cells' final count over both targets (what {@link #readCounterCells} said last);
     *         the cells the read missed are left out
     */
    private Map<Integer, UpfCounter> untrack(List<Ip4Address> gone) {
        if (gone.isEmpty()) {
            return Map.of();
        }
        Map<Integer, UpfCounter> finalCounts;
        try {
            finalCounts = manager.readBackendCells(gone);
        } catch (UpfProgrammableException e) {
            log.warn("final usage of {} removed sessions unread in bulk: {}", gone.size(), e.getMessage());
            finalCounts = Map.of();
        }
        Map<Integer, UpfCounter> withSwitch = new HashMap<>();
        finalCounts.forEach((cell, c) -> withSwitch.put(cell, withHardware(c)));
        for (Ip4Address ue : gone) {
            try {
                manager.untrack(ue, finalCounts);
            } catch (UpfProgrammableException e) {
                // The backend no longer holds the session: only its final usage was lost.
                log.warn("final usage of UE {} unread: {}", ue, e.getMessage());
            }
        }
        return withSwitch;
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
