package org.hupf.standalone.rest;

import org.hupf.api.BoundedJson;
import org.hupf.core.rest.HupfResource;
import org.onlab.osgi.ServiceNotFoundException;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.ws.rs.NotAllowedException;
import javax.ws.rs.NotFoundException;
import javax.ws.rs.WebApplicationException;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.Request;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.UriInfo;
import javax.ws.rs.ext.ExceptionMapper;

/**
 * Turns every failure into a JSON error with its status, so a client always gets an answer it can read:
 * an unknown path 404, a wrong method 405, bad input 400 (413 past the size limit), a service this host
 * does not run 503, a bug 500 (logged), never a dropped connection.
 */
final class JsonErrors implements ExceptionMapper<Throwable> {

    private static final Logger log = LoggerFactory.getLogger(JsonErrors.class);

    @Context
    private UriInfo uri;

    @Context
    private Request request;

    private String target() {
        return request.getMethod() + " /" + uri.getPath();
    }

    @Override
    public Response toResponse(Throwable e) {
        if (e instanceof NotFoundException) {
            return HupfResource.error(Response.Status.NOT_FOUND, "no such resource " + target());
        } else if (e instanceof NotAllowedException) {
            return HupfResource.error(Response.Status.METHOD_NOT_ALLOWED, "method not allowed: " + target());
        } else if (e instanceof WebApplicationException) {
            return HupfResource.error(((WebApplicationException) e).getResponse().getStatus(),
                                      String.valueOf(e.getMessage()));
        } else if (e instanceof ServiceNotFoundException) {
            return HupfResource.error(Response.Status.SERVICE_UNAVAILABLE, e.getMessage());
        } else if (e instanceof BoundedJson.TooLarge) {
            return HupfResource.error(Response.Status.REQUEST_ENTITY_TOO_LARGE, e.getMessage());
        } else if (e instanceof IllegalArgumentException || e instanceof UpfProgrammableException) {
            return HupfResource.error(Response.Status.BAD_REQUEST, String.valueOf(e.getMessage()));
        }
        // A bug costs one request an answer of 500, never the connection.
        log.error("REST {} failed", target(), e);
        return HupfResource.error(Response.Status.INTERNAL_SERVER_ERROR, "internal error: " + e);
    }
}
