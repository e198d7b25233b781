package org.hupf.core.store;

import org.hupf.api.session.PfcpSession;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A session store in this process only: the standalone runner's and the unit tests'.
 */
public final class InMemorySessionStore implements SessionStore {

    private final Map<Long, PfcpSession> sessions = new ConcurrentHashMap<>();

    @Override
    public PfcpSession get(long upSeid) {
        return sessions.get(upSeid);
    }

    @Override
    public void put(PfcpSession session) {
        sessions.put(session.upSeid, session);
    }

    @Override
    public PfcpSession remove(long upSeid) {
        return sessions.remove(upSeid);
    }

    @Override
    public Collection<PfcpSession> all() {
        return new ArrayList<>(sessions.values());
    }

    @Override
    public int size() {
        return sessions.size();
    }
}
