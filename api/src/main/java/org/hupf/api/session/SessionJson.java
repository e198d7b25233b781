package org.hupf.api.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onlab.packet.Ip4Address;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON form of a session, mirroring PFCP's IEs (names after TS 29.244): used by REST, the CLI and the
 * distributed store. Decoding reports the path of the first bad field in an IllegalArgumentException.
 */
public final class SessionJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String[] SOURCE_IFACES = {"ACCESS", "CORE", "SGI_LAN", "CP_FUNCTION"};
    private static final String[] ACTIONS = {"DROP", "FORW", "BUFF", "NOCP", "DUPL"};
    private static final String[] METHODS = {"DURAT", "VOLUM", "EVENT"};
    private static final String[] TRIGGERS = {"PERIO", "VOLTH"};

    private SessionJson() {
    }

    private static ArrayNode names(int bits, String[] names) {
        ArrayNode a = MAPPER.createArrayNode();
        for (int i = 0; i < names.length; i++) {
            if ((bits & (1 << i)) != 0) {
                a.add(names[i]);
            }
        }
        return a;
    }

    /**
     * Encodes a session.
     *
     * @param s session
     * @return JSON object
     */
    public static ObjectNode encode(PfcpSession s) {
        ObjectNode o = MAPPER.createObjectNode().put("upSeid", s.upSeid).put("cpSeid", s.cpSeid)
                .put("cpAddress", s.cpAddress).put("nodeId", s.nodeId);
        ArrayNode pdrs = o.putArray("pdrs");
        s.pdrs.values().stream().sorted((a, b) -> a.pdrId - b.pdrId).forEach(p -> pdrs.add(pdr(p)));
        ArrayNode fars = o.putArray("fars");
        s.fars.values().stream().sorted((a, b) -> Long.compare(a.farId, b.farId)).forEach(f -> fars.add(far(f)));
        ArrayNode qers = o.putArray("qers");
        s.qers.values().stream().sorted((a, b) -> Long.compare(a.qerId, b.qerId)).forEach(q -> qers.add(qer(q)));
        ArrayNode urrs = o.putArray("urrs");
        s.urrs.values().stream().sorted((a, b) -> Long.compare(a.urrId, b.urrId)).forEach(u -> urrs.add(urr(u)));
        ObjectNode alloc = o.putObject("allocations");
        s.allocations.forEach(alloc::put);
        return o;
    }

    /** Dotted quads without ONOS's Ip4Address.toString, a String.format: a session's encoding is on every write. */
    static String dotted(Ip4Address a) {
        int v = a.toInt();
        return (v >>> 24) + "." + ((v >>> 16) & 0xff) + "." + ((v >>> 8) & 0xff) + "." + (v & 0xff);
    }

    private static ObjectNode pdr(Pdr p) {
        ObjectNode o = MAPPER.createObjectNode().put("pdrId", p.pdrId).put("precedence", p.precedence);
        ObjectNode pdi = o.putObject("pdi").put("sourceInterface", SOURCE_IFACES[p.sourceInterface]);
        if (p.choose || p.teid != null) {
            ObjectNode f = pdi.putObject("fTeid");
            if (p.choose) {
                f.put("choose", true);
                if (p.chooseId != null) {
                    f.put("chooseId", p.chooseId);
                }
            }
            if (p.teid != null) {
                f.put("teid", p.teid).put("ipv4", dotted(p.tunnelAddress));
            }
        }
        if (p.ueAddress != null) {
            pdi.put("ueIpAddress", dotted(p.ueAddress));
        }
        ArrayNode sdf = pdi.putArray("sdfFilters");
        p.sdfFilters.forEach(sdf::add);
        if (p.qfi != null) {
            pdi.put("qfi", p.qfi);
        }
        if (p.networkInstance != null) {
            pdi.put("networkInstance", p.networkInstance);
        }
        if (p.outerHeaderRemoval != null) {
            o.put("outerHeaderRemoval", p.outerHeaderRemoval);
        }
        if (p.farId != null) {
            o.put("farId", p.farId);
        }
        ArrayNode q = o.putArray("qerIds");
        p.qerIds.forEach(q::add);
        ArrayNode u = o.putArray("urrIds");
        p.urrIds.forEach(u::add);
        return o;
    }

    private static ObjectNode far(Far f) {
        ObjectNode o = MAPPER.createObjectNode().put("farId", f.farId);
        o.set("applyAction", names(f.applyAction, ACTIONS));
        if (f.destinationInterface != null || f.ohcTeid != null || f.networkInstance != null) {
            ObjectNode fp = o.putObject("forwardingParameters");
            if (f.destinationInterface != null) {
                fp.put("destinationInterface", SOURCE_IFACES[f.destinationInterface]);
            }
            if (f.networkInstance != null) {
                fp.put("networkInstance", f.networkInstance);
            }
            if (f.ohcTeid != null) {
                fp.putObject("outerHeaderCreation").put("teid", f.ohcTeid).put("ipv4", dotted(f.ohcAddress));
            }
        }
        if (f.barId != null) {
            o.put("barId", f.barId);
        }
        return o;
    }

    private static ObjectNode qer(Qer q) {
        ObjectNode o = MAPPER.createObjectNode().put("qerId", q.qerId);
        o.putObject("gateStatus").put("ul", q.uplinkGateClosed ? "CLOSED" : "OPEN")
                .put("dl", q.downlinkGateClosed ? "CLOSED" : "OPEN");
        if (q.mbrUplink != null) {
            o.putObject("mbr").put("ul", q.mbrUplink).put("dl", q.mbrDownlink);
        }
        if (q.gbrUplink != null) {
            o.putObject("gbr").put("ul", q.gbrUplink).put("dl", q.gbrDownlink);
        }
        if (q.qfi != null) {
            o.put("qfi", q.qfi);
        }
        return o;
    }

    private static ObjectNode urr(Urr u) {
        ObjectNode o = MAPPER.createObjectNode().put("urrId", u.urrId);
        o.set("measurementMethod", names(u.measurementMethod, METHODS));
        o.set("reportingTriggers", names(u.reportingTriggers, TRIGGERS));
        if (u.measurementPeriod != null) {
            o.put("measurementPeriod", u.measurementPeriod);
        }
        if (u.volumeThresholdTotal != null || u.volumeThresholdUplink != null || u.volumeThresholdDownlink != null) {
            ObjectNode v = o.putObject("volumeThreshold");
            v.put("total", u.volumeThresholdTotal).put("ul", u.volumeThresholdUplink)
                    .put("dl", u.volumeThresholdDownlink);
        }
        return o;
    }

    // Decoding --------------------------------------------------------------------------------------

    private static IllegalArgumentException bad(String path, String what) {
        return new IllegalArgumentException(path + ": " + what);
    }

    private static JsonNode field(JsonNode o, String name, String path) {
        JsonNode v = o.get(name);
        if (v == null || v.isNull()) {
            throw bad(path + "." + name, "is required");
        }
        return v;
    }

    private static long num(JsonNode o, String name, String path, long min, long max) {
        JsonNode v = field(o, name, path);
        if (!v.canConvertToLong() || !v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw bad(path + "." + name, "must be an integer in [" + min + ", " + max + "], got " + v);
        }
        return v.asLong();
    }

    private static Long optNum(JsonNode o, String name, String path, long min, long max) {
        return o.hasNonNull(name) ? Long.valueOf(num(o, name, path, min, max)) : null;
    }

    private static Ip4Address ip(JsonNode o, String name, String path) {
        JsonNode v = field(o, name, path);
        try {
            return Ip4Address.valueOf(v.asText());
        } catch (IllegalArgumentException e) {
            throw bad(path + "." + name, "is not an IPv4 address: " + v);
        }
    }

    private static int index(String value, String[] names, String path) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(value)) {
                return i;
            }
        }
        throw bad(path, "unknown value " + value + ", expected one of " + String.join(", ", names));
    }

    private static int bits(JsonNode o, String name, String path, String[] names, boolean required) {
        JsonNode v = required ? field(o, name, path) : o.get(name);
        if (v == null) {
            return 0;
        }
        if (!v.isArray()) {
            throw bad(path + "." + name, "must be a list of " + String.join(", ", names));
        }
        int b = 0;
        for (JsonNode n : v) {
            b |= 1 << index(n.asText(), names, path + "." + name);
        }
        return b;
    }

    private static Iterable<JsonNode> list(JsonNode o, String name, String path) {
        JsonNode v = o.get(name);
        if (v == null) {
            return List.of();
        }
        if (!v.isArray()) {
            throw bad(path + "." + name, "must be a list");
        }
        return v;
    }

    private static List<Long> ids(JsonNode o, String name, String path) {
        List<Long> out = new ArrayList<>();
        int i = 0;
        for (JsonNode n : list(o, name, path)) {
            if (!n.isIntegralNumber() || n.asLong() < 0 || n.asLong() > 0xFFFFFFFFL) {
                throw bad(path + "." + name + "[" + i + "]", "must be a 32-bit id");
            }
            out.add(n.asLong());
            i++;
        }
        return out;
    }

    /**
     * Decodes a session as posted by a controller (upSeid and allocations are optional).
     *
     * @param o JSON object
     * @return session
     * @throws IllegalArgumentException naming the first bad field
     */
    public static PfcpSession decode(JsonNode o) {
        if (o == null || !o.isObject()) {
            throw bad("$", "must be a JSON object");
        }
        Map<Integer, Pdr> pdrs = new HashMap<>();
        int i = 0;
        for (JsonNode n : list(o, "pdrs", "$")) {
            Pdr p = pdr(n, "$.pdrs[" + i++ + "]");
            if (pdrs.put(p.pdrId, p) != null) {
                throw bad("$.pdrs", "duplicate pdrId " + p.pdrId);
            }
        }
        Map<Long, Far> fars = new HashMap<>();
        i = 0;
        for (JsonNode n : list(o, "fars", "$")) {
            Far f = far(n, "$.fars[" + i++ + "]");
            if (fars.put(f.farId, f) != null) {
                throw bad("$.fars", "duplicate farId " + f.farId);
            }
        }
        Map<Long, Qer> qers = new HashMap<>();
        i = 0;
        for (JsonNode n : list(o, "qers", "$")) {
            Qer q = qer(n, "$.qers[" + i++ + "]");
            qers.put(q.qerId, q);
        }
        Map<Long, Urr> urrs = new HashMap<>();
        i = 0;
        for (JsonNode n : list(o, "urrs", "$")) {
            Urr u = urr(n, "$.urrs[" + i++ + "]");
            urrs.put(u.urrId, u);
        }
        if (pdrs.isEmpty() || fars.isEmpty()) {
            throw bad("$", "a session needs at least one PDR and one FAR");
        }
        Map<String, Integer> alloc = new HashMap<>();
        JsonNode a = o.get("allocations");
        if (a != null) {
            Iterator<Map.Entry<String, JsonNode>> it = a.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                alloc.put(e.getKey(), e.getValue().asInt());
            }
        }
        return new PfcpSession(o.hasNonNull("upSeid") ? num(o, "upSeid", "$", 0, Long.MAX_VALUE) : 0,
                               num(o, "cpSeid", "$", 0, Long.MAX_VALUE),
                               o.hasNonNull("cpAddress") ? o.get("cpAddress").asText() : "rest",
                               o.hasNonNull("nodeId") ? o.get("nodeId").asText() : "rest",
                               pdrs, fars, qers, urrs, alloc);
    }

    private static Pdr pdr(JsonNode o, String path) {
        int id = (int) num(o, "pdrId", path, 0, 0xFFFF);
        long precedence = num(o, "precedence", path, 0, 0xFFFFFFFFL);
        JsonNode pdi = field(o, "pdi", path);
        String pp = path + ".pdi";
        int src = index(field(pdi, "sourceInterface", pp).asText(), SOURCE_IFACES, pp + ".sourceInterface");
        Long teid = null;
        Ip4Address tunnel = null;
        boolean choose = false;
        Integer chooseId = null;
        JsonNode f = pdi.get("fTeid");
        if (f != null) {
            choose = f.path("choose").asBoolean(false);
            chooseId = f.hasNonNull("chooseId") ? Integer.valueOf((int) num(f, "chooseId", pp + ".fTeid", 0, 255))
                    : null;
            if (!choose || f.hasNonNull("teid")) {
                teid = num(f, "teid", pp + ".fTeid", 0, 0xFFFFFFFFL);
                tunnel = ip(f, "ipv4", pp + ".fTeid");
            }
        }
        Ip4Address ue = pdi.hasNonNull("ueIpAddress") ? ip(pdi, "ueIpAddress", pp) : null;
        List<String> sdf = new ArrayList<>();
        for (JsonNode n : list(pdi, "sdfFilters", pp)) {
            sdf.add(n.asText());
        }
        Long qfi = optNum(pdi, "qfi", pp, 0, 63);
        Long ohr = optNum(o, "outerHeaderRemoval", path, 0, 255);
        return new Pdr(id, precedence, src, teid, tunnel, choose, chooseId, ue, sdf,
                       qfi == null ? null : qfi.intValue(), ohr == null ? null : ohr.intValue(),
                       pdi.hasNonNull("networkInstance") ? pdi.get("networkInstance").asText() : null,
                       optNum(o, "farId", path, 0, 0xFFFFFFFFL), ids(o, "qerIds", path), ids(o, "urrIds", path));
    }

    private static Far far(JsonNode o, String path) {
        long id = num(o, "farId", path, 0, 0xFFFFFFFFL);
        int action = bits(o, "applyAction", path, ACTIONS, true);
        Integer dst = null;
        Long teid = null;
        Ip4Address addr = null;
        String networkInstance = null;
        JsonNode fp = o.get("forwardingParameters");
        if (fp != null) {
            String p = path + ".forwardingParameters";
            dst = index(field(fp, "destinationInterface", p).asText(), SOURCE_IFACES, p + ".destinationInterface");
            networkInstance = fp.hasNonNull("networkInstance") ? fp.get("networkInstance").asText() : null;
            JsonNode ohc = fp.get("outerHeaderCreation");
            if (ohc != null) {
                teid = num(ohc, "teid", p + ".outerHeaderCreation", 0, 0xFFFFFFFFL);
                addr = ip(ohc, "ipv4", p + ".outerHeaderCreation");
            }
        }
        Long bar = optNum(o, "barId", path, 0, 255);
        return new Far(id, action, dst, teid, addr, bar == null ? null : bar.intValue(), networkInstance);
    }

    private static boolean closed(JsonNode gate, String dir, String path) {
        if (gate == null || !gate.has(dir)) {
            return false;
        }
        return index(gate.get(dir).asText(), new String[]{"OPEN", "CLOSED"}, path + ".gateStatus." + dir) == 1;
    }

    private static Qer qer(JsonNode o, String path) {
        long id = num(o, "qerId", path, 0, 0xFFFFFFFFL);
        JsonNode gate = o.get("gateStatus");
        JsonNode mbr = o.get("mbr");
        JsonNode gbr = o.get("gbr");
        long max = (1L << 40) - 1;
        Long qfi = optNum(o, "qfi", path, 0, 63);
        return new Qer(id, closed(gate, "ul", path), closed(gate, "dl", path),
                       mbr == null ? null : num(mbr, "ul", path + ".mbr", 0, max),
                       mbr == null ? null : num(mbr, "dl", path + ".mbr", 0, max),
                       gbr == null ? null : num(gbr, "ul", path + ".gbr", 0, max),
                       gbr == null ? null : num(gbr, "dl", path + ".gbr", 0, max),
                       qfi == null ? null : qfi.intValue());
    }

    private static Urr urr(JsonNode o, String path) {
        long id = num(o, "urrId", path, 0, 0xFFFFFFFFL);
        JsonNode v = o.get("volumeThreshold");
        String vp = path + ".volumeThreshold";
        return new Urr(id, bits(o, "measurementMethod", path, METHODS, true),
                       bits(o, "reportingTriggers", path, TRIGGERS, false),
                       optNum(o, "measurementPeriod", path, 1, 0xFFFFFFFFL),
                       v == null ? null : optNum(v, "total", vp, 0, Long.MAX_VALUE),
                       v == null ? null : optNum(v, "ul", vp, 0, Long.MAX_VALUE),
                       v == null ? null : optNum(v, "dl", vp, 0, Long.MAX_VALUE));
    }
}
