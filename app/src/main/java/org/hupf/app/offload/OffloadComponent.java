package org.hupf.app.offload;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.core.offload.BackendReplicas;
import org.hupf.core.offload.BackendUsageLedger;
import org.hupf.core.offload.Hybrid;
import org.hupf.core.offload.HybridUpfDevice;
import org.hupf.api.DrainReport;
import org.hupf.api.HupfService;
import org.hupf.api.LiveService;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadService;
import org.hupf.api.UpfDeviceSource;
import org.hupf.app.CurrentDriver;
import org.hupf.core.HupfApp;
import org.hupf.app.LeaderLease;
import org.hupf.app.StorageOpening;
import org.hupf.app.config.HupfConfig;
import org.hupf.app.config.HupfConfigListener;
import org.hupf.core.live.LiveRecorder;
import org.hupf.core.device.Shutdowns;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.packet.HupfPacketIn;
import org.onlab.osgi.DefaultServiceDirectory;
import org.onlab.osgi.ServiceNotFoundException;
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
import org.onosproject.net.group.GroupService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The hybrid inside ONOS, as an OSGi component that wires its parts to ONOS's services and events: the
 * {@link HybridTakeover} finds the backends and the switch among the available devices and offers the session
 * manager the {@link HybridUpfDevice} over the first backend and the switch, then every other backend (each holds
 * every session, the switch splits the misses among them by UE hash, the offload manager measures a session over
 * all of them, {@link BackendReplicas}, each read through the {@link BackendUsageLedger}); the
 * {@link SwitchProgrammer} gives the switch its steering, HK-IPG and RPS; the {@link DrainCoordinator} drains a
 * backend before its planned removal ({@link #drain}); {@link AppEntriesRemoval} and {@link AppFlowRulesRemoval}
 * clear hupf's entries when the app goes; {@link HybridPoll} polls each site's counters and feeds the live view.
 * This component rebuilds the hybrid when devices come and go, hands the
 * switch's HH_REPORT packet-ins to the offload manager on its own thread and keeps every configured device's routes
 * as the netcfg says ({@link DeviceRoutes}). Only on the cluster's hupf leader (the node that runs the session
 * core): the other nodes leave the devices alone. The leader is given mastership of the hybrid's devices by
 * {@code LeaderMastership} (only a device's master may write to it over P4Runtime: its client is the primary one)
 * and has the session core reconcile them with the store when it took them over or became their master again.
 */
@Component(immediate = true, service = {UpfDeviceSource.class, OffloadService.class, LiveService.class})
public class OffloadComponent implements UpfDeviceSource, OffloadService, LiveService {

    private static final Logger log = LoggerFactory.getLogger(OffloadComponent.class);
    /**
     * How often the leader checks its devices' routes (a small table read each; writes only what differs) and
     * programs the switch again if it could not before (e.g. its pipeline was not pushed yet).
     */
    private static final long DEVICES_CHECK_S = 5;

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

    private final DeviceListener listener = this::onDeviceEvent;
    private final MastershipListener mastershipListener = this::onMastershipEvent;
    private final LeaderLease lease =
            new LeaderLease(() -> leadershipService, () -> clusterService.getLocalNode().id());
    private final LeadershipEventListener leadershipListener =
            lease.listener(command -> this.executor.execute(command), this::rebuild);
    private final NetworkConfigListener cfgListener = new HupfConfigListener(event -> this.onNetcfg());
    private final PacketProcessor processor = this::onPacket;
    private final HybridPoll poll = new HybridPoll(() -> this.takeover.hybrids(), () -> this.takeover.backendTotals(),
                                                   () -> this.drainCoordinator.drains());
    private final LiveRecorder live = poll.live();
    private ScheduledExecutorService executor;
    private ApplicationId appId;
    private DistributedOffloadStore offloadStore;
    private DeviceRoutes routes;
    private HybridTakeover takeover;
    private SwitchProgrammer switchProgrammer;
    private DrainCoordinator drainCoordinator;
    private DistributedLedgerJournal ledgerJournal;
    /** Package-private: a test writes what a previous leader left. */
    DistributedBackendDrains drains;
    /** First wait before retrying a failed takeover (package-private: a test shortens it). */
    long retryFirstMs = 1000;

    @Activate
    protected void activate() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "hupf-offload"));
        appId = coreService.registerApplication(HupfApp.APP_NAME);
        offloadStore = StorageOpening.open("the offload records", () -> new DistributedOffloadStore(storageService));
        ledgerJournal = StorageOpening.open("the usage ledger", () -> new DistributedLedgerJournal(storageService));
        drains = StorageOpening.open("the backend drains", () -> new DistributedBackendDrains(storageService));
        routes = new DeviceRoutes(this::currentDevice,
                                  id -> deviceService.isAvailable(id) && mastershipService.isLocalMaster(id));
        switchProgrammer = new SwitchProgrammer(this::config, this::currentDevice, drains, DEVICES_CHECK_S);
        takeover = new HybridTakeover(lease, deviceService, pipeconfService, drains, offloadStore, ledgerJournal,
                                      live::atSite, this::config, executor, this::afterTakeover, retryFirstMs);
        drainCoordinator = new DrainCoordinator(drains, takeover, switchProgrammer, executor);
        takeover.netcfgChanged(config());
        deviceService.addListener(listener);
        mastershipService.addListener(mastershipListener);
        cfgService.addListener(cfgListener);
        leadershipService.addListener(leadershipListener);
        packetService.addProcessor(processor, PacketProcessor.director(1));
        executor.execute(this::rebuild);
        executor.scheduleAtFixedRate(poll, HybridPoll.PERIOD_MS, HybridPoll.PERIOD_MS, TimeUnit.MILLISECONDS);
        executor.scheduleWithFixedDelay(this::checkDevices, DEVICES_CHECK_S, DEVICES_CHECK_S, TimeUnit.SECONDS);
        lease.watch(executor, takeover::term, takeover::rebuild);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        packetService.removeProcessor(processor);
        cfgService.removeListener(cfgListener);
        leadershipService.removeListener(leadershipListener);
        deviceService.removeListener(listener);
        mastershipService.removeListener(mastershipListener);
        Shutdowns.interrupt(executor, "hupf-offload");
        drainCoordinator.close();
        takeover.forget();
        offloadStore.close();
        ledgerJournal.close();
        drains.close();
        if (applicationService.getState(appId) != ApplicationState.ACTIVE) {
            // The app is deactivated or uninstalled, not just this node stopping: its entries go with it.
            AppEntriesRemoval.clearBackends(deviceService, pipeconfService, mastershipService, routes);
            AppFlowRulesRemoval.remove(flowRuleService, appId);
        }
        log.info("Stopped");
    }

    /**
     * A backend the netcfg no longer lists leaves the write set here, on ONOS's event thread, before anything else
     * is written to it; the rest follows on the component's thread.
     */
    private void onNetcfg() {
        boolean unlisted = takeover.netcfgChanged(config());
        executor.execute(() -> {
            if (unlisted) {
                takeover.rebuild();
            }
            takeover.hybrids().forEach(switchProgrammer::program);
            syncAllRoutes();
        });
    }

    private void onDeviceEvent(DeviceEvent event) {
        if (event.type() == DeviceEvent.Type.DEVICE_REMOVED && takeover.term() != LeaderLease.NOT_LEADER
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
        if (cfg != null && takeover.term() != LeaderLease.NOT_LEADER) {
            routes.sync(cfg, ids);
        }
    }

    private void checkDevices() {
        // A periodic task that throws is never run again: nothing escapes.
        try {
            for (Hybrid h : takeover.hybrids()) {
                if (!h.switchProgrammed) {
                    switchProgrammer.program(h);
                }
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
        Hybrid h = takeover.driving(event.subject());
        if (h == null || event.type() != MastershipEvent.Type.MASTER_CHANGED) {
            return;
        }
        if (clusterService.getLocalNode().id().equals(event.roleInfo().master())) {
            // Master again: what the device holds may have changed meanwhile.
            executor.execute(this::reconcileSessions);
        } else {
            executor.execute(this::rebuild);
        }
    }

    /**
     * The session core, looked up when a reconciliation is due rather than referenced: HupfManager needs this
     * component (its devices) and a reference back would be a cycle, which SCR reports as an error at activation.
     *
     * @return the session core, or null where it is not registered (stopped, or not started yet)
     */
    private static HupfService sessionCore() {
        try {
            return DefaultServiceDirectory.getService(HupfService.class);
        } catch (ServiceNotFoundException e) {
            return null;
        }
    }

    /** Has the session core reconcile the devices with the store (a bulk read and diff per table). */
    private void reconcileSessions() {
        HupfService core = sessionCore();
        if (core == null || takeover.hybrids().isEmpty()) {
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
        // A switch's HH reports offload to that switch: its site's hybrid's.
        DeviceId from = ctx.inPacket().receivedFrom().deviceId();
        Hybrid h = takeover.driving(from);
        if (h == null || !from.equals(h.switchId)) {
            return;
        }
        reportedUe(ctx.inPacket()).ifPresent(ue -> {
            ctx.block();
            // The offload writes to the switch: not on ONOS's packet-processing thread.
            executor.execute(() -> h.manager.onHeavyHitter(ue));
        });
    }

    /** After a takeover: sessions and routes onto the devices, then the switch's steering, then unfinished drains. */
    private void afterTakeover(Hybrid h) {
        // Sessions and routes onto a backend new to the hybrid before the switch steers UEs to it: without
        // its routes it would drop what it decapsulates or encapsulates.
        reconcileSessions();
        syncRoutes(h.backendIds);
        switchProgrammer.program(h);
        drainCoordinator.resumeUnfinishedDrains();
    }

    private void rebuild() {
        takeover.rebuild();
    }

    /** ONOS's device with the driver ONOS has for it now ({@link CurrentDriver}), null if unknown. */
    private Device currentDevice(DeviceId id) {
        return CurrentDriver.of(deviceService.getDevice(id));
    }

    /** hupf's netcfg when it is there and valid, else null. */
    private HupfConfig config() {
        HupfConfig cfg = cfgService.getConfig(appId, HupfConfig.class);
        return cfg != null && cfg.isValid() ? cfg : null;
    }

    @Override
    public DrainReport drain(String backend, long quietMs, long maxMs)
            throws UpfProgrammableException, InterruptedException {
        return drainCoordinator.drain(backend, quietMs, maxMs);
    }

    @Override
    public boolean restore(String backend) {
        return drainCoordinator.restore(backend);
    }

    @Override
    public Map<String, String> drains() {
        return drainCoordinator.drains();
    }

    @Override
    public List<HupfUpfDevice> devices() {
        List<HupfUpfDevice> all = new ArrayList<>();
        takeover.hybrids().forEach(h -> all.addAll(takeover.writeSet(h)));
        return all;
    }

    @Override
    public List<HupfUpfDevice> devices(String site) {
        Hybrid h = takeover.ofSite(site);
        return h == null ? List.of() : takeover.writeSet(h);
    }

    @Override
    public void feedUsageChanges(Consumer<Collection<Ip4Address>> feed) {
        takeover.feedUsageChanges(feed);
    }

    @Override
    public OffloadMetrics metrics() {
        List<OffloadMetrics> bySite = new ArrayList<>();
        takeover.hybrids().forEach(h -> bySite.add(h.manager.metrics()));
        return OffloadMetrics.sum(bySite);
    }

    @Override
    public Map<String, SiteHybrid> sites() {
        Map<String, SiteHybrid> out = new LinkedHashMap<>();
        for (Hybrid h : takeover.hybrids()) {
            out.put(h.siteId, new SiteHybrid(h.manager.metrics(), h.manager.offloaded(), takeover.writtenBackends(h)
                    .stream().map(DeviceId::toString).collect(Collectors.toList()), h.steeredTo));
        }
        return out;
    }

    @Override
    public List<String> backends() {
        List<String> all = new ArrayList<>();
        takeover.hybrids().forEach(h -> takeover.writtenBackends(h).forEach(id -> all.add(id.toString())));
        return all;
    }

    @Override
    public List<String> steeredTo() {
        List<String> all = new ArrayList<>();
        takeover.hybrids().forEach(h -> all.addAll(h.steeredTo));
        return all;
    }

    @Override
    public Set<Ip4Address> offloaded() {
        Set<Ip4Address> all = new HashSet<>();
        takeover.hybrids().forEach(h -> all.addAll(h.manager.offloaded()));
        return all;
    }

    @Override
    public double rateBitsPerSec(Ip4Address ue) {
        double rate = 0;
        for (Hybrid h : takeover.hybrids()) {
            rate += h.manager.rateBitsPerSec(ue);
        }
        return rate;
    }

    @Override
    public void history(ObjectNode root, long afterMs) {
        live.history(root, afterMs);
    }

    @Override
    public void events(ObjectNode root, long afterSeq) {
        live.events(root, afterSeq);
    }

    @Override
    public void addListener(Runnable listener) {
        live.addListener(listener);
    }

    @Override
    public void removeListener(Runnable listener) {
        live.removeListener(listener);
    }

    @Override
    public void onHeavyHitter(Ip4Address ue) {
        // The UE's session is at one site: the report goes to the offload manager that tracks it.
        for (Hybrid h : takeover.hybrids()) {
            if (h.manager.isTracked(ue)) {
                h.manager.onHeavyHitter(ue);
                return;
            }
        }
    }
}
