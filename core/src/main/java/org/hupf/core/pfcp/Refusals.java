package org.hupf.core.pfcp;

import org.hupf.api.session.RuleException;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.message.AssociationReleaseResponse;
import org.hupf.core.pfcp.message.AssociationSetupResponse;
import org.hupf.core.pfcp.message.AssociationUpdateResponse;
import org.hupf.core.pfcp.message.DeletionResponse;
import org.hupf.core.pfcp.message.EstablishmentResponse;
import org.hupf.core.pfcp.message.FailedRuleId;
import org.hupf.core.pfcp.message.HeartbeatResponse;
import org.hupf.core.pfcp.message.ModificationResponse;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.pfcp.message.SessionResponse;

import java.util.List;

/**
 * The refusal of a request, as the response its type calls for (TS 29.244 §7.6): built from the request's type
 * when the request itself could not be decoded.
 */
final class Refusals {

    private Refusals() {
    }

    /**
     * Refuses a request of any type hupf serves.
     *
     * @param requestType the request's message type
     * @param sequence    its sequence number
     * @param seid        the CP SEID to answer with (session messages; 0 when the session is unknown)
     * @param nodeId      this UP function's Node ID
     * @param recovery    this UP function's Recovery Time Stamp
     * @param cause       the Cause
     * @param offendingIe the IE type at fault, or null
     * @return the response
     */
    static PfcpResponse of(int requestType, int sequence, long seid, NodeId nodeId, long recovery, int cause,
                           Integer offendingIe) {
        switch (requestType) {
            case MessageType.HEARTBEAT_REQUEST:
                // A Heartbeat Response has no Cause (§7.4.2.2): only the Recovery Time Stamp.
                return new HeartbeatResponse(sequence, recovery);
            case MessageType.ASSOCIATION_SETUP_REQUEST:
                return new AssociationSetupResponse(sequence, nodeId, cause, offendingIe, recovery, null);
            case MessageType.ASSOCIATION_UPDATE_REQUEST:
                return new AssociationUpdateResponse(sequence, nodeId, cause, offendingIe);
            case MessageType.ASSOCIATION_RELEASE_REQUEST:
                return new AssociationReleaseResponse(sequence, nodeId, cause, offendingIe);
            default:
                return session(requestType, sequence, seid, nodeId, cause, offendingIe, null);
        }
    }

    /**
     * Refuses a session request with the cause of a rule the session core would not take.
     *
     * @param requestType Session Establishment, Modification or Deletion Request
     * @param sequence    its sequence number
     * @param seid        the CP SEID to answer with
     * @param nodeId      this UP function's Node ID (in an establishment's answer)
     * @param e           why it was refused
     * @return the response
     */
    static SessionResponse of(int requestType, int sequence, long seid, NodeId nodeId, RuleException e) {
        return session(requestType, sequence, seid, nodeId, e.cause(), e.offendingIe() != 0 ? e.offendingIe() : null,
                       e.ruleType() >= 0 ? new FailedRuleId(e.ruleType(), e.ruleId()) : null);
    }

    private static SessionResponse session(int requestType, int sequence, long seid, NodeId nodeId, int cause,
                                           Integer offendingIe, FailedRuleId failed) {
        switch (requestType) {
            case MessageType.SESSION_ESTABLISHMENT_REQUEST:
                return new EstablishmentResponse(sequence, seid, nodeId, cause, offendingIe, failed, null, List.of());
            case MessageType.SESSION_MODIFICATION_REQUEST:
                return new ModificationResponse(sequence, seid, cause, offendingIe, failed, List.of(), List.of());
            case MessageType.SESSION_DELETION_REQUEST:
                return new DeletionResponse(sequence, seid, cause, offendingIe, failed, List.of());
            default:
                throw new IllegalArgumentException("message type " + requestType + " is not a request hupf serves");
        }
    }
}
