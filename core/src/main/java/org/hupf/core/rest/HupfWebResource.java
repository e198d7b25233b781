package org.hupf.core.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.hupf.api.DeviceStatus;
import org.hupf.api.DeviceStatusService;
import org.hupf.api.EntityJson;
import org.hupf.api.HupfService;
import org.hupf.api.OffloadBySite;
import org.hupf.api.OffloadService;
import org.hupf.api.RpsService;
import org.hupf.api.RpsStatus;
import org.hupf.api.SiteStatus;
import org.onlab.osgi.ServiceNotFoundException;
import org.hupf.api.TenantStatus;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.SessionJson;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import javax.ws.rs.Consumes;
import javax.ws.rs.DELETE;
import javax.ws.rs.DefaultValue;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.hupf.core.rest.RestAnswers.guarded;
import static org.hupf.core.rest.RestAnswers.jsonList;
import static org.hupf.core.rest.RestAnswers.parse;
import static org.hupf.core.rest.RestAnswers.seid;
import static org.hupf.core.rest.RestAnswers.tenantId;

/**
 * hupf's REST API, the same classes in both hosts: under /onos/hupf in ONOS, at the root of the standalone
 * host's control port. Sessions as JSON mirroring PFCP (create, modify, delete, list), counters, UE pools,
 * PFCP peers, devices, health. Invalid input is a 400 with a message; the swagger description is generated
 * from these annotations at build time (onos-maven-plugin).
 */
@Path("")
public class HupfWebResource extends HupfResource {

    /**
     * Returns the service (a method so tests can supply one without a registry).
     *
     * @return hupf service
     */
    protected HupfService service() {
        return get(HupfService.class);
    }

    /**
     * Lists sessions, each with its {@code "site"} where the netcfg names sites.
     *
     * @return 200 with {"sessions": [...]}
     */
    @GET
    @Path("sessions")
    @Produces(MediaType.APPLICATION_JSON)
    public Response sessions() {
        HupfService service = service();
        return jsonList("sessions", service.sessions(), (PfcpSession s) -> {
            ObjectNode o = SessionJson.encode(s);
            String site = service.siteOf(s);
            return site == null ? o : o.put("site", site);
        });
    }

    /**
     * Lists the UPF sites of hupf's netcfg: each one's switch, backends, gNB prefixes, N3 Network Instances and
     * N3 addresses, and the sessions placed there.
     *
     * @return 200 with {"sites": [...]}, empty where the netcfg names no sites (one implicit site)
     */
    @GET
    @Path("sites")
    @Produces(MediaType.APPLICATION_JSON)
    public Response sites() {
        return jsonList("sites", SiteStatus.withHybrids(service().sites(), optionalOffloadService()),
                        SiteStatus::toJson);
    }

    /**
     * Returns one session with the entities it needs.
     *
     * @param seid UP SEID
     * @return 200, 400 on a bad SEID, 404 if unknown
     */
    @GET
    @Path("sessions/{seid}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response session(@PathParam("seid") String seid) {
        return guarded(() -> {
            long id = seid(seid);
            PfcpSession s = service().session(id);
            if (s == null) {
                return error(Response.Status.NOT_FOUND, "no session " + seid);
            }
            ObjectNode o = SessionJson.encode(s);
            ArrayNode e = o.putArray("entities");
            service().entities(id).forEach(x -> e.add(EntityJson.encode(x)));
            return json(o);
        });
    }

    /**
     * Creates a session.
     *
     * @param body session JSON (upSeid is ignored)
     * @return 201 with the session, 400 with a message
     */
    @POST
    @Path("sessions")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response create(InputStream body) {
        return guarded(() -> {
            PfcpSession s = service().createSession(parse(body));
            return Response.created(URI.create("sessions/" + Long.toUnsignedString(s.upSeid)))
                    .type(MediaType.APPLICATION_JSON).entity(SessionJson.encode(s).toString()).build();
        });
    }

