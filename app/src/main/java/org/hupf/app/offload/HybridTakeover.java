package org.hupf.app.offload;

import org.hupf.core.offload.BackendUsageLedger;
import org.hupf.core.offload.ControlPlane;
import org.hupf.core.offload.Hybrid;
import org.hupf.core.offload.HybridUpfDevice;
import org.hupf.core.offload.LedgeredBackend;
import org.hupf.core.offload.OffloadManager;
import org.hupf.core.offload.OffloadStore;
import org.hupf.core.offload.SwitchReclaim;
import org.hupf.api.OffloadEvent;
import org.hupf.api.OffloadPolicy;
import org.hupf.app.CurrentDriver;
import org.hupf.app.LeaderLease;
import org.hupf.app.config.HupfConfig;
import org.hupf.core.site.Site;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Takes the hybrids' devices over on the cluster's hupf leader, one hybrid per site of the netcfg (one implicit
 * site without a {@code sites} block: every backend and the first switch): picks the site's backends (pipeconf
 * org.hupf.backend, less those drained) and its switch among the available devices, reclaims what a previous
 * offload manager left on that switch (from the site's own offload records), and builds the {@link HybridUpfDevice}
 * over the first backend and the switch, then every other backend, each read through the
 * {@link BackendUsageLedger}. A site is built again when its devices or the leadership term change; a takeover that
 * fails is retried with a doubling delay.
 */
final class HybridTakeover {

    private static final Logger log = LoggerFactory.getLogger(HybridTakeover.class);
    /** Longest wait between two attempts to take over a backend that is not ready (no pipeline yet). */
    static final long RETRY_MAX_MS = 30_000;

    private final LeaderLease lease;
    private final DeviceService deviceService;
    private final PiPipeconfService pipeconfService;
    private final DistributedBackendDrains drains;
    private final DistributedOffloadStore offloadStore;
    private final DistributedLedgerJournal ledgerJournal;
    /** Told what each offload manager does (the live view's event stream). */
    /** Each site's listener of its offload manager's events. */
    private final Function<String, Consumer<OffloadEvent>> offloadEvents;
    private final Supplier<HupfConfig> config;
    private final ScheduledExecutorService executor;
    /** What follows a takeover: sessions, routes and the switch's configuration onto the devices. */
    private final Consumer<Hybrid> onTakenOver;
    /** First wait before retrying a failed takeover; doubles up to {@link #RETRY_MAX_MS}. */
    private final long retryFirstMs;

    /** Each site's hybrid this node drives, in the sites' order; empty while it drives none. */
    private volatile Map<String, Hybrid> bySite = Map.of();
    /** The term of hupf's leadership this node drives the devices under; NOT_LEADER while it stands by. */
    private volatile long term = LeaderLease.NOT_LEADER;
    /** The backends hupf's netcfg lists, null while it lists none (every backend is then hupf's). */
    private volatile Set<DeviceId> listed;
    /** What each backend counted, across its departures and restarts, in this node's current term. */
    private volatile BackendUsageLedger usageLedger = new BackendUsageLedger();
    /** Where every site's counter polls send the UEs whose usage changed; null while no one takes them. */
    private volatile Consumer<Collection<Ip4Address>> usageFeed;
    private long retryMs;
    private ScheduledFuture<?> retry;

    HybridTakeover(LeaderLease lease, DeviceService deviceService, PiPipeconfService pipeconfService,
                   DistributedBackendDrains drains, DistributedOffloadStore offloadStore,
                   DistributedLedgerJournal ledgerJournal, Function<String, Consumer<OffloadEvent>> offloadEvents,
                   Supplier<HupfConfig> config,
                   ScheduledExecutorService executor, Consumer<Hybrid> onTakenOver, long retryFirstMs) {
        this.lease = lease;
        this.deviceService = deviceService;
        this.pipeconfService = pipeconfService;
        this.drains = drains;
        this.offloadStore = offloadStore;
        this.ledgerJournal = ledgerJournal;
        this.offloadEvents = offloadEvents;
        this.config = config;
        this.executor = executor;
        this.onTakenOver = onTakenOver;
        this.retryFirstMs = retryFirstMs;
        this.retryMs = retryFirstMs;
    }

    /** @param feed where every site's counter polls send the UEs whose usage changed from now on; null: nowhere */
    void feedUsageChanges(Consumer<Collection<Ip4Address>> feed) {
        usageFeed = feed;
    }

    private void usageChanged(Collection<Ip4Address> ues) {
        Consumer<Collection<Ip4Address>> feed = usageFeed;
        if (feed != null) {
            feed.accept(ues);
        }
    }

    /** @return the hybrids this node drives, one per site that has a backend available, in the sites' order */
    Collection<Hybrid> hybrids() {
        Collection<Hybrid> all = bySite.values();
        Set<DeviceId> l = listed;
        for (Hybrid h : all) {
            if (l != null && !l.contains(h.backendIds.get(0))) {
                // A site whose first backend the netcfg no longer lists waits for the rebuild: its offload
                // manager, which writes through that backend, is not run meanwhile.
                return all.stream().filter(x -> l.contains(x.backendIds.get(0))).collect(Collectors.toList());
            }
        }
        return all;
    }

    /** @return the hybrid of a site, null while this node drives none there */
    Hybrid ofSite(String site) {
        Hybrid h = bySite.get(site);
        return h == null || writtenBackends(h).isEmpty() ? null : h;
    }

    /** @return the hybrid driving a device (its switch or one of its backends), null when none does */
    Hybrid driving(DeviceId id) {
        for (Hybrid h : bySite.values()) {
            if (h.drives(id)) {
                return h;
            }
        }
        return null;
    }

    /** @return the leadership term the devices are driven under, {@link LeaderLease#NOT_LEADER} on standby */
    long term() {
        return term;
    }

    /** @return each backend driven to the {packets, bytes} that entered it; empty while none is driven */
    Map<String, long[]> backendTotals() {
        Set<String> driven = new HashSet<>();
        bySite.values().forEach(h -> h.backendIds.forEach(id -> driven.add(id.toString())));
        Map<String, long[]> totals = usageLedger.totals();
        totals.keySet().retainAll(driven);
        return totals;
    }

    /**
     * Takes the netcfg's backends as they are now, on ONOS's event thread as soon as it tells of a change: a
     * backend the netcfg no longer lists leaves the write set ({@link #writeSet}) at once, so nothing more is
     * written to it, before a rebuild on the component's thread takes the other backends over without it.
     *
     * @param cfg hupf's netcfg if valid, else null
     * @return whether a backend driven now is no longer listed: a rebuild is due
     */
    boolean netcfgChanged(HupfConfig cfg) {
        Set<DeviceId> now = listedBackends(cfg);
        listed = now;
        return now != null && bySite.values().stream().anyMatch(h -> !now.containsAll(h.backendIds));
    }

    /** @return the backends a netcfg lists, null when it lists none (or there is no valid netcfg) */
    static Set<DeviceId> listedBackends(HupfConfig cfg) {
        if (cfg == null) {
            return null;
        }
        Set<DeviceId> out = new HashSet<>();
        cfg.devices().forEach((id, role) -> {
            if (role == HupfConfig.Role.BACKEND) {
                out.add(id);
            }
        });
        return out.isEmpty() ? null : out;
    }

    /**
     * The devices the session core writes at a site: its hybrid's, but none of a backend the netcfg no longer
     * lists (a site whose first backend, the one its hybrid device writes through, is no longer listed has none
     * until the rebuild).
     *
     * @param h a hybrid this node drives
     * @return its devices to write, the hybrid device first
     */
    List<HupfUpfDevice> writeSet(Hybrid h) {
        List<DeviceId> written = writtenBackends(h);
        if (written.size() == h.backendIds.size()) {
            return h.devices;
        }
        List<HupfUpfDevice> out = new ArrayList<>();
        written.forEach(id -> out.add(h.devices.get(h.backendIds.indexOf(id))));
        return out;
    }

    /**
     * @param h a hybrid this node drives
     * @return the backends of its write set ({@link #writeSet})
     */
    List<DeviceId> writtenBackends(Hybrid h) {
        Set<DeviceId> l = listed;
        if (l == null || l.containsAll(h.backendIds)) {
            return h.backendIds;
        }
        return l.contains(h.backendIds.get(0))
                ? h.backendIds.stream().filter(l::contains).collect(Collectors.toList()) : List.of();
    }

    /** Lets the devices go (the component stops). */
    void forget() {
        bySite = Map.of();
    }

    /**
     * Returns the available devices running one of the wanted pipeconfs, in the order of their ids.
     *
     * @param devices    candidate devices
     * @param pipeconfOf pipeconf of a device
     * @param wanted     pipeconf ids
     * @return their ids
     */
    static List<DeviceId> pickAll(Iterable<Device> devices, Function<DeviceId, Optional<PiPipeconfId>> pipeconfOf,
                                  Set<PiPipeconfId> wanted) {
        List<DeviceId> out = new ArrayList<>();
        for (Device d : devices) {
            if (pipeconfOf.apply(d.id()).filter(wanted::contains).isPresent() && d.is(HupfUpf.class)) {
                out.add(d.id());
            }
        }
        out.sort(Comparator.comparing(DeviceId::toString));
        return out;
    }

    /**
     * Builds the hybrid over the backend and switch available now. Taking over the backend reads its tables;
     * a backend whose device event came before ONOS pushed its pipeline answers FAILED_PRECONDITION: the
     * takeover is then retried with a doubling delay (and on every device event) until it succeeds.
     */
    synchronized void rebuild() {
        rebuild(lease.term());
    }

    synchronized void rebuild(long leaderTerm) {
        if (leaderTerm == LeaderLease.NOT_LEADER || leaderTerm == LeaderLease.UNKNOWN) {
            if (!bySite.isEmpty()) {
                log.info("Standing by: {}", leaderTerm == LeaderLease.UNKNOWN
                        ? "the leader elector does not answer" : lease.leaderNow());
            }
            term = LeaderLease.NOT_LEADER;
            bySite = Map.of();
            cancelRetry();
            return;
        }
        if (leaderTerm != term) {
            // A new term: another node may have driven the devices in between; take them over afresh.
            bySite = Map.of();
            term = leaderTerm;
            // From the journal: what this node counted in an earlier term may be out of date (other leaders wrote
            // cells since), and what the last leader carried for backends away or restarted is there.
            usageLedger = new BackendUsageLedger(ledgerJournal, ledgerJournal.all());
        }
        // Each device with the driver ONOS has for it now (not the one its stored object bound: CurrentDriver).
        Map<DeviceId, Device> available = new HashMap<>();
        deviceService.getAvailableDevices().forEach(d -> available.put(d.id(), CurrentDriver.of(d)));
        Function<DeviceId, Optional<PiPipeconfId>> pipeconfOf = pipeconfService::ofDevice;
        // Asked once per device: a driver merged meanwhile shows at the next look.
        List<DeviceId> driverless = withoutHupfDriver(available.values(), pipeconfOf);
        driverless.forEach(available::remove);
        List<DeviceId> allBackends = pickAll(available.values(), pipeconfOf, Set.of(HupfPipeconfIds.BACKEND));
        allBackends.removeIf(id -> drains.is(id.toString(), DistributedBackendDrains.DRAINED));
        Set<DeviceId> listedNow = listed;
        if (listedNow != null) {
            allBackends.retainAll(listedNow);
        }
        List<DeviceId> switches = pickAll(available.values(), pipeconfOf, HupfPipeconfIds.SWITCHES);
        HupfConfig cfg = config.get();
        List<Site> sites = cfg == null || !cfg.isValid() ? List.of() : cfg.sites();
        Map<String, Hybrid> built = new LinkedHashMap<>();
        List<Hybrid> takenOver = new ArrayList<>();
        boolean failed = false;
        for (Site site : sites.isEmpty() ? List.of(implicitSite(allBackends, switches)) : sites) {
            List<DeviceId> backendIds = new ArrayList<>(allBackends);
            backendIds.retainAll(site.backends);
            DeviceId switchId = switches.contains(site.switchId) ? site.switchId : null;
            Hybrid h = bySite.get(site.id);
            if (h != null && h.backendIds.equals(backendIds) && Objects.equals(h.switchId, switchId)) {
                built.put(site.id, h);
                continue;
            }
            if (backendIds.isEmpty()) {
                log.warn("Site {}: no hupf backend available: its sessions wait in the store", site.id);
                continue;
            }
            try {
                h = takeOver(site.id, backendIds, switchId, available, cfg);
                built.put(site.id, h);
                takenOver.add(h);
            } catch (UpfProgrammableException | RuntimeException e) {
                // Not only UpfProgrammableException: a RuntimeException would end this task silently (the
                // executor keeps it in a future nobody reads), and with no further device event, nothing would
                // take the devices over again.
                failed = true;
                log.warn("Site {}: cannot take over backends {} / switch {} yet: {}; retrying in {} ms",
                         site.id, backendIds, switchId, e, retryMs);
            }
        }
        bySite = Collections.unmodifiableMap(built);
        usageLedger.present(allBackends.stream().map(DeviceId::toString).collect(Collectors.toList()));
        if (failed) {
            retryLater(null);
        } else if (!driverless.isEmpty()) {
            // No device event may follow: ONOS merges the driver when hupf's pipeconf is registered.
            retryLater(driverless + " (no driver with hupf's behaviours yet, e.g. hupf's pipeconfs not registered)");
        } else {
            cancelRetry();
        }
        takenOver.forEach(onTakenOver);
    }

    /** The site of a netcfg without sites: every backend, and the first switch. */
    private static Site implicitSite(List<DeviceId> backends, List<DeviceId> switches) {
        return new Site(Site.IMPLICIT_ID, switches.isEmpty() ? null : switches.get(0), backends, List.of(), Set.of(),
                        List.of());
    }

    /**
     * Builds a site's hybrid. Taking over the backend reads its tables; a backend whose device event came before
     * ONOS pushed its pipeline answers FAILED_PRECONDITION, and the takeover is retried.
     */
    private Hybrid takeOver(String site, List<DeviceId> backendIds, DeviceId switchId, Map<DeviceId, Device> available,
                            HupfConfig cfg) throws UpfProgrammableException {
        // The devices' mastership comes to this node through LeaderMastership; until it has, writes wait
        // for it (OnosPiTarget's primary gate) and reads need none.
        // A device whose driver ONOS has not bound yet has no behaviours ("Driver not found"): retried.
        List<HupfUpfDevice> backends = new ArrayList<>();
        Map<DeviceId, HupfUpfDevice> ledgered = new HashMap<>();
        for (DeviceId id : backendIds) {
            backends.add(new LedgeredBackend(id.toString(), available.get(id).as(HupfUpf.class),
                                             usageLedger, backends.isEmpty()));
            ledgered.put(id, backends.get(backends.size() - 1));
        }
        HupfUpfDevice hw = switchId == null ? null : available.get(switchId).as(HupfUpf.class);
        OffloadStore records = offloadStore.ofSite(site);
        if (hw != null) {
            List<Ip4Address> back = SwitchReclaim.reclaim(records, hw);
            if (!back.isEmpty()) {
                log.info("Took {} sessions a previous offload manager left on switch {} back to the backend",
                         back.size(), switchId);
            }
        }
        OffloadPolicy policy = cfg == null ? OffloadPolicy.builder().build() : cfg.offloadPolicy();
        ControlPlane.Hybrid hybrid = ControlPlane.hybrid(backends, hw, policy, System::currentTimeMillis);
        OffloadManager m = hybrid.offload;
        m.useStore(records);
        m.addListener(offloadEvents.apply(site));
        m.addUsageListener(this::usageChanged);
        HybridUpfDevice device = hybrid.device;
        device.adoptBackend();
        List<HupfUpfDevice> devices = new ArrayList<>(backends);
        devices.set(0, device);
        log.info("Hybrid UPF at site {}: backends {}, switch {}", site, backendIds,
                 switchId == null ? "none" : switchId);
        return new Hybrid(site, backendIds, Map.copyOf(ledgered), switchId, m, List.copyOf(devices));
    }

    /**
     * Returns the available devices running a hupf pipeconf whose driver, as ONOS has it now, lacks hupf's
     * behaviour (ONOS cannot merge their driver while the pipeconf is not registered).
     *
     * @param devices    available devices
     * @param pipeconfOf pipeconf of a device
     * @return their ids, in the order of their ids
     */
    static List<DeviceId> withoutHupfDriver(Iterable<Device> devices,
                                            Function<DeviceId, Optional<PiPipeconfId>> pipeconfOf) {
        List<DeviceId> out = new ArrayList<>();
        for (Device d : devices) {
            if (pipeconfOf.apply(d.id()).filter(id -> id.equals(HupfPipeconfIds.BACKEND) || HupfPipeconfIds.SWITCHES.contains(id)).isPresent() && !d.is(HupfUpf.class)) {
                out.add(d.id());
            }
        }
        out.sort(Comparator.comparing(DeviceId::toString));
        return out;
    }

    /** Rebuilds again after the current delay, which doubles up to {@link #RETRY_MAX_MS}. */
    private void retryLater(String why) {
        if (why != null) {
            log.info("Looking at the devices again in {} ms: {}", retryMs, why);
        }
        if (retry != null) {
            retry.cancel(false);
        }
        retry = executor.schedule((Runnable) this::rebuild, retryMs, TimeUnit.MILLISECONDS);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    }

    private void cancelRetry() {
        if (retry != null) {
            retry.cancel(false);
            retry = null;
        }
        retryMs = retryFirstMs;
    }
}
