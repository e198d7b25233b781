package org.hupf.standalone.rest;

import org.hupf.core.rest.ServiceLookup;
import org.onlab.osgi.ServiceNotFoundException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The standalone host's service registry: what ONOS's OSGi registry is to the REST resources inside ONOS.
 * A service nobody registered is a {@link ServiceNotFoundException}, as in ONOS (HTTP 503).
 */
public final class ServiceRegistry implements ServiceLookup {

    private final Map<Class<?>, Object> services = new ConcurrentHashMap<>();

    /**
     * Registers a service under its interface.
     *
     * @param type    the interface resources look up
     * @param service its implementation
     * @param <T>     service type
     * @return this registry
     */
    public <T> ServiceRegistry register(Class<T> type, T service) {
        services.put(type, type.cast(service));
        return this;
    }

    @Override
    public <T> T get(Class<T> type) {
        Object service = services.get(type);
        if (service == null) {
            throw new ServiceNotFoundException("no " + type.getSimpleName() + " in this host");
        }
        return type.cast(service);
    }
}
