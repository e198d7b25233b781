package org.hupf.standalone.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.h2.mvstore.MVMap;
import org.hupf.api.Association;
import org.hupf.core.store.AssociationStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PFCP associations in the host's {@link DurableState}, keyed by Node ID, with the peer they are bound
 * to (address and port), the peer's Recovery Time Stamp and the time they were set up.
 */
public final class DurableAssociationStore implements AssociationStore {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final MVMap<String, String> map;
    private final DurableState state;
    private final Map<String, Association> local = new ConcurrentHashMap<>();

    DurableAssociationStore(MVMap<String, String> map, DurableState state) {
        this.map = map;
        this.state = state;
        map.forEach((node, json) -> local.put(node, decode(json)));
    }

    static String encode(Association a) {
        ObjectNode n = MAPPER.createObjectNode().put("nodeId", a.nodeId)
                .put("address", a.peer.getAddress().getHostAddress()).put("port", a.peer.getPort())
                .put("recoveryTimeStamp", a.recoveryTimeStamp).put("establishedMillis", a.establishedMillis);
        return n.toString();
    }

    static Association decode(String json) {
        try {
            JsonNode n = MAPPER.readTree(json);
            InetSocketAddress peer = new InetSocketAddress(InetAddress.getByName(n.get("address").asText()),
                                                           n.get("port").asInt());
            return new Association(n.get("nodeId").asText(), peer, n.get("recoveryTimeStamp").asLong(),
                                   n.get("establishedMillis").asLong());
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException("stored association does not decode: " + json, e));
        }
    }

    boolean isEmpty() {
        return local.isEmpty();
    }

    @Override
    public Association get(String nodeId) {
        return local.get(nodeId);
    }

    @Override
    public synchronized Association put(Association a) {
        map.put(a.nodeId, encode(a));
        state.committed();
        return local.put(a.nodeId, a);
    }

    @Override
    public synchronized boolean remove(Association a) {
        Association current = local.get(a.nodeId);
        if (current == null || !AssociationStore.same(current, a)) {
            return false;
        }
        map.remove(a.nodeId);
        state.committed();
        local.remove(a.nodeId);
        return true;
    }

    @Override
    public Collection<Association> all() {
        return new ArrayList<>(local.values());
    }
}
