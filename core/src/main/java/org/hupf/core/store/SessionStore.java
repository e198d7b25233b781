package org.hupf.core.store;

import org.hupf.api.session.PfcpSession;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where sessions live: the source of truth that devices are reconciled against.
 */
public interface SessionStore {

    /**
     * Returns a session by its UP SEID.
     *
     * @param upSeid local SEID
     * @return session or null
     */
    PfcpSession get(long upSeid);

    /**
     * Inserts or replaces a session.
     *
     * @param session session
     */
    void put(PfcpSession session);

    /**
     * Removes a session.
     *
     * @param upSeid local SEID
     * @return the removed session or null
     */
    PfcpSession remove(long upSeid);

    /** @return every session */
    Collection<PfcpSession> all();

    /** @return how many sessions there are, without copying them (a store that can says so) */
    default int size() {
        return all().size();
    }

    /**
     * Removes sessions together: a CP function's, when it restarted or its association went. A store with
     * commits makes it one.
     *
     * @param upSeids local SEIDs
     */
    default void removeAll(Collection<Long> upSeids) {
        upSeids.forEach(this::remove);
    }

    /**
     * Inserts or replaces a session with the response to the request that made the change. A durable store
     * writes both in one commit, so that a restart finds either both or neither; this default keeps the
     * session only (a store that does not outlive the process has no restart to answer across).
     *
     * @param session  session
     * @param response the response to keep for the retransmission window
     */
    default void put(PfcpSession session, KeptResponse response) {
        put(session);
    }

    /**
     * Removes a session with the response to the request that deleted it, as {@link #put(PfcpSession,
     * KeptResponse)} does.
     *
     * @param upSeid   local SEID
     * @param response the response to keep for the retransmission window
     * @return the removed session or null
     */
    default PfcpSession remove(long upSeid, KeptResponse response) {
        return remove(upSeid);
    }

    /**
     * Stores a session as {@link #put(PfcpSession, KeptResponse)} does (or {@link #put(PfcpSession)} without a
     * response), telling when the change is durable. Reads see it at once. A store whose commit is a round trip
     * (a replicated one) lets several sessions' commits be under way together, each session's in order; this
     * default commits before it returns.
     *
     * @param session  session
     * @param response the response to keep for the retransmission window, or null for none
     * @return completes once the change is committed
     */
    default CompletableFuture<Void> putCommitted(PfcpSession session, KeptResponse response) {
        if (response == null) {
            put(session);
        } else {
            put(session, response);
        }
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Removes a session as {@link #remove(long, KeptResponse)} does (or {@link #remove(long)} without a
     * response), telling when the change is durable, as {@link #putCommitted} does.
     *
     * @param upSeid   local SEID
     * @param response the response to keep for the retransmission window, or null for none
     * @return completes once the change is committed
     */
    default CompletableFuture<Void> removeCommitted(long upSeid, KeptResponse response) {
        if (response == null) {
            remove(upSeid);
        } else {
            remove(upSeid, response);
        }
        return CompletableFuture.completedFuture(null);
    }

    /** @return the responses kept with their changes and not yet pruned, oldest first */
    default List<KeptResponse> keptResponses() {
        return List.of();
    }

    /**
     * Forgets kept responses answered before a time, and the oldest beyond a count.
     *
     * @param beforeMillis responses answered before this are out of every retransmission window
     * @param maxKept      responses kept at most
     */
    default void pruneResponses(long beforeMillis, int maxKept) {
    }
}
