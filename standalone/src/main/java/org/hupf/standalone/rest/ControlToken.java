package org.hupf.standalone.rest;

import org.hupf.core.rest.HupfResource;

import javax.annotation.Priority;
import javax.ws.rs.Priorities;
import javax.ws.rs.container.ContainerRequestContext;
import javax.ws.rs.container.ContainerRequestFilter;
import javax.ws.rs.container.PreMatching;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;

/**
 * Lets a change (any method but GET, HEAD, OPTIONS) through only with {@code Authorization: Bearer TOKEN},
 * the token the host was started with, compared in constant time; started without one, the API is
 * read-only (403). Reading is open: the API listens on loopback only. Checked before a resource is
 * matched, so an unauthorized change learns nothing about the paths.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION)
final class ControlToken implements ContainerRequestFilter {

    /** Methods that change nothing: open to anyone on loopback. */
    static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");
    private static final String BEARER = "Bearer ";

    /** Token that changes must carry; null: read-only. */
    private final byte[] token;

    ControlToken(String token) {
        this.token = token == null || token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if (READS.contains(request.getMethod())) {
            return;
        }
        if (token == null) {
            request.abortWith(HupfResource.error(Response.Status.FORBIDDEN, "read-only: start the host with"
                    + " --control-token or HUPF_CONTROL_TOKEN to allow changes"));
            return;
        }
        String auth = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        byte[] given = auth != null && auth.startsWith(BEARER)
                ? auth.substring(BEARER.length()).getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(token, given)) {
            Response refused = HupfResource.error(Response.Status.UNAUTHORIZED,
                                                  "a change needs Authorization: Bearer <control token>");
            request.abortWith(Response.fromResponse(refused).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build());
        }
    }
}
