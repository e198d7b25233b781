package org.hupf.core.pfcp;

import java.util.Set;

/**
 * PFCP agent settings (from netcfg inside ONOS, from the command line standalone).
 */
public final class PfcpConfig {

    /** The PFCP port (TS 29.244 §7.1). */
    public static final int PFCP_PORT = 8805;

    public final String listenAddress;
    public final int port;
    /** This UP function's Node ID (an IPv4 address or an FQDN). */
    public final String nodeId;
    /** CP functions allowed to associate, by Node ID and source address; empty allows none. */
    public final PeerAllowlist allowedPeers;
    public final long heartbeatIntervalMillis;
    /** T1 (retransmission timer) and N1 (attempts) for requests hupf sends. */
    public final long t1Millis;
    public final int n1;
    /** How long answered requests are remembered for retransmissions. */
    public final long responseCacheMillis;
    /** How often URRs are checked for periodic and threshold reports. */
    public final long reportTickMillis;

    /**
     * Creates settings.
     *
     * @param allowedPeers allowed CP functions, as {@link PeerAllowlist} entries
     * @throws IllegalArgumentException if an allowed peer entry is malformed
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public PfcpConfig(String listenAddress, int port, String nodeId, Set<String> allowedPeers,
                      long heartbeatIntervalMillis, long t1Millis, int n1, long responseCacheMillis,
                      long reportTickMillis) {
        this.listenAddress = listenAddress;
        this.port = port;
        this.nodeId = nodeId;
        this.allowedPeers = new PeerAllowlist(allowedPeers);
        this.heartbeatIntervalMillis = heartbeatIntervalMillis;
        this.t1Millis = t1Millis;
        this.n1 = n1;
        this.responseCacheMillis = responseCacheMillis;
        this.reportTickMillis = reportTickMillis;
    }
}
