package org.hupf.app.topology;

import org.hupf.app.LeaderLease;
import org.hupf.app.config.HupfConfig;
import org.hupf.app.config.HupfConfigListener;
import org.hupf.core.HupfApp;
import org.hupf.core.device.Shutdowns;
import org.onlab.packet.VlanId;
import org.onosproject.app.ApplicationService;
import org.onosproject.app.ApplicationState;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.Host;
import org.onosproject.net.HostId;
import org.onosproject.net.HostLocation;
import org.onosproject.net.Link;
import org.onosproject.net.LinkKey;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.host.DefaultHostDescription;
import org.onosproject.net.host.HostProvider;
import org.onosproject.net.host.HostProviderRegistry;
import org.onosproject.net.host.HostProviderService;
import org.onosproject.net.host.HostService;
import org.onosproject.net.link.DefaultLinkDescription;
import org.onosproject.net.link.LinkDescription;
import org.onosproject.net.link.LinkProvider;
import org.onosproject.net.link.LinkProviderRegistry;
import org.onosproject.net.link.LinkProviderService;
import org.onosproject.net.link.LinkService;
import org.onosproject.net.provider.ProviderId;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;

/**
 * Puts the hybrid's wiring into ONOS's topology ({@link HybridWiring}): the switch-backend links and the gNB and
 * data-network hosts of hupf's netcfg, while their devices are available. hupf's pipelines have no LLDP path,
 * so nothing would discover them. The node that leads hupf reports them (the stores are shared) and withdraws what
 * it reported and the config no longer has; when the app is deactivated they are all withdrawn, when a node merely
 * stops they stay for the next leader.
 */
@Component(immediate = true)
public class WiringProvider implements LinkProvider, HostProvider {

    static final ProviderId PROVIDER_ID = new ProviderId("hupf", HupfApp.APP_NAME);
    private static final Logger log = LoggerFactory.getLogger(WiringProvider.class);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ApplicationService applicationService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService cfgService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LinkService linkService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected HostService hostService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LinkProviderRegistry linkProviderRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected HostProviderRegistry hostProviderRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LeadershipService leadershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    private final LeaderLease lease =
            new LeaderLease(() -> leadershipService, () -> clusterService.getLocalNode().id());
    private final LeadershipEventListener leadershipListener =
            lease.listener(command -> this.executor.execute(command), this::sync);
    private final NetworkConfigListener cfgListener =
            new HupfConfigListener(event -> this.executor.execute(this::sync));
    // ONOS's link store takes a link only from the master of its destination device (hupf's leader, once
    // LeaderMastership got it the mastership).
    private final MastershipListener mastershipListener = event -> this.executor.execute(this::sync);
    private final DeviceListener deviceListener = new DeviceListener() {
        @Override
        public boolean isRelevant(DeviceEvent event) {
            return event.type() == DeviceEvent.Type.DEVICE_ADDED || event.type() == DeviceEvent.Type.DEVICE_REMOVED
                    || event.type() == DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED;
        }

        @Override
        public void event(DeviceEvent event) {
            executor.execute(WiringProvider.this::sync);
        }
    };
    private ScheduledExecutorService executor;
    LinkProviderService links;
    HostProviderService hosts;
    /** The term of hupf's leadership this node reports under (executor thread only). */
    private volatile long term = LeaderLease.NOT_LEADER;
    /** Each host as this node last reported it: a host is reported again only when the config changed it. */
    private final Map<HostId, HybridWiring.Neighbour> reported = new HashMap<>();

