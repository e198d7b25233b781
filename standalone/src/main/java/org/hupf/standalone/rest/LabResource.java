package org.hupf.standalone.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.EntityJson;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.rest.HupfResource;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.List;
import java.util.Map;

import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * Lab and test hooks of the standalone host, under {@code /lab}: they stand in for what a real device
 * would do (count traffic, lose its tables) on the in-memory device. Never in ONOS: this module is not in
 * the {@code .oar}. Changes need the control token like every change ({@link ControlToken}).
 */
@Path("lab")
public class LabResource extends HupfResource {

    private InMemoryUpfDevice device() {
        return get(InMemoryUpfDevice.class);
    }

    private static long number(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException("missing query parameter " + name);
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("query parameter " + name + " is not a number: " + value);
        }
    }

    /**
     * Lists every entity on the in-memory devices, by type: one site's device, or every site's one after the other.
     *
     * @param site a site's id ({@code --sites}); null for every device
     * @return 200 with {"type": [entity, ...], ...}; 404 for a site the host does not have
     */
    @GET
    @Path("entities")
    @Produces(MediaType.APPLICATION_JSON)
    public Response entities(@QueryParam("site") String site) {
        Map<String, InMemoryUpfDevice> bySite = get(InMemorySites.class).devices();
        if (site != null && !bySite.containsKey(site)) {
            return error(Response.Status.NOT_FOUND, "no site " + site + ": sites " + bySite.keySet());
        }
        Collection<InMemoryUpfDevice> devices = site == null ? bySite.values() : List.of(bySite.get(site));
        ObjectNode all = MAPPER.createObjectNode();
        for (UpfEntityType t : UpfEntityType.values()) {
            ArrayNode list = all.putArray(t.humanReadableName());
            for (InMemoryUpfDevice d : devices) {
                for (UpfEntity e : d.entities(t)) {
                    list.add(EntityJson.encode(e));
                }
            }
        }
        return json(all);
    }

    /**
     * Sets a counter cell as traffic would (the same packets and bytes ingress and egress).
     *
     * @param cell  counter index
     * @param pkts  packets
     * @param bytes bytes
     * @return 200 with {"ok": true}, 400 on a missing or non-numeric parameter or a cell out of range
     * @throws UpfProgrammableException if the device refuses the cell (400)
     */
    @POST
    @Path("device/counter")
    @Produces(MediaType.APPLICATION_JSON)
    public Response setCounter(@QueryParam("cell") String cell, @QueryParam("pkts") String pkts,
                               @QueryParam("bytes") String bytes) throws UpfProgrammableException {
        long p = number("pkts", pkts);
        long b = number("bytes", bytes);
        long index = number("cell", cell);
        if (index < 0 || index > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("query parameter cell is out of range 0.." + Integer.MAX_VALUE
                                                       + ": " + cell);
        }
        device().setCounter(UpfCounter.builder().withCellId((int) index)
                                    .setIngress(p, b).setEgress(p, b).build());
        return json(MAPPER.createObjectNode().put("ok", true));
    }

    /**
     * Wipes the in-memory device as a restarted device would come back: every entity gone.
     *
     * @return 200 with {"ok": true}
     * @throws UpfProgrammableException never: the in-memory device deletes what it holds
     */
    @POST
    @Path("device/clear")
    @Produces(MediaType.APPLICATION_JSON)
    public Response clearDevice() throws UpfProgrammableException {
        for (UpfEntityType t : UpfEntityType.values()) {
            device().deleteAll(t);
        }
        return json(MAPPER.createObjectNode().put("ok", true));
    }
}
