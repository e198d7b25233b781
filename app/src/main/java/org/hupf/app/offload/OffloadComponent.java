package org.hupf.app.offload;

import org.hupf.api.DrainReport;
import org.hupf.api.HupfService;
import org.hupf.api.OffloadEvent;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadPolicy;
import org.hupf.api.OffloadService;
import org.hupf.api.UpfDeviceSource;
import org.hupf.app.HupfApp;
import org.hupf.app.LeaderLease;
import org.hupf.app.config.HupfConfig;
import org.hupf.app.config.HupfConfigListener;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.packet.HupfPacketIn;
import org.onlab.packet.Ip4Address;
import org.onosproject.app.ApplicationService;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleOperationsContext;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketService;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The hybrid inside ONOS: finds the backends (pipeconf org.hupf.backend) and the switch (org.hupf.bmv2,
 * org.hupf.tofino or org.hupf.tofino2) among the available devices, and offers the session manager the {@link HybridUpfDevice}
 * over the first backend and the switch, then every other backend: each backend holds every session, the
 * switch splits the misses among them by UE hash (backendPorts' weights), the offload manager measures a
 * session over all of them ({@link BackendReplicas}), each read through the {@link BackendUsageLedger} that
 * keeps what a departed or restarted backend counted. Rebuilt when devices come and go; polls counters for demotion;
 * hands the switch's HH_REPORT packet-ins to the offload manager on its own thread; keeps every configured
 * device's routes as the netcfg says ({@link DeviceRoutes}). Only on the cluster's
 * hupf leader (the node that runs the session core): the other nodes leave the devices alone. The leader
 * is given mastership of the hybrid's devices by {@code LeaderMastership} (only a device's master may write to
 * it over P4Runtime: its client is the primary one) and has the session core reconcile them with the store when
 * it took them over or became their master again. A backend's planned removal is drained first ({@link #drain}).
 */
@Component(immediate = true, service = {UpfDeviceSource.class, OffloadService.class})
public class OffloadComponent implements UpfDeviceSource, OffloadService {

    private static final Logger log = LoggerFactory.getLogger(OffloadComponent.class);
    private static final long POLL_MS = 1000;
    /** Longest wait between two attempts to take over a backend that is not ready (no pipeline yet). */
    static final long RETRY_MAX_MS = 30_000;
    /** Offload events the GUI shows. */
    private static final int RECENT_EVENTS = 50;
    /** Longest wait for the devices to confirm the removal of hupf's flow rules when the app goes. */
    private static final long FLOW_REMOVAL_WAIT_S = 20;
    /**
     * How often the leader checks its devices' routes (a small table read each; writes only what differs) and
     * programs the switch again if it could not before (e.g. its pipeline was not pushed yet).
     */
    private static final long DEVICES_CHECK_S = 5;
    /** A draining backend's counts are read this often. */
    private static final long DRAIN_READ_MS = 50;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GroupService groupService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PacketService packetService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService cfgService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LeadershipService leadershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ApplicationService applicationService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    /** The session core, to reconcile devices taken over (optional: it uses this component's devices). */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    protected volatile HupfService hupfService;

    /** The current devices and what runs over them. */
    private static final class Hybrid {
        /** The backends, the one the hybrid device is built over first. */
        private final List<DeviceId> backendIds;
        /** Each backend as the hybrid writes and reads it (through the usage ledger). */
        private final Map<DeviceId, HupfUpfDevice> ledgered;
        private final DeviceId switchId;
        private final OffloadManager manager;
        /** What the session core programs: the hybrid device, then the other backends. */
        private final List<HupfUpfDevice> devices;
        /** Whether the switch holds the netcfg's steering and HK-IPG configuration (retried until it does). */
        private volatile boolean switchProgrammed;
        /** The RPS configuration last written to the switch; null while none was. */
        private volatile RpsConfig rpsWritten;
        /** The backends the switch steers misses to, as last programmed. */
        private volatile List<String> steeredTo = List.of();

        private Hybrid(List<DeviceId> backendIds, Map<DeviceId, HupfUpfDevice> ledgered, DeviceId switchId,
                       OffloadManager manager, List<HupfUpfDevice> devices) {
            this.backendIds = backendIds;
            this.ledgered = ledgered;
            this.switchId = switchId;
            this.manager = manager;
            this.devices = devices;
        }

