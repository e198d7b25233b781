package org.hupf.core.store;

import org.hupf.api.Association;

import java.util.Collection;

/**
 * Where PFCP associations live, one per CP function's Node ID, so that an UP function restarted with its
 * sessions also keeps the associations they belong to.
 */
public interface AssociationStore {

    /**
     * Returns a CP function's association.
     *
     * @param nodeId CP function's Node ID
     * @return association or null
     */
    Association get(String nodeId);

    /**
     * Inserts or replaces the association of {@code a.nodeId}.
     *
     * @param a association
     * @return the association it replaced, or null
     */
    Association put(Association a);

    /**
     * Removes the association of {@code a.nodeId} if it is still {@code a} (same peer, same Recovery Time
     * Stamp, same establishment time).
     *
     * @param a association expected
     * @return whether it was removed
     */
    boolean remove(Association a);

    /** @return every association */
    Collection<Association> all();

    /** @return whether two associations describe the same one (what {@link #remove} compares) */
    static boolean same(Association a, Association b) {
        return a.nodeId.equals(b.nodeId) && a.peer.equals(b.peer) && a.recoveryTimeStamp == b.recoveryTimeStamp
                && a.establishedMillis == b.establishedMillis;
    }
}
