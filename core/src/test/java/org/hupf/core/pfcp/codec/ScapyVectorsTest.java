package org.hupf.core.pfcp.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Golden vectors made by scapy.contrib.pfcp (tests/pfcp/gen_vectors.py): scapy's bytes decode here
 * into the spec scapy was given, and hupf's encoders turn that spec into exactly scapy's bytes.
 */
public class ScapyVectorsTest {

    private static final Path DIR = Paths.get("..", "tests", "pfcp", "vectors");

    private static JsonNode manifest() throws Exception {
        return new ObjectMapper().readTree(DIR.resolve("manifest.json").toFile());
    }

    @Test
    public void scapyBytesDecodeToTheirSpec() throws Exception {
        Iterator<Map.Entry<String, JsonNode>> it = manifest().fields();
        int n = 0;
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            byte[] bytes = Files.readAllBytes(DIR.resolve(e.getKey() + ".bin"));
            PfcpMessage m = PfcpCodec.decode(bytes, bytes.length);
            JsonNode spec = e.getValue();
            assertEquals(e.getKey(), spec.get("type").asInt(), m.type());
            assertEquals(e.getKey(), spec.get("seq").asInt(), m.sequence());
            assertEquals(e.getKey(), !spec.get("seid").isNull(), m.hasSeid());
            if (m.hasSeid()) {
                assertEquals(e.getKey(), spec.get("seid").asLong(), m.seid());
            }
            ObjectMapper mapper = new ObjectMapper();
            ArrayNode ies = mapper.createArrayNode();
            for (int i = 0; i < m.ies().size(); i++) {
                ies.add(SpecConverter.toSpec(m.ies().get(i), spec.get("ies").get(i)));
            }
            assertEquals(e.getKey(), normalize(spec.get("ies")), normalize(mapper.readTree(ies.toString())));
            n++;
        }
        assertEquals(20, n);
    }

    @Test
    public void hupfEncodesEachSpecToScapysBytes() throws Exception {
        Iterator<Map.Entry<String, JsonNode>> it = manifest().fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            byte[] scapy = Files.readAllBytes(DIR.resolve(e.getKey() + ".bin"));
            assertArrayEquals(e.getKey(), scapy, PfcpCodec.encode(SpecConverter.toMessage(e.getValue())));
        }
    }

    @Test
    public void vectorsCoverEveryMessageAndIeTypeHupfUses() throws Exception {
        Set<Integer> messages = new HashSet<>();
        Set<Integer> ieTypes = new HashSet<>();
        Iterator<JsonNode> it = manifest().elements();
        while (it.hasNext()) {
            JsonNode spec = it.next();
            messages.add(spec.get("type").asInt());
            collect(spec.get("ies"), ieTypes);
        }
        for (int t : new int[]{1, 2, 5, 6, 7, 8, 9, 10, 11, 50, 51, 52, 53, 54, 55, 56, 57}) {
            assertTrue("message " + t, messages.contains(t));
        }
        for (java.lang.reflect.Field f : IeType.class.getFields()) {
            int t = f.getInt(null);
            assertTrue("IE " + f.getName() + " has no vector", ieTypes.contains(t));
        }
    }

    private static void collect(JsonNode ies, Set<Integer> out) {
        for (JsonNode ie : ies) {
            out.add(ie.get("t").asInt());
            if (ie.has("children")) {
                collect(ie.get("children"), out);
            }
        }
    }

    /** Drops null-valued optional fields (the manifest writes them, the decoder may omit them). */
    private static JsonNode normalize(JsonNode n) {
        if (n.isObject()) {
            ObjectNode o = new ObjectMapper().createObjectNode();
            n.fields().forEachRemaining(e -> {
                if (!e.getValue().isNull()) {
                    o.set(e.getKey(), normalize(e.getValue()));
                }
            });
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = new ObjectMapper().createArrayNode();
            n.forEach(x -> a.add(normalize(x)));
            return a;
        }
        return n;
    }
}
