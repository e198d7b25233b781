package org.hupf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.core.site.Site;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** The {@code sites} block against the rest of the netcfg: devices, backend ports, N3 addresses. */
public class HupfConfigSitesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static ObjectNode twoSites() throws Exception {
        return (ObjectNode) MAPPER.readTree(new File("../netcfg/hupf-two-sites.json"))
                .path("apps").path("org.hupf.app").path(HupfConfig.KEY);
    }

    private static String refused(ObjectNode node) {
        HupfConfig c = HupfConfigTest.config(node);
        assertFalse(node.toString(), c.isValid());
        return c.error();
    }

    @Test
    public void twoSitesExampleReadsAsWritten() throws Exception {
        HupfConfig c = HupfConfigTest.config(twoSites());
        assertTrue(c.error(), c.isValid());
        List<Site> sites = c.sites();
        assertEquals(2, sites.size());
        Site b = sites.get(1);
        assertEquals("edge-b", b.id);
        assertEquals(DeviceId.deviceId("device:bmv2:edge-b"), b.switchId);
        assertEquals(List.of(DeviceId.deviceId("device:backend:edge-b-1")), b.backends);
        assertEquals(List.of(Ip4Prefix.valueOf("192.168.2.0/24")), b.gnbs);
        assertEquals(List.of(Ip4Address.valueOf("192.168.0.2")), b.n3Addresses);
        assertEquals("the sites' N3 Network Instances are served", Set.of("internet", "access-edge-a",
                                                                         "access-edge-b"), c.networkInstances());
        assertTrue("sites are the session core's: a change rebuilds it", c.coreSettings().contains("edge-b"));
    }

    @Test
    public void withoutSitesOneImplicitSite() throws Exception {
        ObjectNode node = twoSites();
        node.remove(HupfConfig.SITES);
        HupfConfig c = HupfConfigTest.config(node);
        assertTrue(c.error(), c.isValid());
        assertEquals(List.of(), c.sites());
        assertFalse(c.coreSettings().contains(HupfConfig.SITES));
    }

    @Test
    public void sitesThatDisagreeWithTheDevicesAreRefused() throws Exception {
        ObjectNode node = twoSites();
        ((ObjectNode) node.withArray(HupfConfig.SITES).get(0)).put("switch", "device:bmv2:s9");
        assertEquals("sites: site edge-a's switch device:bmv2:s9 is not a switch among devices",
                     refused(node));

        node = twoSites();
        ObjectNode edgeB = (ObjectNode) node.withArray(HupfConfig.SITES).get(1);
        edgeB.remove("switch");
        edgeB.putArray("backends").add("device:bmv2:edge-b");
        assertEquals("sites: site edge-b's backend device:bmv2:edge-b is not a backend among devices",
                     refused(node));

        node = twoSites();
        ((ObjectNode) node.withArray(HupfConfig.SITES).get(1)).remove("switch");
        assertEquals("sites: device device:bmv2:edge-b is at no site", refused(node));

        node = twoSites();
        ((ObjectNode) node.withArray(HupfConfig.BACKEND_PORTS).get(1)).put("backend", "device:backend:edge-a-1");
        assertEquals("backendPorts: switch device:bmv2:edge-b (site edge-b) steers to backend"
                             + " device:backend:edge-a-1 of site edge-a", refused(node));

        node = twoSites();
        ((ObjectNode) node.withArray(HupfConfig.SITES).get(1)).putArray("n3Addresses").add("192.168.0.3");
        assertEquals("sites: site edge-b's N3 address 192.168.0.3 is not among n3Addresses", refused(node));

        node = twoSites();
        JsonNode sites = MAPPER.readTree("[{\"siteId\": \"x\", \"backends\": [\"device:backend:edge-a-1\"]},"
                                                 + " {\"siteId\": \"y\", \"backends\": [\"device:backend:edge-a-1\"]}]");
        node.set(HupfConfig.SITES, sites);
        assertEquals("sites[1]: backends: device:backend:edge-a-1 is site x's already", refused(node));
    }

    /** ONOS validates a netcfg before storing it: sites that would strand stored sessions make it invalid. */
    @Test
    public void sitesTheStoredSessionsRefuseMakeTheNetcfgInvalidWithTheirMessage() throws Exception {
        List<List<Site>> checked = new ArrayList<>();
        HupfConfig c = new HupfConfig(sites -> {
            checked.add(sites);
            throw new IllegalArgumentException("sites: the change strands stored sessions: 2 sessions at site edge-b"
                                                       + " would be served by no site");
        });
        c.init(new DefaultApplicationId(1, "org.hupf.app"), HupfConfig.KEY, twoSites(), MAPPER, null);
        assertFalse(c.isValid());
        assertEquals("sites: the change strands stored sessions: 2 sessions at site edge-b would be served by no site",
                     c.error());
        assertEquals("the check saw the new netcfg's sites", List.of("edge-a", "edge-b"),
                     checked.get(0).stream().map(s -> s.id).collect(Collectors.toList()));
    }
}
