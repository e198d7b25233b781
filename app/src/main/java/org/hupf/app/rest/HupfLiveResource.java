package org.hupf.app.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.core.rest.HupfResource;
import org.hupf.api.HupfService;
import org.hupf.api.LiveService;
import org.hupf.api.OffloadService;
import org.hupf.app.gui.SessionPages;

import javax.ws.rs.DefaultValue;
import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * What the hupf view shows live, over REST for scripts and tests (ONOS host only: the samples come from its
 * {@link LiveService}): the last minutes of counts, the event stream, and the sessions one filtered page at a time.
 */
@Path("live")
public class HupfLiveResource extends HupfResource {

    /**
     * Returns the samples taken after a time, one per offload poll ({@code intervalMs}): the switch's bytes, each
     * backend's packets and bytes, HH reports, promotions, demotions, sessions on the switch and the switch tables'
     * entries.
     *
     * @param after only samples later than this, ms since the epoch (0: the last 10 minutes)
     * @return 200 with {"intervalMs", "samples": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response history(@QueryParam("after") @DefaultValue("0") long after) {
        ObjectNode root = MAPPER.createObjectNode();
        get(LiveService.class).history(root, after);
        return json(root);
    }

    /**
     * Returns the events after a sequence number: promotions, demotions, evictions, rejections, backends up and
     * down, drains and restorations, each with its time.
     *
     * @param after only events with a higher {@code seq} (0: every one kept)
     * @return 200 with {"events": [{"seq", "time", "kind", "subject"}...]}
     */
    @GET
    @Path("events")
    @Produces(MediaType.APPLICATION_JSON)
    public Response events(@QueryParam("after") @DefaultValue("0") long after) {
        ObjectNode root = MAPPER.createObjectNode();
        get(LiveService.class).events(root, after);
        return json(root);
    }

    /**
     * Returns one page of the sessions, in the order of their UP SEIDs, those of a site and containing a text when
     * asked.
     *
     * @param filter text in a session's SEIDs, UE address, TEIDs or path (HW, SW); empty for all
     * @param site   the site the sessions are served at; empty for every site
     * @param offset sessions skipped
     * @param limit  sessions at most (1 to 500)
     * @return 200 with {"total", "matched", "offset", "limit", "sessions": [...]}, 400 for a bad offset or limit
     */
    @GET
    @Path("sessions")
    @Produces(MediaType.APPLICATION_JSON)
    public Response sessions(@QueryParam("filter") @DefaultValue("") String filter,
                             @QueryParam("site") @DefaultValue("") String site,
                             @QueryParam("offset") @DefaultValue("0") int offset,
                             @QueryParam("limit") @DefaultValue("50") int limit) {
        ObjectNode root = MAPPER.createObjectNode();
        try {
            HupfService hupf = get(HupfService.class);
            SessionPages.page(root, hupf.sessions(), hupf.siteLookup(), get(OffloadService.class),
                              new SessionPages.Query(filter, site, offset, limit));
        } catch (IllegalArgumentException e) {
            return error(Response.Status.BAD_REQUEST, e.getMessage());
        }
        return json(root);
    }
}
