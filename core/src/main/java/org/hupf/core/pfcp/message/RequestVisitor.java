package org.hupf.core.pfcp.message;

/**
 * The procedures that answer each request type: a request calls the one of its type
 * ({@link PfcpRequest#accept}), so a new request type does not compile until every visitor answers it.
 *
 * @param <R> what a procedure returns
 * @param <C> what it is given besides the request (the exchange it belongs to)
 */
public interface RequestVisitor<R, C> {
    R heartbeat(HeartbeatRequest r, C context);

    R associationSetup(AssociationSetupRequest r, C context);

    R associationUpdate(AssociationUpdateRequest r, C context);

    R associationRelease(AssociationReleaseRequest r, C context);

    R establishment(EstablishmentRequest r, C context);

    R modification(ModificationRequest r, C context);

    R deletion(DeletionRequest r, C context);
}
