package org.hupf.core.pfcp;

import org.hupf.api.Association;
import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.session.SessionManager;
import org.hupf.core.pfcp.codec.DecodeException;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.IeSpans;
import org.hupf.core.pfcp.codec.RequestCodec;
import org.hupf.core.pfcp.codec.ResponseCodec;
import org.hupf.core.pfcp.message.AssociationReleaseRequest;
import org.hupf.core.pfcp.message.AssociationSetupRequest;
import org.hupf.core.pfcp.message.AssociationUpdateRequest;
import org.hupf.core.pfcp.message.DeletionRequest;
import org.hupf.core.pfcp.message.EstablishmentRequest;
import org.hupf.core.pfcp.message.HeartbeatRequest;
import org.hupf.core.pfcp.message.ModificationRequest;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.pfcp.message.RequestVisitor;
import org.hupf.core.pfcp.message.VersionNotSupportedResponse;
import org.hupf.core.store.AssociationStore;
import org.hupf.core.store.InMemoryAssociationStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The request side of the PFCP agent, without sockets: one datagram in, at most one datagram out. It checks
 * the header, answers retransmissions from the {@link ResponseCache}, decodes the request once into its typed
 * request, and hands it to the procedure of its type: {@link HeartbeatProcedure}, {@link AssociationProcedures},
 * {@link SessionEstablishment}, {@link SessionModification}, {@link SessionDeletion}. Each answers with a typed
 * response, encoded once here. A malformed request is answered with its TS 29.244 §7.6 cause or dropped and
 * logged.
 *
 * <p>Session procedures answer once the devices acknowledged and the store committed ({@link #handleAsync}): a
 * retransmission that arrives while its request is still being handled is dropped (the answer follows), one that
 * arrives later gets the cached answer, for the window from when it was sent.
 */
public final class PfcpHandler {

    private static final Logger log = LoggerFactory.getLogger(PfcpHandler.class);

    /** The counters of responses sent, by message type ("tx.2" a Heartbeat Response): none made per request. */
    private static final String[] RESPONSE_COUNTERS = new String[257];

    static {
        for (int type = 0; type < RESPONSE_COUNTERS.length; type++) {
            RESPONSE_COUNTERS[type] = "tx." + type;
        }
    }

    private final NodeId nodeId;
    private final long recoveryTimeStamp;
    private final PfcpStats stats;
    private final ResponseCache cache;
    private final AssociationProcedures associations;
    private final SessionAnswers sessionAnswers;
    private final SessionEstablishment establishment;
    private final Procedures procedures;

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
        this(config, sessions, usage, recoveryTimeStamp, stats, associations, System::currentTimeMillis);
    }

    /** A handler whose retransmission window runs on a given clock, ms (a test's). */
    PfcpHandler(PfcpConfig config, SessionManager sessions, UsageReporter usage, long recoveryTimeStamp,
                PfcpStats stats, AssociationStore associations, LongSupplier clock) {
        this.nodeId = NodeId.of(config.nodeId);
        this.recoveryTimeStamp = recoveryTimeStamp;
        this.stats = stats;
        this.cache = new ResponseCache(config.responseCacheMillis, sessions.store(), clock);
        this.associations = new AssociationProcedures(config.allowedPeers, nodeId, recoveryTimeStamp, sessions,
                                                      usage, stats, associations);
        this.sessionAnswers = new SessionAnswers(sessions, this.associations, nodeId, stats, cache);
        this.establishment = new SessionEstablishment(sessionAnswers, usage);
        this.procedures = new Procedures(new HeartbeatProcedure(this.associations, recoveryTimeStamp, stats),
                                         this.associations, establishment,
                                         new SessionModification(sessionAnswers, usage),
                                         new SessionDeletion(sessionAnswers, usage));
    }

    public Collection<Association> associations() {
        return associations.all();
    }

    /** @return this UP function's Recovery Time Stamp, NTP seconds */
    long recoveryTimeStamp() {
        return recoveryTimeStamp;
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
        PfcpCodec.Header h;
        try {
            h = PfcpCodec.header(buf, len);
        } catch (DecodeException e) {
            truncated(peer, e);
            return CompletableFuture.completedFuture(null);
        }
        return handleAsync(peer, h, buf, len, now);
    }

    /**
     * Counts and logs a datagram too short for its header: nothing answers it.
     *
     * @param peer sender
     * @param e    the header's fault
     */
    void truncated(InetSocketAddress peer, DecodeException e) {
        stats.inc("rx");
        stats.inc("drop.truncated_header");
        log.warn("dropped datagram from {}: {}", peer, e.getMessage());
    }

    /**
     * Handles one datagram whose header the caller read (the agent, to sort it); the buffer is not used once
     * this returns.
     *
     * @param peer sender
     * @param h    its header
     * @param buf  datagram
     * @param len  bytes received
     * @param now  current time, ms
     * @return the response to send back, or null, when the request has been carried out
     */
    CompletableFuture<byte[]> handleAsync(InetSocketAddress peer, PfcpCodec.Header h, byte[] buf, int len,
                                          long now) {
        Handling handling = begin(peer, h, buf, len, now);
        if (handling.response == null) {
            return CompletableFuture.completedFuture(handling.answer);
        }
        return handling.response.handle((m, failure) -> {
            if (failure != null) {
                abandon(handling);
                throw failure instanceof CompletionException ? (CompletionException) failure
                        : new CompletionException(failure);
            }
            return finish(handling, m);
        });
    }

    /**
     * Starts handling one datagram whose header the caller read: answered at once (a retransmission, a refusal
     * of the header), or once its procedure's response completes, then {@link #finish} or {@link #abandon}. The
     * buffer is not used once this returns.
     *
     * @param peer sender
     * @param h    its header
     * @param buf  datagram
     * @param len  bytes received
     * @param now  current time, ms
     * @return the request's handling
     */
    Handling begin(InetSocketAddress peer, PfcpCodec.Header h, byte[] buf, int len, long now) {
        stats.inc("rx");
        if (h.version != PfcpCodec.VERSION) {
            stats.inc("tx.version_not_supported");
            log.warn("PFCP version {} from {}: answering Version Not Supported", h.version, peer);
            return Handling.answered(ResponseCodec.encode(new VersionNotSupportedResponse(h.sequence)));
        }
        if (!MessageType.isKnownRequest(h.type) || h.type == MessageType.SESSION_REPORT_REQUEST) {
            stats.inc("drop.unexpected_type");
            log.warn("dropped message type {} seq {} from {}: not a request hupf serves", h.type, h.sequence, peer);
            return Handling.answered(null);
        }
        Exchange ex = new Exchange(peer, h.sequence, h.type, now);
        byte[] kept = cache.begin(ex);
        if (kept == ResponseCache.IN_PROGRESS) {
            stats.inc("rx.retransmission_in_progress");
            return Handling.answered(null);
        }
        if (kept != null) {
            stats.inc("rx.retransmission");
            return Handling.answered(kept);
        }
        CompletableFuture<PfcpResponse> response;
        try {
            response = dispatch(h, PfcpCodec.spans(h, buf, len), ex);
        } catch (DecodeException e) {
            response = CompletableFuture.completedFuture(malformed(peer, h, e));
        } catch (RuntimeException | Error e) {
            cache.abandon(ex);
            throw e;
        }
        return new Handling(null, response, ex);
    }

    /**
     * Takes a retransmission of a request whose ordering lane is still busy: its original's answer if that was
     * sent already (the lane is released after the send), else nothing (the answer follows).
     *
     * @param peer sender
     * @param h    its header
     * @return the bytes to send back, or null
     */
    byte[] retransmissionOfBusy(InetSocketAddress peer, PfcpCodec.Header h) {
        stats.inc("rx");
        byte[] cached = cache.answerTo(peer, h.sequence, h.type);
        stats.inc(cached != null ? "rx.retransmission" : "rx.retransmission_in_progress");
        return cached;
    }

    /**
     * Ends a request whose procedure answered: its response, encoded once and kept for retransmissions for the
     * window from now, when it is sent.
     *
     * @param handling the request's handling (from {@link #begin})
     * @param m        the procedure's response
     * @return the bytes to send back
     */
    byte[] finish(Handling handling, PfcpResponse m) {
        // A change's response is there already, kept with the change: it is not encoded twice.
        byte[] out = cache.sending(handling.ex, () -> ResponseCodec.encode(m));
        stats.inc(RESPONSE_COUNTERS[handling.ex.type + 1]);
        return out;
    }

    /**
     * Ends a request whose procedure failed (a bug, a store whose commit failed): nothing is answered; a
     * retransmission gets the answer of the change it made, if it made one, else is handled anew.
     *
     * @param handling the request's handling (from {@link #begin})
     */
    void abandon(Handling handling) {
        cache.abandon(handling.ex);
    }

    /** One request being handled: answered at once, or once its procedure's response completes. */
    static final class Handling {
        /** The bytes to send at once (null: nothing), when {@link #response} is null. */
        final byte[] answer;
        /** The procedure's response to come; null when the request was answered at once. */
        final CompletableFuture<PfcpResponse> response;
        final Exchange ex;

        private Handling(byte[] answer, CompletableFuture<PfcpResponse> response, Exchange ex) {
            this.answer = answer;
            this.response = response;
            this.ex = ex;
        }

        static Handling answered(byte[] answer) {
            return new Handling(answer, null, null);
        }
    }

    /**
     * Forgets cached responses older than the configured time, here and in the session store.
     *
     * @param now current time, ms
     */
    public void evictResponses(long now) {
        cache.evict(now);
    }

    /**
     * Answers a request that failed to decode with the response its type calls for (§7.6.2), unless the
     * part of it decoded before the fault already settles the answer: no association or a CP F-SEID in use
     * for an establishment, no such session (of this peer) for a modification.
     */
    private PfcpResponse malformed(InetSocketAddress peer, PfcpCodec.Header h, DecodeException e) {
        PfcpResponse refused = e.context() instanceof EstablishmentRequest
                ? establishment.refusal(peer, (EstablishmentRequest) e.context())
                : e.context() != null && sessionAnswers.owned(peer, e.context().seid) == null
                ? sessionAnswers.noSession(MessageType.SESSION_MODIFICATION_REQUEST, e.context()) : null;
        if (refused != null) {
            return refused;
        }
        stats.inc("reject.cause_" + e.kind().cause());
        log.warn("malformed message type {} seq {} from {}: {}", h.type, h.sequence, peer, e.getMessage());
        PfcpSession s = !MessageType.isSessionMessage(h.type) || h.type == MessageType.SESSION_ESTABLISHMENT_REQUEST
                ? null : sessionAnswers.owned(peer, h.seid);
        return Refusals.of(h.type, h.sequence, s == null ? 0 : s.cpSeid, nodeId, recoveryTimeStamp, e.kind().cause(),
                           e.ieType() != 0 ? e.ieType() : null);
    }

    private CompletableFuture<PfcpResponse> dispatch(PfcpCodec.Header h, IeSpans ies, Exchange ex)
            throws DecodeException {
        PfcpResponse refused = headerRules(h);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        return RequestCodec.decode(h, ies).accept(procedures, ex);
    }

    /**
     * Enforces the header rules of session messages: the S flag set (TS 29.244 §7.2.2.3), and a SEID of 0
     * in a Session Establishment Request, the SMF not knowing the UP SEID yet (§7.2.2.4.2). A violation
     * is answered "Request rejected" and nothing is done.
     */
    private PfcpResponse headerRules(PfcpCodec.Header h) {
        if (!MessageType.isSessionMessage(h.type)) {
            return null;
        }
        String why;
        if (!h.hasSeid) {
            why = "session message without SEID (S flag 0)";
        } else if (h.type == MessageType.SESSION_ESTABLISHMENT_REQUEST && h.seid != 0) {
            why = "Session Establishment Request with SEID " + Long.toUnsignedString(h.seid) + " instead of 0";
        } else {
            return null;
        }
        stats.inc("reject.header");
        return sessionAnswers.reject(h.type, 0, h.sequence, new RuleException(Cause.REQUEST_REJECTED, -1, 0, why));
    }

    /**
     * Sets how to ask a peer its Recovery Time Stamp before acting on one datagram's word that it restarted:
     * a Heartbeat Request of hupf's own to that address and port, with a random sequence number, so that only
     * the peer, not a blind sender of datagrams in its name, can answer it.
     *
     * @param ask sends the request; completes with the stamp in the answer, or null when none came (T1 x N1)
     */
    void onAskRecovery(Function<InetSocketAddress, CompletableFuture<Long>> ask) {
        associations.onAskRecovery(ask);
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
        associations.peerRecovery(peer, ts);
    }

    /** The procedure of each request type. */
    private static final class Procedures implements RequestVisitor<CompletableFuture<PfcpResponse>, Exchange> {
        private final HeartbeatProcedure heartbeat;
        private final AssociationProcedures associations;
        private final SessionEstablishment establishment;
        private final SessionModification modification;
        private final SessionDeletion deletion;

        Procedures(HeartbeatProcedure heartbeat, AssociationProcedures associations,
                   SessionEstablishment establishment, SessionModification modification, SessionDeletion deletion) {
            this.heartbeat = heartbeat;
            this.associations = associations;
            this.establishment = establishment;
            this.modification = modification;
            this.deletion = deletion;
        }

        @Override
        public CompletableFuture<PfcpResponse> heartbeat(HeartbeatRequest r, Exchange ex) {
            return CompletableFuture.completedFuture(heartbeat.answer(ex.peer, r));
        }

        @Override
        public CompletableFuture<PfcpResponse> associationSetup(AssociationSetupRequest r, Exchange ex) {
            return associations.setup(ex.peer, r, ex.receivedMillis);
        }

        @Override
        public CompletableFuture<PfcpResponse> associationUpdate(AssociationUpdateRequest r, Exchange ex) {
            return CompletableFuture.completedFuture(associations.update(ex.peer, r));
        }

        @Override
        public CompletableFuture<PfcpResponse> associationRelease(AssociationReleaseRequest r, Exchange ex) {
            return CompletableFuture.completedFuture(associations.release(ex.peer, r));
        }

        @Override
        public CompletableFuture<PfcpResponse> establishment(EstablishmentRequest r, Exchange ex) {
            return establishment.answer(r, ex);
        }

        @Override
        public CompletableFuture<PfcpResponse> modification(ModificationRequest r, Exchange ex) {
            return modification.answer(r, ex);
        }

        @Override
        public CompletableFuture<PfcpResponse> deletion(DeletionRequest r, Exchange ex) {
            return deletion.answer(r, ex);
        }
    }
}
