package org.hupf.core.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.gnb.GnbUe;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.function.Consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The gNB block: the RAN config's gNB and UEs per device, without keys; every bad field refused by its path, a key
 * refused by its name and never echoed.
 */
public class GnbsParserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final String KEY = "000102030405060708090a0b0c0d0e0f";

    static ObjectNode block() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode g = root.putArray(GnbsParser.GNBS).addObject();
        g.put("deviceId", "device:gnb:g1");
        ObjectNode gnb = g.putObject("gnb");
        ObjectNode n3 = gnb.putObject("n3");
        n3.put("port", 0).put("addr", "10.0.3.1").put("mac", "02:00:00:00:03:01").put("upfMac", "02:00:00:00:03:02");
        gnb.put("cryptoPort", 2).put("baasPort", 3).put("airMac", "02:00:00:00:01:01");
        ArrayNode ues = g.putArray("ues");
        ues.addObject().put("ue", 0).put("port", 1).put("mac", "02:00:00:00:01:10").put("lcid", 4).put("drb", 1)
                .put("snBits", 12).put("dlTeid", 0x100).put("ulTeid", 0x200).put("qfi", 9).put("upfAddr", "10.0.3.2");
        ues.addObject().put("ue", 1).put("port", 1).put("mac", "02:00:00:00:01:11").put("lcid", 5)
                .put("snBits", 18).put("dlTeid", 0x101).put("ulTeid", 0x201).put("qfi", 5).put("upfAddr", "10.0.3.2");
        return root;
    }

    private static ObjectNode gnb(ObjectNode root) {
        return (ObjectNode) root.get(GnbsParser.GNBS).get(0);
    }

    private static ObjectNode ue(ObjectNode root, int i) {
        return (ObjectNode) gnb(root).get("ues").get(i);
    }

    private static String refused(Consumer<ObjectNode> change) {
        ObjectNode root = block();
        change.accept(root);
        try {
            GnbsParser.gnbs(root);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        fail("accepted: " + root);
        return null;
    }

    @Test
    public void readsEachGnbWithItsSiteAndUes() {
        List<GnbsParser.Gnb> gnbs = GnbsParser.gnbs(block());
        assertEquals(1, gnbs.size());
        GnbsParser.Gnb g = gnbs.get(0);
        assertEquals(DeviceId.deviceId("device:gnb:g1"), g.deviceId);
        assertEquals(0, g.site.n3Port());
        assertEquals(3, g.site.baasPort());
        assertEquals(Ip4Address.valueOf("10.0.3.1"), g.site.n3Addr());
        GnbUe u1 = g.ues.get(1);
        assertEquals(1, u1.ue());
        assertTrue(u1.sn18());
        assertEquals(0x101, u1.dlTeid());
        assertEquals(5, u1.qfi());
        assertFalse(g.ues.get(0).sn18());
    }

    @Test
    public void refusesAKeyByItsNameWithoutItsValue() {
        for (String field : List.of("kUpEnc", "kUpInt")) {
            String why = refused(r -> ue(r, 1).put(field, KEY));
            assertTrue(why, why.startsWith("gnbs[0]: ues[1]: " + field + ": keys go to the crypto service"));
            assertFalse(why, why.contains(KEY));
        }
    }

    @Test
    public void refusesEachBadFieldByItsPath() {
        assertEquals("gnbs[0]: ues[0]: lcid: integer in [4, 32] expected, got 3",
                     refused(r -> ue(r, 0).put("lcid", 3)));
        assertEquals("gnbs[0]: ues[1]: snBits: 12 or 18, not 16", refused(r -> ue(r, 1).put("snBits", 16)));
        assertEquals("gnbs[0]: ues[0]: dlTeid: required", refused(r -> ue(r, 0).remove("dlTeid")));
        assertEquals("gnbs[0]: ues[0]: upfAddr: an IPv4 address expected, got \"10.0.3\"",
                     refused(r -> ue(r, 0).put("upfAddr", "10.0.3")));
        assertEquals("gnbs[0]: gnb: n3: mac: a MAC address expected, got \"nope\"",
                     refused(r -> ((ObjectNode) gnb(r).get("gnb").get("n3")).put("mac", "nope")));
        assertEquals("gnbs[0]: gnb: n3Port, cryptoPort and baasPort must be three different ports",
                     refused(r -> ((ObjectNode) gnb(r).get("gnb")).put("baasPort", 2)));
        assertEquals("gnbs[0]: deviceId: a device id is required", refused(r -> gnb(r).remove("deviceId")));
        assertEquals("gnbs[0]: ues: at least one UE is required", refused(r -> gnb(r).putArray("ues")));
        assertTrue(refused(r -> ue(r, 0).put("teid", 7)).startsWith("gnbs[0]: ues[0]: unknown field teid"));
    }

    @Test
    public void refusesWhatTwoUesOrTwoGnbsShare() {
        assertEquals("gnbs[0]: ues: UE 1: its index, downlink TEID or air MAC is another UE's too",
                     refused(r -> ue(r, 1).put("dlTeid", 0x100)));
        assertEquals("gnbs[0]: ues: UE 0: air port 2 is the gNB's N3 or a service's",
                     refused(r -> ue(r, 0).put("port", 2)));
        assertEquals("gnbs[1]: deviceId: device:gnb:g1 is given twice",
                     refused(r -> ((ArrayNode) r.get(GnbsParser.GNBS)).add(gnb(block()).deepCopy())));
    }
}