    @Activate
    protected void activate() {
        links = linkProviderRegistry.register(this);
        hosts = hostProviderRegistry.register(this);
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "hupf-wiring"));
        leadershipService.addListener(leadershipListener);
        cfgService.addListener(cfgListener);
        deviceService.addListener(deviceListener);
        mastershipService.addListener(mastershipListener);
        executor.execute(this::sync);
        lease.watch(executor, () -> term, t -> sync());
    }

    @Deactivate
    protected void deactivate() {
        mastershipService.removeListener(mastershipListener);
        deviceService.removeListener(deviceListener);
        cfgService.removeListener(cfgListener);
        leadershipService.removeListener(leadershipListener);
        Shutdowns.interrupt(executor, "hupf-wiring");
        ApplicationId appId = coreService.getAppId(HupfApp.APP_NAME);
        if (appId != null && applicationService.getState(appId) != ApplicationState.ACTIVE) {
            // The app is deactivated or uninstalled, not just this node stopping (the next leader keeps them).
            withdrawAll();
        }
        linkProviderRegistry.unregister(this);
        hostProviderRegistry.unregister(this);
    }

    @Override
    public ProviderId id() {
        return PROVIDER_ID;
    }

    @Override
    public void triggerProbe(Host host) {
        // The hosts come from hupf's config: there is nothing to probe.
    }

    /** On the leader: reports the config's links and hosts whose devices are available, withdraws the rest. */
    void sync() {
        try {
            term = lease.term();
            if (term == LeaderLease.NOT_LEADER || term == LeaderLease.UNKNOWN) {
                term = LeaderLease.NOT_LEADER;
                reported.clear();
                return;
            }
            ApplicationId appId = coreService.getAppId(HupfApp.APP_NAME);
            HupfConfig cfg = appId == null ? null : cfgService.getConfig(appId, HupfConfig.class);
            boolean valid = cfg != null && cfg.isValid();
            List<LinkDescription> wantLinks = valid ? HybridWiring.links(cfg).stream()
                    .filter(l -> available(l.src()) && available(l.dst())).collect(Collectors.toList()) : List.of();
            Map<HostId, HybridWiring.Neighbour> wantHosts = new HashMap<>(valid ? HybridWiring.hosts(cfg) : Map.of());
            wantHosts.values().removeIf(n -> !n.locations.stream().allMatch(this::available));
            withdraw(wantLinks.stream().map(l -> LinkKey.linkKey(l.src(), l.dst())).collect(Collectors.toSet()),
                     wantHosts.keySet());
            for (LinkDescription l : wantLinks) {
                if (linkService.getLink(l.src(), l.dst()) == null) {
                    links.linkDetected(l);
                }
            }
            for (HybridWiring.Neighbour n : wantHosts.values()) {
                if (!n.equals(reported.get(n.id())) || hostService.getHost(n.id()) == null) {
                    hosts.hostDetected(n.id(), description(n), false);
                    reported.put(n.id(), n);
                }
            }
        } catch (RuntimeException e) {
            // A store that does not answer now is asked again on the next event or leadership check.
            log.warn("Reporting hupf's links and hosts to ONOS's topology failed: {}", e.toString());
        }
    }

    /** Withdraws every link and host hupf reported (the app stopping): any node may, the stores are shared. */
    void withdrawAll() {
        try {
            withdraw(Set.of(), Set.of());
        } catch (RuntimeException e) {
            log.warn("Withdrawing hupf's links and hosts from ONOS's topology failed: {}", e.toString());
        }
    }

    /** Withdraws the links and hosts hupf reported that are not among those to keep. */
    private void withdraw(Set<LinkKey> keepLinks, Set<HostId> keepHosts) {
        for (Link l : linkService.getLinks()) {
            if (PROVIDER_ID.equals(l.providerId()) && !keepLinks.contains(LinkKey.linkKey(l))) {
                links.linkVanished(new DefaultLinkDescription(l.src(), l.dst(), l.type()));
            }
        }
        for (Host h : hostService.getHosts()) {
            if (PROVIDER_ID.equals(h.providerId()) && !keepHosts.contains(h.id())) {
                hosts.hostVanished(h.id());
                reported.remove(h.id());
            }
        }
    }

    private boolean available(ConnectPoint at) {
        return deviceService.isAvailable(at.deviceId());
    }

    private static DefaultHostDescription description(HybridWiring.Neighbour n) {
        Set<HostLocation> at = n.locations.stream().map(c -> new HostLocation(c, 0)).collect(Collectors.toSet());
        return new DefaultHostDescription(n.mac, VlanId.NONE, at, n.ips, true, DefaultAnnotations.EMPTY);
    }
}
