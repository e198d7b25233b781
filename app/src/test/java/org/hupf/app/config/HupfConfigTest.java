package org.hupf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadPolicy;
import org.hupf.api.TenantOverlay;
import org.hupf.core.pfcp.PeerAllowlist;
import org.hupf.core.pfcp.PfcpConfig;
import org.hupf.core.rps.RpsSettings;
import org.hupf.core.translation.SessionTenant;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;

import java.io.File;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Every example in netcfg/ is a valid HupfConfig; broken variants are refused with a reason.
 */
public class HupfConfigTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final File DIR = new File("../netcfg");

    static HupfConfig config(JsonNode node) {
        HupfConfig c = new HupfConfig();
        c.init(new DefaultApplicationId(1, "org.hupf.app"), HupfConfig.KEY, node, MAPPER, null);
        return c;
    }

    private static List<File> examples() {
        File[] files = DIR.listFiles((d, n) -> n.endsWith(".json"));
        assertTrue("no examples in " + DIR.getAbsolutePath(), files != null && files.length > 0);
        return Arrays.asList(files);
    }

    private static JsonNode hupfNode(File f) throws Exception {
        return MAPPER.readTree(f).path("apps").path("org.hupf.app").path(HupfConfig.KEY);
    }

    @Test
    public void everyExampleIsValid() throws Exception {
        for (File f : examples()) {
            JsonNode node = hupfNode(f);
            assertTrue(f.getName() + " has no apps.org.hupf.app.hupf", node.isObject());
            HupfConfig c = config(node);
            assertTrue(f.getName() + ": " + c.error(), c.isValid());
            assertFalse(c.n3Addresses().isEmpty());
        }
    }

    @Test
    public void hybridExampleReadsAsWritten() throws Exception {
        HupfConfig c = config(hupfNode(new File(DIR, "hupf-bmv2-backend.json")));
        assertTrue(c.isValid());
        assertEquals(HupfConfig.Role.SWITCH, c.devices().get(DeviceId.deviceId("device:bmv2:s1")));
        assertEquals(2, c.backendPorts().size());
        assertEquals(5, c.backendPorts().get(0).port);
        assertEquals("weight defaults to 1", 1, c.backendPorts().get(0).weight);
        assertEquals(2, c.backendPorts().get(1).weight);
        PfcpConfig p = c.pfcp(Ip4Address.valueOf("1.1.1.1"));
        assertEquals(8805, p.port);
        assertEquals("192.168.0.1", p.nodeId);
        assertEquals("the N4 address is the Node ID's", "192.168.0.1", p.listenAddress);
        // The plain form: an IP-address Node ID is allowed from that address only.
        assertTrue(p.allowedPeers.allows("10.0.0.1", InetAddress.getByName("10.0.0.1")));
        assertFalse(p.allowedPeers.allows("10.0.0.1", InetAddress.getByName("10.0.0.2")));
        // The object form: a Node ID from the addresses listed.
        assertTrue(p.allowedPeers.allows("smf.hupf.test", InetAddress.getByName("10.0.0.3")));
        assertFalse(p.allowedPeers.allows("smf.hupf.test", InetAddress.getByName("10.0.0.1")));
        assertEquals(3, (int) c.qfiToTc().get(5));
        HhConfig hh = c.hhConfig();
        assertEquals(10_000_000L, c.hhThresholdBps());
        assertEquals(10_000_000L, hh.hhBps());
        assertEquals(1850, hh.tauTh());
        assertEquals(16384, hh.timeslotUs());
        assertEquals(HupfConstants.HH_KEY_UE_ADDR, hh.keyMode());
        OffloadPolicy policy = c.offloadPolicy();
        assertEquals(10_000_000L, policy.thresholdBitsPerSec());
        assertEquals(2000L, policy.holdMillis());
        assertEquals(0.2, policy.hysteresis(), 1e-9);
        assertEquals(OffloadPolicy.Pin.SOFTWARE, policy.pinOf(Ip4Address.valueOf("10.250.0.9"), 0, List.of(1)));
        assertEquals(OffloadPolicy.Pin.HARDWARE, policy.pinOf(Ip4Address.valueOf("10.250.0.10"), 0, List.of(1)));
        assertEquals(OffloadPolicy.Pin.NONE, policy.pinOf(Ip4Address.valueOf("10.250.0.10"), 0, List.of(9)));
        assertEquals("10.250.0.0/16", c.uePools().get(0).toString());
        assertEquals("none named: the standalone host's default", Set.of("internet"), c.networkInstances());
        assertEquals(List.of(new Route(Ip4Prefix.valueOf("192.168.1.0/24"), 1, MacAddress.valueOf("00:00:00:00:0b:01"),
                                       MacAddress.valueOf("00:00:00:00:00:a1")),
                             new Route(Ip4Prefix.valueOf("10.9.9.0/24"), 2, MacAddress.valueOf("00:00:00:00:0b:01"),
                                       MacAddress.valueOf("00:00:00:00:00:d1"))),
                     c.routes(DeviceId.deviceId("device:backend:b1")));
        assertEquals(2, c.routes(DeviceId.deviceId("device:bmv2:s1")).size());
        assertTrue(c.routes(DeviceId.deviceId("device:backend:b2")).isEmpty());
    }

    private static String invalid(String field, String json) throws Exception {
        ObjectNode node = (ObjectNode) hupfNode(new File(DIR, "hupf-bmv2-backend.json")).deepCopy();
        if (json == null) {
            node.remove(field);
        } else {
            node.set(field, MAPPER.readTree(json));
        }
        HupfConfig c = config(node);
        assertFalse(field + " " + json, c.isValid());
        return c.error();
    }

    @Test
    public void brokenConfigsAreRefusedWithTheReason() throws Exception {
        assertEquals(HupfConfig.N3_ADDRESSES + ": at least one address is required",
                     invalid(HupfConfig.N3_ADDRESSES, null));
        assertTrue(invalid(HupfConfig.UE_POOLS, "[\"10.0.0.0/33\"]").startsWith("uePools[0]: "));
        assertTrue(invalid(HupfConfig.DEVICES, "[{\"deviceId\": \"x\", \"role\": \"router\"}]")
                           .contains("role must be switch or backend"));
        assertTrue(invalid(HupfConfig.BACKEND_PORTS,
                           "[{\"switch\": \"device:backend:b1\", \"port\": 1, \"backend\": \"device:backend:b2\"}]")
                           .contains("is not a switch"));
        assertTrue(invalid(HupfConfig.QFI_TO_TC, "{\"64\": 1}").contains("QFI in [0, 63]"));
        assertTrue(invalid("bogus", "1").startsWith("unknown field"));
        assertTrue(invalid(HupfConfig.PFCP, "{\"port\": 70000}").startsWith("port: integer in [0, 65535]"));
        assertTrue(invalid(HupfConfig.HEAVY_HITTER, "{\"keyMode\": \"mac\"}").contains("ue or 5tuple"));
        assertEquals("networkInstances[1]: a name of 1 to 255 characters expected, got \"\"",
                     invalid(HupfConfig.NETWORK_INSTANCES, "[\"internet\", \"\"]"));
        String[][] refusals = {  // field, value, the error naming it
            {HupfConfig.HEAVY_HITTER, "{\"timeslotUs\": 1000}",
             "heavyHitter: timeslot_us must be a power of two below 2^32, is 1000"},
            {HupfConfig.HEAVY_HITTER, "{\"thresholdBps\": 0}",
             "heavyHitter.thresholdBps: a positive integer expected, got 0"},
            {HupfConfig.BACKEND_PORTS, "[{\"switch\": \"device:bmv2:s1\", \"port\": 5,"
                    + " \"backend\": \"device:backend:b1\", \"mac\": \"b1\"}]",
             "backendPorts: mac of device:backend:b1 on port 5 is not a MAC address: 'b1'"},
            {HupfConfig.BACKEND_PORTS, "[{\"switch\": \"device:bmv2:s1\", \"port\": 5,"
                    + " \"backend\": \"device:backend:b1\", \"mac\": \"00:00:00:00:0b:01\", \"weight\": 0}]",
             "backendPorts[0]: weight: integer in [1, 64] expected, got 0"},
            {HupfConfig.OFFLOAD, "{\"pins\": {\"slices\": {\"16\": \"HARDWARE\"}}}",
             "offload.pins.slices: an integer in [0, 15], got 16"},
            {HupfConfig.OFFLOAD, "{\"pins\": {\"ues\": {\"10.250.0.1\": \"ON\"}}}",
             "offload.pins.ues.10.250.0.1: HARDWARE or SOFTWARE, got \"ON\""},
            {HupfConfig.OFFLOAD, "{\"pins\": {\"apps\": {}}}", "offload.pins: slices, qfis or ues, got apps"},
            {HupfConfig.OFFLOAD, "{\"hysteresis\": \"x\"}",
             "offload.hysteresis: a number in [0, 10] expected, got \"x\""},
            {HupfConfig.PFCP, "{\"nodeId\": \"upf.hupf.test\"}",
             "pfcp.listenAddress: required when pfcp.nodeId is not an IPv4 address (upf.hupf.test)"},
            {HupfConfig.PFCP, "{\"listenAddress\": \"any\"}", "pfcp.listenAddress: an IPv4 address, got any"},
            {HupfConfig.ROUTES, "[{\"deviceId\": \"device:bmv2:s9\", \"prefix\": \"10.9.9.0/24\", \"port\": 2,"
                    + " \"srcMac\": \"00:00:00:00:00:01\", \"dstMac\": \"00:00:00:00:00:02\"}]",
             "routes: device:bmv2:s9 is not among devices"},
            {HupfConfig.ROUTES, "[{\"deviceId\": \"device:bmv2:s1\", \"prefix\": \"10.9.9.0/33\", \"port\": 2,"
                    + " \"srcMac\": \"00:00:00:00:00:01\", \"dstMac\": \"00:00:00:00:00:02\"}]",
             "routes[0]: prefix: an IPv4 prefix expected, got \"10.9.9.0/33\""},
            {HupfConfig.ROUTES, "[{\"deviceId\": \"device:bmv2:s1\", \"prefix\": \"10.9.9.0/24\", \"port\": 2,"
                    + " \"srcMac\": \"00:00:00:00:00:01\", \"dstMac\": \"dn\"}]",
             "routes[0]: dstMac: a MAC address expected, got \"dn\""},
            {HupfConfig.ROUTES, "[{\"deviceId\": \"device:bmv2:s1\", \"prefix\": \"10.9.9.0/24\","
                    + " \"srcMac\": \"00:00:00:00:00:01\", \"dstMac\": \"00:00:00:00:00:02\"}]",
             "routes[0]: deviceId, prefix, port, srcMac and dstMac are required"},
            {HupfConfig.ROUTES, "[{\"deviceId\": \"device:bmv2:s1\", \"prefix\": \"10.9.9.0/24\", \"port\": 512,"
                    + " \"srcMac\": \"00:00:00:00:00:01\", \"dstMac\": \"00:00:00:00:00:02\"}]",
             "routes[0]: port: integer in [0, 511] expected, got 512"},
            {HupfConfig.ROUTES, "[{\"deviceId\": \"device:bmv2:s1\", \"prefix\": \"10.9.9.0/24\", \"port\": 2,"
                    + " \"srcMac\": \"00:00:00:00:00:01\", \"dstMac\": \"00:00:00:00:00:02\"},"
                    + " {\"deviceId\": \"device:bmv2:s1\", \"prefix\": \"10.9.9.0/24\", \"port\": 3,"
                    + " \"srcMac\": \"00:00:00:00:00:01\", \"dstMac\": \"00:00:00:00:00:02\"}]",
             "routes: two routes for 10.9.9.0/24 on device:bmv2:s1"},
        };
        for (String[] r : refusals) {
            assertEquals(r[0] + " " + r[1], r[2], invalid(r[0], r[1]));
        }
        assertTrue(invalid(HupfConfig.PFCP, "{\"listenAddress\": \"10.0.0.256\"}").contains("10.0.0.256"));
    }

    @Test
    public void examplesCoverBothDeploymentShapes() {
        Set<String> names = examples().stream().map(File::getName).collect(Collectors.toSet());
        assertTrue(names.contains("hupf-bmv2-backend.json"));
        assertTrue(names.contains("hupf-backend-only.json"));
    }

    @Test
    public void allowedPeersNameTheAddressesEachNodeIdMaySendFrom() throws Exception {
        ObjectNode node = (ObjectNode) hupfNode(new File(DIR, "hupf-bmv2-backend.json")).deepCopy();
        node.set(HupfConfig.PFCP, MAPPER.readTree("{\"allowedPeers\": [\"smf1@10.0.0.5\", "
                + "{\"nodeId\": \"smf2\", \"addresses\": [\"10.0.0.6\", \"10.0.0.7\"]}]}"));
        HupfConfig c = config(node);
        assertTrue(c.error(), c.isValid());
        PeerAllowlist a = c.pfcp(Ip4Address.valueOf("1.1.1.1")).allowedPeers;
        assertTrue(a.allows("smf1", InetAddress.getByName("10.0.0.5")));
        assertFalse(a.allows("smf1", InetAddress.getByName("10.0.0.6")));
        assertTrue(a.allows("smf2", InetAddress.getByName("10.0.0.6")));
        assertTrue(a.allows("smf2", InetAddress.getByName("10.0.0.7")));
        assertFalse(a.allows("smf2", InetAddress.getByName("10.0.0.5")));
        assertFalse(a.knows("smf3"));
        assertTrue(invalid(HupfConfig.PFCP, "{\"allowedPeers\": [\"smf@upf.example\"]}")
                           .contains("upf.example is not an IP address"));
        assertTrue(invalid(HupfConfig.PFCP, "{\"allowedPeers\": [{\"nodeId\": \"smf\", \"addresses\": []}]}")
                           .contains("at least one address"));
        assertTrue(invalid(HupfConfig.PFCP, "{\"allowedPeers\": [{\"addresses\": [\"10.0.0.1\"]}]}")
                           .startsWith("allowedPeers[0]: a Node ID"));
    }

    private static final String T = "{\"vni\": 100, \"vtep\": \"192.168.100.1\", \"tenantId\": 1, \"tc\": 2, "
            + "\"dscp\": 46";

    private static HupfConfig withTenants(String json) throws Exception {
        ObjectNode node = (ObjectNode) hupfNode(new File(DIR, "hupf-bmv2-backend.json")).deepCopy();
        node.set(HupfConfig.TENANTS, MAPPER.readTree(json));
        return config(node);
    }

    @Test
    public void tenantsReadAsWritten() throws Exception {
        HupfConfig c = withTenants("[" + T + "}, {\"vni\": 16777215, \"vtep\": \"192.168.100.1\", "
                + "\"tenantId\": 255, \"tc\": 0, \"dscp\": 0, \"rateBps\": 100000000, \"burstBytes\": 125000}, "
                + "{\"vni\": 100, \"vtep\": \"192.168.100.2\", \"tenantId\": 1, \"tc\": 3, \"dscp\": 63}]");
        assertTrue(c.error(), c.isValid());
        Ip4Address vtep = Ip4Address.valueOf("192.168.100.1");
        assertEquals(List.of(new Tenant(100, vtep, 1, 2, 46),
                             new Tenant(Tenant.MAX_VNI, vtep, 255, 0, 0, 100_000_000, 125_000),
                             new Tenant(100, Ip4Address.valueOf("192.168.100.2"), 1, 3, 63)),
                     c.tenants());
        assertFalse(c.tenants().get(0).metered());
        assertTrue("no tenants without the field",
                   config(hupfNode(new File(DIR, "hupf-bmv2-backend.json"))).tenants().isEmpty());
        assertTrue("an empty list is valid", withTenants("[]").isValid());
    }

    @Test
    public void brokenTenantsAreRefusedWithTheReason() throws Exception {
        String t = HupfConfig.TENANTS;
        assertEquals("tenants: a list is expected", invalid(t, "{}"));
        assertEquals("tenants[0]: an object {vni, vtep, tenantId, tc, dscp} expected, got 5", invalid(t, "[5]"));
        assertEquals("tenants[0]: dscp is required",
                     invalid(t, "[{\"vni\": 1, \"vtep\": \"1.1.1.1\", \"tenantId\": 1, \"tc\": 0}]"));
        assertEquals("tenants[0]: unknown field among [qfi]", invalid(t, "[" + T + ", \"qfi\": 1}]"));
        assertEquals("tenants[1]: vni: integer in [0, 16777215] expected, got 16777216",
                     invalid(t, "[" + T + "}, " + T.replace("100,", "16777216,") + "}]"));
        assertEquals("tenants[0]: vni: integer in [0, 16777215] expected, got -1",
                     invalid(t, "[" + T.replace("100,", "-1,") + "}]"));
        assertEquals("tenants[0]: tenantId: integer in [0, 255] expected, got 256",
                     invalid(t, "[" + T.replace("\"tenantId\": 1", "\"tenantId\": 256") + "}]"));
        assertEquals("tenants[0]: tc: integer in [0, 3] expected, got 4",
                     invalid(t, "[" + T.replace("\"tc\": 2", "\"tc\": 4") + "}]"));
        assertEquals("tenants[0]: dscp: integer in [0, 63] expected, got 64",
                     invalid(t, "[" + T.replace("46", "64") + "}]"));
        assertEquals("tenants[0]: dscp: integer in [0, 63] expected, got \"46\"",
                     invalid(t, "[" + T.replace("46", "\"46\"") + "}]"));
        assertEquals("tenants[0]: vtep: an IPv4 address expected, got \"192.168.100.300\"",
                     invalid(t, "[" + T.replace("192.168.100.1", "192.168.100.300") + "}]"));
        assertEquals("tenants[0]: vtep: an IPv4 address expected, got \"vtep1\"",
                     invalid(t, "[" + T.replace("192.168.100.1", "vtep1") + "}]"));
        assertEquals("tenants[0]: vtep: an IPv4 address expected, got 3232261121",
                     invalid(t, "[" + T.replace("\"192.168.100.1\"", "3232261121") + "}]"));
        assertEquals("tenants[0]: rateBps and burstBytes go together (the tenant's meter)",
                     invalid(t, "[" + T + ", \"rateBps\": 1000000}]"));
        assertEquals("tenants[0]: rateBps and burstBytes go together (the tenant's meter)",
                     invalid(t, "[" + T + ", \"burstBytes\": 1500}]"));
        assertEquals("tenants[0]: rateBps: integer in [8, 9223372036854775807] expected, got 0",
                     invalid(t, "[" + T + ", \"rateBps\": 0, \"burstBytes\": 1500}]"));
        assertEquals("tenants[0]: burstBytes: integer in [1, 2147483647] expected, got -1",
                     invalid(t, "[" + T + ", \"rateBps\": 8000, \"burstBytes\": -1}]"));
        assertEquals("tenants[1]: vni 100 at vtep 192.168.100.1 is already tenants[0]'s",
                     invalid(t, "[" + T + "}, " + T.replace("\"tenantId\": 1", "\"tenantId\": 2") + "}]"));
        assertEquals("tenants[1]: tenantId 1 has another meter (rateBps, burstBytes) earlier",
                     invalid(t, "[" + T + ", \"rateBps\": 8000, \"burstBytes\": 1500}, "
                             + T.replace("100,", "101,") + "}]"));
    }

    @Test
    public void queuesReadAsWrittenAndBrokenOnesRefusedWithTheReason() throws Exception {
        ObjectNode node = (ObjectNode) hupfNode(new File(DIR, "hupf-bmv2-backend.json")).deepCopy();
        node.set(HupfConfig.QUEUES, MAPPER.readTree("{\"3\": 7, \"0\": 0, \"2\": 4}"));
        assertEquals(Map.of(0, 0, 2, 4, 3, 7), config(node).queues());
        assertTrue("none without the field", config(hupfNode(new File(DIR, "hupf-bmv2-backend.json"))).queues()
                .isEmpty());
        String q = HupfConfig.QUEUES;
        assertEquals("queues: an object {\"tc\": queue} expected, got [1]", invalid(q, "[1]"));
        assertEquals("queues: key 4 is not a traffic class (0 to 3)", invalid(q, "{\"4\": 1}"));
        assertEquals("queues: key gold is not a traffic class (0 to 3)", invalid(q, "{\"gold\": 1}"));
        assertEquals("queues: 3: a queue in [0, 7] expected, got 8", invalid(q, "{\"3\": 8}"));
        assertEquals("queues: 3: a queue in [0, 7] expected, got \"6\"", invalid(q, "{\"3\": \"6\"}"));
    }

    private static final String S = "{\"qfi\": 9, \"tc\": 3, \"dscp\": 34";

    @Test
    public void tenantSlicesReadAsWritten() throws Exception {
        HupfConfig c = withTenants("[" + T + ", \"slices\": [" + S + "}, {\"qfi\": 63, \"tc\": 0, \"dscp\": 0, "
                + "\"rateBps\": 8000000, \"burstBytes\": 15000}]}, " + T.replace("100,", "101,")
                + ", \"slices\": [" + S + "}, {\"qfi\": 63, \"tc\": 0, \"dscp\": 0, \"rateBps\": 8000000, "
                + "\"burstBytes\": 15000}]}, " + T.replace("100,", "102,").replace("\"tenantId\": 1", "\"tenantId\": 2")
                + ", \"slices\": []}]");
        assertTrue(c.error(), c.isValid());
        List<TenantSlice> slices = List.of(new TenantSlice(9, 3, 34), new TenantSlice(63, 0, 0, 8_000_000, 15_000));
        assertEquals(slices, c.tenants().get(0).slices());
        assertEquals("every entry of a tenant id gives the same slices", slices, c.tenants().get(1).slices());
        assertEquals(List.of(), c.tenants().get(2).slices());
        assertEquals(1 * 64 + 9, slices.get(0).cell(1));
    }

    @Test
    public void brokenTenantSlicesAreRefusedWithTheReason() throws Exception {
        String t = HupfConfig.TENANTS;
        assertEquals("tenants[0]: slices: a list is expected", invalid(t, "[" + T + ", \"slices\": {}}]"));
        assertEquals("tenants[0]: slices[0]: an object {qfi, tc, dscp} expected, got 9",
                     invalid(t, "[" + T + ", \"slices\": [9]}]"));
        assertEquals("tenants[0]: slices[1]: qfi 9 is already slices[0]'s",
                     invalid(t, "[" + T + ", \"slices\": [" + S + "}, " + S.replace("\"tc\": 3", "\"tc\": 1") + "}]}]"));
        assertEquals("tenants[0]: slices[0]: qfi: integer in [0, 63] expected, got 64",
                     invalid(t, "[" + T + ", \"slices\": [" + S.replace("9", "64") + "}]}]"));
        assertEquals("tenants[0]: slices[0]: tc: integer in [0, 3] expected, got 4",
                     invalid(t, "[" + T + ", \"slices\": [" + S.replace("\"tc\": 3", "\"tc\": 4") + "}]}]"));
        assertEquals("tenants[0]: slices[0]: dscp: integer in [0, 63] expected, got 64",
                     invalid(t, "[" + T + ", \"slices\": [" + S.replace("34", "64") + "}]}]"));
        assertEquals("tenants[0]: slices[0]: qfi is required",
                     invalid(t, "[" + T + ", \"slices\": [{\"tc\": 1, \"dscp\": 0}]}]"));
        assertEquals("tenants[0]: slices[0]: unknown field among [tenantId]",
                     invalid(t, "[" + T + ", \"slices\": [" + S + ", \"tenantId\": 1}]}]"));
        assertEquals("tenants[0]: slices[0]: rateBps and burstBytes go together (the slice's meter)",
                     invalid(t, "[" + T + ", \"slices\": [" + S + ", \"rateBps\": 8000}]}]"));
        assertEquals("tenants[0]: slices[0]: rateBps: integer in [8, 9223372036854775807] expected, got 7",
                     invalid(t, "[" + T + ", \"slices\": [" + S + ", \"rateBps\": 7, \"burstBytes\": 1}]}]"));
        assertEquals("tenants[0].slices[0]: dscp 46 with tc 3, but tenants[0] gives it tc 2 (one class per DSCP)",
                     invalid(t, "[" + T + ", \"slices\": [" + S.replace("34", "46") + "}]}]"));
        assertEquals("tenants[1]: dscp 46 with tc 0, but tenants[0] gives it tc 2 (one class per DSCP)",
                     invalid(t, "[" + T + "}, " + T.replace("100,", "101,").replace("\"tenantId\": 1", "\"tenantId\": 2")
                             .replace("\"tc\": 2", "\"tc\": 0") + "}]"));
        assertEquals("tenants[1]: tenantId 1 has other slices earlier",
                     invalid(t, "[" + T + ", \"slices\": [" + S + "}]}, " + T.replace("100,", "101,") + "}]"));
    }

    private static final String OVERLAY = "\"overlay\": {\"vtepSrc\": \"172.16.0.1\", \"vtepDst\": \"172.16.0.2\", "
            + "\"innerSrcMac\": \"02:00:00:00:0a:01\", \"innerDstMac\": \"02:00:00:00:0a:02\"}";

    @Test
    public void tenantsWithANetworkInstanceBindSessionsWithTheirOverlay() throws Exception {
        HupfConfig c = withTenants("[" + T + ", \"networkInstance\": \"tenant-a.backhaul\", " + OVERLAY + "}, "
                + T.replace("100,", "101,") + ", \"networkInstance\": \"tenant-b\"}, " + T.replace("100,", "102,")
                + "}]");
        assertTrue(c.error(), c.isValid());
        assertEquals("the data-plane entries are the same", 3, c.tenants().size());
        assertEquals(Map.of("tenant-a.backhaul", new SessionTenant("tenant-a.backhaul", c.tenants().get(0),
                                    new TenantOverlay(Ip4Address.valueOf("172.16.0.1"),
                                                      Ip4Address.valueOf("172.16.0.2"),
                                                      MacAddress.valueOf("02:00:00:00:0a:01"),
                                                      MacAddress.valueOf("02:00:00:00:0a:02"))),
                            "tenant-b", new SessionTenant("tenant-b", c.tenants().get(1), null)),
                     c.sessionTenants());
    }

    @Test
    public void brokenSessionTenantsAreRefusedWithTheReason() throws Exception {
        String t = HupfConfig.TENANTS;
        assertEquals("tenants[0]: overlay needs a networkInstance (the sessions that take it)",
                     invalid(t, "[" + T + ", " + OVERLAY + "}]"));
        assertEquals("tenants[0]: networkInstance: a name of 1 to 255 characters expected, got 7",
                     invalid(t, "[" + T + ", \"networkInstance\": 7}]"));
        assertEquals("tenants[1]: networkInstance \"a\" is already tenants[0]'s",
                     invalid(t, "[" + T + ", \"networkInstance\": \"a\"}, " + T.replace("100,", "101,")
                             + ", \"networkInstance\": \"a\"}]"));
        assertEquals("tenants[0]: overlay: vtepDst is required",
                     invalid(t, "[" + T + ", \"networkInstance\": \"a\", \"overlay\": {\"vtepSrc\": \"1.1.1.1\"}}]"));
        assertEquals("tenants[0]: overlay: vtepDst: an IPv4 address expected, got \"edge\"",
                     invalid(t, "[" + T + ", \"networkInstance\": \"a\", "
                             + OVERLAY.replace("\"172.16.0.2\"", "\"edge\"") + "}]"));
        assertEquals("tenants[0]: overlay: innerDstMac: a MAC address expected, got \"02:00\"",
                     invalid(t, "[" + T + ", \"networkInstance\": \"a\", "
                             + OVERLAY.replace("\"02:00:00:00:0a:02\"", "\"02:00\"") + "}]"));
        assertEquals("tenants[0]: overlay: unknown field among [vni]",
                     invalid(t, "[" + T + ", \"networkInstance\": \"a\", "
                             + OVERLAY.replace("{", "{\"vni\": 1, ") + "}]"));
    }

    @Test
    public void anRpsBlockIsReadAndAWrongOneNamesItsField() throws Exception {
        ObjectNode node = (ObjectNode) hupfNode(new File(DIR, "hupf-bmv2-backend.json")).deepCopy();
        node.set("rps", MAPPER.readTree("{\"mode\": \"DATA_PLANE\", \"quietUs\": 5000, \"sigma\": 0.5, "
                + "\"monitor\": \"127.0.0.1:9700\", \"flows\": [{\"tenant\": \"acme\", \"uePrefix\": "
                + "\"10.250.0.0/16\", \"direction\": \"downlink\", \"flowId\": 4, \"discThreshold\": 67108864}]}"));
        HupfConfig c = config(node);
        assertTrue(c.error(), c.isValid());
        assertEquals(RpsConfig.Mode.DATA_PLANE, c.rps().config().mode());
        assertEquals(List.of(new RpsConfig.Flow(Ip4Prefix.valueOf("10.250.0.0/16"), RpsConfig.DOWNLINK, 4, 67108864L)),
                     c.rps().config().flows());
        assertEquals(RpsSettings.OFF, config(hupfNode(new File(DIR, "hupf-bmv2-backend.json"))).rps());
        assertTrue(invalid("rps", "{\"mode\": \"DATA_PLANE\"}").contains("rps.monitor"));
        assertTrue(invalid("rps", "{\"mode\": \"OFF\", \"flows\": [{}]}").contains("rps.flows[0]"));
    }
}
