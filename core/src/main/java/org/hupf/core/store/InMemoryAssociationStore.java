package org.hupf.core.store;

import org.hupf.api.Association;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Associations in this process only: what ONOS and the unit tests use (a PFCP association is bound to the
 * UDP socket of the node that accepted it, so it is not replicated).
 */
public final class InMemoryAssociationStore implements AssociationStore {

    private final Map<String, Association> associations = new ConcurrentHashMap<>();

    @Override
    public Association get(String nodeId) {
        return associations.get(nodeId);
    }

    @Override
    public Association put(Association a) {
        return associations.put(a.nodeId, a);
    }

    @Override
    public boolean remove(Association a) {
        Association current = associations.get(a.nodeId);
        return current != null && AssociationStore.same(current, a) && associations.remove(a.nodeId, current);
    }

    @Override
    public Collection<Association> all() {
        return new ArrayList<>(associations.values());
    }
}
