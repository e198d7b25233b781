package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.core.pfcp.PfcpConfig;
import org.onlab.packet.Ip4Address;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.hupf.core.config.JsonFields.IPV4;
import static org.hupf.core.config.JsonFields.intIn;
import static org.hupf.core.config.JsonFields.list;

/**
 * Parses the netcfg's {@code pfcp} block: the PFCP agent's settings.
 */
public final class PfcpParser {

    public static final String PFCP = "pfcp";

    private PfcpParser() {
    }

    /**
     * Returns the PFCP agent settings.
     *
     * @param root the netcfg's hupf object
     * @param defaultNodeId Node ID if none is configured (the first N3 address)
     * @return settings
     */
    public static PfcpConfig pfcp(JsonNode root, Ip4Address defaultNodeId) {
        JsonNode p = root.path(PFCP);
        Set<String> allowed = new HashSet<>();
        list(p, "allowedPeers", PfcpParser::allowedPeer).forEach(allowed::addAll);
        String nodeId = p.path("nodeId").asText(defaultNodeId.toString());
        return new PfcpConfig(listenAddress(p, nodeId),
                              intIn(p, "port", 0, 65535, PfcpConfig.PFCP_PORT),
                              nodeId, allowed,
                              intIn(p, "heartbeatIntervalMs", 0, Integer.MAX_VALUE, 10_000),
                              intIn(p, "t1Ms", 1, 60_000, 3000), intIn(p, "n1", 1, 10, 3), 60_000,
                              intIn(p, "reportTickMs", 10, 60_000, 1000));
    }

    /**
     * The N4 address the PFCP agent binds: {@code pfcp.listenAddress}, else the Node ID when it is an IPv4
     * address (the address SMFs send to); a Node ID that is an FQDN needs an explicit listenAddress.
     */
    private static String listenAddress(JsonNode p, String nodeId) {
        String listen = p.path("listenAddress").asText(null);
        if (listen == null) {
            if (!IPV4.matcher(nodeId).matches()) {
                throw new IllegalArgumentException(PFCP + ".listenAddress: required when " + PFCP
                                                           + ".nodeId is not an IPv4 address (" + nodeId + ")");
            }
            listen = nodeId;
        }
        if (!IPV4.matcher(listen).matches()) {
            throw new IllegalArgumentException(PFCP + ".listenAddress: an IPv4 address, got " + listen);
        }
        Ip4Address.valueOf(listen);
        return listen;
    }

    /**
     * Reads one allowed SMF: {@code "NODE-ID"} or {@code "NODE-ID@ADDRESS"} (see PeerAllowlist), or
     * {@code {"nodeId": "...", "addresses": ["...", ...]}}.
     */
    private static List<String> allowedPeer(JsonNode n) {
        if (n.isTextual()) {
            return List.of(n.asText());
        }
        if (!n.isObject() || !n.path("nodeId").isTextual()) {
            throw new IllegalArgumentException("a Node ID, NODE-ID@ADDRESS or {\"nodeId\", \"addresses\"} expected");
        }
        List<String> out = list(n, "addresses", a -> {
            if (!a.isTextual()) {
                throw new IllegalArgumentException("an IP address expected, got " + a);
            }
            return n.get("nodeId").asText() + "@" + a.asText();
        });
        if (out.isEmpty()) {
            throw new IllegalArgumentException("addresses: at least one address is required");
        }
        return out;
    }
}
