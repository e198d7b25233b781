package org.hupf.core.pfcp;

import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.message.EstablishmentRequest;
import org.hupf.core.pfcp.message.EstablishmentResponse;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.PfcpResponse;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Session Establishment (TS 29.244 §7.5.2): from a peer with an association, for a CP F-SEID without a session;
 * answered once every device acknowledged the session's entities.
 */
final class SessionEstablishment {

    private static final int TYPE = MessageType.SESSION_ESTABLISHMENT_REQUEST;

    private final SessionAnswers answers;
    private final UsageReporter usage;
    /** The address of the UP F-SEIDs answered. */
    private final Inet4Address n3;

    SessionEstablishment(SessionAnswers answers, UsageReporter usage) {
        this.answers = answers;
        this.usage = usage;
        this.n3 = (Inet4Address) answers.sessions.n3Address().toInetAddress();
    }

    private static String cpAddress(InetSocketAddress peer, FSeid cp) {
        return cp.ipv4 != null ? cp.ipv4.getHostAddress() : peer.getAddress().getHostAddress();
    }

    /**
     * Refuses an establishment from a peer without association, or for a CP F-SEID that has a session.
     *
     * @return the refusal, or null if the establishment may go on
     */
    EstablishmentResponse refusal(InetSocketAddress peer, EstablishmentRequest req) {
        return refusal(peer, req, cpAddress(peer, req.cpFseid));
    }

    private EstablishmentResponse refusal(InetSocketAddress peer, EstablishmentRequest req, String cpAddress) {
        NodeId node = req.nodeId;
        FSeid cp = req.cpFseid;
        if (answers.associations.ofPeer(peer, node.value) == null) {
            return (EstablishmentResponse) answers.reject(TYPE, cp.seid, req.sequence, new RuleException(
                    Cause.NO_ESTABLISHED_PFCP_ASSOCIATION, -1, 0, "no association with " + node + " at " + peer));
        }
        Long existing = answers.sessions.findByCpFseid(cpAddress, cp.seid);
        if (existing != null) {
            return (EstablishmentResponse) answers.reject(TYPE, cp.seid, req.sequence, new RuleException(
                    Cause.REQUEST_REJECTED, -1, 0, "CP F-SEID " + cp.seid + " already has session " + existing));
        }
        return null;
    }

    CompletableFuture<PfcpResponse> answer(EstablishmentRequest req, Exchange ex) {
        String cpAddress = cpAddress(ex.peer, req.cpFseid);
        PfcpResponse refused = refusal(ex.peer, req, cpAddress);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        FSeid cp = req.cpFseid;
        SessionEditor ed = new SessionEditor(null);
        try {
            ed.apply(req.rules);
        } catch (RuleException e) {
            return CompletableFuture.completedFuture(answers.reject(TYPE, cp.seid, req.sequence, e));
        }
        PfcpSession draft = new PfcpSession(0, cp.seid, cpAddress, req.nodeId.value, ed.pdrs(), ed.fars(), ed.qers(),
                                            ed.urrs(), Map.of());
        return answers.kept(kept -> answers.sessions.establishAsync(draft, kept), (PfcpSession s) -> {
            usage.sessionChanged(s);
            return new EstablishmentResponse(req.sequence, cp.seid, answers.nodeId, Cause.REQUEST_ACCEPTED, null,
                                             null, new FSeid(s.upSeid, n3, null), SessionAnswers.createdPdrs(s, null));
        }, e -> answers.reject(TYPE, cp.seid, req.sequence, e), ex);
    }
}
