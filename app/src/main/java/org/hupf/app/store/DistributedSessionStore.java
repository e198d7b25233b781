package org.hupf.app.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionJson;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.MapEvent;
import org.onosproject.store.service.MapEventListener;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions in an ONOS ConsistentMap (Raft-replicated), so they survive the loss of a cluster node and an
 * app restart. Values are the sessions' JSON form, so the serializer needs only Long and String. Reads
 * come from a local decoded copy that map events keep current (also for writes by other nodes).
 */
public final class DistributedSessionStore implements SessionStore {

    static final String MAP_NAME = "hupf-sessions";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ConsistentMap<Long, String> map;
    private final Map<Long, PfcpSession> local = new ConcurrentHashMap<>();
    private final MapEventListener<Long, String> listener = this::onEvent;

    /**
     * Opens (or joins) the session map.
     *
     * @param storage ONOS storage service
     */
    public DistributedSessionStore(StorageService storage) {
        this.map = storage.<Long, String>consistentMapBuilder().withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespace.newBuilder()
                        .register(Long.class, String.class).build(MAP_NAME))).build();
        map.addListener(listener);
        map.entrySet().forEach(e -> local.put(e.getKey(), decode(e.getValue().value())));
    }

    private static PfcpSession decode(String json) {
        try {
            return SessionJson.decode(MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt stored session", e);
        }
    }

    private void onEvent(MapEvent<Long, String> e) {
        if (e.type() == MapEvent.Type.REMOVE) {
            local.remove(e.key());
        } else if (e.newValue() != null) {
            local.put(e.key(), decode(e.newValue().value()));
        }
    }

    /** Stops following the map (the app is going away). */
    public void close() {
        map.removeListener(listener);
    }

    @Override
    public PfcpSession get(long upSeid) {
        return local.get(upSeid);
    }

    @Override
    public void put(PfcpSession session) {
        map.put(session.upSeid, SessionJson.encode(session).toString());
        local.put(session.upSeid, session);
    }

    @Override
    public PfcpSession remove(long upSeid) {
        Versioned<String> v = map.remove(upSeid);
        PfcpSession s = local.remove(upSeid);
        return s != null ? s : v == null ? null : decode(v.value());
    }

    @Override
    public Collection<PfcpSession> all() {
        return new ArrayList<>(local.values());
    }
}
