package org.hupf.app.rest;

import org.hupf.core.rest.HupfResource;
import org.hupf.core.rest.HupfWebResource;
import org.hupf.core.rest.ServiceLookup;
import org.onlab.osgi.DefaultServiceDirectory;
import org.onlab.rest.AbstractWebApplication;

import java.util.Map;
import java.util.Set;

/**
 * The JAX-RS application behind /onos/hupf (see WEB-INF/web.xml): core's resources and the ONOS host's live view
 * ({@link HupfLiveResource}), finding their services in
 * ONOS's registry.
 */
public class HupfWebApplication extends AbstractWebApplication {

    private static final ServiceLookup ONOS_SERVICES = DefaultServiceDirectory::getService;

    @Override
    public Set<Class<?>> getClasses() {
        return getClasses(HupfWebResource.class, HupfLiveResource.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return Map.of(HupfResource.SERVICES, ONOS_SERVICES);
    }
}
