package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.pipeconf.dataplane.Route;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Map;

import static org.hupf.core.config.JsonFields.intIn;
import static org.hupf.core.config.JsonFields.list;
import static org.hupf.core.config.JsonFields.mac;

/**
 * Parses the netcfg's {@code routes} block.
 */
public final class RoutesParser {

    public static final String ROUTES = "routes";

    private RoutesParser() {
    }

    /**
     * Returns the routes no PFCP session owns ({@code routes}: deviceId, prefix, port, srcMac, dstMac), as the
     * lab writes them: towards the gNBs and the data network, on the switch and on each backend.
     *
     * @param root the netcfg's hupf object
     * @return device and route, in the order given
     */
    public static List<Map.Entry<DeviceId, Route>> routes(JsonNode root) {
        return list(root, ROUTES, n -> {
            if (!n.path("deviceId").isTextual() || !n.has("port")) {
                throw new IllegalArgumentException("deviceId, prefix, port, srcMac and dstMac are required");
            }
            Ip4Prefix prefix;
            try {
                prefix = Ip4Prefix.valueOf(n.path("prefix").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("prefix: an IPv4 prefix expected, got " + n.get("prefix"));
            }
            return Map.entry(DeviceId.deviceId(n.get("deviceId").asText()),
                             new Route(prefix, intIn(n, "port", 0, 511, 0), mac(n, "srcMac"), mac(n, "dstMac")));
        });
    }
}
