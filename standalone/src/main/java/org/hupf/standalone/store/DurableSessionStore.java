package org.hupf.standalone.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.h2.mvstore.MVMap;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionRecord;
import org.hupf.api.session.SessionJson;
import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions in the host's {@link DurableState}, as {@link SessionRecord}s keyed by UP SEID (a state written before
 * records holds their JSON form, still read); reads come from a decoded copy in memory. The responses to the
 * requests that changed them are kept in the same commit ({@link KeptResponseLog}); each change holds the state's
 * lock from its first write to its commit.
 */
public final class DurableSessionStore implements SessionStore {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final MVMap<Long, Object> map;
    private final KeptResponseLog responses;
    private final DurableState state;
    private final Map<Long, PfcpSession> local = new ConcurrentHashMap<>();

    DurableSessionStore(MVMap<Long, Object> map, KeptResponseLog responses, DurableState state) {
        this.map = map;
        this.responses = responses;
        this.state = state;
        map.forEach((seid, stored) -> local.put(seid, decode(seid, stored)));
    }

    private static PfcpSession decode(long seid, Object stored) {
        try {
            return stored instanceof byte[] ? SessionRecord.decode((byte[]) stored)
                    : SessionJson.decode(MAPPER.readTree((String) stored));
        } catch (IOException | RuntimeException e) {
            // A session that no longer decodes must stop the host, not be dropped silently.
            throw new UncheckedIOException(new IOException("stored session " + seid + " does not decode: " + e, e));
        }
    }

    boolean isEmpty() {
        return local.isEmpty();
    }

    @Override
    public PfcpSession get(long upSeid) {
        return local.get(upSeid);
    }

    @Override
    public void put(PfcpSession session) {
        byte[] record = SessionRecord.encode(session);
        synchronized (state) {
            map.put(session.upSeid, record);
            state.committed();
        }
        local.put(session.upSeid, session);
    }

    @Override
    public void put(PfcpSession session, KeptResponse response) {
        byte[] record = SessionRecord.encode(session);
        synchronized (state) {
            map.put(session.upSeid, record);
            responses.add(response);
            state.committed();
        }
        local.put(session.upSeid, session);
    }

    @Override
    public PfcpSession remove(long upSeid) {
        synchronized (state) {
            if (map.remove(upSeid) != null) {
                state.committed();
            }
        }
        return local.remove(upSeid);
    }

    @Override
    public PfcpSession remove(long upSeid, KeptResponse response) {
        synchronized (state) {
            map.remove(upSeid);
            responses.add(response);
            state.committed();
        }
        return local.remove(upSeid);
    }

    @Override
    public void removeAll(Collection<Long> upSeids) {
        synchronized (state) {
            upSeids.forEach(map::remove);
            state.committed();
        }
        upSeids.forEach(local::remove);
    }

    /**
     * Read under the state's lock, which the compaction takes: an iteration reads the map's pages of the version it
     * began on, and a compaction pass that rewrote them frees their chunks at once (no reader registers a version),
     * so that a long read (the host's start, 100,000 responses) met {@code Chunk N not found}.
     */
    @Override
    public List<KeptResponse> keptResponses() {
        synchronized (state) {
            return responses.all();
        }
    }

    @Override
    public void pruneResponses(long beforeMillis, int maxKept) {
        synchronized (state) {
            if (responses.prune(beforeMillis, maxKept)) {
                state.committed();
            }
        }
    }

    @Override
    public Collection<PfcpSession> all() {
        return new ArrayList<>(local.values());
    }

    @Override
    public int size() {
        return local.size();
    }
}
