package org.hupf.core.pfcp;

import org.hupf.api.Association;
import org.hupf.api.session.Cause;
import org.hupf.core.session.SessionManager;
import org.hupf.core.pfcp.message.AssociationReleaseRequest;
import org.hupf.core.pfcp.message.AssociationReleaseResponse;
import org.hupf.core.pfcp.message.AssociationSetupRequest;
import org.hupf.core.pfcp.message.AssociationSetupResponse;
import org.hupf.core.pfcp.message.AssociationUpdateRequest;
import org.hupf.core.pfcp.message.AssociationUpdateResponse;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.store.AssociationStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Association setup, update and release (TS 29.244 §6.2.6-§6.2.8) with an allowlist of Node IDs and their
 * addresses, and the recovery of a peer that restarted (its sessions are deleted). An association is bound to
 * its peer, the address and port its setup came from: only that peer may update or release it, change its
 * Recovery Time Stamp or send the session messages of its Node ID.
 */
final class AssociationProcedures {

    private static final Logger log = LoggerFactory.getLogger(AssociationProcedures.class);
    /** UP Function Features octet 5: FTUP (the UP function allocates F-TEIDs). */
    private static final int UP_FEATURES = 0x0010;

    private final PeerAllowlist allowedPeers;
    private final NodeId nodeId;
    private final long recoveryTimeStamp;
    private final SessionManager sessions;
    private final UsageReporter usage;
    private final PfcpStats stats;
    private final AssociationStore associations;
    /** Asks a peer its Recovery Time Stamp (a Heartbeat Request of hupf's own); null when it did not answer. */
    private volatile Function<InetSocketAddress, CompletableFuture<Long>> askRecovery =
            peer -> CompletableFuture.completedFuture(null);

    AssociationProcedures(PeerAllowlist allowedPeers, NodeId nodeId, long recoveryTimeStamp, SessionManager sessions,
                          UsageReporter usage, PfcpStats stats, AssociationStore associations) {
        this.allowedPeers = allowedPeers;
        this.nodeId = nodeId;
        this.recoveryTimeStamp = recoveryTimeStamp;
        this.sessions = sessions;
        this.usage = usage;
        this.stats = stats;
        this.associations = associations;
    }

    Collection<Association> all() {
        return associations.all();
    }

    /** @see PfcpHandler#onAskRecovery */
    void onAskRecovery(Function<InetSocketAddress, CompletableFuture<Long>> ask) {
        this.askRecovery = ask;
    }

    CompletableFuture<Long> askRecovery(InetSocketAddress peer) {
        return askRecovery.apply(peer);
    }

    /**
     * Returns the association a request may act on: the one of its Node ID, if the request comes from that
     * association's peer (address and port).
     *
     * @return association, or null (none, or another peer's)
     */
    Association ofPeer(InetSocketAddress peer, String node) {
        Association a = associations.get(node);
        if (a != null && !a.peer.equals(peer)) {
            stats.inc("reject.not_peer");
            log.warn("{} named Node ID {} whose association is with {}: refused", peer, node, a);
            return null;
        }
        return a;
    }

    /** @return the association of a Node ID, whoever asks */
    Association of(String node) {
        return associations.get(node);
    }

    Association at(InetSocketAddress peer) {
        return associations.all().stream().filter(x -> x.peer.equals(peer)).findFirst().orElse(null);
    }

    /** @see PfcpHandler#peerRecovery */
    void peerRecovery(InetSocketAddress peer, long ts) {
        Association a = at(peer);
        if (a != null && ts != a.recoveryTimeStamp) {
            stats.inc("peer_restart");
            associations.put(new Association(a.nodeId, a.peer, ts, a.establishedMillis));
            log.warn("CP function {} restarted (recovery {} -> {}): deleting its sessions", a, a.recoveryTimeStamp, ts);
            deleteSessionsOf(a.nodeId);
        }
    }

    /** Deletes a CP function's sessions in the background: the answer to what caused it does not wait. */
    private void deleteSessionsOf(String node) {
        sessions.deleteByNodeAsync(node).whenComplete((n, failure) -> {
            usage.forgetDeletedSessions();
            if (failure != null) {
                log.error("deleting the sessions of {} stopped", node, failure);
            } else {
                log.info("deleted {} sessions of {}", n, node);
            }
        });
    }

