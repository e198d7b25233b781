package org.hupf.core.site;

import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A UPF site: one P4 switch (or none: its backends alone) with its own backends, and what maps a session to it:
 * the addresses of the gNBs it serves, its N3 Network Instances and its N3 addresses. Immutable.
 */
public final class Site {

    /** The site a configuration without a {@code sites} block has: every device, every gNB. */
    public static final String IMPLICIT_ID = "default";

    public final String id;
    /** The site's switch, or null when its backends take the N3 traffic themselves. */
    public final DeviceId switchId;
    /** The site's backends, each holding every session placed at the site. */
    public final List<DeviceId> backends;
    /** The gNB addresses the site serves (a downlink FAR's Outer Header Creation address). */
    public final List<Ip4Prefix> gnbs;
    /** The access-side Network Instances that name the site (uplink PDIs, FARs towards the access side). */
    public final Set<String> n3NetworkInstances;
    /** The site's N3 addresses (an uplink PDR's F-TEID, when the SMF allocates it). */
    public final List<Ip4Address> n3Addresses;

    /**
     * Creates a site.
     *
     * @param id                 its name
     * @param switchId           its switch, or null
     * @param backends           its backends
     * @param gnbs               the gNB addresses it serves
     * @param n3NetworkInstances the access-side Network Instances that name it
     * @param n3Addresses        its N3 addresses
     */
    public Site(String id, DeviceId switchId, List<DeviceId> backends, List<Ip4Prefix> gnbs,
                Set<String> n3NetworkInstances, List<Ip4Address> n3Addresses) {
        this.id = Objects.requireNonNull(id, "id");
        this.switchId = switchId;
        this.backends = List.copyOf(backends);
        this.gnbs = List.copyOf(gnbs);
        this.n3NetworkInstances = Set.copyOf(n3NetworkInstances);
        this.n3Addresses = List.copyOf(n3Addresses);
    }

    /** @return whether a device is this site's switch or one of its backends */
    public boolean holds(DeviceId device) {
        return device.equals(switchId) || backends.contains(device);
    }

    /** @return the longest of the site's gNB prefixes that contains the address, or -1 */
    int gnbMatchLength(Ip4Address gnb) {
        int best = -1;
        for (Ip4Prefix p : gnbs) {
            if (p.contains(gnb) && p.prefixLength() > best) {
                best = p.prefixLength();
            }
        }
        return best;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Site)) {
            return false;
        }
        Site s = (Site) o;
        return id.equals(s.id) && Objects.equals(switchId, s.switchId) && backends.equals(s.backends)
                && gnbs.equals(s.gnbs) && n3NetworkInstances.equals(s.n3NetworkInstances)
                && n3Addresses.equals(s.n3Addresses);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, switchId, backends, gnbs, n3NetworkInstances, n3Addresses);
    }

    @Override
    public String toString() {
        return id;
    }
}
