package org.hupf.app.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.app.config.HupfConfig;
import org.hupf.core.HupfApp;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.HostId;
import org.onosproject.net.link.LinkDescription;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;

/** The links and hosts read from hupf's config: the netcfg the two-site fabric runs, and a backend off its switch. */
public class HybridWiringTest {

    /** hupf's block of a netcfg file under the repository's netcfg/. */
    static HupfConfig config(String netcfg) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode whole = mapper.readTree(new File("../netcfg/" + netcfg));
        return config(whole.path("apps").path(HupfApp.APP_NAME).path(HupfConfig.KEY), mapper);
    }

    static HupfConfig config(JsonNode hupf, ObjectMapper mapper) {
        HupfConfig cfg = new HupfConfig();
        cfg.init(new DefaultApplicationId(7, HupfApp.APP_NAME), HupfConfig.KEY, hupf, mapper, null);
        return cfg;
    }

    private static Set<String> links(HupfConfig cfg) {
        return HybridWiring.links(cfg).stream().map(HybridWiringTest::name).collect(Collectors.toSet());
    }

    static String name(LinkDescription l) {
        return l.src() + "-" + l.dst() + " " + l.type() + (l.isExpected() ? " expected" : "");
    }

    @Test
    public void twoSitesLinkEachBackendToItsSwitchPortBothWays() throws Exception {
        assertEquals(Set.of("device:bmv2:s1/3-device:backend:b1/1 DIRECT expected",
                            "device:backend:b1/1-device:bmv2:s1/3 DIRECT expected",
                            "device:bmv2:s1/4-device:backend:b2/1 DIRECT expected",
                            "device:backend:b2/1-device:bmv2:s1/4 DIRECT expected",
                            "device:bmv2:s2/3-device:backend:b3/1 DIRECT expected",
                            "device:backend:b3/1-device:bmv2:s2/3 DIRECT expected"),
                     links(config("fabric-two-sites.json")));
    }

    @Test
    public void twoSitesHostsAreTheSwitchesNextHopsNotTheBackendsWay() throws Exception {
        Map<HostId, HybridWiring.Neighbour> hosts = HybridWiring.hosts(config("fabric-two-sites.json"));
        assertEquals(Set.of("02:68:01:0A:00:01 at [device:bmv2:s1/1] [192.0.2.2]",
                            "02:68:01:0D:00:01 at [device:bmv2:s1/2] []",
                            "02:68:02:0A:00:01 at [device:bmv2:s2/1] [192.0.2.3]",
                            "02:68:02:0D:00:01 at [device:bmv2:s2/2] []"),
                     hosts.values().stream().map(Object::toString).collect(Collectors.toSet()));
        hosts.forEach((id, n) -> assertEquals(id, n.id()));
    }

    @Test
    public void aBackendPortOtherThanTheFirstIsTheLinksEnd() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode hupf = mapper.readTree(new File("../netcfg/fabric-one-site.json"))
                .path("apps").path(HupfApp.APP_NAME).path(HupfConfig.KEY);
        ((ObjectNode) hupf.path("backendPorts").get(0)).put("backendPort", 2);
        assertEquals(Set.of("device:bmv2:s1/3-device:backend:b1/2 DIRECT expected",
                            "device:backend:b1/2-device:bmv2:s1/3 DIRECT expected"),
                     links(config(hupf, mapper)));
    }

    @Test
    public void aSwitchRouteOutOfABackendsPortLeadsToNoHost() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode hupf = mapper.readTree(new File("../netcfg/fabric-one-site.json"))
                .path("apps").path(HupfApp.APP_NAME).path(HupfConfig.KEY);
        ((ArrayNode) hupf.path("routes")).addObject().put("deviceId", "device:bmv2:s1").put("prefix", "10.9.0.0/16")
                .put("port", 3).put("srcMac", "02:68:75:70:66:01").put("dstMac", "02:68:01:0b:00:01");
        assertEquals(Set.of("02:68:01:0A:00:01 at [device:bmv2:s1/1] [192.0.2.2]",
                            "02:68:01:0D:00:01 at [device:bmv2:s1/2] []"),
                     HybridWiring.hosts(config(hupf, mapper)).values().stream().map(Object::toString)
                             .collect(Collectors.toSet()));
    }

    @Test
    public void aBackendOffNoSwitchRoutesToItsHostsItself() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        HupfConfig cfg = config(mapper.readTree(
                "{\"devices\": [{\"deviceId\": \"device:backend:b1\", \"role\": \"backend\"}],"
                + " \"n3Addresses\": [\"192.168.0.1\"], \"uePools\": [\"10.250.0.0/16\"], \"routes\": ["
                + "{\"deviceId\": \"device:backend:b1\", \"prefix\": \"192.0.2.2/32\", \"port\": 1,"
                + " \"srcMac\": \"02:68:75:70:66:01\", \"dstMac\": \"02:68:01:0a:00:01\"},"
                + "{\"deviceId\": \"device:backend:b1\", \"prefix\": \"198.51.100.0/24\", \"port\": 2,"
                + " \"srcMac\": \"02:68:75:70:66:01\", \"dstMac\": \"02:68:01:0d:00:01\"}]}"), mapper);
        assertEquals(List.of(), HybridWiring.links(cfg));
        assertEquals(Set.of("02:68:01:0A:00:01 at [device:backend:b1/1] [192.0.2.2]",
                            "02:68:01:0D:00:01 at [device:backend:b1/2] []"),
                     HybridWiring.hosts(cfg).values().stream().map(Object::toString).collect(Collectors.toSet()));
    }
}
