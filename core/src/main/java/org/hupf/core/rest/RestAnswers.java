package org.hupf.core.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.BoundedJson;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.SessionJson;
import org.hupf.pipeconf.dataplane.Tenant;

import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.InputStream;
import java.util.function.Function;

import static org.hupf.core.rest.HupfResource.MAPPER;
import static org.hupf.core.rest.HupfResource.error;
import static org.hupf.core.rest.HupfResource.json;

/**
 * How {@link HupfWebResource} reads its requests' parameters and bodies and shapes its answers: a list as
 * {@code {"name": [...]}}, bad input as a 400 (a body over the size limit a 413) with its message, a refused rule
 * with its PFCP cause.
 */
final class RestAnswers {

    private RestAnswers() {
    }

    /** Answers {@code {"<name>": [encode(item), ...]}}. */
    static <T> Response jsonList(String name, Iterable<T> items, Function<T, JsonNode> encode) {
        ObjectNode o = MAPPER.createObjectNode();
        ArrayNode a = o.putArray(name);
        items.forEach(item -> a.add(encode.apply(item)));
        return json(o);
    }

    static Response rejected(RuleException e) {
        ObjectNode o = MAPPER.createObjectNode().put("error", e.getMessage()).put("pfcpCause", e.cause());
        Response.Status status = e.cause() == org.hupf.api.session.Cause.SESSION_CONTEXT_NOT_FOUND
                ? Response.Status.NOT_FOUND : Response.Status.BAD_REQUEST;
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(o.toString()).build();
    }

    /** A request body that may refuse its input. */
    interface Call {
        Response run() throws RuleException;
    }

    /**
     * Runs a request: a body over the size limit is a 413, other bad input a 400 with its message, a
     * refused rule a 400 (404 if unknown).
     */
    static Response guarded(Call call) {
        try {
            return call.run();
        } catch (BoundedJson.TooLarge e) {
            return error(Response.Status.REQUEST_ENTITY_TOO_LARGE, e.getMessage());
        } catch (IllegalArgumentException e) {
            return error(Response.Status.BAD_REQUEST, e.getMessage());
        } catch (RuleException e) {
            return rejected(e);
        }
    }

    /** Reads a session body within BoundedJson's size and depth limits. */
    static PfcpSession parse(InputStream body) {
        return SessionJson.decode(BoundedJson.read(body));
    }

    static long seid(String s) {
        try {
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("SEID " + s + " is not an unsigned 64-bit number");
        }
    }

    static int tenantId(String s) {
        try {
            int id = Integer.parseInt(s);
            if (id >= 0 && id <= Tenant.MAX_TENANT_ID) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("tenantId: an integer in [0, " + Tenant.MAX_TENANT_ID + "] expected, got "
                                                   + s);
    }
}
