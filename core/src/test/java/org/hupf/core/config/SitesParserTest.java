package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.core.site.Site;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.fail;

/** The netcfg's {@code sites} block: what each site holds, and every way it can be wrong, by its path. */
public class SitesParserTest {

    private static final String SITE_A = "{'siteId': 'edge-a', 'switch': 'device:s1', 'backends': ['device:b1'],"
            + " 'gnbs': ['10.1.0.0/16', '10.9.0.1'], 'n3NetworkInstances': ['access-a'],"
            + " 'n3Addresses': ['192.168.10.1']}";
    private static final String SITE_B = "{'siteId': 'edge-b', 'backends': ['device:b2', 'device:b3'],"
            + " 'gnbs': ['10.2.0.0/16']}";

    private static JsonNode root(String sites) {
        try {
            return new ObjectMapper().readTree(("{'sites': " + sites + "}").replace('\'', '"'));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void refused(String sites, String message) {
        try {
            fail("parsed: " + SitesParser.sites(root(sites)));
        } catch (IllegalArgumentException e) {
            assertEquals(message, e.getMessage());
        }
    }

    @Test
    public void sitesAsGiven() {
        List<Site> sites = SitesParser.sites(root("[" + SITE_A + ", " + SITE_B + "]"));
        Site a = sites.get(0);
        assertEquals("edge-a", a.id);
        assertEquals(DeviceId.deviceId("device:s1"), a.switchId);
        assertEquals(List.of(DeviceId.deviceId("device:b1")), a.backends);
        assertEquals(List.of(Ip4Prefix.valueOf("10.1.0.0/16"), Ip4Prefix.valueOf("10.9.0.1/32")), a.gnbs);
        assertEquals(Set.of("access-a"), a.n3NetworkInstances);
        assertEquals(List.of(Ip4Address.valueOf("192.168.10.1")), a.n3Addresses);
        Site b = sites.get(1);
        assertNull(b.switchId);
        assertEquals(List.of(DeviceId.deviceId("device:b2"), DeviceId.deviceId("device:b3")), b.backends);
        assertEquals(Set.of(), b.n3NetworkInstances);
    }

    @Test
    public void noBlockNoSites() {
        assertEquals(List.of(), SitesParser.sites(new ObjectMapper().createObjectNode()));
    }

    @Test
    public void theOnlySiteMayNameNothing() {
        assertEquals(1, SitesParser.sites(root("[{'siteId': 'one', 'backends': ['device:b1']}]")).size());
    }

    @Test
    public void eachEntryRefusedByItsPath() {
        refused("{}", "sites: a list is expected");
        refused("[" + SITE_A + ", 7]", "sites[1]: an object {siteId, switch, backends, gnbs} expected, got 7");
        refused("[{'siteId': 'a b', 'backends': ['d']}]",
                "sites[0]: siteId: 1 to 63 letters, digits, '.', '_' or '-' expected, got \"a b\"");
        refused("[{'backends': ['d']}]",
                "sites[0]: siteId: 1 to 63 letters, digits, '.', '_' or '-' expected, got nothing");
        refused("[{'siteId': 'a', 'backends': []}]", "sites[0]: backends: at least one backend is required");
        refused("[{'siteId': 'a', 'backends': ['d', 'd']}]", "sites[0]: backends: a backend is given twice");
        refused("[{'siteId': 'a', 'backends': [3]}]", "sites[0]: backends[0]: a backend: a device id expected, got 3");
        refused("[{'siteId': 'a', 'backends': ['d'], 'gnbs': ['10.1.0.0/33']}]",
                "sites[0]: gnbs[0]: an IPv4 address or prefix expected, got \"10.1.0.0/33\"");
        refused("[{'siteId': 'a', 'backends': ['d'], 'n3Addresses': ['300.1.1.1']}]",
                "sites[0]: n3Addresses[0]: an IPv4 address expected, got \"300.1.1.1\"");
        refused("[{'siteId': 'a', 'backends': ['d'], 'n3NetworkInstances': ['']}]",
                "sites[0]: n3NetworkInstances[0]: a name of 1 to 255 characters expected, got \"\"");
        refused("[{'siteId': 'a', 'switch': 'd', 'backends': ['d'], 'gnbs': ['10.1.0.0/16', '10.1.0.0/16']}]",
                "sites[0]: backends: d is given twice in site a");
        refused("[{'siteId': 'a', 'backends': ['d'], 'gnb': []}]",
                "sites[0]: unknown field among [siteId, backends, gnb]");
    }

    @Test
    public void whatTwoSitesShareIsRefused() {
        refused("[" + SITE_A + ", " + SITE_A + "]", "sites[1]: siteId: 'edge-a' is given twice");
        refused("[" + SITE_A + ", {'siteId': 'b', 'backends': ['device:s1'], 'gnbs': ['10.2.0.0/16']}]",
                "sites[1]: backends: device:s1 is site edge-a's already");
        refused("[" + SITE_A + ", {'siteId': 'b', 'backends': ['d'], 'gnbs': ['10.1.2.0/24']}]",
                "sites[1]: gnbs: 10.1.2.0/24 overlaps site edge-a's 10.1.0.0/16");
        refused("[" + SITE_A + ", {'siteId': 'b', 'backends': ['d'], 'n3NetworkInstances': ['access-a']}]",
                "sites[1]: n3NetworkInstances: access-a is site edge-a's already");
        refused("[" + SITE_A + ", {'siteId': 'b', 'backends': ['d'], 'n3Addresses': ['192.168.10.1']}]",
                "sites[1]: n3Addresses: 192.168.10.1 is site edge-a's already");
        refused("[" + SITE_A + ", {'siteId': 'b', 'backends': ['d']}]",
                "sites: site b names no gNB, N3 Network Instance or N3 address: no session would be placed there");
    }
}
