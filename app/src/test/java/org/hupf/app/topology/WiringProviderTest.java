package org.hupf.app.topology;

import org.hupf.app.FakeLeadership;
import org.hupf.app.config.HupfConfig;
import org.hupf.core.HupfApp;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultHost;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Host;
import org.onosproject.net.HostId;
import org.onosproject.net.HostLocation;
import org.onosproject.net.Link;
import org.onosproject.net.LinkKey;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.host.HostDescription;
import org.onosproject.net.host.HostProviderService;
import org.onosproject.net.host.HostServiceAdapter;
import org.onosproject.net.link.LinkDescription;
import org.onosproject.net.link.LinkProviderServiceAdapter;
import org.onosproject.net.link.LinkServiceAdapter;
import org.onosproject.net.provider.ProviderId;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.createNiceMock;
import static org.easymock.EasyMock.eq;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.getCurrentArguments;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;

/**
 * ONOS's topology holds the hybrid's links and hosts while hupf's config has them and their devices are up,
 * reported by the node that leads hupf; they go with the config, the device, or the app.
 */
public class WiringProviderTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, HupfApp.APP_NAME);
    private static final NodeId LOCAL = new NodeId("onos-1");
    private static final NodeId OTHER = new NodeId("onos-2");
    private static final ProviderId OTHER_PROVIDER = new ProviderId("lldp", "org.onosproject.lldp");

    private final Map<LinkKey, Link> links = new ConcurrentHashMap<>();
    private final Map<HostId, Host> hosts = new ConcurrentHashMap<>();
    private final Set<DeviceId> down = new HashSet<>();
    private final FakeLeadership leadership = new FakeLeadership(LOCAL, 1);
    private HupfConfig config;
    private WiringProvider provider;

    @Before
    public void setUp() throws Exception {
        config = HybridWiringTest.config("fabric-two-sites.json");
        provider = new WiringProvider();
        provider.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId getAppId(String name) {
                return APP;
            }
        };
        NetworkConfigService cfg = createNiceMock(NetworkConfigService.class);
        expect(cfg.getConfig(eq(APP), eq(HupfConfig.class))).andAnswer(() -> config).anyTimes();
        replay(cfg);
        provider.cfgService = cfg;
        DeviceService devices = createNiceMock(DeviceService.class);
        expect(devices.isAvailable(anyObject())).andAnswer(() -> !down.contains(getCurrentArguments()[0]))
                .anyTimes();
        replay(devices);
        provider.deviceService = devices;
        ClusterService cluster = createNiceMock(ClusterService.class);
        expect(cluster.getLocalNode()).andReturn(new DefaultControllerNode(LOCAL, IpAddress.valueOf("10.0.9.1")))
                .anyTimes();
        replay(cluster);
        provider.clusterService = cluster;
        provider.leadershipService = leadership;
        provider.linkService = new LinkServiceAdapter() {
            @Override
            public Iterable<Link> getLinks() {
                return Set.copyOf(links.values());
            }

            @Override
            public Link getLink(ConnectPoint src, ConnectPoint dst) {
                return links.get(LinkKey.linkKey(src, dst));
            }
        };
        provider.hostService = new HostServiceAdapter() {
            @Override
            public Iterable<Host> getHosts() {
                return Set.copyOf(hosts.values());
            }

            @Override
            public Host getHost(HostId id) {
                return hosts.get(id);
            }
        };
        provider.links = new LinkProviderServiceAdapter(provider) {
            @Override
            public void linkDetected(LinkDescription d) {
                links.put(LinkKey.linkKey(d.src(), d.dst()), link(WiringProvider.PROVIDER_ID, d.src(), d.dst()));
            }

            @Override
            public void linkVanished(LinkDescription d) {
                links.remove(LinkKey.linkKey(d.src(), d.dst()));
            }
        };
        provider.hosts = hostStore();
    }

    private static Link link(ProviderId by, ConnectPoint src, ConnectPoint dst) {
        return DefaultLink.builder().providerId(by).src(src).dst(dst).type(Link.Type.DIRECT).build();
    }

    private HostProviderService hostStore() {
        return new HostProviderService() {
            @Override
            public void hostDetected(HostId id, HostDescription d, boolean replaceIps) {
                hosts.put(id, new DefaultHost(WiringProvider.PROVIDER_ID, id, d.hwAddress(), d.vlan(), d.locations(),
                                              d.ipAddress(), d.configured()));
            }

            @Override
            public void hostVanished(HostId id) {
                hosts.remove(id);
            }

            @Override
            public void removeIpFromHost(HostId id, IpAddress ip) {
            }

            @Override
            public void removeLocationFromHost(HostId id, HostLocation location) {
            }

            @Override
            public org.onosproject.net.host.HostProvider provider() {
                return provider;
            }
        };
    }

    private Set<String> linkNames() {
        return links.values().stream().map(l -> l.src() + "-" + l.dst()).collect(Collectors.toSet());
    }

    private Set<String> hostNames() {
        return hosts.values().stream().map(h -> h.id() + " at " + h.locations().stream().map(ConnectPoint::toString)
                .collect(Collectors.toSet()) + " " + h.ipAddresses() + (h.configured() ? " configured" : ""))
                .collect(Collectors.toSet());
    }

    @Test
    public void theLeaderReportsEveryLinkAndHostOfTheConfig() {
        provider.sync();
        assertEquals(6, links.size());
        assertEquals(HybridWiring.links(config).stream().map(d -> d.src() + "-" + d.dst()).collect(Collectors.toSet()),
                     linkNames());
        assertEquals(Set.of("02:68:01:0A:00:01/None at [device:bmv2:s1/1] [192.0.2.2] configured",
                            "02:68:01:0D:00:01/None at [device:bmv2:s1/2] [] configured",
                            "02:68:02:0A:00:01/None at [device:bmv2:s2/1] [192.0.2.3] configured",
                            "02:68:02:0D:00:01/None at [device:bmv2:s2/2] [] configured"), hostNames());
    }

    @Test
    public void aDeviceDownTakesItsLinksAndHostsUntilItIsBack() {
        provider.sync();
        down.add(DeviceId.deviceId("device:bmv2:s2"));
        provider.sync();
        assertEquals(4, links.size());
        assertEquals(2, hosts.size());
        down.clear();
        provider.sync();
        assertEquals(6, links.size());
        assertEquals(4, hosts.size());
    }

    @Test
    public void theConfigGoneTakesOnlyWhatHupfReported() {
        ConnectPoint a = ConnectPoint.deviceConnectPoint("device:bmv2:s1/7");
        ConnectPoint b = ConnectPoint.deviceConnectPoint("device:bmv2:s2/7");
        links.put(LinkKey.linkKey(a, b), link(OTHER_PROVIDER, a, b));
        provider.sync();
        config = null;
        provider.sync();
        assertEquals(Set.of(a + "-" + b), linkNames());
        assertEquals(Set.of(), hosts.keySet());
    }

    @Test
    public void aNodeThatDoesNotLeadReportsNothingAndTheAppStoppingWithdrawsAll() {
        leadership.elect(OTHER, 2);
        provider.sync();
        assertEquals(Map.of(), links);
        assertEquals(Map.of(), hosts);
        leadership.elect(LOCAL, 3);
        provider.sync();
        assertEquals(6, links.size());
        provider.withdrawAll();
        assertEquals(Map.of(), links);
        assertEquals(Map.of(), hosts);
    }
}
