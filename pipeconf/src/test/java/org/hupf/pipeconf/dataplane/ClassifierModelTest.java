package org.hupf.pipeconf.dataplane;

import org.junit.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class ClassifierModelTest {

    /** A model in the tools' schema; features deliberately not in the canonical order. */
    public static final String MODEL = "{\"schema\": \"hupf-classifier/1\","
            + "\"params\": {\"window_us\": 1000000, \"alpha_shift\": 3},"
            + "\"features\": [\"pkts_dn\", \"pkts_up\", \"ps_up\", \"ps_dn\", \"ipg_up\", \"ipg_dn\"],"
            + "\"feature_tables\": {"
            + "\"pkts_up\": [{\"lo\": 0, \"hi\": 57, \"code\": 0}, {\"lo\": 58, \"hi\": 4294967295, \"code\": 1}],"
            + "\"pkts_dn\": [{\"lo\": 0, \"hi\": 4294967295, \"code\": 0}],"
            + "\"ps_up\": [{\"lo\": 0, \"hi\": 4294967295, \"code\": 0}],"
            + "\"ps_dn\": [{\"lo\": 0, \"hi\": 999, \"code\": 0}, {\"lo\": 1000, \"hi\": 4294967295, \"code\": 1}],"
            + "\"ipg_up\": [{\"lo\": 0, \"hi\": 4294967295, \"code\": 0}],"
            + "\"ipg_dn\": [{\"lo\": 0, \"hi\": 4294967295, \"code\": 0}]},"
            + "\"decision\": [{\"codes\": [0, 1, 0, 1, 0, 0], \"class_id\": 2},"
            + "               {\"codes\": [0, 0, 0, 0, 0, 0], \"class_id\": 1}],"
            + "\"classes\": [{\"class_id\": 1, \"name\": \"bulk_download\", \"tc\": null},"
            + "              {\"class_id\": 2, \"name\": \"cloud_gaming\", \"tc\": 3}]}";

    public static ClassifierModel parse(String json) throws Exception {
        return ClassifierModel.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    public void parsesAndReordersCodesToCanonicalFeatureOrder() throws Exception {
        ClassifierModel m = parse(MODEL);
        assertEquals(1_000_000, m.windowUs());
        assertEquals(3, m.alphaShift());
        assertEquals(2, m.ranges("pkts_up").size());
        // JSON codes are in the model's feature order (pkts_dn first): pkts_up's code is the second.
        assertEquals(List.of(1, 0, 0, 1, 0, 0), m.decisions().get(0).codes);
        assertEquals(2, m.decisions().get(0).classId);
        assertEquals(1, m.classTc().size());
        assertEquals(Integer.valueOf(3), m.classTc().get(2));
    }

    @Test
    public void refusesOverlappingRanges() throws Exception {
        expect(MODEL.replace("{\"lo\": 58, \"hi\": 4294967295, \"code\": 1}", "{\"lo\": 50, \"hi\": 60, \"code\": 1}"),
               "overlap");
    }

    @Test
    public void refusesClassZero() throws Exception {
        expect(MODEL.replace("\"class_id\": 1, \"name\"", "\"class_id\": 0, \"name\""), "class_id");
    }

    @Test
    public void refusesTrafficClassBeyondTwoBits() throws Exception {
        expect(MODEL.replace("\"tc\": 3", "\"tc\": 4"), "tc");
    }

    @Test
    public void refusesDecisionOnUnknownClass() throws Exception {
        expect(MODEL.replace("\"class_id\": 2},", "\"class_id\": 9},"), "class 9");
    }

    @Test
    public void refusesOtherSchema() throws Exception {
        expect(MODEL.replace("hupf-classifier/1", "other/2"), "schema");
    }

    private static void expect(String json, String what) throws Exception {
        try {
            parse(json);
            fail("accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(what));
        }
    }
}
