package org.hupf.app.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The netcfg's gNB block as ONOS holds it: valid with its gNBs, or invalid with the error that names the field
 * (what ONOS answers the POST with), a key never in it.
 */
public class GnbConfigTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String KEY = "2bd6459f82c5b300952c49104881ff48";
    private static final String BLOCK = "{\"gnbs\": [{\"deviceId\": \"device:gnb:g1\", \"gnb\": {"
            + "\"n3\": {\"port\": 0, \"addr\": \"10.0.3.1\", \"mac\": \"02:00:00:00:03:01\", "
            + "\"upfMac\": \"02:00:00:00:03:02\"}, \"cryptoPort\": 2, \"baasPort\": 3, "
            + "\"airMac\": \"02:00:00:00:01:01\"}, \"ues\": [{\"ue\": 0, \"port\": 1, "
            + "\"mac\": \"02:00:00:00:01:10\", \"lcid\": 4, \"snBits\": 12, \"dlTeid\": 256, \"ulTeid\": 512, "
            + "\"qfi\": 9, \"upfAddr\": \"10.0.3.2\"}]}]}";

    private static GnbConfig config(ObjectNode node) {
        GnbConfig c = new GnbConfig();
        c.init(new DefaultApplicationId(1, "org.hupf.app"), GnbConfig.KEY, node, MAPPER, null);
        return c;
    }

    private static ObjectNode block() throws Exception {
        return (ObjectNode) MAPPER.readTree(BLOCK);
    }

    private static ObjectNode ue(ObjectNode root) {
        return (ObjectNode) root.get("gnbs").get(0).get("ues").get(0);
    }

    @Test
    public void aValidBlockGivesItsGnbs() throws Exception {
        GnbConfig c = config(block());
        assertTrue(c.isValid());
        assertNull(c.error());
        assertEquals(DeviceId.deviceId("device:gnb:g1"), c.gnbs().get(0).deviceId);
        assertEquals(1, c.gnbs().get(0).ues.size());
    }

    @Test
    public void aBadBlockIsInvalidWithItsFieldNamed() throws Exception {
        ObjectNode root = block();
        ue(root).put("qfi", 64);
        GnbConfig c = config(root);
        assertFalse(c.isValid());
        assertEquals("gnbs[0]: ues[0]: qfi: integer in [0, 63] expected, got 64", c.error());
    }

    @Test
    public void aBlockWithAKeyIsInvalidWithoutTheKeyInItsError() throws Exception {
        ObjectNode root = block();
        ue(root).put("kUpInt", KEY);
        GnbConfig c = config(root);
        assertFalse(c.isValid());
        assertTrue(c.error(), c.error().contains("kUpInt: keys go to the crypto service"));
        assertFalse(c.error(), c.error().contains(KEY));
    }
}
