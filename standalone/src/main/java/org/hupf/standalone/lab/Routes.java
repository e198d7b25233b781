package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.upf.HupfDataplane;
import org.hupf.pipeconf.upf.PiCodecException;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.standalone.p4rt.P4RuntimeUpfDevice;
import org.onlab.packet.MacAddress;

import java.util.ArrayList;
import java.util.List;

/**
 * The lab's routes, which no PFCP session owns: the gNB and the data network behind their ports, written
 * as ONOS's hupf writes the netcfg's ({@link HupfDataplane#setRoutes}).
 */
final class Routes {

    private Routes() {
    }

    /**
     * Makes a target's routes the [prefix, port, next-hop MAC] listed for it (routes.switch or routes.backend).
     */
    static void write(P4RuntimeUpfDevice dev, LabConfig cfg, String target) throws PiTargetException {
        MacAddress router = LabConfig.mac(cfg.node("router_mac"), "router_mac");
        List<Route> routes = new ArrayList<>();
        for (JsonNode r : cfg.node("routes", target)) {
            routes.add(new Route(LabConfig.prefix(r.get(0), "route prefix"), r.get(1).asInt(), router,
                                 LabConfig.mac(r.get(2), "route MAC")));
        }
        try {
            new HupfDataplane(dev.model(), dev.target()).setRoutes(routes);
        } catch (PiCodecException e) {
            throw new IllegalArgumentException("routes." + target + ": " + e.getMessage(), e);
        }
    }
}
