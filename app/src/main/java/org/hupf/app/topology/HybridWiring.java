package org.hupf.app.topology;

import org.hupf.app.config.HupfConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.onlab.packet.IpAddress;
import org.onlab.packet.MacAddress;
import org.onlab.packet.VlanId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.HostId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.link.DefaultLinkDescription;
import org.onosproject.net.link.LinkDescription;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The hybrid's wiring as hupf's netcfg states it, for ONOS's topology: each backend's link to its switch port
 * ({@code backendPorts}, both ways), and the hosts its routes forward to (each route's next hop, at the route's
 * port, a host address for a /32 route). A route out of a switch port that leads to a backend, or on a backend that
 * hangs off a switch, leads to hupf's own devices, not to a host.
 */
final class HybridWiring {

    /** A host at one or more device ports, with the addresses hupf routes to it. */
    static final class Neighbour {
        final MacAddress mac;
        final Set<ConnectPoint> locations = new HashSet<>();
        final Set<IpAddress> ips = new HashSet<>();

        Neighbour(MacAddress mac) {
            this.mac = mac;
        }

        HostId id() {
            return HostId.hostId(mac, VlanId.NONE);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Neighbour && mac.equals(((Neighbour) o).mac)
                    && locations.equals(((Neighbour) o).locations) && ips.equals(((Neighbour) o).ips);
        }

        @Override
        public int hashCode() {
            return Objects.hash(mac, locations, ips);
        }

        @Override
        public String toString() {
            return mac + " at " + locations + " " + ips;
        }
    }

    private HybridWiring() {
    }

    /**
     * @param cfg hupf's config (valid)
     * @return each switch-backend link, both directions
     */
    static List<LinkDescription> links(HupfConfig cfg) {
        List<LinkDescription> out = new ArrayList<>();
        for (HupfConfig.BackendPort p : cfg.backendPorts()) {
            ConnectPoint sw = new ConnectPoint(p.switchId, PortNumber.portNumber(p.port));
            ConnectPoint backend = new ConnectPoint(p.backendId, PortNumber.portNumber(p.backendPort));
            out.add(new DefaultLinkDescription(sw, backend, Link.Type.DIRECT, DefaultLinkDescription.EXPECTED));
            out.add(new DefaultLinkDescription(backend, sw, Link.Type.DIRECT, DefaultLinkDescription.EXPECTED));
        }
        return out;
    }

    /**
     * @param cfg hupf's config (valid)
     * @return the routes' next hops that are hosts, by host id, in the routes' order
     */
    static Map<HostId, Neighbour> hosts(HupfConfig cfg) {
        Set<ConnectPoint> towardsBackends = new HashSet<>();
        Set<DeviceId> behindSwitches = new HashSet<>();
        for (HupfConfig.BackendPort p : cfg.backendPorts()) {
            towardsBackends.add(new ConnectPoint(p.switchId, PortNumber.portNumber(p.port)));
            behindSwitches.add(p.backendId);
        }
        Map<HostId, Neighbour> out = new LinkedHashMap<>();
        for (Map.Entry<DeviceId, Route> e : cfg.routes()) {
            Route r = e.getValue();
            ConnectPoint at = new ConnectPoint(e.getKey(), PortNumber.portNumber(r.port()));
            if (behindSwitches.contains(e.getKey()) || towardsBackends.contains(at)) {
                continue;
            }
            Neighbour n = out.computeIfAbsent(HostId.hostId(r.dstMac(), VlanId.NONE), id -> new Neighbour(r.dstMac()));
            n.locations.add(at);
            if (r.prefix().prefixLength() == 32) {
                n.ips.add(r.prefix().address());
            }
        }
        return out;
    }
}
