package org.hupf.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.ws.rs.core.Configuration;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * Base of hupf's JAX-RS resources, so the same classes run in both hosts: a resource finds its services
 * in the {@link ServiceLookup} its JAX-RS application carries as the property {@link #SERVICES} (ONOS's
 * service registry in the app's application, the standalone host's registry there). Every answer is JSON,
 * errors as {@code {"error": message}}.
 */
public abstract class HupfResource {

    /** Application property naming the host's {@link ServiceLookup}. */
    public static final String SERVICES = "org.hupf.rest.services";

    protected static final ObjectMapper MAPPER = new ObjectMapper();

    @Context
    private Configuration configuration;

    /**
     * A service of the host this resource runs in.
     *
     * @param service the service's interface
     * @param <T>     its type
     * @return the service
     * @throws IllegalStateException when the application carries no {@link ServiceLookup}
     */
    public <T> T get(Class<T> service) {
        Object services = configuration == null ? null : configuration.getProperty(SERVICES);
        if (!(services instanceof ServiceLookup)) {
            throw new IllegalStateException("the JAX-RS application carries no " + SERVICES);
        }
        return ((ServiceLookup) services).get(service);
    }

    /**
     * A JSON error answer.
     *
     * @param status  HTTP status
     * @param message what went wrong
     * @return the answer
     */
    public static Response error(Response.Status status, String message) {
        return error(status.getStatusCode(), message);
    }

    /**
     * A JSON error answer with any status code.
     *
     * @param status  HTTP status code
     * @param message what went wrong
     * @return the answer
     */
    public static Response error(int status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON)
                .entity(MAPPER.createObjectNode().put("error", message).toString()).build();
    }

    /**
     * A 200 answer with a JSON body.
     *
     * @param body the body
     * @return the answer
     */
    public static Response json(JsonNode body) {
        return Response.ok(body.toString(), MediaType.APPLICATION_JSON).build();
    }
}
