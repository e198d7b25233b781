package org.hupf.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
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
    }

    /**
     * Encodes the status as the netcfg's {@code sites} entry (without a switch when it has none) with
     * {@code "sessions"}.
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
        return o.put("sessions", sessions);
    }
}
