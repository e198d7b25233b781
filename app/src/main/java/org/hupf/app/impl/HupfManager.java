package org.hupf.app.impl;

import org.hupf.core.impl.DeviceCells;
import org.hupf.core.impl.SessionManagerService;
import org.hupf.core.impl.TenantReport;
import org.hupf.app.CurrentDriver;
import org.hupf.api.HupfService;
import org.hupf.api.TenantStatus;
import org.hupf.api.UpfDeviceSource;
import org.hupf.core.HupfApp;
import org.hupf.app.LeaderLease;
import org.hupf.app.StorageOpening;
import org.hupf.app.config.HupfConfig;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.Shutdowns;
import org.hupf.core.offload.ControlPlane;
import org.hupf.core.pfcp.PfcpAgent;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTenant;
import org.hupf.core.site.Site;
import org.hupf.core.site.SiteChange;
import org.hupf.core.site.SiteIndex;
import org.hupf.core.site.SitePlacement;
import org.hupf.app.store.DistributedSessionStore;
import org.hupf.app.store.DistributedUsageBaselineStore;
import org.hupf.core.store.InMemoryAssociationStore;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.dataplane.Tenant;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.app.ApplicationService;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.SocketException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import static org.onosproject.net.config.basics.SubjectFactories.APP_SUBJECT_FACTORY;

/**
 * The hupf ONOS component: reads {@link HupfConfig}, keeps sessions in the distributed store and, on the
 * cluster's hupf leader, runs the PFCP agent and reconciles devices with the store periodically and when
 * a device (re)appears.
 */
@Component(immediate = true, service = HupfService.class)
public class HupfManager extends SessionManagerService {

    private static final Logger log = LoggerFactory.getLogger(HupfManager.class);

    /** The manager, agent, store and UE pools are this node's, set on activation and leadership. */
    public HupfManager() {
        super(null, List.of());
    }
    /** Cells per counter and meter array while no device reports its P4Info sizes. */
    private static final int DEFAULT_CELLS = 1 << 20;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry cfgRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LeadershipService leadershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ApplicationService applicationService;

    /**
     * Mandatory: ONOS stops this component before the one that drives the devices, so that the device writer
     * finishes what it took with the devices still driven (the other way round, its writes and final usage reads
     * ran on devices whose component had stopped).
     */
    @Reference(cardinality = ReferenceCardinality.MANDATORY, policy = ReferencePolicy.DYNAMIC)
    protected volatile UpfDeviceSource deviceSource;

    private final ConfigFactory<ApplicationId, HupfConfig> factory =
            new ConfigFactory<>(APP_SUBJECT_FACTORY, HupfConfig.class, HupfConfig.KEY) {
                @Override
                public HupfConfig createConfig() {
                    return new HupfConfig(HupfManager.this::checkSitesChange);
                }
            };
    private final NetworkConfigListener cfgListener = new InternalConfigListener();
    private final DeviceListener deviceListener = new InternalDeviceListener();
    private final LeaderLease lease =
            new LeaderLease(() -> leadershipService, () -> clusterService.getLocalNode().id());
    private final LeadershipEventListener leadershipListener =
            lease.listener(command -> this.executor.execute(command), this::refresh);
    /** The term of hupf's leadership this node acts under; {@link LeaderLease#NOT_LEADER} while it stands by. */
    private volatile long activeTerm = LeaderLease.NOT_LEADER;
    /** Set when the deactivation begins: nothing starts the core again, and requests are refused. */
    private volatile boolean stopping;
    /** What the running core was built from (HupfConfig.coreSettings), to skip restarts that change nothing. */
    private String activeConfig;