        private boolean drives(DeviceId id) {
            return backendIds.contains(id) || id.equals(switchId);
        }
    }

    private final DeviceListener listener = this::onDeviceEvent;
    private final MastershipListener mastershipListener = this::onMastershipEvent;
    private final LeaderLease lease =
            new LeaderLease(() -> leadershipService, () -> clusterService.getLocalNode().id());
    private final LeadershipEventListener leadershipListener =
            lease.listener(command -> this.executor.execute(command), this::rebuild);
    /** The term of hupf's leadership this node drives the devices under; NOT_LEADER while it stands by. */
    private volatile long term = LeaderLease.NOT_LEADER;
    private final NetworkConfigListener cfgListener = new HupfConfigListener(event -> this.executor.execute(() -> {
        programSwitch(this.current);
        syncAllRoutes();
    }));
    private final PacketProcessor processor = this::onPacket;
    private final RecentEvents recentEvents = new RecentEvents(RECENT_EVENTS);
    private ScheduledExecutorService executor;
    private ApplicationId appId;
    private DistributedOffloadStore offloadStore;
    private DeviceRoutes routes;
    private volatile Hybrid current;
    /** What each backend counted, across its departures and restarts, in this node's current term. */
    private volatile BackendUsageLedger usageLedger = new BackendUsageLedger();
    private DistributedLedgerJournal ledgerJournal;
    /** Package-private: a test writes what a previous leader left. */
    DistributedBackendDrains drains;
    /** One drain at a time on this node; the backend being drained, or null. */
    private final Object drainLock = new Object();
    private volatile String drainingNow;
    /** Resumes drains a previous leader left unfinished (a drain waits on the component's thread). */
    private ExecutorService drainResumer;
    /** The term in which this node last looked for unfinished drains. */
    private long drainsCheckedTerm = LeaderLease.NOT_LEADER;
    /** First wait before retrying a failed takeover; doubles up to {@link #RETRY_MAX_MS}. */
    long retryFirstMs = 1000;
    private long retryMs;
    private ScheduledFuture<?> retry;

