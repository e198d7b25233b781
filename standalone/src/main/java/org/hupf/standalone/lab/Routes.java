package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.standalone.p4rt.P4RuntimeUpfDevice;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.List;

/**
 * The lab's routes, which no PFCP session owns: the gNB and the data network behind their ports.
 */
final class Routes {

    private Routes() {
    }

    /**
     * Writes the routes [prefix, port, next-hop MAC] listed for one target (routes.switch or routes.backend).
     */
    static void write(P4RuntimeUpfDevice dev, LabConfig cfg, String target) throws PiTargetException {
        MacAddress router = LabConfig.mac(cfg.node("router_mac"), "router_mac");
        List<PiEntity> out = new ArrayList<>();
        for (JsonNode r : cfg.node("routes", target)) {
            Ip4Prefix p = LabConfig.prefix(r.get(0), "route prefix");
            MacAddress next = LabConfig.mac(r.get(2), "route MAC");
            PiAction route = PiAction.builder().withId(HupfConstants.HUPF_INGRESS_ROUTING_ROUTE)
                    .withParameter(new PiActionParam(HupfConstants.SRC_MAC, router.toBytes()))
                    .withParameter(new PiActionParam(HupfConstants.DST_MAC, next.toBytes()))
                    .withParameter(new PiActionParam(HupfConstants.PORT, r.get(1).asInt())).build();
            out.add(PiTableEntry.builder().forTable(HupfConstants.HUPF_INGRESS_ROUTING_ROUTES_V4)
                            .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiLpmFieldMatch(
                                    HupfConstants.HDR_IPV4_DST, ImmutableByteSequence.copyFrom(p.address().toInt()),
                                    p.prefixLength())).build())
                            .withAction(route).build());
        }
        dev.target().write(out);
    }
}
