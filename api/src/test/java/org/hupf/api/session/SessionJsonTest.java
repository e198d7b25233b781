package org.hupf.api.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

public class SessionJsonTest {

    static PfcpSession rich() {
        Pdr ul = new Pdr(1, 100, Pdr.ACCESS, 0x1234L, Ip4Address.valueOf("192.168.0.1"), true, 5,
                         Ip4Address.valueOf("10.250.0.1"), List.of("permit out ip from any to assigned"), 9, 0,
                         "internet", 1L, List.of(1L, 2L), List.of(1L));
        Pdr dl = new Pdr(2, 200, Pdr.CORE, null, null, false, null, Ip4Address.valueOf("10.250.0.1"), List.of(),
                         null, null, null, 2L, List.of(1L), List.of(1L));
        Far f1 = new Far(1, Far.FORW, Far.CORE, null, null, null);
        Far f2 = new Far(2, Far.FORW, Far.ACCESS, 0xabcL, Ip4Address.valueOf("192.168.1.10"), 3);
        Qer q1 = new Qer(1, false, true, 1000L, 2000L, 10L, 20L, 9);
        Qer q2 = new Qer(2, false, false, null, null, null, null, null);
        Urr u = new Urr(1, Urr.VOLUM | Urr.DURAT, Urr.PERIO | Urr.VOLTH, 60L, 1000L, null, 7L);
        return new PfcpSession(42, 77, "10.0.0.1", "smf", Map.of(1, ul, 2, dl), Map.of(1L, f1, 2L, f2),
                               Map.of(1L, q1, 2L, q2), Map.of(1L, u), Map.of("ctr:1", 1, "ctr:2", 2));
    }

    @Test
    public void encodeDecodeRoundTripsEveryField() {
        PfcpSession s = rich();
        assertEquals(s, SessionJson.decode(SessionJson.encode(s)));
    }

    @Test
    public void addressesAreDottedQuadsAtEitherEndOfTheRange() {
        for (String a : List.of("0.0.0.0", "10.250.0.1", "192.168.255.7", "255.255.255.255")) {
            assertEquals(a, SessionJson.dotted(Ip4Address.valueOf(a)));
        }
    }

    @Test
    public void encodingMirrorsPfcpNames() {
        ObjectNode o = SessionJson.encode(rich());
        assertEquals("ACCESS", o.at("/pdrs/0/pdi/sourceInterface").asText());
        assertEquals("FORW", o.at("/fars/1/applyAction/0").asText());
        assertEquals("ACCESS", o.at("/fars/1/forwardingParameters/destinationInterface").asText());
        assertEquals(0xabc, o.at("/fars/1/forwardingParameters/outerHeaderCreation/teid").asLong());
        assertEquals("CLOSED", o.at("/qers/0/gateStatus/dl").asText());
        assertEquals("VOLTH", o.at("/urrs/0/reportingTriggers/1").asText());
    }

    private static String error(String json) throws Exception {
        try {
            SessionJson.decode(new ObjectMapper().readTree(json));
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        fail("decoded " + json);
        return null;
    }

    @Test
    public void badInputNamesTheField() throws Exception {
        assertEquals("$: must be a JSON object", error("[]"));
        String minimal = "\"pdrs\": [{\"pdrId\": 1, \"precedence\": 1, \"pdi\": {\"sourceInterface\": \"CORE\"}}],"
                + " \"fars\": [{\"farId\": 1, \"applyAction\": [\"DROP\"]}]";
        assertEquals("$.cpSeid: is required", error("{" + minimal + "}"));
        String pdr = "{\"pdrId\": 1, \"precedence\": 1, \"pdi\": {\"sourceInterface\": \"ACCESS\","
                + " \"ueIpAddress\": \"10.0.0.300\"}}";
        assertEquals("$.pdrs[0].pdi.ueIpAddress: is not an IPv4 address: \"10.0.0.300\"",
                     error("{\"cpSeid\": 1, \"pdrs\": [" + pdr + "], \"fars\": []}"));
        assertEquals("$.fars[0].applyAction: unknown value FORWARD, expected one of DROP, FORW, BUFF, NOCP, DUPL",
                     error("{\"cpSeid\": 1, \"pdrs\": [], \"fars\": [{\"farId\": 1, \"applyAction\": [\"FORWARD\"]}]}"));
        assertEquals("$.pdrs[0].pdrId: must be an integer in [0, 65535], got 70000",
                     error("{\"cpSeid\": 1, \"pdrs\": [{\"pdrId\": 70000}]}"));
        assertEquals("$: a session needs at least one PDR and one FAR", error("{\"cpSeid\": 1}"));
    }
}
