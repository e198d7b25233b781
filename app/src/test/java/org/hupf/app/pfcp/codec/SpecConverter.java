package org.hupf.app.pfcp.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts between the JSON message specs of tests/pfcp/pfcp_spec.py and hupf's codec types,
 * using only the codec's own typed encoders and decoders.
 */
final class SpecConverter {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SpecConverter() {
    }

    static PfcpMessage toMessage(JsonNode spec) throws Exception {
        List<Ie> ies = new ArrayList<>();
        for (JsonNode ie : spec.get("ies")) {
            ies.add(toIe(ie));
        }
        int type = spec.get("type").asInt();
        int seq = spec.get("seq").asInt();
        JsonNode seid = spec.get("seid");
        return seid == null || seid.isNull() ? PfcpMessage.node(type, seq, ies)
                : PfcpMessage.session(type, seid.asLong(), seq, ies);
    }

    private static Inet4Address v4(JsonNode n) throws Exception {
        return (Inet4Address) InetAddress.getByName(n.asText());
    }

    private static Long optLong(JsonNode n) {
        return n == null || n.isNull() ? null : n.asLong();
    }

    static Ie toIe(JsonNode s) throws Exception {
        int t = s.get("t").asInt();
        if (s.has("children")) {
            List<Ie> children = new ArrayList<>();
            for (JsonNode c : s.get("children")) {
                children.add(toIe(c));
            }
            return Ie.grouped(t, children);
        }
        switch (s.get("kind").asText()) {
            case "uint":
                return uintIe(t, s.get("v").asLong());
            case "flags":
                return IeValues.flagsIe(t, s.get("v").asInt(), s.get("n").asInt());
            case "nodeid":
                return new IeValues.NodeId(s.get("idType").asInt(), s.get("value").asText()).toIe();
            case "fseid":
                return new IeValues.FSeid(s.get("seid").asLong(), v4(s.get("ipv4")), null).toIe();
            case "fteid":
                if (s.path("choose").asBoolean()) {
                    JsonNode id = s.get("chooseId");
                    return new IeValues.FTeid(0, null, true, id.isNull() ? null : id.asInt()).toIe();
                }
                return new IeValues.FTeid(s.get("teid").asLong(), v4(s.get("ipv4")), false, null).toIe();
            case "ueip":
                return new IeValues.UeIpAddress(v4(s.get("ipv4")), s.get("sd").asBoolean(), false).toIe();
            case "ohc":
                return IeValues.OuterHeaderCreation.gtpuIpv4(s.get("teid").asLong(), v4(s.get("ipv4"))).toIe();
            case "sdf":
                return new IeValues.SdfFilter(s.get("fd").asText(), 0, optLong(s.get("id"))).toIe();
            case "bitrate":
                return new IeValues.BitRate(s.get("ul").asLong(), s.get("dl").asLong()).toIe(t);
            case "volume":
                return new IeValues.Volume(optLong(s.get("total")), optLong(s.get("ul")), optLong(s.get("dl")))
                        .toIe(t);
            case "qfi":
                return Ie.u8(t, s.get("v").asInt());
            case "apn":
                return Ie.leaf(t, labels(s.get("v").asText()));
            case "failedrule":
                return IeValues.FailedRuleId.of(s.get("ruleType").asInt(), s.get("v").asLong()).toIe();
            case "enterprise":
                return Ie.enterprise(t, s.get("eid").asInt(), hex(s.get("hex").asText()));
            default:
                throw new IllegalArgumentException("unknown kind in " + s);
        }
    }

    private static Ie uintIe(int t, long v) {
        switch (t) {
            case IeType.CAUSE:
            case IeType.BAR_ID:
            case IeType.OUTER_HEADER_REMOVAL:
                return Ie.u8(t, (int) v);
            case IeType.PDR_ID:
            case IeType.OFFENDING_IE:
                return Ie.u16(t, (int) v);
            default:
                return Ie.u32(t, v);
        }
    }

