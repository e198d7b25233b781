package org.hupf.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.onlab.osgi.ServiceDirectory;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.core.Configuration;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * Base of hupf's JAX-RS resources, so the same classes run in both hosts: a resource finds its services
 * in the {@link ServiceDirectory} its JAX-RS application carries as the property {@link #SERVICES} (the
 * standalone host's registry), else in ONOS's service registry ({@link AbstractWebResource#get}). Every
 * answer is JSON, errors as {@code {"error": message}}.
 */
public abstract class HupfResource extends AbstractWebResource {

    /** Application property naming the {@link ServiceDirectory} of a host other than ONOS. */
    public static final String SERVICES = "org.hupf.rest.services";

    protected static final ObjectMapper MAPPER = new ObjectMapper();

    @Context
    private Configuration configuration;

    @Override
    public <T> T get(Class<T> service) {
        Object directory = configuration == null ? null : configuration.getProperty(SERVICES);
        return directory instanceof ServiceDirectory ? ((ServiceDirectory) directory).get(service)
                : super.get(service);
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
