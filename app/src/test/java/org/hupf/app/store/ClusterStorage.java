package org.hupf.app.store;

import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.StorageException;
import org.onosproject.store.service.StorageService;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ONOS's storage as the nodes of one cluster share it (one map per name), whose session map's removals and
 * clearing time out while a test says so: a node stopped or lost in the middle of removing sessions.
 */
public final class ClusterStorage {

    private final Map<String, ConsistentMap<?, ?>> shared = new ConcurrentHashMap<>();
    private volatile boolean failing;
    /** The storage service every node of the cluster is given. */
    public final StorageService service = DistributedSessionStoreTest.storage((name, fresh) -> shared.computeIfAbsent(
            name, n -> n.equals(DistributedSessionStore.MAP_NAME) ? faulty(fresh.get()) : fresh.get()));

    /** The session map's removals and clearing time out from now on (or commit again). */
    public void failRemovals(boolean on) {
        failing = on;
    }

    private ConsistentMap<?, ?> faulty(ConsistentMap<?, ?> map) {
        return (ConsistentMap<?, ?>) Proxy.newProxyInstance(
                ConsistentMap.class.getClassLoader(), new Class<?>[]{ConsistentMap.class}, (proxy, method, args) -> {
                    if (failing && (method.getName().equals("remove") || method.getName().equals("clear"))) {
                        throw new StorageException.Timeout();
                    }
                    try {
                        return method.invoke(map, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
