package org.hupf.app.rest;

import org.onlab.rest.AbstractWebApplication;

import java.util.Set;

/**
 * The JAX-RS application behind /onos/hupf (see WEB-INF/web.xml).
 */
public class HupfWebApplication extends AbstractWebApplication {
    @Override
    public Set<Class<?>> getClasses() {
        return getClasses(HupfWebResource.class);
    }
}
