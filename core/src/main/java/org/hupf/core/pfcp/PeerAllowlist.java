package org.hupf.core.pfcp;

import org.onlab.packet.IpAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The CP functions allowed to set up a PFCP association: each by its Node ID and the source addresses
 * it may send from. Entries, as in netcfg {@code pfcp.allowedPeers} and the standalone {@code --allow}:
 * <ul>
 *   <li>{@code NODE-ID@ADDRESS}: the Node ID, from that IP address (one entry per address);</li>
 *   <li>{@code NODE-ID} alone: an IP-address Node ID from that address only (a CP function whose Node ID
 *       is an address exposes only that one for PFCP, TS 29.244 §5.8.1); an FQDN Node ID from the
 *       addresses the name resolves to when the association is set up.</li>
 * </ul>
 * An empty list allows nobody.
 */
public final class PeerAllowlist {

    private static final Logger log = LoggerFactory.getLogger(PeerAllowlist.class);

    /** Node ID to the addresses configured for it. */
    private final Map<String, Set<InetAddress>> addresses = new HashMap<>();
    /** FQDN Node IDs allowed from what they resolve to. */
    private final Set<String> resolved = new HashSet<>();

    /**
     * Parses entries.
     *
     * @param entries {@code NODE-ID} or {@code NODE-ID@ADDRESS}
     * @throws IllegalArgumentException if an entry is empty or its address is not an IP address
     */
    public PeerAllowlist(Collection<String> entries) {
        for (String e : entries) {
            int at = e.lastIndexOf('@');
            String node = at < 0 ? e : e.substring(0, at);
            if (node.isEmpty()) {
                throw new IllegalArgumentException("allowed peer '" + e + "': empty Node ID");
            }
            if (at >= 0) {
                addresses.computeIfAbsent(node, k -> new HashSet<>()).add(literal(e, e.substring(at + 1)));
            } else if (isLiteral(node)) {
                addresses.computeIfAbsent(node, k -> new HashSet<>()).add(literal(e, node));
            } else {
                resolved.add(node);
            }
        }
    }

    private static boolean isLiteral(String s) {
        try {
            IpAddress.valueOf(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static InetAddress literal(String entry, String address) {
        try {
            return IpAddress.valueOf(address).toInetAddress();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("allowed peer '" + entry + "': " + address + " is not an IP address");
        }
    }

    /**
     * Says whether a Node ID is listed at all (from whatever address).
     *
     * @param nodeId CP Node ID
     * @return true if listed
     */
    public boolean knows(String nodeId) {
        return addresses.containsKey(nodeId) || resolved.contains(nodeId);
    }

    /**
     * Says whether a CP function with this Node ID may associate from this address.
     *
     * @param nodeId CP Node ID
     * @param from   source address of the request
     * @return true if allowed
     */
    public boolean allows(String nodeId, InetAddress from) {
        if (addresses.getOrDefault(nodeId, Set.of()).contains(from)) {
            return true;
        }
        if (!resolved.contains(nodeId)) {
            return false;
        }
        try {
            return Arrays.asList(InetAddress.getAllByName(nodeId)).contains(from);
        } catch (UnknownHostException e) {
            log.warn("allowed peer {} does not resolve: {}", nodeId, e.getMessage());
            return false;
        }
    }
}
