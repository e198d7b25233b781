package org.hupf.standalone.rest;

import org.eclipse.jetty.server.Server;
import org.glassfish.jersey.jetty.JettyHttpContainer;
import org.glassfish.jersey.server.ContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.hupf.core.rest.HupfResource;
import org.hupf.core.rest.HupfWebResource;

import java.io.IOException;

/**
 * The standalone host's REST API: the app's JAX-RS resources ({@link HupfWebResource}, the same classes
 * ONOS serves under /onos/hupf) plus the {@link LabResource} hooks, on embedded Jersey over Jetty
 * ({@link ControlServer}: idle timeout per connection, bounded workers), bound to loopback, at the root of
 * the port. The resources find their services in the host's {@link ServiceRegistry}; changes need the
 * control token ({@link ControlToken}), bodies are bounded ({@link BodyLimit}) and every failure is a JSON
 * error ({@link JsonErrors}).
 */
public final class ControlApi implements AutoCloseable {

    private final Server server;

    /**
     * Starts the API on loopback with the default idle timeout.
     *
     * @param port     TCP port, 0 for any free one
     * @param token    bearer token for changes; null or empty for a read-only API
     * @param services what the resources look up
     * @param more     resources beyond the app's and {@link LabResource} (the lab runner's {@link BackendsResource})
     * @throws IOException if the port cannot be bound
     */
    public ControlApi(int port, String token, ServiceRegistry services, Class<?>... more) throws IOException {
        this(port, ControlServer.DEFAULT_IDLE_TIMEOUT_MS, token, services, more);
    }

    /**
     * Starts the API on loopback.
     *
     * @param port          TCP port, 0 for any free one
     * @param idleTimeoutMs a connection without a byte either way for this long is closed
     * @param token         bearer token for changes; null or empty for a read-only API
     * @param services      what the resources look up
     * @param more          resources beyond the app's and {@link LabResource}
     * @throws IOException if the port cannot be bound
     */
    public ControlApi(int port, long idleTimeoutMs, String token, ServiceRegistry services, Class<?>... more)
            throws IOException {
        ResourceConfig config = new ResourceConfig()
                .register(HupfWebResource.class).register(LabResource.class).registerClasses(more)
                .register(new ControlToken(token)).register(new BodyLimit()).register(JsonErrors.class)
                .property(HupfResource.SERVICES, services)
                // No WADL: nobody asks for it, and it needs JAXB, which Java 11+ no longer ships.
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
        server = ControlServer.start(ContainerFactory.createContainer(JettyHttpContainer.class, config), port,
                                     idleTimeoutMs);
    }

    /** @return the port bound */
    public int port() {
        return ControlServer.port(server);
    }

    @Override
    public void close() {
        ControlServer.stopQuietly(server);
    }
}
