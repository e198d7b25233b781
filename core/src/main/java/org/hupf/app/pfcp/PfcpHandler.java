package org.hupf.app.pfcp;

import org.hupf.api.Association;
import org.hupf.api.session.Cause;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.app.core.DeletedSession;
import org.hupf.app.core.SessionManager;
import org.hupf.app.pfcp.codec.DecodeException;
import org.hupf.app.pfcp.codec.Ie;
import org.hupf.app.pfcp.codec.IeType;
import org.hupf.app.pfcp.codec.IeFields;
import org.hupf.app.pfcp.codec.MessageType;
import org.hupf.app.pfcp.codec.PfcpCodec;
import org.hupf.app.pfcp.codec.PfcpMessage;
import org.hupf.app.pfcp.codec.RequestCodec;
import org.hupf.app.pfcp.message.AssociationReleaseRequest;
import org.hupf.app.pfcp.message.AssociationSetupRequest;
import org.hupf.app.pfcp.message.AssociationUpdateRequest;
import org.hupf.app.pfcp.message.DeletionRequest;
import org.hupf.app.pfcp.message.EstablishmentRequest;
import org.hupf.app.pfcp.message.FSeid;
import org.hupf.app.pfcp.message.FTeid;
import org.hupf.app.pfcp.message.FailedRuleId;
import org.hupf.app.pfcp.message.HeartbeatRequest;
import org.hupf.app.pfcp.message.ModificationRequest;
import org.hupf.app.pfcp.message.NodeId;
import org.hupf.app.pfcp.message.PfcpRequest;
import org.hupf.app.pfcp.message.SessionRequest;
import org.hupf.app.store.AssociationStore;
import org.hupf.app.store.InMemoryAssociationStore;
import org.hupf.app.store.KeptResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The request side of the PFCP agent, without sockets: one datagram in, at most one datagram out.
 * Implements association handling with an allowlist of Node IDs and their addresses, recovery (a
 * restarted peer's sessions are deleted), the session procedures, the response cache that answers
 * retransmissions, and the error handling of TS 29.244 §7.6 (each malformed request answered with its
 * cause or dropped and logged).
 *
 * <p>An association is bound to its peer: the address and port its Association Setup Request came from.
 * Only that peer may update or release it, change its Recovery Time Stamp (by heartbeat) or send the
 * session messages of its Node ID; a request from anywhere else is refused and changes nothing.
 *
 * <p>Session procedures answer once the devices acknowledged ({@link #handleAsync}): a retransmission
 * that arrives while its request is still being handled is dropped (the answer follows), one that arrives
 * later gets the cached answer. The answer to a session change is kept in the session store with the change,
 * in one commit: after a restart of hupf a retransmission gets the same bytes, not a second execution.
 */
public final class PfcpHandler {

    private static final Logger log = LoggerFactory.getLogger(PfcpHandler.class);
    /** Bound of the response cache: at 10k requests/s, several times T1 x N1 of history. */
    private static final int MAX_CACHED_RESPONSES = 1 << 17;
    /** UP Function Features octet 5: FTUP (the UP function allocates F-TEIDs). */
    private static final int UP_FEATURES = 0x0010;

    private final PfcpConfig config;
    /** This UPF's Node ID IE, in every answer: built once. */
    private final Ie nodeIdIe;
    private final SessionManager sessions;
    private final UsageReporter usage;
    private final long recoveryTimeStamp;
    private final PfcpStats stats;
    private final AssociationStore associations;
    /** Asks a peer its Recovery Time Stamp (a Heartbeat Request of hupf's own); null when it did not answer. */
    private volatile Function<InetSocketAddress, CompletableFuture<Long>> askRecovery =
            peer -> CompletableFuture.completedFuture(null);
    /** Requests being handled, by response cache key. */
    private final Set<String> inProgress = ConcurrentHashMap.newKeySet();
    /** Answered requests by (peer, sequence, type), oldest first, bounded in count as well as in age. */
    private final Map<String, CachedResponse> responseCache = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, CachedResponse> eldest) {
            return size() > MAX_CACHED_RESPONSES;
        }
    };

    private static final class CachedResponse {
        final byte[] bytes;
        final long atMillis;

        CachedResponse(byte[] bytes, long atMillis) {
            this.bytes = bytes;
            this.atMillis = atMillis;
        }
    }

    /**
     * Creates a handler.
     *
     * @param config            agent settings
     * @param sessions          session manager
     * @param usage             usage reporter
     * @param recoveryTimeStamp this UP function's start time, NTP seconds
     * @param stats             counters
     */
    public PfcpHandler(PfcpConfig config, SessionManager sessions, UsageReporter usage, long recoveryTimeStamp,
                       PfcpStats stats) {
        this(config, sessions, usage, recoveryTimeStamp, stats, new InMemoryAssociationStore());
    }

    /**
     * Creates a handler whose associations live in a given store (a restarted host keeps them).
     *
     * @param config            agent settings
     * @param sessions          session manager
     * @param usage             usage reporter
     * @param recoveryTimeStamp this UP function's Recovery Time Stamp, NTP seconds
     * @param stats             counters
     * @param associations      association store
     */
    public PfcpHandler(PfcpConfig config, SessionManager sessions, UsageReporter usage, long recoveryTimeStamp,
                       PfcpStats stats, AssociationStore associations) {
        this.associations = associations;
        this.config = config;
        this.nodeIdIe = IeFields.NODE_ID.encode(NodeId.of(config.nodeId));
        this.sessions = sessions;
        this.usage = usage;
        this.recoveryTimeStamp = recoveryTimeStamp;
        this.stats = stats;
        long now = System.currentTimeMillis();
        for (KeptResponse r : sessions.store().keptResponses()) {
            if (now - r.atMillis <= config.responseCacheMillis) {
                responseCache.put(r.key, new CachedResponse(r.bytes, r.atMillis));
            }
        }
    }

    public Collection<Association> associations() {
        return associations.all();
    }

    /**
     * Handles one datagram and waits for its answer.
     *
     * @param peer sender
     * @param buf  datagram
     * @param len  bytes received
     * @param now  current time, ms
     * @return the response to send back, or null
     */
    public byte[] handle(InetSocketAddress peer, byte[] buf, int len, long now) {
        return handleAsync(peer, buf, len, now).join();
    }

    /**
     * Handles one datagram; the buffer is not used once this returns.
     *
     * @param peer sender
     * @param buf  datagram
     * @param len  bytes received
     * @param now  current time, ms
     * @return the response to send back, or null, when the request has been carried out
     */
    public CompletableFuture<byte[]> handleAsync(InetSocketAddress peer, byte[] buf, int len, long now) {
        stats.inc("rx");
        PfcpCodec.Header h;
        try {
            h = PfcpCodec.header(buf, len);
        } catch (DecodeException e) {
            stats.inc("drop.truncated_header");
            log.warn("dropped datagram from {}: {}", peer, e.getMessage());
            return CompletableFuture.completedFuture(null);
        }
        if (h.version != PfcpCodec.VERSION) {
            stats.inc("tx.version_not_supported");
            log.warn("PFCP version {} from {}: answering Version Not Supported", h.version, peer);
            return CompletableFuture.completedFuture(PfcpCodec.encode(
                    PfcpMessage.node(MessageType.VERSION_NOT_SUPPORTED_RESPONSE, h.sequence, List.of())));
        }
        if (!MessageType.isKnownRequest(h.type) || h.type == MessageType.SESSION_REPORT_REQUEST) {
            stats.inc("drop.unexpected_type");
            log.warn("dropped message type {} seq {} from {}: not a request hupf serves", h.type, h.sequence, peer);
            return CompletableFuture.completedFuture(null);
        }
        String cacheKey = peer + "/" + h.sequence + "/" + h.type;
        CachedResponse cached;
        synchronized (responseCache) {
            cached = responseCache.get(cacheKey);
        }
        if (cached != null) {
            stats.inc("rx.retransmission");
            return CompletableFuture.completedFuture(cached.bytes);
        }
        if (!inProgress.add(cacheKey)) {
            stats.inc("rx.retransmission_in_progress");
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<PfcpMessage> response;
        try {
            PfcpMessage req = PfcpCodec.decode(buf, len);
            response = dispatch(peer, req, now, cacheKey);
        } catch (DecodeException e) {
            response = CompletableFuture.completedFuture(malformed(peer, h, e));
        } catch (RuntimeException e) {
            inProgress.remove(cacheKey);
            throw e;
        }
        return response.handle((m, failure) -> {
            inProgress.remove(cacheKey);
            if (failure != null) {
                throw failure instanceof CompletionException ? (CompletionException) failure
                        : new CompletionException(failure);
            }
            if (m == null) {
                return null;
            }
            byte[] out;
            synchronized (responseCache) {
                // A change's response is already there, as the store kept it.
                CachedResponse kept = responseCache.get(cacheKey);
                out = kept != null ? kept.bytes : PfcpCodec.encode(m);
                if (kept == null) {
                    responseCache.put(cacheKey, new CachedResponse(out, now));
                }
            }
            stats.inc("tx." + m.type());
            return out;
        });
    }

    /**
     * Forgets cached responses older than the configured time, here and in the session store.
     *
     * @param now current time, ms
     */
    public void evictResponses(long now) {
        synchronized (responseCache) {
            responseCache.values().removeIf(c -> now - c.atMillis > config.responseCacheMillis);
        }
        sessions.store().pruneResponses(now - config.responseCacheMillis, MAX_CACHED_RESPONSES);
    }

    /** Encodes a change's response once: those bytes are kept with the change, cached and sent. */
    private KeptResponse keep(String cacheKey, long now, PfcpMessage m) {
        byte[] bytes = PfcpCodec.encode(m);
        synchronized (responseCache) {
            responseCache.put(cacheKey, new CachedResponse(bytes, now));
        }
        return new KeptResponse(cacheKey, bytes, now);
    }

    /**
     * The answer to a session change whose response the store keeps with it: {@code change} gets the function
     * that builds it, called once when the change is stored.
     */
    private <T> CompletableFuture<PfcpMessage> keptAnswer(
            Function<Function<T, KeptResponse>, CompletableFuture<T>> change, Function<T, PfcpMessage> done,
            Function<RuleException, PfcpMessage> refused, String cacheKey, long now) {
        AtomicReference<PfcpMessage> built = new AtomicReference<>();
        return answer(change.apply(result -> {
            PfcpMessage m = done.apply(result);
            built.set(m);
            return keep(cacheKey, now, m);
        }), result -> built.get() != null ? built.get() : done.apply(result), refused);
    }

    /**
     * Answers a request that failed to decode with the response its type calls for (§7.6.2), unless the
     * part of it decoded before the fault already settles the answer: no association or a CP F-SEID in use
     * for an establishment, no such session (of this peer) for a modification.
     */
    private PfcpMessage malformed(InetSocketAddress peer, PfcpCodec.Header h, DecodeException e) {
        PfcpMessage refused = e.context() instanceof EstablishmentRequest
                ? establishmentRefusal(peer, (EstablishmentRequest) e.context())
                : e.context() != null && owned(peer, e.context().seid) == null
                ? noSession(MessageType.SESSION_MODIFICATION_RESPONSE, e.context()) : null;
        if (refused != null) {
            return refused;
        }
        stats.inc("reject.cause_" + e.kind().cause());
        log.warn("malformed message type {} seq {} from {}: {}", h.type, h.sequence, peer, e.getMessage());
        if (h.type == MessageType.HEARTBEAT_REQUEST) {
            // A Heartbeat Response has no Cause (§7.4.2.2): only the Recovery Time Stamp.
            return PfcpMessage.node(MessageType.HEARTBEAT_RESPONSE, h.sequence, List.of(recovery()));
        }
        List<Ie> ies = new ArrayList<>();
        boolean session = MessageType.isSessionMessage(h.type);
        if (!session || h.type == MessageType.SESSION_ESTABLISHMENT_REQUEST) {
            ies.add(nodeId());
        }
        ies.add(IeFields.CAUSE.encode(e.kind().cause()));
        if (e.ieType() != 0) {
            ies.add(IeFields.OFFENDING_IE.encode(e.ieType()));
        }
        if (h.type == MessageType.ASSOCIATION_SETUP_REQUEST) {
            ies.add(recovery());
        }
        if (!session) {
            return PfcpMessage.node(h.type + 1, h.sequence, ies);
        }
        PfcpSession s = h.type == MessageType.SESSION_ESTABLISHMENT_REQUEST ? null : owned(peer, h.seid);
        return PfcpMessage.session(h.type + 1, s == null ? 0 : s.cpSeid, h.sequence, ies);
    }

    private CompletableFuture<PfcpMessage> dispatch(InetSocketAddress peer, PfcpMessage msg, long now,
                                                    String cacheKey) throws DecodeException {
        PfcpMessage refused = headerRules(msg);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        PfcpRequest req = RequestCodec.decode(msg);
        if (req instanceof HeartbeatRequest) {
            return CompletableFuture.completedFuture(heartbeat(peer, (HeartbeatRequest) req));
        }
        if (req instanceof AssociationSetupRequest) {
            return associationSetup(peer, (AssociationSetupRequest) req, now);
        }
        if (req instanceof AssociationUpdateRequest) {
            return CompletableFuture.completedFuture(associationUpdate(peer, (AssociationUpdateRequest) req));
        }
        if (req instanceof AssociationReleaseRequest) {
            return CompletableFuture.completedFuture(associationRelease(peer, (AssociationReleaseRequest) req));
        }
        if (req instanceof EstablishmentRequest) {
            return establish(peer, (EstablishmentRequest) req, cacheKey, now);
        }
        if (req instanceof ModificationRequest) {
            return modify(peer, (ModificationRequest) req, cacheKey, now);
        }
        return delete(peer, (DeletionRequest) req, cacheKey, now);
    }

    /**
     * Enforces the header rules of session messages: the S flag set (TS 29.244 §7.2.2.3), and a SEID of 0
     * in a Session Establishment Request, the SMF not knowing the UP SEID yet (§7.2.2.4.2). A violation
     * is answered "Request rejected" and nothing is done.
     */
    private PfcpMessage headerRules(PfcpMessage req) {
        if (!MessageType.isSessionMessage(req.type())) {
            return null;
        }
        String why;
        if (!req.hasSeid()) {
            why = "session message without SEID (S flag 0)";
        } else if (req.type() == MessageType.SESSION_ESTABLISHMENT_REQUEST && req.seid() != 0) {
            why = "Session Establishment Request with SEID " + Long.toUnsignedString(req.seid()) + " instead of 0";
        } else {
            return null;
        }
        stats.inc("reject.header");
        return sessionReject(req.type() + 1, 0, req.sequence(),
                             new RuleException(Cause.REQUEST_REJECTED, -1, 0, why),
                             req.type() == MessageType.SESSION_ESTABLISHMENT_REQUEST);
    }

    /**
     * Returns the association a request may act on: the one of its Node ID, if the request comes from that
     * association's peer (address and port).
     *
     * @param peer   request source
     * @param nodeId Node ID the request names
     * @return association, or null (none, or another peer's)
     */
    private Association ofPeer(InetSocketAddress peer, String nodeId) {
        Association a = associations.get(nodeId);
        if (a != null && !a.peer.equals(peer)) {
            stats.inc("reject.not_peer");
            log.warn("{} named Node ID {} whose association is with {}: refused", peer, nodeId, a);
            return null;
        }
        return a;
    }

    Ie nodeId() {
        return nodeIdIe;
    }

    Ie recovery() {
        return IeFields.RECOVERY_TIME_STAMP.encode(recoveryTimeStamp);
    }

    private PfcpMessage heartbeat(InetSocketAddress peer, HeartbeatRequest req) {
        Association a = associationAt(peer);
        if (a != null && req.recoveryTimeStamp != a.recoveryTimeStamp) {
            // One datagram that anyone can send with the peer's address does not delete its sessions: the peer
            // is asked, and its answer to hupf's own request (see peerRecovery) decides.
            stats.inc("peer_restart_unconfirmed");
            log.info("heartbeat from {} says it restarted (recovery {} -> {}): asking it", a, a.recoveryTimeStamp,
                     req.recoveryTimeStamp);
            askRecovery.apply(peer).thenAccept(ts -> {
                if (ts != null) {
                    peerRecovery(peer, ts);
                }
            });
        }
        return PfcpMessage.node(MessageType.HEARTBEAT_RESPONSE, req.sequence, List.of(recovery()));
    }

    /**
     * Sets how to ask a peer its Recovery Time Stamp before acting on one datagram's word that it restarted:
     * a Heartbeat Request of hupf's own to that address and port, with a random sequence number, so that only
     * the peer, not a blind sender of datagrams in its name, can answer it.
     *
     * @param ask sends the request; completes with the stamp in the answer, or null when none came (T1 x N1)
     */
    void onAskRecovery(Function<InetSocketAddress, CompletableFuture<Long>> ask) {
        this.askRecovery = ask;
    }

    private Association associationAt(InetSocketAddress peer) {
        return associations.all().stream().filter(x -> x.peer.equals(peer)).findFirst().orElse(null);
    }

    /**
     * Acts on the Recovery Time Stamp in an association's peer's response to a Heartbeat Request of hupf's
     * (matched to it by peer and a random sequence number: an off-path sender cannot answer in the peer's
     * place): a new one means the peer restarted and lost its sessions.
     *
     * @param peer sender of the heartbeat response
     * @param ts   its Recovery Time Stamp
     */
    void peerRecovery(InetSocketAddress peer, long ts) {
        Association a = associationAt(peer);
        if (a != null && ts != a.recoveryTimeStamp) {
            stats.inc("peer_restart");
            associations.put(new Association(a.nodeId, a.peer, ts, a.establishedMillis));
            log.warn("CP function {} restarted (recovery {} -> {}): deleting its sessions", a, a.recoveryTimeStamp, ts);
            deleteSessionsOf(a.nodeId);
        }
    }

    /** Deletes a CP function's sessions in the background: the answer to what caused it does not wait. */
    private void deleteSessionsOf(String nodeId) {
        sessions.deleteByNodeAsync(nodeId).whenComplete((n, failure) -> {
            usage.forgetDeletedSessions();
            if (failure != null) {
                log.error("deleting the sessions of {} stopped", nodeId, failure);
            } else {
                log.info("deleted {} sessions of {}", n, nodeId);
            }
        });
    }

    private PfcpMessage associationResponse(int type, int seq, int cause, boolean withRecovery) {
        List<Ie> ies = new ArrayList<>(List.of(nodeId(), IeFields.CAUSE.encode(cause)));
        if (withRecovery) {
            ies.add(recovery());
            if (cause == Cause.REQUEST_ACCEPTED) {
                ies.add(IeFields.UP_FUNCTION_FEATURES.encode(UP_FEATURES));
            }
        }
        if (cause != Cause.REQUEST_ACCEPTED) {
            stats.inc("reject.cause_" + cause);
        }
        return PfcpMessage.node(type, seq, ies);
    }

    private CompletableFuture<PfcpMessage> associationSetup(InetSocketAddress peer, AssociationSetupRequest req,
                                                            long now) {
        NodeId node = req.nodeId;
        long ts = req.recoveryTimeStamp;
        if (!config.allowedPeers.allows(node.value, peer.getAddress())) {
            stats.inc(config.allowedPeers.knows(node.value) ? "reject.peer_address" : "reject.unknown_node");
            log.warn("association setup from {} ({}) refused: {}", node, peer, config.allowedPeers.knows(node.value)
                    ? "that Node ID is not allowed from this address" : "Node ID not in the allowlist");
            return CompletableFuture.completedFuture(associationResponse(
                    MessageType.ASSOCIATION_SETUP_RESPONSE, req.sequence, Cause.REQUEST_REJECTED, true));
        }
        if (associations.get(node.value) == null || !hasSessions(node.value)) {
            return CompletableFuture.completedFuture(associate(peer, req, now));
        }
        // §6.2.6.2.2: the new association overwrites the existing one whatever its Recovery Time Stamp, and the
        // old one's sessions are deleted (hupf retains none: no PSREI). One datagram in the peer's name must not
        // do that: the peer is asked first, and only its answer with the stamp of this request lets it proceed.
        stats.inc("association_replace_unconfirmed");
        log.info("association setup from {} ({}, recovery {}) would delete its sessions: asking it", node, peer, ts);
        return askRecovery.apply(peer).thenApply(answered -> {
            if (answered == null || answered != ts) {
                stats.inc("reject.association_unconfirmed");
                log.warn("association setup from {} ({}) refused: the peer answered {}, not {}", node, peer,
                         answered == null ? "nothing" : answered, ts);
                return associationResponse(MessageType.ASSOCIATION_SETUP_RESPONSE, req.sequence,
                                           Cause.REQUEST_REJECTED, true);
            }
            stats.inc("association_replaced");
            return associate(peer, req, now);
        });
    }

    private boolean hasSessions(String nodeId) {
        return sessions.store().all().stream().anyMatch(s -> s.nodeId.equals(nodeId));
    }

    private PfcpMessage associate(InetSocketAddress peer, AssociationSetupRequest req, long now) {
        NodeId node = req.nodeId;
        Association old = associations.put(new Association(node.value, peer, req.recoveryTimeStamp, now));
        if (old != null) {
            log.warn("association of {} replaced by a new one from {}: deleting its sessions", old, peer);
            deleteSessionsOf(node.value);
        }
        log.info("PFCP association with {} at {}", node, peer);
        return associationResponse(MessageType.ASSOCIATION_SETUP_RESPONSE, req.sequence, Cause.REQUEST_ACCEPTED,
                                   true);
    }

    private PfcpMessage associationUpdate(InetSocketAddress peer, AssociationUpdateRequest req) {
        NodeId node = req.nodeId;
        int cause = ofPeer(peer, node.value) != null ? Cause.REQUEST_ACCEPTED : Cause.NO_ESTABLISHED_PFCP_ASSOCIATION;
        return associationResponse(MessageType.ASSOCIATION_UPDATE_RESPONSE, req.sequence, cause, false);
    }

    private PfcpMessage associationRelease(InetSocketAddress peer, AssociationReleaseRequest req) {
        NodeId node = req.nodeId;
        Association a = ofPeer(peer, node.value);
        if (a == null || !associations.remove(a)) {
            return associationResponse(MessageType.ASSOCIATION_RELEASE_RESPONSE, req.sequence,
                                       Cause.NO_ESTABLISHED_PFCP_ASSOCIATION, false);
        }
        log.info("PFCP association with {} released: deleting its sessions", node);
        deleteSessionsOf(node.value);
        return associationResponse(MessageType.ASSOCIATION_RELEASE_RESPONSE, req.sequence, Cause.REQUEST_ACCEPTED,
                                   false);
    }

    private PfcpMessage sessionReject(int type, long cpSeid, int seq, RuleException e, boolean withNodeId) {
        stats.inc("reject.cause_" + e.cause());
        log.warn("session request type {} seq {} refused (cause {}): {}", type, seq, e.cause(), e.getMessage());
        List<Ie> ies = new ArrayList<>();
        if (withNodeId) {
            ies.add(nodeId());
        }
        ies.add(IeFields.CAUSE.encode(e.cause()));
        if (e.offendingIe() != 0) {
            ies.add(IeFields.OFFENDING_IE.encode(e.offendingIe()));
        }
        if (e.ruleType() >= 0) {
            ies.add(IeFields.FAILED_RULE_ID.encode(new FailedRuleId(e.ruleType(), e.ruleId())));
        }
        return PfcpMessage.session(type, cpSeid, seq, ies);
    }

    private List<Ie> createdPdrs(PfcpSession s, PfcpSession before) {
        List<Ie> out = new ArrayList<>();
        for (Pdr p : s.pdrs.values()) {
            Pdr prior = before == null ? null : before.pdrs.get(p.pdrId);
            if (p.choose && p.teid != null && (prior == null || !p.teid.equals(prior.teid))) {
                Inet4Address addr = (Inet4Address) p.tunnelAddress.toInetAddress();
                out.add(Ie.grouped(IeType.CREATED_PDR, IeFields.PDR_ID.encode(p.pdrId),
                                   IeFields.F_TEID.encode(new FTeid(p.teid, addr, false, null))));
            }
        }
        return out;
    }

    private static String cpAddress(InetSocketAddress peer, FSeid cp) {
        return cp.ipv4 != null ? cp.ipv4.getHostAddress() : peer.getAddress().getHostAddress();
    }

    /**
     * Refuses an establishment from a peer without association, or for a CP F-SEID that has a session.
     *
     * @return the refusal, or null if the establishment may go on
     */
    private PfcpMessage establishmentRefusal(InetSocketAddress peer, EstablishmentRequest req) {
        NodeId node = req.nodeId;
        FSeid cp = req.cpFseid;
        int type = MessageType.SESSION_ESTABLISHMENT_RESPONSE;
        if (ofPeer(peer, node.value) == null) {
            return sessionReject(type, cp.seid, req.sequence, new RuleException(
                    Cause.NO_ESTABLISHED_PFCP_ASSOCIATION, -1, 0, "no association with " + node + " at " + peer), true);
        }
        Long existing = sessions.findByCpFseid(cpAddress(peer, cp), cp.seid);
        if (existing != null) {
            return sessionReject(type, cp.seid, req.sequence, new RuleException(
                    Cause.REQUEST_REJECTED, -1, 0, "CP F-SEID " + cp.seid + " already has session " + existing), true);
        }
        return null;
    }

    private CompletableFuture<PfcpMessage> establish(InetSocketAddress peer, EstablishmentRequest req,
                                                     String cacheKey, long now) {
        PfcpMessage refused = establishmentRefusal(peer, req);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        NodeId node = req.nodeId;
        FSeid cp = req.cpFseid;
        int type = MessageType.SESSION_ESTABLISHMENT_RESPONSE;
        String cpAddress = cpAddress(peer, cp);
        SessionEditor ed = new SessionEditor(null);
        try {
            ed.apply(req.rules);
        } catch (RuleException e) {
            return CompletableFuture.completedFuture(sessionReject(type, cp.seid, req.sequence, e, true));
        }
        PfcpSession draft = new PfcpSession(0, cp.seid, cpAddress, node.value, ed.pdrs(), ed.fars(), ed.qers(),
                                            ed.urrs(), Map.of());
        return keptAnswer(kept -> sessions.establishAsync(draft, kept), (PfcpSession s) -> {
            usage.sessionChanged(s);
            List<Ie> ies = new ArrayList<>(List.of(nodeId(), IeFields.CAUSE.encode(Cause.REQUEST_ACCEPTED),
                    IeFields.F_SEID.encode(new FSeid(s.upSeid, (Inet4Address) sessions.n3Address().toInetAddress(),
                                                     null))));
            ies.addAll(createdPdrs(s, null));
            return PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_RESPONSE, cp.seid, req.sequence, ies);
        }, e -> sessionReject(type, cp.seid, req.sequence, e, true), cacheKey, now);
    }

    /** The answer to a session change: built from the result once the devices took it, or its refusal. */
    private static <T> CompletableFuture<PfcpMessage> answer(CompletableFuture<T> change,
                                                             Function<T, PfcpMessage> done,
                                                         Function<RuleException, PfcpMessage> refused) {
        return change.handle((s, failure) -> {
            Throwable why = failure instanceof CompletionException ? failure.getCause() : failure;
            if (why == null) {
                return done.apply(s);
            }
            if (why instanceof RuleException) {
                return refused.apply((RuleException) why);
            }
            throw new CompletionException(why);
        });
    }

    /**
     * Returns a session only to the CP function that owns it: another peer guessing a SEID finds nothing.
     *
     * @param peer request source
     * @param seid UP SEID from the header
     * @return session or null
     */
    private PfcpSession owned(InetSocketAddress peer, long seid) {
        PfcpSession s = sessions.store().get(seid);
        if (s == null) {
            return null;
        }
        Association a = associations.get(s.nodeId);
        if (a == null || !a.peer.equals(peer)) {
            stats.inc("reject.not_owner");
            log.warn("{} asked for session {} of {}: refused", peer, seid, s.nodeId);
            return null;
        }
        return s;
    }

    /** Answers a request for a session that does not exist, or is not the requesting peer's. */
    private PfcpMessage noSession(int responseType, SessionRequest req) {
        return sessionReject(responseType, 0, req.sequence, new RuleException(
                Cause.SESSION_CONTEXT_NOT_FOUND, -1, 0, "no session with SEID " + req.seid), false);
    }

    private CompletableFuture<PfcpMessage> modify(InetSocketAddress peer, ModificationRequest req, String cacheKey,
                                                  long now) {
        int type = MessageType.SESSION_MODIFICATION_RESPONSE;
        PfcpSession old = owned(peer, req.seid);
        if (old == null) {
            return CompletableFuture.completedFuture(noSession(type, req));
        }
        try {
            SessionEditor ed = new SessionEditor(old);
            ed.apply(req.rules);
            List<Ie> reports = new ArrayList<>();
            for (long urrId : req.queryUrrIds) {
                if (old.urrs.containsKey(urrId)) {
                    reports.add(usage.report(old, old.urrs.get(urrId), IeType.USAGE_REPORT_MODIFICATION,
                                             UsageReporter.IMMER));
                }
            }
            for (Long removed : old.urrs.keySet()) {
                if (!ed.urrs().containsKey(removed)) {
                    reports.add(usage.report(old, old.urrs.get(removed), IeType.USAGE_REPORT_MODIFICATION,
                                             UsageReporter.TERMR));
                }
            }
            FSeid f = req.cpFseid;
            long cpSeid = f != null ? f.seid : old.cpSeid;
            String cpAddress = f != null && f.ipv4 != null ? f.ipv4.getHostAddress() : old.cpAddress;
            PfcpSession edited = new PfcpSession(old.upSeid, cpSeid, cpAddress, old.nodeId, ed.pdrs(), ed.fars(),
                                                 ed.qers(), ed.urrs(), old.allocations);
            return keptAnswer(kept -> sessions.modifyAsync(edited, kept).thenApply(s -> {
                usage.sessionChanged(s);
                return s;
            }), (PfcpSession s) -> {
                List<Ie> ies = new ArrayList<>(List.of(IeFields.CAUSE.encode(Cause.REQUEST_ACCEPTED)));
                ies.addAll(createdPdrs(s, old));
                ies.addAll(reports);
                return PfcpMessage.session(type, s.cpSeid, req.sequence, ies);
            }, e -> sessionReject(type, old.cpSeid, req.sequence, e, false), cacheKey, now);
        } catch (RuleException e) {
            return CompletableFuture.completedFuture(sessionReject(type, old.cpSeid, req.sequence, e, false));
        }
    }

    private CompletableFuture<PfcpMessage> delete(InetSocketAddress peer, DeletionRequest req, String cacheKey,
                                                  long now) {
        int type = MessageType.SESSION_DELETION_RESPONSE;
        PfcpSession s = owned(peer, req.seid);
        if (s == null) {
            return CompletableFuture.completedFuture(noSession(type, req));
        }
        return keptAnswer(kept -> sessions.deleteWithUsage(s.upSeid, kept).thenApply(deleted -> {
            if (deleted != null) {
                usage.forget(s.upSeid);
            }
            return deleted;
        }), (DeletedSession deleted) -> {
            if (deleted == null) {
                return noSession(type, req);
            }
            List<Ie> ies = new ArrayList<>(List.of(IeFields.CAUSE.encode(Cause.REQUEST_ACCEPTED)));
            for (org.hupf.api.session.Urr u : s.urrs.values()) {
                ies.add(usage.finalReport(deleted, u));
            }
            return PfcpMessage.session(type, s.cpSeid, req.sequence, ies);
        }, e -> sessionReject(type, s.cpSeid, req.sequence, e, false), cacheKey, now);
    }
}