    /** Decodes an IE back into a spec, the way the manifest wrote it. */
    static JsonNode toSpec(Ie ie, JsonNode expected) throws DecodeException {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("t", ie.type());
        if (ie.isGrouped()) {
            ArrayNode children = o.putArray("children");
            for (int i = 0; i < ie.children().size(); i++) {
                children.add(toSpec(ie.children().get(i), expected.get("children").get(i)));
            }
            return o;
        }
        String kind = expected.get("kind").asText();
        o.put("kind", kind);
        IeReader r = ie.reader();
        switch (kind) {
            case "uint":
                o.put("v", ie.value().length == 1 ? r.u8() : ie.value().length == 2 ? r.u16() : r.u32());
                break;
            case "flags":
                o.put("v", IeValues.flags(ie, 1));
                o.put("n", ie.value().length);
                break;
            case "nodeid": {
                IeValues.NodeId n = IeValues.NodeId.decode(ie);
                o.put("idType", n.idType);
                o.put("value", n.value);
                break;
            }
            case "fseid": {
                IeValues.FSeid f = IeValues.FSeid.decode(ie);
                o.put("seid", f.seid);
                o.put("ipv4", f.ipv4.getHostAddress());
                break;
            }
            case "fteid": {
                IeValues.FTeid f = IeValues.FTeid.decode(ie);
                if (f.choose) {
                    o.put("choose", true);
                    o.put("chooseId", f.chooseId);
                } else {
                    o.put("teid", f.teid);
                    o.put("ipv4", f.ipv4.getHostAddress());
                }
                break;
            }
            case "ueip": {
                IeValues.UeIpAddress u = IeValues.UeIpAddress.decode(ie);
                o.put("ipv4", u.ipv4.getHostAddress());
                o.put("sd", u.destination);
                break;
            }
            case "ohc": {
                IeValues.OuterHeaderCreation h = IeValues.OuterHeaderCreation.decode(ie);
                o.put("teid", h.teid);
                o.put("ipv4", h.ipv4.getHostAddress());
                break;
            }
            case "sdf": {
                IeValues.SdfFilter f = IeValues.SdfFilter.decode(ie);
                o.put("fd", f.flowDescription);
                o.put("id", f.filterId);
                break;
            }
            case "bitrate": {
                IeValues.BitRate b = IeValues.BitRate.decode(ie);
                o.put("ul", b.uplinkKbps);
                o.put("dl", b.downlinkKbps);
                break;
            }
            case "volume": {
                IeValues.Volume v = IeValues.Volume.decode(ie);
                o.put("total", v.total);
                o.put("ul", v.uplink);
                o.put("dl", v.downlink);
                break;
            }
            case "qfi":
                o.put("v", r.u8() & 0x3f);
                break;
            case "apn":
                o.put("v", unlabel(ie.value()));
                break;
            case "failedrule": {
                IeValues.FailedRuleId f = IeValues.FailedRuleId.decode(ie);
                o.put("ruleType", f.ruleType);
                o.put("v", f.ruleId);
                break;
            }
            case "enterprise":
                o.put("eid", ie.enterpriseId());
                o.put("hex", toHex(ie.value()));
                break;
            default:
                throw new IllegalArgumentException("unknown kind " + kind);
        }
        return o;
    }

    static byte[] labels(String name) {
        ByteBuffer b = ByteBuffer.allocate(name.length() + 1);
        for (String label : name.split("\\.")) {
            b.put((byte) label.length()).put(label.getBytes(StandardCharsets.US_ASCII));
        }
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    private static String unlabel(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < b.length; i += 1 + (b[i] & 0xff)) {
            if (s.length() > 0) {
                s.append('.');
            }
            s.append(new String(b, i + 1, b[i] & 0xff, StandardCharsets.US_ASCII));
        }
        return s.toString();
    }

    static byte[] hex(String h) {
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static String toHex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x));
        }
        return s.toString();
    }
}