    private ApplicationId appId;
    private DistributedSessionStore store;
    private DistributedUsageBaselineStore baselines;
    private ScheduledExecutorService executor;
    private ScheduledFuture<?> reconcileTask;
    /**
     * A periodic reconciliation reads every table of every device through ONOS's PI decoding, in time that grows
     * with the sessions: the periodic one is skipped until a pause of this many times its last duration has
     * passed, so that it takes at most a tenth of a thread. Device events still reconcile at once.
     */
    static final int RECONCILE_GAP_FACTOR = 9;
    /** When the periodic reconciliation is due again, ms (the manager's thread only). */
    private long reconcileDueAt;
    private volatile SessionManager manager;
    private volatile PfcpAgent agent;
    private volatile List<Ip4Prefix> uePools = List.of();
    /** The netcfg's tenants by network instance: a change binds the next sessions without restarting the core. */
    private volatile Map<String, SessionTenant> tenants = Map.of();
    /** Each stored session's site under the netcfg's sites ({@link #siteIndex}). */
    private volatile SiteIndex siteIndex;

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(HupfApp.APP_NAME);
        store = StorageOpening.open("the session store", () -> new DistributedSessionStore(storageService));
        baselines = StorageOpening.open("the usage baselines",
                                        () -> new DistributedUsageBaselineStore(storageService));
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "hupf-manager"));
        cfgRegistry.registerConfigFactory(factory);
        cfgRegistry.addListener(cfgListener);
        deviceService.addListener(deviceListener);
        leadershipService.addListener(leadershipListener);
        StorageOpening.open("hupf's leadership", () -> leadershipService.runForLeadership(HupfApp.APP_NAME));
        refresh();
        lease.watch(executor, () -> activeTerm, this::apply);
        log.info("Started");
    }

    /**
     * Stops in the order that leaves nothing behind: no event, PFCP message or REST request reaches the core any
     * more; its thread finishes what it runs (a reconciliation, a leadership check); the PFCP agent answers the
     * requests it took (an association release among them removes its sessions from the store); the device writer
     * writes what they queued (a bulk deletion's removals); the store commits the writes taken. Only then are the
     * sessions of a deactivated app removed, and this node gives up the leadership (withdrawn earlier, its own
     * leadership check would call the stepping down a change of leader). Each wait is bounded and says in the log
     * what it left; a store removal cut off stays recorded, for the next leader to finish.
     */
    @Deactivate
    protected void deactivate() {
        stopping = true;
        leadershipService.removeListener(leadershipListener);
        deviceService.removeListener(deviceListener);
        cfgRegistry.removeListener(cfgListener);
        Shutdowns.finish(executor, "hupf-manager");
        stop();
        store.close();
        if (applicationService.getState(appId) != ApplicationState.ACTIVE) {
            // The app is deactivated or uninstalled, not just this node stopping: its entries leave the devices
            // (OffloadComponent) and its PFCP associations are gone, so no session may outlive them in the store.
            try {
                log.info("Removed hupf's {} sessions from the store: the app is deactivated", store.clear());
            } catch (RuntimeException e) {
                log.error("Removing hupf's sessions from the store failed ({}): the next node to lead hupf "
                                  + "removes them before it serves PFCP", e.toString());
            }
        }
        leadershipService.withdraw(HupfApp.APP_NAME);
        cfgRegistry.unregisterConfigFactory(factory);
        log.info("Stopped");
    }

    private Collection<HupfUpfDevice> devices() {
        UpfDeviceSource source = deviceSource;
        return source == null ? List.of() : source.devices();
    }

    private Collection<HupfUpfDevice> devices(String site) {
        UpfDeviceSource source = deviceSource;
        return source == null ? List.of() : source.devices(site);
    }

    private synchronized void stop() {
        if (reconcileTask != null) {
            reconcileTask.cancel(false);
        }
        if (agent != null) {
            UpfDeviceSource source = deviceSource;
            if (source != null) {
                source.feedUsageChanges(null);
            }
            agent.close();
            agent = null;
        }
        if (manager != null) {
            manager.close();
        }
        manager = null;
        uePools = List.of();
        activeConfig = null;
    }

    /**
     * Runs the core on the cluster's leader only: one PFCP agent and one writer of the devices. A new
     * leader rebuilds everything from the distributed store and reconciles, so the loss of a node costs
     * no session.
     */
    synchronized void refresh() {
        apply(lease.term());
    }

    private synchronized void apply(long term) {
        if (stopping) {
            return;
        }
        if (term == LeaderLease.NOT_LEADER || term == LeaderLease.UNKNOWN) {
            if (manager != null) {
                log.info("standing by: {}", term == LeaderLease.UNKNOWN
                        ? "the leader elector does not answer" : lease.leaderNow());
            }
            stop();
            activeTerm = LeaderLease.NOT_LEADER;
            return;
        }
        // A new term of this node's: another node may have led in between, so the core starts afresh.
        boolean sameTerm = term == activeTerm;
        activeTerm = term;
        if (!sameTerm) {
            finishInterruptedRemovals();
        }
        HupfConfig cfg = cfgRegistry.getConfig(appId, HupfConfig.class);
        if (cfg != null && cfg.isValid()) {
            tenants = cfg.sessionTenants();
        }
        // Only the core's own fields restart it: routes, steering or offload changes are the devices' business.
        String json = cfg == null ? null : cfg.isValid() ? cfg.coreSettings() : cfg.node().toString();
        if (sameTerm && manager != null && json != null && json.equals(activeConfig)) {
            return;
        }
        configure(cfg);
        activeConfig = manager == null ? null : json;
        if (manager != null) {
            executor.execute(this::reconcileQuietly);
        }
    }

    /**
     * Before this node serves PFCP in a new term: the store removals a node that stopped or was lost left under
     * way (an association released, hupf deactivated) are finished, and the reconciliation that follows the
     * core's start takes their sessions' entries off the devices.
     */
    private void finishInterruptedRemovals() {
        try {
            store.finishInterruptedRemovals();
        } catch (RuntimeException e) {
            log.error("Finishing the session removals a stopped node left failed ({}): retried in the next term",
                      e.toString());
        }
    }

    /** (Re)starts the core with a configuration; sessions stay in the store across restarts. */
    private synchronized void configure(HupfConfig cfg) {
        stop();
        if (cfg == null) {
            log.info("hupf is waiting for its netcfg (apps.{}.{})", HupfApp.APP_NAME, HupfConfig.KEY);
            return;
        }
        if (!cfg.isValid()) {
            log.error("invalid hupf netcfg: {}", cfg.error());
            return;
        }
        Ip4Address n3 = cfg.n3Addresses().get(0);
        SessionManager m = ControlPlane.builder().store(store).devices(this::devices).siteDevices(this::devices)
                .pool(new ResourcePool(new DeviceCells(this::devices, DEFAULT_CELLS)))
                .n3Addresses(cfg.n3Addresses()).uePools(cfg.uePools()).sliceId(cfg.sliceId()).qfiToTc(cfg.qfiToTc())
                .tenants(() -> tenants).networkInstances(cfg.networkInstances()).sites(cfg.sites()).build()
                .sessionManager();
        try {
            agent = new PfcpAgent(cfg.pfcp(n3), m, new InMemoryAssociationStore(), PfcpAgent.startTimeStamp(),
                                  baselines);
            UpfDeviceSource source = deviceSource;
            if (source != null) {
                // The offload polls' changed UEs: the agent checks their volume thresholds, not every session's.
                source.feedUsageChanges(agent.usageChanges());
            }
        } catch (SocketException e) {
            log.error("PFCP agent cannot bind: {} (REST and CLI still work)", e.getMessage());
        }
        uePools = cfg.uePools();
        manager = m;
        int period = cfg.reconcileIntervalSeconds();
        reconcileTask = executor.scheduleWithFixedDelay(this::reconcileWhenDue, period, period, TimeUnit.SECONDS);
    }

    private void reconcileWhenDue() {
        long start = System.currentTimeMillis();
        if (start >= reconcileDueAt) {
            reconcileQuietly();
            long end = System.currentTimeMillis();
            reconcileDueAt = reconcileDueAfter(end, end - start);
        }
    }

    /**
     * @param endedAt when the last periodic reconciliation ended, ms
     * @param tookMs  how long it took
     * @return when the next is due, ms
     */
    static long reconcileDueAfter(long endedAt, long tookMs) {
        return endedAt + RECONCILE_GAP_FACTOR * Math.max(0, tookMs);
    }

    private void reconcileQuietly() {
        SessionManager m = manager;
        if (m != null) {
            int ops = m.reconcile();
            if (ops > 0) {
                log.info("reconciliation: {} device operations", ops);
            }
        }
    }

    /** The session manager while this node runs hupf. */
    @Override
    protected SessionManager manager() {
        SessionManager m = manager;
        if (stopping) {
            throw new IllegalStateException("hupf is stopping on this node");
        }
        if (m == null) {
            throw new IllegalStateException("hupf is not running here: this node must lead the cluster's hupf"
                                                    + " and apps." + HupfApp.APP_NAME + "." + HupfConfig.KEY
                                                    + " must be a valid netcfg");
        }
        return m;
    }

    /** As ONOS validates a netcfg before storing it: refuses sites that would strand stored sessions. */
    private void checkSitesChange(List<Site> proposed) {
        String refusal = SiteChange.refusal(HupfConfig.sitesOf(cfgRegistry.getConfig(appId, HupfConfig.class)),
                                            proposed, store::all);
        if (refusal != null) {
            // ONOS's answer to the netcfg does not carry the reason: the log does.
            log.warn("netcfg refused: {}", refusal);
            throw new IllegalArgumentException(refusal);
        }
    }

    /**
     * The netcfg's sites, read on every node, with each stored session's site: the index lives as long as the sites
     * do, so a session is placed once on this node, not at every listing.
     */
    @Override
    protected SiteIndex siteIndex() {
        HupfConfig cfg = cfgRegistry.getConfig(appId, HupfConfig.class);
        if (cfg == null || !cfg.isValid() || cfg.sites().isEmpty()) {
            return null;
        }
        List<Site> sites = cfg.sites();
        SiteIndex kept = siteIndex;
        if (kept == null || !kept.sites().equals(sites)) {
            kept = new SiteIndex(new SitePlacement(sites));
            siteIndex = kept;
        }
        return kept;
    }

    @Override
    protected SessionStore store() {
        return store;
    }

    @Override
    protected PfcpAgent agent() {
        return agent;
    }

    @Override
    public List<Ip4Prefix> uePools() {
        return uePools;
    }

    /**
     * The netcfg's tenants, on any node: the sessions bound to each counted in the distributed store, the tenant
     * and slice counters read from every device of the netcfg (a device that cannot be read says why).
     */
    @Override
    public List<TenantStatus> tenants() {
        HupfConfig cfg = cfgRegistry.getConfig(appId, HupfConfig.class);
        if (cfg == null || !cfg.isValid()) {
            return List.of();
        }
        List<Tenant> tenants = cfg.tenants();
        Set<Long> sliceCells = new TreeSet<>();
        tenants.forEach(t -> t.slices().forEach(x -> sliceCells.add(x.cell(t.tenantId()))));
        Map<String, Map<Integer, long[]>> cells = new HashMap<>();
        Map<String, Map<Long, long[]>> slices = new HashMap<>();
        Map<String, String> unreadable = new HashMap<>();
        for (DeviceId id : cfg.devices().keySet()) {
            Device d = CurrentDriver.of(deviceService.getDevice(id));
            try {
                if (d == null || !d.is(HupfDataplaneConfig.class)) {
                    throw new UpfProgrammableException("no hupf pipeline on " + id + " yet");
                }
                HupfDataplaneConfig dp = d.as(HupfDataplaneConfig.class);
                Map<Integer, long[]> tenantCells = dp.readTenantCounters();
                slices.put(id.toString(), sliceCells.isEmpty() ? Map.of() : dp.readSliceCounters(sliceCells));
                cells.put(id.toString(), tenantCells);
            } catch (UpfProgrammableException | RuntimeException e) {
                unreadable.put(id.toString(), e.getMessage());
            }
        }
        return TenantReport.of(tenants, cfg.sessionTenants(), store.all(), cells, slices, unreadable);
    }

    @Override
    public Map<String, Long> stats() {
        return manager == null ? Map.of("sessions", (long) store.all().size(), "configured", 0L) : super.stats();
    }

    private class InternalConfigListener implements NetworkConfigListener {
        @Override
        public boolean isRelevant(NetworkConfigEvent event) {
            return event.configClass() == HupfConfig.class;
        }

        @Override
        public void event(NetworkConfigEvent event) {
            switch (event.type()) {
                case CONFIG_ADDED:
                case CONFIG_UPDATED:
                    executor.execute(HupfManager.this::refresh);
                    break;
                case CONFIG_REMOVED:
                    executor.execute(HupfManager.this::stop);
                    break;
                default:
                    break;
            }
        }
    }

    private class InternalDeviceListener implements DeviceListener {
        @Override
        public void event(DeviceEvent event) {
            boolean back = event.type() == DeviceEvent.Type.DEVICE_ADDED
                    || event.type() == DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED
                    && deviceService.isAvailable(event.subject().id());
            if (back) {
                // A device that (re)joined may have lost its tables: put the store back on it.
                executor.execute(HupfManager.this::reconcileQuietly);
            }
        }
    }
}