    @Activate
    protected void activate() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "hupf-offload"));
        drainResumer = Executors.newSingleThreadExecutor(r -> new Thread(r, "hupf-drain-resume"));
        appId = coreService.registerApplication(HupfApp.APP_NAME);
        offloadStore = new DistributedOffloadStore(storageService);
        ledgerJournal = new DistributedLedgerJournal(storageService);
        drains = new DistributedBackendDrains(storageService);
        routes = new DeviceRoutes(deviceService::getDevice,
                                  id -> deviceService.isAvailable(id) && mastershipService.isLocalMaster(id));
        retryMs = retryFirstMs;
        deviceService.addListener(listener);
        mastershipService.addListener(mastershipListener);
        cfgService.addListener(cfgListener);
        leadershipService.addListener(leadershipListener);
        packetService.addProcessor(processor, PacketProcessor.director(1));
        executor.execute(this::rebuild);
        executor.scheduleAtFixedRate(this::poll, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
        executor.scheduleWithFixedDelay(this::checkDevices, DEVICES_CHECK_S, DEVICES_CHECK_S, TimeUnit.SECONDS);
        lease.watch(executor, () -> term, this::rebuild);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        packetService.removeProcessor(processor);
        cfgService.removeListener(cfgListener);
        leadershipService.removeListener(leadershipListener);
        deviceService.removeListener(listener);
        mastershipService.removeListener(mastershipListener);
        executor.shutdownNow();
        drainResumer.shutdownNow();
        current = null;
        offloadStore.close();
        ledgerJournal.close();
        drains.close();
        if (applicationService.getState(appId) != ApplicationState.ACTIVE) {
            // The app is deactivated or uninstalled, not just this node stopping: its entries go with it.
            clearBackends();
            removeFlowRules();
        }
        log.info("Stopped");
    }

    /** Order in which a backend's entities are removed: the contract's install order reversed. */
    private static final List<UpfEntityType> REMOVAL_ORDER = HupfTables.REMOVAL_ORDER;

    /**
     * Removes hupf's entities from the backends this node is master of (they are not flow rules: ONOS would not
     * remove them), while the pipeconf bundle that writes them still runs.
     */
    private void clearBackends() {
        for (Device d : deviceService.getAvailableDevices()) {
            if (!pipeconfService.ofDevice(d.id()).filter(HupfPipeconfIds.BACKEND::equals).isPresent()
                    || !mastershipService.isLocalMaster(d.id()) || !d.is(HupfUpf.class)) {
                continue;
            }
            HupfUpf backend = d.as(HupfUpf.class);
            try {
                for (UpfEntityType t : REMOVAL_ORDER) {
                    backend.deleteAll(t);
                }
                routes.clear(List.of(d.id()));
                log.info("Removed hupf's entries from backend {}", d.id());
            } catch (UpfProgrammableException e) {
                log.warn("Removing hupf's entries from backend {}: {}", d.id(), e.getMessage());
            }
        }
    }

    /**
     * Removes the app's flow rules and waits (bounded) until the devices confirmed: the pipeconf bundle, which
     * translates them for the devices, stops right after this one.
     */
    private void removeFlowRules() {
        FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
        int n = 0;
        for (FlowEntry r : flowRuleService.getFlowEntriesById(appId)) {
            ops.remove(r);
            n++;
        }
        CountDownLatch done = new CountDownLatch(1);
        boolean[] ok = new boolean[1];
        flowRuleService.apply(ops.build(new FlowRuleOperationsContext() {
            @Override
            public void onSuccess(FlowRuleOperations o) {
                ok[0] = true;
                done.countDown();
            }

            @Override
            public void onError(FlowRuleOperations o) {
                done.countDown();
            }
        }));
        try {
            if (!done.await(FLOW_REMOVAL_WAIT_S, TimeUnit.SECONDS)) {
                log.warn("Removing the {} flow rules of {}: not confirmed after {} s", n, HupfApp.APP_NAME,
                         FLOW_REMOVAL_WAIT_S);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (ok[0]) {
            log.info("Removed the {} flow rules of {}", n, HupfApp.APP_NAME);
        } else {
            log.warn("Removing the {} flow rules of {}: a device refused some", n, HupfApp.APP_NAME);
        }
    }

    private void onDeviceEvent(DeviceEvent event) {
        if (event.type() == DeviceEvent.Type.DEVICE_REMOVED && term != LeaderLease.NOT_LEADER
                && drains.clear(event.subject().id().toString())) {
            log.info("Backend {} removed from ONOS: no longer drained (it joins as a new backend if added again)",
                     event.subject().id());
        }
        executor.execute(this::rebuild);
        if ((event.type() == DeviceEvent.Type.DEVICE_ADDED
                || event.type() == DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED)
                && deviceService.isAvailable(event.subject().id())) {
            // A device back (e.g. restarted): its routes and tenants are gone with its tables.
            DeviceId id = event.subject().id();
            executor.execute(() -> {
                routes.recheck(id);
                syncRoutes(Set.of(id));
            });
        }
    }

    /** On the hupf leader: brings the given devices to the routes and the VXLAN tenants of the netcfg. */
    private void syncRoutes(Collection<DeviceId> ids) {
        HupfConfig cfg = config();
        if (cfg != null && term != LeaderLease.NOT_LEADER) {
            routes.sync(cfg, ids);
        }
    }

    private void checkDevices() {
        // A periodic task that throws is never run again: nothing escapes.
        try {
            Hybrid h = current;
            if (h != null && !h.switchProgrammed) {
                programSwitch(h);
            }
            if (h != null) {
                List<DeviceId> ids = new ArrayList<>(h.backendIds);
                if (h.switchId != null) {
                    ids.add(h.switchId);
                }
                for (DeviceId id : CpuCloneCheck.ensure(groupService, ids, appId)) {
                    log.warn("{} had no CPU clone session in ONOS's group store (no HH report or ACL copy could "
                                     + "reach hupf): added", id);
                }
            }
            syncAllRoutes();
        } catch (RuntimeException e) {
            log.warn("Checking the devices' routes and switch configuration failed: {}", e.toString());
        }
    }

    private void syncAllRoutes() {
        HupfConfig cfg = config();
        if (cfg != null) {
            syncRoutes(cfg.devices().keySet());
        }
    }

    private void onMastershipEvent(MastershipEvent event) {
        if (event.type() == MastershipEvent.Type.MASTER_CHANGED
                && clusterService.getLocalNode().id().equals(event.roleInfo().master())) {
            executor.execute(() -> {
                routes.recheck(event.subject());
                syncRoutes(Set.of(event.subject()));
            });
        }
        Hybrid h = current;
        if (h == null || event.type() != MastershipEvent.Type.MASTER_CHANGED || !h.drives(event.subject())) {
            return;
        }
        if (clusterService.getLocalNode().id().equals(event.roleInfo().master())) {
            // Master again: what the device holds may have changed meanwhile.
            executor.execute(this::reconcileSessions);
        } else {
            executor.execute(this::rebuild);
        }
    }

    /** Has the session core reconcile the devices with the store (a bulk read and diff per table). */
    private void reconcileSessions() {
        HupfService core = hupfService;
        if (core == null || current == null) {
            return;
        }
        try {
            log.info("Reconciled the hybrid's devices with the session store: {} device operations",
                     core.reconcile());
        } catch (IllegalStateException e) {
            log.debug("No reconciliation: {}", e.getMessage());
        }
    }

    /**
     * Returns the UE an HH_REPORT packet-in of the hupf interpreter names (flow key in UE-address mode).
     *
     * @param pkt inbound packet
     * @return the UE, empty for other packet-ins or a reason the contract does not define
     */
    static Optional<Ip4Address> reportedUe(InboundPacket pkt) {
        try {
            return HupfPacketIn.of(pkt).flatMap(HupfPacketIn::hhReport)
                    .map(r -> Ip4Address.valueOf((int) r.flowKey()));
        } catch (IllegalArgumentException e) {
            log.debug("Ignoring a packet-in: {}", e.getMessage());
            return Optional.empty();
        }
    }

    private void onPacket(PacketContext ctx) {
        Hybrid h = current;
        if (h == null || !ctx.inPacket().receivedFrom().deviceId().equals(h.switchId)) {
            return;
        }
        reportedUe(ctx.inPacket()).ifPresent(ue -> {
            ctx.block();
            // The offload writes to the switch: not on ONOS's packet-processing thread.
            executor.execute(() -> h.manager.onHeavyHitter(ue));
        });
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
    private synchronized void rebuild() {
        rebuild(lease.term());
    }

    private synchronized void rebuild(long leaderTerm) {
        if (leaderTerm == LeaderLease.NOT_LEADER || leaderTerm == LeaderLease.UNKNOWN) {
            if (current != null) {
                log.info("Standing by: {}", leaderTerm == LeaderLease.UNKNOWN
                        ? "the leader elector does not answer" : "another node leads hupf and drives its devices");
            }
            term = LeaderLease.NOT_LEADER;
            current = null;
            cancelRetry();
            return;
        }
        if (leaderTerm != term) {
            // A new term: another node may have driven the devices in between; take them over afresh.
            current = null;
            term = leaderTerm;
            // From the journal: what this node counted in an earlier term may be out of date (other leaders wrote
            // cells since), and what the last leader carried for backends away or restarted is there.
            usageLedger = new BackendUsageLedger(ledgerJournal, ledgerJournal.all());
        }
        Iterable<Device> available = deviceService.getAvailableDevices();
        Function<DeviceId, Optional<PiPipeconfId>> pipeconfOf = pipeconfService::ofDevice;
        List<DeviceId> backendIds = pickAll(available, pipeconfOf, Set.of(HupfPipeconfIds.BACKEND));
        backendIds.removeIf(id -> drains.is(id.toString(), DistributedBackendDrains.DRAINED));
        DeviceId switchId = pickAll(available, pipeconfOf, HupfPipeconfIds.SWITCHES).stream().findFirst().orElse(null);
        Hybrid h = current;
        if (h != null && h.backendIds.equals(backendIds) && Objects.equals(h.switchId, switchId)) {
            return;
        }
        if (backendIds.isEmpty()) {
            current = null;
            cancelRetry();
            log.warn("No hupf backend available: sessions wait in the store");
            return;
        }
        try {
            // The devices' mastership comes to this node through LeaderMastership; until it has, writes wait
            // for it (OnosPiTarget's primary gate) and reads need none.
            // A device whose driver ONOS has not bound yet has no behaviours ("Driver not found"): retried.
            List<HupfUpfDevice> backends = new ArrayList<>();
            Map<DeviceId, HupfUpfDevice> ledgered = new HashMap<>();
            for (DeviceId id : backendIds) {
                backends.add(new LedgeredBackend(id.toString(), deviceService.getDevice(id).as(HupfUpf.class),
                                                 usageLedger, backends.isEmpty()));
                ledgered.put(id, backends.get(backends.size() - 1));
            }
            usageLedger.present(backendIds.stream().map(DeviceId::toString).collect(Collectors.toList()));
            HupfUpfDevice hw = switchId == null ? null : deviceService.getDevice(switchId).as(HupfUpf.class);
            if (hw != null) {
                List<Ip4Address> back = SwitchReclaim.reclaim(offloadStore, hw);
                if (!back.isEmpty()) {
                    log.info("Took {} sessions a previous offload manager left on switch {} back to the backend",
                             back.size(), switchId);
                }
            }
            HupfConfig cfg = config();
            OffloadPolicy policy = cfg == null ? OffloadPolicy.builder().build() : cfg.offloadPolicy();
            OffloadManager m = new OffloadManager(backends.size() == 1 ? backends.get(0) : new BackendReplicas(backends),
                                                  hw, policy, System::currentTimeMillis);
            m.useStore(offloadStore);
            m.addListener(recentEvents);
            HybridUpfDevice device = new HybridUpfDevice(backends.get(0), hw, m);
            device.adoptBackend();
            List<HupfUpfDevice> devices = new ArrayList<>(backends);
            devices.set(0, device);
            current = new Hybrid(backendIds, Map.copyOf(ledgered), switchId, m, List.copyOf(devices));
            cancelRetry();
            log.info("Hybrid UPF: backends {}, switch {}", backendIds, switchId == null ? "none" : switchId);
            // Sessions and routes onto a backend new to the hybrid before the switch steers UEs to it: without
            // its routes it would drop what it decapsulates or encapsulates.
            reconcileSessions();
            syncRoutes(backendIds);
            programSwitch(current);
            resumeUnfinishedDrains();
        } catch (UpfProgrammableException | RuntimeException e) {
            // Not only UpfProgrammableException: a RuntimeException would end this task silently (the
            // executor keeps it in a future nobody reads), and with no further device event, nothing would
            // take the devices over again.
            current = null;
            log.warn("Cannot take over backends {} / switch {} yet: {}; retrying in {} ms",
                     backendIds, switchId, e, retryMs);
            if (retry != null) {
                retry.cancel(false);
            }
            retry = executor.schedule((Runnable) this::rebuild, retryMs, TimeUnit.MILLISECONDS);
            retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        }
    }

    /** hupf's netcfg when it is there and valid, else null. */
    private HupfConfig config() {
        HupfConfig cfg = cfgService.getConfig(appId, HupfConfig.class);
        return cfg != null && cfg.isValid() ? cfg : null;
    }

    /**
     * Steering to the backends and HK-IPG from the netcfg onto the hybrid's switch (again on every netcfg
     * change, and every {@link #DEVICES_CHECK_S} until it succeeds; the running offload manager keeps the
     * policy it was built with).
     */
    private void programSwitch(Hybrid h) {
        HupfConfig cfg = config();
        if (h == null || cfg == null) {
            return;
        }
        Device sw = h.switchId == null ? null : deviceService.getDevice(h.switchId);
        if (sw == null || !sw.is(HupfDataplaneConfig.class)) {
            if (h.switchId != null) {
                log.warn("Switch {} has no hupf data-plane configuration: no steering to backends, P4 HK-IPG "
                                 + "defaults", h.switchId);
            }
            h.switchProgrammed = true;
            return;
        }
        try {
            // A draining backend still holds every session: only the steering leaves it.
            Set<DeviceId> live = h.backendIds.stream()
                    .filter(id -> !drains.is(id.toString(), DistributedBackendDrains.DRAINING))
                    .collect(Collectors.toUnmodifiableSet());
            log.info("Switch {}: misses steered to {}, HK-IPG {}", h.switchId,
                     SwitchDataplane.program(sw.as(HupfDataplaneConfig.class), h.switchId, cfg, live),
                     cfg.hhConfig());
            h.steeredTo = cfg.backendPorts().stream()
                    .filter(p -> p.switchId.equals(h.switchId) && live.contains(p.backendId))
                    .map(p -> p.backendId.toString()).distinct().sorted().collect(Collectors.toList());
            h.switchProgrammed = true;
        } catch (UpfProgrammableException | RuntimeException e) {
            h.switchProgrammed = false;
            log.error("Cannot configure switch {}: {}; trying again in {} s", h.switchId, e.getMessage(),
                      DEVICES_CHECK_S);
        }
        programRps(h, sw, cfg);
    }

    /**
     * The netcfg's RPS configuration onto the switch (or the backend playing it), when the netcfg changes and when
     * the switch is taken over (again): never periodically, and a failure (a flow id or buffer length beyond the
     * pipeline's) leaves the rest of the switch's configuration alone.
     */
    private void programRps(Hybrid h, Device sw, HupfConfig cfg) {
        RpsConfig before = h.rpsWritten;
        HupfDataplaneConfig dp;
        try {
            dp = sw.as(HupfDataplaneConfig.class);
            h.rpsWritten = SwitchDataplane.programRps(dp, cfg, before);
        } catch (UpfProgrammableException | RuntimeException e) {
            log.error("Switch {}: RPS not configured: {}", sw.id(), e.getMessage());
            return;
        }
        if (h.rpsWritten == null || h.rpsWritten.equals(before)) {
            return;
        }
        log.info("Switch {}: {}", sw.id(), h.rpsWritten);
        try {
            for (String w : SwitchDataplane.rpsWarnings(dp, cfg)) {
                log.warn("Switch {}: RPS: {}", sw.id(), w);
            }
        } catch (UpfProgrammableException | RuntimeException e) {
            log.warn("Switch {}: RPS written, its tracker not checked (sizes unreadable): {}", sw.id(), e.getMessage());
        }
    }

    @Override
    public DrainReport drain(String backend, long quietMs, long maxMs)
            throws UpfProgrammableException, InterruptedException {
        BackendDrain drain = new BackendDrain(quietMs, maxMs, DRAIN_READ_MS, System::currentTimeMillis, Thread::sleep);
        synchronized (drainLock) {
            Hybrid h = current;
            if (h == null) {
                throw new IllegalStateException("this node drives no backend (another node leads hupf, or no "
                                                        + "backend is available)");
            }
            DeviceId id = DeviceId.deviceId(backend);
            if (drains.is(backend, DistributedBackendDrains.DRAINED)) {
                throw new IllegalStateException(backend + " is drained already");
            }
            if (!h.backendIds.contains(id)) {
                throw new IllegalArgumentException(backend + " is not a backend hupf drives (backends: "
                                                           + h.backendIds + ")");
            }
            if (h.steeredTo.stream().noneMatch(b -> !b.equals(backend))) {
                throw new IllegalStateException("no other backend is steered to that could take " + backend
                                                        + "'s UEs (steered to: " + h.steeredTo + ")");
            }
            drainingNow = backend;
            try {
                DrainReport r = drain.drain(() -> steerAway(h, backend, quietMs, maxMs),
                                            BackendDrain.packets(h.ledgered.get(id), () -> h.manager.counterCells(
                                                    h.manager.lastUsages().keySet())),
                                            () -> leave(backend));
                log.info("Backend {} drained: {}; it may stop", backend, r.summary());
                return r;
            } catch (InterruptedException e) {
                restore(backend, true);
                throw e;
            } catch (UpfProgrammableException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                drainingNow = null;
            }
        }
    }

    /**
     * Once per term, on the hybrid's first build: a backend marked DRAINING that no drain on this node is running
     * was left so by a leader that stopped mid-drain (held, not steered to); its drain is finished here, as the
     * operator asked and with the limits the operator gave (kept with the mark), rather than leaving it held until
     * someone acts. A drain that failed on this node in this term stays as it is: its caller got the error.
     */
    private void resumeUnfinishedDrains() {
        if (drainsCheckedTerm == term) {
            return;
        }
        drainsCheckedTerm = term;
        drains.all().forEach((backend, state) -> {
            if (DistributedBackendDrains.DRAINING.equals(state) && !backend.equals(drainingNow)) {
                log.warn("Backend {} was left DRAINING by a previous leader: resuming its drain", backend);
                drainResumer.execute(() -> resumeDrain(backend));
            }
        });
    }

    private void resumeDrain(String backend) {
        long[] limits = drains.limits(backend);
        if (limits == null) {
            log.warn("Backend {}: its DRAINING mark has no limits: resumed with {} ms quiet within {} ms", backend,
                     DRAIN_QUIET_MS, DRAIN_MAX_MS);
            limits = new long[]{DRAIN_QUIET_MS, DRAIN_MAX_MS};
        }
        try {
            drain(backend, limits[0], limits[1]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (UpfProgrammableException | RuntimeException e) {
            log.warn("Backend {}: the resumed drain did not complete ({}): drain or restore it", backend,
                     e.getMessage());
        }
    }

    /** The drain's first step: the switch steers the backend's UEs to the others, acknowledged. */
    private void steerAway(Hybrid h, String backend, long quietMs, long maxMs)
            throws UpfProgrammableException, InterruptedException {
        drains.setDraining(backend, quietMs, maxMs);
        String refused = onExecutor(() -> {
            if (current != h) {
                return "the hybrid changed meanwhile (devices came or went)";
            }
            programSwitch(h);
            return !h.switchProgrammed ? "switch " + h.switchId + " refused an entry (see the log)"
                    : h.steeredTo.contains(backend) ? "still steered to" : null;
        });
        if (refused != null) {
            restore(backend, true);
            throw new UpfProgrammableException("the switch did not take the steering without " + backend + ": "
                                                       + refused);
        }
    }

    /** The drain's last step: the backend leaves the hybrid (the ledger keeps its last counts as away). */
    private void leave(String backend) {
        drains.setDrained(backend);
        try {
            onExecutor(() -> {
                rebuild();
                return null;
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean restore(String backend) {
        if (backend.equals(drainingNow)) {
            throw new IllegalStateException(backend + " is being drained: restore it once the drain returned");
        }
        return restore(backend, false);
    }

    /** Takes a backend back: the hybrid rebuilt with it (sessions first), then the switch steers to it again. */
    private boolean restore(String backend, boolean unfinished) {
        if (!drains.clear(backend)) {
            return false;
        }
        log.info("Backend {} restored{}", backend, unfinished ? " (its drain did not complete)" : "");
        executor.execute(() -> {
            rebuild();
            programSwitch(current);
        });
        return true;
    }

    @Override
    public Map<String, String> drains() {
        return drains.all();
    }

    /** Runs work on the component's thread (where the devices are taken over and the switch programmed). */
    private <T> T onExecutor(Callable<T> work) throws InterruptedException {
        try {
            return executor.submit(work).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private void cancelRetry() {
        if (retry != null) {
            retry.cancel(false);
            retry = null;
        }
        retryMs = retryFirstMs;
    }

    private void poll() {
        Hybrid h = current;
        if (h != null) {
            try {
                h.manager.poll();
            } catch (RuntimeException e) {
                log.warn("Offload poll failed: {}", e.getMessage());
            }
        }
    }

    @Override
    public List<HupfUpfDevice> devices() {
        Hybrid h = current;
        return h == null ? List.of() : h.devices;
    }

    @Override
    public OffloadMetrics metrics() {
        Hybrid h = current;
        return h == null ? null : h.manager.metrics();
    }

    @Override
    public List<String> backends() {
        Hybrid h = current;
        return h == null ? List.of() : h.backendIds.stream().map(DeviceId::toString).collect(Collectors.toList());
    }

    @Override
    public List<String> steeredTo() {
        Hybrid h = current;
        return h == null ? List.of() : h.steeredTo;
    }

    @Override
    public Set<Ip4Address> offloaded() {
        Hybrid h = current;
        return h == null ? Set.of() : h.manager.offloaded();
    }

    @Override
    public double rateBitsPerSec(Ip4Address ue) {
        Hybrid h = current;
        return h == null ? 0 : h.manager.rateBitsPerSec(ue);
    }

    @Override
    public List<OffloadEvent> recentEvents() {
        return recentEvents.snapshot();
    }

    @Override
    public void onHeavyHitter(Ip4Address ue) {
        Hybrid h = current;
        if (h != null) {
            h.manager.onHeavyHitter(ue);
        }
    }
}
