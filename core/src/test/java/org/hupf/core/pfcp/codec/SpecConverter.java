package org.hupf.core.pfcp.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.hupf.core.pfcp.message.BitRate;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.FTeid;
import org.hupf.core.pfcp.message.FailedRuleId;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.OuterHeaderCreation;
import org.hupf.core.pfcp.message.SdfFilter;
import org.hupf.core.pfcp.message.UeIpAddress;
import org.hupf.core.pfcp.message.Volume;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts between the JSON message specs of tests/pfcp/pfcp_spec.py and hupf's codec types,
 * using only the codec's field table (IeFields) for every IE type it describes.
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
                return FieldTable.encodeNumber(t, s.get("v").asLong());
            case "flags": {
                // Flag IEs the table has no descriptor for (hupf neither reads nor writes them) stay raw.
                Ie ie = FieldTable.encodeNumber(t, s.get("v").asLong());
                return ie != null ? ie : Ie.leaf(t, lowByteFirst(s.get("v").asInt(), s.get("n").asInt()));
            }
            case "nodeid":
                return IeFields.NODE_ID.encode(new NodeId(s.get("idType").asInt(), s.get("value").asText()));
            case "fseid":
                return IeFields.F_SEID.encode(new FSeid(s.get("seid").asLong(), v4(s.get("ipv4")), null));
            case "fteid":
                if (s.path("choose").asBoolean()) {
                    JsonNode id = s.get("chooseId");
                    return IeFields.F_TEID.encode(new FTeid(0, null, true, id.isNull() ? null : id.asInt()));
                }
                return IeFields.F_TEID.encode(new FTeid(s.get("teid").asLong(), v4(s.get("ipv4")), false, null));
            case "ueip":
                return IeFields.UE_IP_ADDRESS.encode(new UeIpAddress(v4(s.get("ipv4")), s.get("sd").asBoolean(),
                                                                     false));
            case "ohc":
                return IeFields.OUTER_HEADER_CREATION.encode(OuterHeaderCreation.gtpuIpv4(s.get("teid").asLong(),
                                                                                          v4(s.get("ipv4"))));
            case "sdf":
                return IeFields.SDF_FILTER.encode(new SdfFilter(s.get("fd").asText(), 0, optLong(s.get("id"))));
            case "bitrate":
                return (t == IeType.MBR ? IeFields.MBR : IeFields.GBR).encode(
                        new BitRate(s.get("ul").asLong(), s.get("dl").asLong()));
            case "volume":
                return (t == IeType.VOLUME_THRESHOLD ? IeFields.VOLUME_THRESHOLD : IeFields.VOLUME_MEASUREMENT).encode(
                        new Volume(optLong(s.get("total")), optLong(s.get("ul")), optLong(s.get("dl"))));
            case "qfi":
                return IeFields.QFI.encode(s.get("v").asInt());
            case "apn":
                return IeFields.NETWORK_INSTANCE.encode(s.get("v").asText());
            case "failedrule":
                return IeFields.FAILED_RULE_ID.encode(new FailedRuleId(s.get("ruleType").asInt(),
                                                                        s.get("v").asLong()));
            case "enterprise":
                return Ie.enterprise(t, s.get("eid").asInt(), hex(s.get("hex").asText()));
            default:
                throw new IllegalArgumentException("unknown kind in " + s);
        }
    }

    private static byte[] lowByteFirst(int v, int octets) {
        byte[] out = new byte[octets];
        for (int i = 0; i < octets; i++) {
            out[i] = (byte) (v >> (8 * i));
        }
        return out;
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
        switch (kind) {
            case "uint":
                o.put("v", FieldTable.decodeNumber(ie));
                break;
            case "flags": {
                Long v = FieldTable.decodeNumber(ie);
                int raw = 0;
                for (int i = 0; i < ie.value().length; i++) {
                    raw |= (ie.value()[i] & 0xff) << (8 * i);
                }
                o.put("v", v != null ? v : raw);
                o.put("n", ie.value().length);
                break;
            }
            case "nodeid": {
                NodeId n = IeFields.NODE_ID.decode(ie);
                o.put("idType", n.idType);
                o.put("value", n.value);
                break;
            }
            case "fseid": {
                FSeid f = IeFields.F_SEID.decode(ie);
                o.put("seid", f.seid);
                o.put("ipv4", f.ipv4.getHostAddress());
                break;
            }
            case "fteid": {
                FTeid f = IeFields.F_TEID.decode(ie);
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
                UeIpAddress u = IeFields.UE_IP_ADDRESS.decode(ie);
                o.put("ipv4", u.ipv4.getHostAddress());
                o.put("sd", u.destination);
                break;
            }
            case "ohc": {
                OuterHeaderCreation h = IeFields.OUTER_HEADER_CREATION.decode(ie);
                o.put("teid", h.teid);
                o.put("ipv4", h.ipv4.getHostAddress());
                break;
            }
            case "sdf": {
                SdfFilter f = IeFields.SDF_FILTER.decode(ie);
                o.put("fd", f.flowDescription);
                o.put("id", f.filterId);
                break;
            }
            case "bitrate": {
                BitRate b = (ie.type() == IeType.MBR ? IeFields.MBR : IeFields.GBR).decode(ie);
                o.put("ul", b.uplinkKbps);
                o.put("dl", b.downlinkKbps);
                break;
            }
            case "volume": {
                Volume v = (ie.type() == IeType.VOLUME_THRESHOLD ? IeFields.VOLUME_THRESHOLD
                        : IeFields.VOLUME_MEASUREMENT).decode(ie);
                o.put("total", v.total);
                o.put("ul", v.uplink);
                o.put("dl", v.downlink);
                break;
            }
            case "qfi":
                o.put("v", IeFields.QFI.decode(ie));
                break;
            case "apn":
                o.put("v", IeFields.NETWORK_INSTANCE.decode(ie));
                break;
            case "failedrule": {
                FailedRuleId f = IeFields.FAILED_RULE_ID.decode(ie);
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
