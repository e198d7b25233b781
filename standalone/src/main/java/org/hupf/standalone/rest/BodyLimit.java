package org.hupf.standalone.rest;

import org.hupf.api.BoundedJson;
import org.hupf.core.rest.HupfResource;

import javax.annotation.Priority;
import javax.ws.rs.Priorities;
import javax.ws.rs.container.ContainerRequestContext;
import javax.ws.rs.container.ContainerRequestFilter;
import javax.ws.rs.container.PreMatching;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the body of every change (a method but GET, HEAD, OPTIONS, which take none) within
 * {@link BoundedJson#MAX_BYTES} before a resource sees it, so an endpoint that takes no body cannot be made
 * to buffer an unbounded one. Past the limit the answer is a JSON 413 that
 * the client can read whatever the framing, then the connection closes. A body is read and dropped up to
 * {@link #DRAIN_BYTES} first, so that a client that sends its whole body before it reads finds the 413
 * rather than a reset; a declared Content-Length over that, or over the limit from a client waiting for
 * {@code 100 Continue}, is refused before a byte of the body is read. Resources that parse JSON still go
 * through {@link BoundedJson#read}, which also bounds the nesting.
 */
@PreMatching
@Priority(Priorities.ENTITY_CODER)
final class BodyLimit implements ContainerRequestFilter {

    /** Most of an over-long body read and dropped so that its 413 can be read. */
    static final long DRAIN_BYTES = 16L << 20;
    private static final String TOO_LARGE = "body exceeds " + BoundedJson.MAX_BYTES + " bytes";

    @Override
    public void filter(ContainerRequestContext request) {
        if (ControlToken.READS.contains(request.getMethod())) {
            // No resource reads a body on these, and reading one here would let a client without the token
            // hold a worker with half a body.
            return;
        }
        String declared = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        long length = declared == null ? -1 : Long.parseLong(declared.trim());
        boolean waitsToSend = "100-continue".equalsIgnoreCase(request.getHeaderString("Expect"));
        if (length > BoundedJson.MAX_BYTES && (waitsToSend || length > DRAIN_BYTES)) {
            refuse(request);
            return;
        }
        InputStream body = request.getEntityStream();
        try {
            request.setEntityStream(new ByteArrayInputStream(BoundedJson.readAtMost(body, BoundedJson.MAX_BYTES)));
        } catch (BoundedJson.TooLarge e) {
            drain(body);
            refuse(request);
        } catch (IllegalArgumentException e) {
            request.abortWith(HupfResource.error(Response.Status.BAD_REQUEST, e.getMessage()));
        }
    }

    private static void refuse(ContainerRequestContext request) {
        Response tooLarge = HupfResource.error(Response.Status.REQUEST_ENTITY_TOO_LARGE, TOO_LARGE);
        request.abortWith(Response.fromResponse(tooLarge).header("Connection", "close").build());
    }

    private static void drain(InputStream body) {
        byte[] buf = new byte[65536];
        long left = DRAIN_BYTES;
        try {
            int n;
            while (left > 0 && (n = body.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
                left -= n;
            }
        } catch (IOException e) {
            // The client went away or stalled past the idle timeout: there is nobody left to read the 413.
        }
    }
}
