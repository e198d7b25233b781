package org.hupf.standalone.rest;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import org.glassfish.jersey.jdkhttp.JdkHttpHandlerContainer;
import org.glassfish.jersey.server.ContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.hupf.app.rest.HupfResource;
import org.hupf.app.rest.HupfWebResource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The standalone host's REST API: the app's JAX-RS resources ({@link HupfWebResource}, the same classes
 * ONOS serves under /onos/hupf) plus the {@link LabResource} hooks, on embedded Jersey over the JDK's HTTP
 * server, bound to loopback, at the root of the port. The resources find their services in the host's
 * {@link ServiceRegistry}; changes need the control token ({@link ControlToken}), bodies are bounded
 * ({@link BodyLimit}) and every failure is a JSON error ({@link JsonErrors}).
 */
public final class ControlApi implements AutoCloseable {

    private final HttpServer server;
    private final JdkHttpHandlerContainer container;

    /**
     * Starts the API on loopback.
     *
     * @param port     TCP port, 0 for any free one
     * @param token    bearer token for changes; null or empty for a read-only API
     * @param services what the resources look up
     * @param more     resources beyond the app's and {@link LabResource} (the lab runner's {@link BackendsResource})
     * @throws IOException if the port cannot be bound
     */
    public ControlApi(int port, String token, ServiceRegistry services, Class<?>... more) throws IOException {
        ResourceConfig config = new ResourceConfig()
                .register(HupfWebResource.class).register(LabResource.class).registerClasses(more)
                .register(new ControlToken(token)).register(new BodyLimit()).register(JsonErrors.class)
                .property(HupfResource.SERVICES, services)
                // No WADL: nobody asks for it, and it needs JAXB, which Java 11+ no longer ships.
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
        container = (JdkHttpHandlerContainer) ContainerFactory.createContainer(HttpHandler.class, config);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", container);
        container.getApplicationHandler().onStartup(container);
        server.start();
    }

    /** @return the port bound */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        container.getApplicationHandler().onShutdown(container);
    }
}
