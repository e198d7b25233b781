package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.hupf.pipeconf.upf.HupfDataplane;
import org.hupf.pipeconf.upf.PiCodecException;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.standalone.p4rt.P4RuntimeUpfDevice;
import org.onlab.packet.MacAddress;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lab's routes, which no PFCP session owns: the gNB and the data network behind their ports, written
 * as ONOS's hupf writes the netcfg's ({@link HupfDataplane#setRoutes}); with them, when the config has them,
 * the VXLAN tenants ({@link HupfDataplane#setTenants}, as hupf writes the netcfg's {@code tenants}) and the
 * traffic classes' queues ({@link HupfDataplane#setQueues}).
 */
final class Routes {

    private Routes() {
    }

    /**
     * Makes a target's routes the [prefix, port, next-hop MAC] listed for it (routes.switch or routes.backend),
     * its tenants the config's {@code tenants} ([{"vni", "vtep", "tenant_id", "tc", "dscp"[, "slices"]}], the
     * slices [{"qfi", "tc", "dscp"[, "rate_bps", "burst_bytes"]}] as the netcfg's) and its queues
     * the config's {@code queues} ({"tc": queue}).
     */
    static void write(P4RuntimeUpfDevice dev, LabConfig cfg, String target) throws PiTargetException {
        MacAddress router = LabConfig.mac(cfg.node("router_mac"), "router_mac");
        List<Route> routes = new ArrayList<>();
        for (JsonNode r : cfg.node("routes", target)) {
            routes.add(new Route(LabConfig.prefix(r.get(0), "route prefix"), r.get(1).asInt(), router,
                                 LabConfig.mac(r.get(2), "route MAC")));
        }
        HupfDataplane dp = new HupfDataplane(dev.model(), dev.target());
        try {
            dp.setRoutes(routes);
            if (cfg.has("tenants")) {
                dp.setTenants(tenants(cfg.node("tenants")));
            }
            if (cfg.has("queues")) {
                Map<Integer, Integer> queues = new TreeMap<>();
                cfg.node("queues").fields().forEachRemaining(
                        q -> queues.put(Integer.parseInt(q.getKey()), q.getValue().asInt()));
                dp.setQueues(queues);
            }
        } catch (PiCodecException e) {
            throw new IllegalArgumentException(target + ": " + e.getMessage(), e);
        }
    }

    /**
     * The config's tenants.
     *
     * @param list the config's {@code tenants}
     * @return the tenants, with their slices
     * @throws IllegalArgumentException naming a slice's missing or non-integer field, or a value out of range
     */
    static List<Tenant> tenants(JsonNode list) {
        List<Tenant> out = new ArrayList<>();
        for (JsonNode t : list) {
            List<TenantSlice> slices = new ArrayList<>();
            for (JsonNode x : t.path("slices")) {
                slices.add(new TenantSlice(integer(x, "qfi"), integer(x, "tc"), integer(x, "dscp"),
                                           x.has("rate_bps") ? integer(x, "rate_bps") : 0,
                                           x.has("burst_bytes") ? integer(x, "burst_bytes") : 0));
            }
            out.add(new Tenant(t.path("vni").asInt(), LabConfig.addr(t.get("vtep"), "tenant vtep"),
                               t.path("tenant_id").asInt(), t.path("tc").asInt(), t.path("dscp").asInt(), 0, 0,
                               slices));
        }
        return out;
    }

    private static int integer(JsonNode slice, String field) {
        JsonNode n = slice.get(field);
        if (n == null || !n.canConvertToInt() || !n.isIntegralNumber()) {
            throw new IllegalArgumentException("tenant slice " + slice + ": " + field + " must be an integer");
        }
        return n.asInt();
    }
}
