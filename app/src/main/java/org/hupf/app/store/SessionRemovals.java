package org.hupf.app.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The removals of many sessions at once that are under way, in a ConsistentMap of their own: a CP function's
 * sessions (its association released or replaced, or it restarted) and every session (hupf deactivated). A
 * removal is recorded, in one commit, before its first session's entry goes and forgotten after its last, so
 * that one cut off (its node stopped, or lost) is finished by the next node that leads hupf: the store never keeps
 * the sessions of an association that is gone.
 */
final class SessionRemovals {

    static final String MAP_NAME = "hupf-session-removals";
    /** The key of the removal of every session. */
    static final String EVERY_SESSION = "every-session";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ConsistentMap<String, String> map;

    SessionRemovals(StorageService storage) {
        this.map = storage.<String, String>consistentMapBuilder().withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespace.newBuilder().register(String.class).build(MAP_NAME)))
                .build();
    }

    /**
     * Records the removal of sessions.
     *
     * @param nodeOf each session's UP SEID to its CP function's Node ID (a session of another CP function under the
     *               same SEID, made once the SEID was free again, is not the one to remove)
     * @return the record's key, for {@link #end}
     */
    String begin(Map<Long, String> nodeOf) {
        ObjectNode json = MAPPER.createObjectNode();
        nodeOf.forEach((seid, node) -> json.put(Long.toString(seid), node));
        String key = UUID.randomUUID().toString();
        map.put(key, json.toString());
        return key;
    }

    /** @return the key of the record of the removal of every session */
    String beginEverySession() {
        map.put(EVERY_SESSION, "{}");
        return EVERY_SESSION;
    }

    /** Forgets a removal that finished. */
    void end(String key) {
        map.remove(key);
    }

    /**
     * @return the removals recorded and not finished, by key: each session's UP SEID to its Node ID (none for the
     *         removal of every session)
     */
    Map<String, Map<Long, String>> pending() {
        Map<String, Map<Long, String>> out = new LinkedHashMap<>();
        map.entrySet().forEach(e -> out.put(e.getKey(), sessions(e.getValue().value())));
        return out;
    }

    private static Map<Long, String> sessions(String json) {
        JsonNode n;
        try {
            n = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt record of a session removal", e);
        }
        Map<Long, String> out = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            out.put(Long.parseLong(f.getKey()), f.getValue().asText());
        }
        return out;
    }
}
