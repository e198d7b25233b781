package org.hupf.core.rest;

/**
 * Where a REST resource finds the services of the host it runs in: ONOS's service registry inside ONOS,
 * the standalone host's registry outside.
 */
@FunctionalInterface
public interface ServiceLookup {

    /**
     * The host's implementation of a service.
     *
     * @param type the service's interface
     * @param <T>  its type
     * @return the implementation
     */
    <T> T get(Class<T> type);
}