    /**
     * Replaces a session's rules.
     *
     * @param seid UP SEID
     * @param body session JSON
     * @return 200, 400 with a message, 404 if unknown
     */
    @PUT
    @Path("sessions/{seid}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response modify(@PathParam("seid") String seid, InputStream body) {
        return guarded(() -> {
            long id = seid(seid);
            PfcpSession in = parse(body);
            PfcpSession s = service().modifySession(new PfcpSession(id, in.cpSeid, in.cpAddress, in.nodeId, in.pdrs,
                                                                    in.fars, in.qers, in.urrs, in.allocations));
            return json(SessionJson.encode(s));
        });
    }

    /**
     * Deletes a session.
     *
     * @param seid UP SEID
     * @return 204, 400 on a bad SEID, 404 if unknown
     */
    @DELETE
    @Path("sessions/{seid}")
    public Response delete(@PathParam("seid") String seid) {
        return guarded(() -> {
            return service().deleteSession(seid(seid)) ? Response.noContent().build()
                    : error(Response.Status.NOT_FOUND, "no session " + seid);
        });
    }

    /**
     * Reads a session's counters (per PDR, summed over switch and backend).
     *
     * @param seid UP SEID
     * @return 200, 400, 404
     */
    @GET
    @Path("sessions/{seid}/counters")
    @Produces(MediaType.APPLICATION_JSON)
    public Response counters(@PathParam("seid") String seid) {
        return guarded(() -> {
            long id = seid(seid);
            if (service().session(id) == null) {
                return error(Response.Status.NOT_FOUND, "no session " + seid);
            }
            ObjectNode o = MAPPER.createObjectNode();
            service().sessionCounters(id).forEach((pdr, c) -> o.set(String.valueOf(pdr), EntityJson.encode(c)));
            return json(o);
        });
    }

    /**
     * Reports buffered downlink data for a UE (from whoever receives DOWNLINK_BUFFER packet-ins).
     *
     * @param ue UE IPv4 address
     * @return 200 with {"reported": bool}, 400 on a bad address
     */
    @POST
    @Path("ue/{ue}/downlink-data")
    @Produces(MediaType.APPLICATION_JSON)
    public Response downlinkData(@PathParam("ue") String ue) {
        Ip4Address addr;
        try {
            addr = Ip4Address.valueOf(ue);
        } catch (IllegalArgumentException e) {
            return error(Response.Status.BAD_REQUEST, "not an IPv4 address: " + ue);
        }
        return json(MAPPER.createObjectNode().put("reported", service().downlinkData(addr)));
    }

    /**
     * Returns the offload manager's metrics summed over the sites (offloaded sessions and their UEs, HH reports,
     * switch table occupancy, the bytes carried on each path, the backends it drives), and each site's own.
     *
     * @param site only this site (its own figures, the sum being that site's), or every site without it
     * @return 200 with the metrics and {"sites": [{"site", ...its metrics, UEs and backends}]}, 404 for a site the
     *     netcfg does not name, 503 while no hupf backend is available (at that site)
     * @throws IOException never: the metrics render valid JSON
     */
    @GET
    @Path("offload")
    @Produces(MediaType.APPLICATION_JSON)
    public Response offload(@QueryParam("site") String site) throws IOException {
        return OffloadViews.offload(() -> offloadBySite(site), site);
    }

    /**
     * Lists the backends: those hupf drives (each holds every session of its site) with whether their site's
     * switch steers misses to them, and those drained or being drained for a planned removal, each with its site.
     *
     * @param site only this site's backends, or every site's without it
     * @return 200 with {"backends": [{"id", "site", "state"}]}, state STEERED (misses steered to it), HELD (holds
     *     the sessions, not steered to: no switch, no port on it), DRAINING or DRAINED; 404 for a site the netcfg
     *     does not name
     */
    @GET
    @Path("backends")
    @Produces(MediaType.APPLICATION_JSON)
    public Response backends(@QueryParam("site") String site) {
        return OffloadViews.backends(() -> offloadBySite(site));
    }

    /** @throws java.util.NoSuchElementException for a site the netcfg does not name */
    private OffloadBySite offloadBySite(String site) {
        return OffloadBySite.of(offloadService(), service().sites(), site);
    }

