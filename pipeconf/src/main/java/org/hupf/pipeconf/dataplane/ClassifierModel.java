package org.hupf.pipeconf.dataplane;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A MATADOR classifier as the identification tools write it ({@code model.json}, schema
 * {@code hupf-classifier/1}, docs/IDENTIFICATION.md): per-feature range tables, the decision table over the
 * six codes, class → traffic class, and the window/EWMA parameters. Parsing checks every value against
 * the P4 widths and the schema's guarantees, so installation never meets a malformed model.
 */
public final class ClassifierModel {

    public static final String SCHEMA = "hupf-classifier/1";
    /** The six MATADOR features, named as the P4 tables {@code feature_<name>}. */
    public static final List<String> FEATURES = List.of("pkts_up", "pkts_dn", "ps_up", "ps_dn", "ipg_up", "ipg_dn");

    private static final long MAX_U32 = 0xFFFFFFFFL;
    private static final int MAX_U8 = 255;
    private static final int MAX_TC = 3;

    /** A feature range [lo, hi] coded {@code code}. */
    public static final class Range {
        public final long lo;
        public final long hi;
        public final int code;

        Range(long lo, long hi, int code) {
            this.lo = lo;
            this.hi = hi;
            this.code = code;
        }
    }

    /** A decision entry: the codes of the six features, in {@link #FEATURES} order, give {@code classId}. */
    public static final class Decision {
        public final List<Integer> codes;
        public final int classId;

        Decision(List<Integer> codes, int classId) {
            this.codes = codes;
            this.classId = classId;
        }
    }

    private final long windowUs;
    private final int alphaShift;
    private final Map<String, List<Range>> featureTables;
    private final List<Decision> decisions;
    private final Map<Integer, Integer> classTc;

    private ClassifierModel(long windowUs, int alphaShift, Map<String, List<Range>> featureTables,
                            List<Decision> decisions, Map<Integer, Integer> classTc) {
        this.windowUs = windowUs;
        this.alphaShift = alphaShift;
        this.featureTables = featureTables;
        this.decisions = decisions;
        this.classTc = classTc;
    }

    public long windowUs() {
        return windowUs;
    }

    public int alphaShift() {
        return alphaShift;
    }

    /**
     * Returns the ranges of one feature.
     *
     * @param feature feature name
     * @return ranges
     */
    public List<Range> ranges(String feature) {
        return featureTables.get(feature);
    }

    public List<Decision> decisions() {
        return decisions;
    }

    /**
     * Returns class id → traffic class for the classes that set one.
     *
     * @return mapping
     */
    public Map<Integer, Integer> classTc() {
        return classTc;
    }

    /**
     * Parses and validates a model.
     *
     * @param in JSON
     * @return model
     * @throws IOException if it is not JSON
     * @throws IllegalArgumentException naming the first field that breaks the schema
     */
    public static ClassifierModel parse(InputStream in) throws IOException {
        JsonNode root = new ObjectMapper().readTree(in);
        if (root == null || !SCHEMA.equals(root.path("schema").asText())) {
            throw new IllegalArgumentException("not a " + SCHEMA + " model (schema field)");
        }
        JsonNode params = root.path("params");
        long window = number(params, "window_us", 1, MAX_U32);
        int shift = (int) number(params, "alpha_shift", 0, Integer.SIZE - 1);

        List<String> order = new ArrayList<>();
        root.path("features").forEach(f -> order.add(f.asText()));
        if (!new HashSet<>(order).equals(new HashSet<>(FEATURES)) || order.size() != FEATURES.size()) {
            throw new IllegalArgumentException("features must be " + FEATURES + " in some order, are " + order);
        }
        Map<String, List<Range>> tables = new LinkedHashMap<>();
        for (String f : FEATURES) {
            tables.put(f, ranges(f, root.path("feature_tables").path(f)));
        }
        List<Decision> decisions = new ArrayList<>();
        for (JsonNode d : root.path("decision")) {
            JsonNode codes = d.path("codes");
            if (codes.size() != order.size()) {
                throw new IllegalArgumentException("decision entry " + d + " needs " + order.size() + " codes");
            }
            Integer[] byFeature = new Integer[FEATURES.size()];
            for (int i = 0; i < order.size(); i++) {
                byFeature[FEATURES.indexOf(order.get(i))] = (int) value(codes.get(i), "decision code", 0, MAX_U8);
            }
            decisions.add(new Decision(List.of(byFeature), (int) number(d, "class_id", 1, MAX_U8)));
        }
        Map<Integer, Integer> classTc = new LinkedHashMap<>();
        Set<Integer> ids = new HashSet<>();
        for (JsonNode c : root.path("classes")) {
            int id = (int) number(c, "class_id", 1, MAX_U8);
            if (!ids.add(id)) {
                throw new IllegalArgumentException("class_id " + id + " appears twice");
            }
            if (!c.path("tc").isNull() && !c.path("tc").isMissingNode()) {
                classTc.put(id, (int) number(c, "tc", 0, MAX_TC));
            }
        }
        for (Decision d : decisions) {
            if (!ids.contains(d.classId)) {
                throw new IllegalArgumentException("decision names class " + d.classId + ", not in classes");
            }
        }
        return new ClassifierModel(window, shift, Collections.unmodifiableMap(tables),
                                   List.copyOf(decisions), Collections.unmodifiableMap(classTc));
    }

    /** Ranges must be disjoint so that one priority serves the whole range table. */
    private static List<Range> ranges(String feature, JsonNode node) {
        if (!node.isArray() || node.size() == 0) {
            throw new IllegalArgumentException("feature_tables." + feature + " must be a non-empty list");
        }
        List<Range> out = new ArrayList<>();
        for (JsonNode r : node) {
            long lo = number(r, "lo", 0, MAX_U32);
            long hi = number(r, "hi", lo, MAX_U32);
            out.add(new Range(lo, hi, (int) number(r, "code", 0, MAX_U8)));
        }
        out.sort((a, b) -> Long.compare(a.lo, b.lo));
        for (int i = 1; i < out.size(); i++) {
            if (out.get(i).lo <= out.get(i - 1).hi) {
                throw new IllegalArgumentException("feature_tables." + feature + " ranges overlap at " + out.get(i).lo);
            }
        }
        return List.copyOf(out);
    }

    private static long number(JsonNode parent, String field, long min, long max) {
        return value(parent.path(field), field, min, max);
    }

    private static long value(JsonNode n, String field, long min, long max) {
        if (!n.isIntegralNumber()) {
            throw new IllegalArgumentException(field + " must be an integer, is " + n);
        }
        long v = n.asLong();
        if (v < min || v > max) {
            throw new IllegalArgumentException(field + " " + v + " out of range [" + min + ", " + max + "]");
        }
        return v;
    }
}
