package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.api.OffloadPolicy;
import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Map;

import static org.hupf.core.config.JsonFields.IPV4;
import static org.hupf.core.config.JsonFields.intIn;

/**
 * Parses the netcfg's {@code offload} block: the offload policy's hold, hysteresis and pins.
 */
public final class OffloadParser {

    public static final String OFFLOAD = "offload";

    private OffloadParser() {
    }

    /**
     * Returns the offload policy: the threshold {@link HeavyHitterParser#hhThresholdBps}, and from {@code offload}:
     * {@code holdMs}, {@code hysteresis} (a fraction of the threshold) and {@code pins}
     * ({@code {"slices"|"qfis"|"ues": {key: "HARDWARE"|"SOFTWARE"}}}), the policy's defaults where absent.
     *
     * @param root the netcfg's hupf object
     * @return policy
     * @throws IllegalArgumentException naming the field that is wrong
     */
    public static OffloadPolicy offloadPolicy(JsonNode root) {
        JsonNode o = root.path(OFFLOAD);
        OffloadPolicy.Builder b = OffloadPolicy.builder().thresholdBitsPerSec(HeavyHitterParser.hhThresholdBps(root));
        if (o.has("holdMs")) {
            b.holdMillis(intIn(o, "holdMs", 0, 3_600_000, 0));
        }
        JsonNode h = o.get("hysteresis");
        if (h != null) {
            if (!h.isNumber() || h.asDouble() < 0 || h.asDouble() > 10) {
                throw new IllegalArgumentException(OFFLOAD + ".hysteresis: a number in [0, 10] expected, got " + h);
            }
            b.hysteresis(h.asDouble());
        }
        JsonNode pins = o.path("pins");
        pins.fieldNames().forEachRemaining(kind -> {
            if (!List.of("slices", "qfis", "ues").contains(kind)) {
                throw new IllegalArgumentException(OFFLOAD + ".pins: slices, qfis or ues, got " + kind);
            }
        });
        pins.path("slices").fields().forEachRemaining(
                f -> b.pinSlice(pinKey("slices", f.getKey(), 15), pin("slices", f)));
        pins.path("qfis").fields().forEachRemaining(f -> b.pinQfi(pinKey("qfis", f.getKey(), 63), pin("qfis", f)));
        pins.path("ues").fields().forEachRemaining(f -> {
            if (!IPV4.matcher(f.getKey()).matches()) {
                throw new IllegalArgumentException(OFFLOAD + ".pins.ues: an IPv4 address, got " + f.getKey());
            }
            b.pinUe(Ip4Address.valueOf(f.getKey()), pin("ues", f));
        });
        return b.build();
    }

    private static int pinKey(String kind, String key, int max) {
        try {
            int v = Integer.parseInt(key);
            if (v >= 0 && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(OFFLOAD + ".pins." + kind + ": an integer in [0, " + max + "], got " + key);
    }

    private static OffloadPolicy.Pin pin(String kind, Map.Entry<String, JsonNode> f) {
        String v = f.getValue().asText();
        if (!v.equals("HARDWARE") && !v.equals("SOFTWARE")) {
            throw new IllegalArgumentException(OFFLOAD + ".pins." + kind + "." + f.getKey()
                                                       + ": HARDWARE or SOFTWARE, got " + f.getValue());
        }
        return OffloadPolicy.Pin.valueOf(v);
    }
}
