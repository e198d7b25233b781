package org.hupf.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A UPF site of hupf's netcfg as REST and the CLI show it: its switch and backends, what places a session there
 * (gNB prefixes, N3 Network Instances, N3 addresses) and the sessions placed there now.
 */
public final class SiteStatus {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public final String siteId;
    /** Null: the site's backends take its N3 traffic themselves. */
    public final String switchId;
    public final List<String> backends;
    public final List<String> gnbs;
    public final List<String> n3NetworkInstances;
    public final List<String> n3Addresses;
    /** Sessions placed at the site now. */
    public final int sessions;
    /** Sessions offloaded to the site's switch now; null where this node drives no hybrid (not hupf's leader). */
    public final Integer offloaded;
    /** The site's backends this node drives now (available, not drained); null where it drives none. */
    public final List<String> backendsUp;

    @SuppressWarnings("checkstyle:ParameterNumber")
    public SiteStatus(String siteId, String switchId, List<String> backends, List<String> gnbs,
                      List<String> n3NetworkInstances, List<String> n3Addresses, int sessions) {
        this.siteId = Objects.requireNonNull(siteId);
        this.switchId = switchId;
        this.backends = List.copyOf(backends);
        this.gnbs = List.copyOf(gnbs);
        this.n3NetworkInstances = List.copyOf(n3NetworkInstances);
        this.n3Addresses = List.copyOf(n3Addresses);
        this.sessions = sessions;
        this.offloaded = null;
        this.backendsUp = null;
    }

    private SiteStatus(SiteStatus s, int offloaded, List<String> backendsUp) {
        this.siteId = s.siteId;
        this.switchId = s.switchId;
        this.backends = s.backends;
        this.gnbs = s.gnbs;
        this.n3NetworkInstances = s.n3NetworkInstances;
        this.n3Addresses = s.n3Addresses;
        this.sessions = s.sessions;
        this.offloaded = offloaded;
        this.backendsUp = List.copyOf(backendsUp);
    }

    /**
     * @param offloaded  sessions offloaded to the site's switch now
     * @param backendsUp the site's backends driven now
     * @return this status with what the site's hybrid shows
     */
    public SiteStatus withHybrid(int offloaded, List<String> backendsUp) {
        return new SiteStatus(this, offloaded, backendsUp);
    }

    /**
     * Adds what each site's hybrid shows to the sites' status.
     *
     * @param sites   the sites' status
     * @param offload the offload service, null where there is none (the standalone host)
     * @return the sites' status, with {@link #offloaded} and {@link #backendsUp} where this node drives the site
     */
    public static List<SiteStatus> withHybrids(List<SiteStatus> sites, OffloadService offload) {
        if (offload == null) {
            return sites;
        }
        Map<String, OffloadService.SiteHybrid> hybrids = offload.sites();
        List<SiteStatus> out = new ArrayList<>();
        for (SiteStatus s : sites) {
            OffloadService.SiteHybrid h = hybrids.get(s.siteId);
            out.add(h == null ? s : s.withHybrid(h.offloaded, h.backendsUp));
        }
        return out;
    }

    /**
     * Encodes the status as the netcfg's {@code sites} entry (without a switch when it has none) with
     * {@code "sessions"}, and {@code "offloaded"} and {@code "backendsUp"} where this node drives the site.
     *
     * @return JSON object
     */
    public ObjectNode toJson() {
        ObjectNode o = MAPPER.createObjectNode().put("siteId", siteId);
        if (switchId != null) {
            o.put("switch", switchId);
        }
        backends.forEach(o.putArray("backends")::add);
        gnbs.forEach(o.putArray("gnbs")::add);
        n3NetworkInstances.forEach(o.putArray("n3NetworkInstances")::add);
        n3Addresses.forEach(o.putArray("n3Addresses")::add);
        o.put("sessions", sessions);
        if (offloaded != null) {
            o.put("offloaded", offloaded);
            backendsUp.forEach(o.putArray("backendsUp")::add);
        }
        return o;
    }
}
