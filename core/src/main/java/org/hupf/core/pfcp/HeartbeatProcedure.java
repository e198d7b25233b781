package org.hupf.core.pfcp;

import org.hupf.api.Association;
import org.hupf.core.pfcp.message.HeartbeatRequest;
import org.hupf.core.pfcp.message.HeartbeatResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;

/**
 * Answers Heartbeat Requests (TS 29.244 §6.2.2) with this UP function's Recovery Time Stamp. A peer's heartbeat
 * saying it restarted is checked with the peer before its sessions go (see {@link AssociationProcedures}).
 */
final class HeartbeatProcedure {

    private static final Logger log = LoggerFactory.getLogger(HeartbeatProcedure.class);

    private final AssociationProcedures associations;
    private final long recoveryTimeStamp;
    private final PfcpStats stats;

    HeartbeatProcedure(AssociationProcedures associations, long recoveryTimeStamp, PfcpStats stats) {
        this.associations = associations;
        this.recoveryTimeStamp = recoveryTimeStamp;
        this.stats = stats;
    }

    HeartbeatResponse answer(InetSocketAddress peer, HeartbeatRequest req) {
        Association a = associations.at(peer);
        if (a != null && req.recoveryTimeStamp != a.recoveryTimeStamp) {
            // One datagram that anyone can send with the peer's address does not delete its sessions: the peer
            // is asked, and its answer to hupf's own request (see peerRecovery) decides.
            stats.inc("peer_restart_unconfirmed");
            log.info("heartbeat from {} says it restarted (recovery {} -> {}): asking it", a, a.recoveryTimeStamp,
                     req.recoveryTimeStamp);
            associations.askRecovery(peer).thenAccept(ts -> {
                if (ts != null) {
                    associations.peerRecovery(peer, ts);
                }
            });
        }
        return new HeartbeatResponse(req.sequence, recoveryTimeStamp);
    }
}
