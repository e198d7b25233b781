package org.hupf.standalone.rest;

import org.hupf.api.DrainReport;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.core.offload.BackendDrain;
import org.hupf.core.rest.HupfResource;

import javax.ws.rs.DefaultValue;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * The lab runner's backends, under {@code /lab/backends}: their states, and a backend's planned removal
 * ({@code POST /lab/backends/NAME/drain?quiet_ms=500&max_ms=10000}, with the control token), answered once the
 * backend has left: its process may then be stopped without loss.
 */
@Path("lab/backends")
public class BackendsResource extends HupfResource {

    /**
     * @return 200 with {"backend": "UP" | "DOWN" | "DRAINING" | "DRAINED", ...}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response states() {
        ObjectNode out = MAPPER.createObjectNode();
        get(BackendControl.class).states().forEach(out::put);
        return json(out);
    }

    /**
     * Drains a backend (see {@link BackendDrain}).
     *
     * @param name    the backend
     * @param quietMs how long its counts must stay still, ms
     * @param maxMs   how long to wait for that at most, ms
     * @return 200 with what the drain saw; 400 for a backend that cannot leave or bad times, 409 when it is
     *     drained already or no other backend is up
     * @throws Exception the steering failed (500: the backend keeps its UEs)
     */
    @POST
    @Path("{name}/drain")
    @Produces(MediaType.APPLICATION_JSON)
    public Response drain(@PathParam("name") String name, @QueryParam("quiet_ms") @DefaultValue("500") long quietMs,
                          @QueryParam("max_ms") @DefaultValue("10000") long maxMs) throws Exception {
        DrainReport r;
        try {
            r = get(BackendControl.class).drain(name, quietMs, maxMs);
        } catch (IllegalStateException e) {
            return error(Response.Status.CONFLICT, e.getMessage());
        }
        return json(r.toJson(name));
    }
}
