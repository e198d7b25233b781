package org.hupf.core.pfcp;

import org.hupf.api.Association;
import org.hupf.api.session.Cause;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.session.SessionManager;
import org.hupf.core.pfcp.codec.ResponseCodec;
import org.hupf.core.pfcp.message.CreatedPdr;
import org.hupf.core.pfcp.message.FTeid;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.pfcp.message.SessionRequest;
import org.hupf.core.pfcp.message.SessionResponse;
import org.hupf.core.store.KeptResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * What the session procedures share: who owns a session, their refusals, and their answers once the devices took
 * the change, kept in the session store with it (a retransmission after a restart of hupf gets the same bytes,
 * not a second execution).
 */
final class SessionAnswers {

    private static final Logger log = LoggerFactory.getLogger(SessionAnswers.class);

    final SessionManager sessions;
    final AssociationProcedures associations;
    final NodeId nodeId;
    private final PfcpStats stats;
    private final ResponseCache cache;

    SessionAnswers(SessionManager sessions, AssociationProcedures associations, NodeId nodeId, PfcpStats stats,
                   ResponseCache cache) {
        this.sessions = sessions;
        this.associations = associations;
        this.nodeId = nodeId;
        this.stats = stats;
        this.cache = cache;
    }

    /**
     * Returns a session only to the CP function that owns it: another peer guessing a SEID finds nothing.
     *
     * @param peer request source
     * @param seid UP SEID from the header
     * @return session or null
     */
    PfcpSession owned(InetSocketAddress peer, long seid) {
        PfcpSession s = sessions.store().get(seid);
        if (s == null) {
            return null;
        }
        Association a = associations.of(s.nodeId);
        if (a == null || !a.peer.equals(peer)) {
            stats.inc("reject.not_owner");
            log.warn("{} asked for session {} of {}: refused", peer, seid, s.nodeId);
            return null;
        }
        return s;
    }

    /** Refuses a session request, counted and logged. */
    SessionResponse reject(int requestType, long cpSeid, int sequence, RuleException e) {
        stats.inc("reject.cause_" + e.cause());
        log.warn("session request type {} seq {} refused (cause {}): {}", requestType, sequence, e.cause(),
                 e.getMessage());
        return Refusals.of(requestType, sequence, cpSeid, nodeId, e);
    }

    /** Answers a request for a session that does not exist, or is not the requesting peer's. */
    SessionResponse noSession(int requestType, SessionRequest req) {
        return reject(requestType, 0, req.sequence, new RuleException(
                Cause.SESSION_CONTEXT_NOT_FOUND, -1, 0, "no session with SEID " + req.seid));
    }

    /** The Created PDRs of the F-TEIDs chosen for a session since {@code before} (null: every one). */
    static List<CreatedPdr> createdPdrs(PfcpSession s, PfcpSession before) {
        List<CreatedPdr> out = new ArrayList<>();
        for (Pdr p : s.pdrs.values()) {
            Pdr prior = before == null ? null : before.pdrs.get(p.pdrId);
            if (p.choose && p.teid != null && (prior == null || !p.teid.equals(prior.teid))) {
                Inet4Address addr = (Inet4Address) p.tunnelAddress.toInetAddress();
                out.add(new CreatedPdr(p.pdrId, new FTeid(p.teid, addr, false, null)));
            }
        }
        return out;
    }

    /**
     * The answer to a session change whose response the store keeps with it: {@code change} gets the function
     * that builds it, called once when the change is stored; a refusal is answered and not kept.
     *
     * @param change  starts the change, given what makes its kept response
     * @param done    the response to the change's result
     * @param refused the response to the refusal of the change
     * @param ex      the exchange
     * @param <T>     the change's result
     * @return the response
     */
    <T> CompletableFuture<PfcpResponse> kept(Function<Function<T, KeptResponse>, CompletableFuture<T>> change,
                                             Function<T, PfcpResponse> done,
                                             Function<RuleException, PfcpResponse> refused, Exchange ex) {
        AtomicReference<PfcpResponse> built = new AtomicReference<>();
        CompletableFuture<T> changed = change.apply(result -> {
            PfcpResponse m = done.apply(result);
            built.set(m);
            return cache.keep(ex, ResponseCodec.encode(m));
        });
        return changed.handle((result, failure) -> {
            Throwable why = failure instanceof CompletionException ? failure.getCause() : failure;
            if (why == null) {
                return built.get() != null ? built.get() : done.apply(result);
            }
            if (why instanceof RuleException) {
                return refused.apply((RuleException) why);
            }
            throw new CompletionException(why);
        });
    }
}
