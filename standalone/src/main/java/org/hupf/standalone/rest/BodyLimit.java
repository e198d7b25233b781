package org.hupf.standalone.rest;

import org.hupf.api.BoundedJson;
import org.hupf.app.rest.HupfResource;

import javax.annotation.Priority;
import javax.ws.rs.Priorities;
import javax.ws.rs.container.ContainerRequestContext;
import javax.ws.rs.container.ContainerRequestFilter;
import javax.ws.rs.container.PreMatching;
import javax.ws.rs.core.Response;
import java.io.ByteArrayInputStream;

/**
 * Reads every request body within {@link BoundedJson#MAX_BYTES} before a resource sees it (413 past it),
 * so an endpoint that takes no body cannot be made to buffer an unbounded one. Resources that parse JSON
 * still go through {@link BoundedJson#read}, which also bounds the nesting.
 */
@PreMatching
@Priority(Priorities.ENTITY_CODER)
final class BodyLimit implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        try {
            request.setEntityStream(new ByteArrayInputStream(
                    BoundedJson.readAtMost(request.getEntityStream(), BoundedJson.MAX_BYTES)));
        } catch (BoundedJson.TooLarge e) {
            request.abortWith(HupfResource.error(Response.Status.REQUEST_ENTITY_TOO_LARGE, e.getMessage()));
        } catch (IllegalArgumentException e) {
            request.abortWith(HupfResource.error(Response.Status.BAD_REQUEST, e.getMessage()));
        }
    }
}
