package org.hupf.app.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.app.session.PfcpSession;
import org.hupf.app.session.SessionJson;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Sessions in an ONOS ConsistentMap (Raft-replicated), so they survive the loss of a cluster node and an
 * app restart. Values are the sessions' JSON form, so the serializer needs only Long and String.
 */
public final class DistributedSessionStore implements SessionStore {

    static final String MAP_NAME = "hupf-sessions";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ConsistentMap<Long, String> map;

    /**
     * Opens (or joins) the session map.
     *
     * @param storage ONOS storage service
     */
    public DistributedSessionStore(StorageService storage) {
        this.map = storage.<Long, String>consistentMapBuilder().withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespace.newBuilder()
                        .register(Long.class, String.class).build(MAP_NAME))).build();
    }

    private static PfcpSession decode(String json) {
        try {
            return SessionJson.decode(MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt stored session", e);
        }
    }

    @Override
    public PfcpSession get(long upSeid) {
        Versioned<String> v = map.get(upSeid);
        return v == null ? null : decode(v.value());
    }

    @Override
    public void put(PfcpSession session) {
        map.put(session.upSeid, SessionJson.encode(session).toString());
    }

    @Override
    public PfcpSession remove(long upSeid) {
        Versioned<String> v = map.remove(upSeid);
        return v == null ? null : decode(v.value());
    }

    @Override
    public Collection<PfcpSession> all() {
        List<PfcpSession> out = new ArrayList<>();
        map.values().forEach(v -> out.add(decode(v.value())));
        return out;
    }
}