    private void countRefusal(int cause) {
        if (cause != Cause.REQUEST_ACCEPTED) {
            stats.inc("reject.cause_" + cause);
        }
    }

    private AssociationSetupResponse setupResponse(int sequence, int cause) {
        countRefusal(cause);
        return new AssociationSetupResponse(sequence, nodeId, cause, null, recoveryTimeStamp,
                                            cause == Cause.REQUEST_ACCEPTED ? UP_FEATURES : null);
    }

    CompletableFuture<PfcpResponse> setup(InetSocketAddress peer, AssociationSetupRequest req, long now) {
        NodeId node = req.nodeId;
        long ts = req.recoveryTimeStamp;
        if (!allowedPeers.allows(node.value, peer.getAddress())) {
            stats.inc(allowedPeers.knows(node.value) ? "reject.peer_address" : "reject.unknown_node");
            log.warn("association setup from {} ({}) refused: {}", node, peer, allowedPeers.knows(node.value)
                    ? "that Node ID is not allowed from this address" : "Node ID not in the allowlist");
            return CompletableFuture.completedFuture(setupResponse(req.sequence, Cause.REQUEST_REJECTED));
        }
        if (associations.get(node.value) == null || !hasSessions(node.value)) {
            return CompletableFuture.completedFuture(associate(peer, req, now));
        }
        // §6.2.6.2.2: the new association overwrites the existing one whatever its Recovery Time Stamp, and the
        // old one's sessions are deleted (hupf retains none: no PSREI). One datagram in the peer's name must not
        // do that: the peer is asked first, and only its answer with the stamp of this request lets it proceed.
        stats.inc("association_replace_unconfirmed");
        log.info("association setup from {} ({}, recovery {}) would delete its sessions: asking it", node, peer, ts);
        return askRecovery.apply(peer).<PfcpResponse>thenApply(answered -> {
            if (answered == null || answered != ts) {
                stats.inc("reject.association_unconfirmed");
                log.warn("association setup from {} ({}) refused: the peer answered {}, not {}", node, peer,
                         answered == null ? "nothing" : answered, ts);
                return setupResponse(req.sequence, Cause.REQUEST_REJECTED);
            }
            stats.inc("association_replaced");
            return associate(peer, req, now);
        });
    }

    private boolean hasSessions(String node) {
        return sessions.store().all().stream().anyMatch(s -> s.nodeId.equals(node));
    }

    private AssociationSetupResponse associate(InetSocketAddress peer, AssociationSetupRequest req, long now) {
        NodeId node = req.nodeId;
        Association old = associations.put(new Association(node.value, peer, req.recoveryTimeStamp, now));
        if (old != null) {
            log.warn("association of {} replaced by a new one from {}: deleting its sessions", old, peer);
            deleteSessionsOf(node.value);
        }
        log.info("PFCP association with {} at {}", node, peer);
        return setupResponse(req.sequence, Cause.REQUEST_ACCEPTED);
    }

    AssociationUpdateResponse update(InetSocketAddress peer, AssociationUpdateRequest req) {
        int cause = ofPeer(peer, req.nodeId.value) != null ? Cause.REQUEST_ACCEPTED
                : Cause.NO_ESTABLISHED_PFCP_ASSOCIATION;
        countRefusal(cause);
        return new AssociationUpdateResponse(req.sequence, nodeId, cause, null);
    }

    AssociationReleaseResponse release(InetSocketAddress peer, AssociationReleaseRequest req) {
        NodeId node = req.nodeId;
        Association a = ofPeer(peer, node.value);
        int cause = Cause.NO_ESTABLISHED_PFCP_ASSOCIATION;
        if (a != null && associations.remove(a)) {
            log.info("PFCP association with {} released: deleting its sessions", node);
            deleteSessionsOf(node.value);
            cause = Cause.REQUEST_ACCEPTED;
        }
        countRefusal(cause);
        return new AssociationReleaseResponse(req.sequence, nodeId, cause, null);
    }
}
