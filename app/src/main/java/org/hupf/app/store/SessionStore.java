package org.hupf.app.store;

import org.hupf.api.session.PfcpSession;

import java.util.Collection;

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
}