    /**
     * Drains a backend for a planned removal (the switch steers its UEs to the other backends, which hold their
     * sessions; its counts are read until still; then hupf lets it go, its counts kept in the sessions' usage):
     * answered once it has left, when its process may stop without loss. It stays out until restored (DELETE).
     *
     * @param id      the backend's device id
     * @param quietMs how long its counts must stay still, ms
     * @param maxMs   how long to wait for that at most, ms
     * @return 200 with what the drain saw (quiet, steered_ms, drained_ms, packets, after_steering, reads, error);
     *     400 for bad times or a device that is not a backend hupf drives; 409 when it is drained already, another
     *     drain runs, no other backend is steered to or this node does not drive the backends; 502 when the switch
     *     did not take the steering (the backend keeps its UEs)
     */
    @POST
    @Path("backends/{id}/drain")
    @Produces(MediaType.APPLICATION_JSON)
    public Response drain(@PathParam("id") String id, @QueryParam("quiet_ms") @DefaultValue("" + OffloadService.DRAIN_QUIET_MS) long quietMs,
                          @QueryParam("max_ms") @DefaultValue("" + OffloadService.DRAIN_MAX_MS) long maxMs) {
        try {
            return json(offloadService().drain(id, quietMs, maxMs).toJson(id));
        } catch (IllegalArgumentException e) {
            return error(Response.Status.BAD_REQUEST, e.getMessage());
        } catch (IllegalStateException e) {
            return error(Response.Status.CONFLICT, e.getMessage());
        } catch (UpfProgrammableException e) {
            return error(Response.Status.BAD_GATEWAY, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return error(Response.Status.SERVICE_UNAVAILABLE, "interrupted: " + id + " is steered to again");
        }
    }

    /**
     * Returns a drained (or draining) backend to service: its sessions reconciled, then the switch steers to it.
     *
     * @param id the backend's device id
     * @return 200 with {"backend", "restored": true}; 404 when it is not drained; 409 while its drain runs
     */
    @DELETE
    @Path("backends/{id}/drain")
    @Produces(MediaType.APPLICATION_JSON)
    public Response restore(@PathParam("id") String id) {
        try {
            if (!offloadService().restore(id)) {
                return error(Response.Status.NOT_FOUND, id + " is not drained");
            }
        } catch (IllegalStateException e) {
            return error(Response.Status.CONFLICT, e.getMessage());
        }
        return json(MAPPER.createObjectNode().put("backend", id).put("restored", true));
    }

    /**
     * Returns the offload service (a method so tests can supply one without a registry).
     *
     * @return offload service
     */
    protected OffloadService offloadService() {
        return get(OffloadService.class);
    }

    /** @return the offload service, null where the host has none (the standalone host) */
    private OffloadService optionalOffloadService() {
        try {
            return offloadService();
        } catch (ServiceNotFoundException e) {
            return null;
        }
    }

    /**
     * Returns the device status service (a method so tests can supply one without a registry).
     *
     * @return device status service
     */
    protected DeviceStatusService deviceStatus() {
        return get(DeviceStatusService.class);
    }

    /**
     * Lists the data-plane targets hupf programs: connection state (up, down, reconciling), whether hupf's
     * pipeline is pushed, the UPF entries on each (-1 if unknown) and the last error.
     *
     * @return 200 with {"devices": [...]}
     */
    @GET
    @Path("devices")
    @Produces(MediaType.APPLICATION_JSON)
    public Response devices() {
        return jsonList("devices", deviceStatus().devices(), (DeviceStatus d) -> MAPPER.createObjectNode()
                .put("id", d.id()).put("state", d.state().name().toLowerCase())
                .put("pipelinePushed", d.pipelinePushed()).put("entries", d.entries())
                .put("lastError", d.lastError()));
    }

    /**
     * Reconciles every device with the session store now (as the periodic reconciliation does).
     *
     * @return 200 with {"operations": n}, the device operations it took
     */
    @POST
    @Path("reconcile")
    @Produces(MediaType.APPLICATION_JSON)
    public Response reconcile() {
        return json(MAPPER.createObjectNode().put("operations", service().reconcile()));
    }

    /**
     * Lists the UE pools.
     *
     * @return 200 with {"uePools": [...]}
     */
    @GET
    @Path("ue-pools")
    @Produces(MediaType.APPLICATION_JSON)
    public Response uePools() {
        return jsonList("uePools", service().uePools(), p -> TextNode.valueOf(p.toString()));
    }

    /**
     * Lists the VXLAN tenants of hupf's netcfg with their bound sessions and counters.
     * Each entry (vni, vtep, tenantId, tc, dscp, meter) with its networkInstance and overlay, the sessions bound
     * to it, and its counter, the tenant id's cell of the tenant counter: packets and bytes summed over the
     * switch and backends, and per device.
     *
     * @param tenantId only the entries of this tenant id (0 to 255), optional: all when absent
     * @return 200 with {"tenants": [...]}, 400 naming tenantId if it is not a tenant id
     */
    @GET
    @Path("tenants")
    @Produces(MediaType.APPLICATION_JSON)
    public Response tenants(@QueryParam("tenantId") String tenantId) {
        return guarded(() -> {
            Integer only = tenantId == null ? null : tenantId(tenantId);
            List<TenantStatus> shown = new ArrayList<>();
            for (TenantStatus t : service().tenants()) {
                if (only == null || t.tenant.tenantId() == only) {
                    shown.add(t);
                }
            }
            return jsonList("tenants", shown, TenantStatus::toJson);
        });
    }

    /**
     * Returns the RPS service (a method so tests can supply one without a registry).
     *
     * @return RPS service
     */
    protected RpsService rpsService() {
        return get(RpsService.class);
    }

    /**
     * Returns Retroactive Packet Sampling's status: the mode and the settings in force (the netcfg's rps block), the
     * export to the monitor (records taken from packet-ins, malformed, not exported; while exporting, the
     * exporter's records offered, queued, sent, datagrams, dropped for a full queue and send errors, this node's),
     * and each device whose pipeline has RPS as read from it now: its sizes (bufferSize, flows, trackDepth), its
     * rps.events per observation point (in, out: observed, direct, delayed, late, trackOverrun, exported,
     * lateRepeated, invalid) and the settings' warnings for it, or why it could not be read.
     *
     * @param device only this device's counters (a device id), optional: all when absent
     * @return 200 with the status, 400 for an empty device, 404 naming the devices for one without RPS counters
     */
    @GET
    @Path("rps")
    @Produces(MediaType.APPLICATION_JSON)
    public Response rps(@QueryParam("device") String device) {
        return guarded(() -> {
            if (device != null && device.isBlank()) {
                throw new IllegalArgumentException("device: a device id expected, got '" + device + "'");
            }
            RpsStatus s = rpsService().status();
            if (device == null) {
                return json(s.toJson());
            }
            if (!s.devices.containsKey(device)) {
                return error(Response.Status.NOT_FOUND, "device " + device + " has no RPS counters here (devices: "
                        + String.join(", ", new TreeSet<>(s.devices.keySet())) + ")");
            }
            return json(s.only(device).toJson());
        });
    }

    /**
     * Lists PFCP associations.
     *
     * @return 200 with {"peers": [...]}
     */
    @GET
    @Path("pfcp-peers")
    @Produces(MediaType.APPLICATION_JSON)
    public Response peers() {
        return jsonList("peers", service().pfcpPeers(), p -> MAPPER.createObjectNode().put("nodeId", p.nodeId)
                .put("address", p.peer.getAddress().getHostAddress()).put("port", p.peer.getPort())
                .put("recoveryTimeStamp", p.recoveryTimeStamp));
    }

    /**
     * Health: status and activity counters.
     *
     * @return 200 with {"status": "ok", ...}
     */
    @GET
    @Path("health")
    @Produces(MediaType.APPLICATION_JSON)
    public Response health() {
        ObjectNode o = MAPPER.createObjectNode().put("status", "ok");
        service().stats().forEach(o::put);
        return json(o);
    }
}
