package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.OffloadPolicy;
import org.hupf.core.translation.SessionTranslator;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The lab runner's configuration, written by tools/hupf_tools/lab/run.py. Every accessor names the
 * missing or malformed field, so a bad file fails with a precise message before anything starts.
 */
final class LabConfig {

    private final JsonNode root;

    private LabConfig(JsonNode root) {
        this.root = root;
    }

    static LabConfig load(Path path) throws IOException {
        return new LabConfig(new ObjectMapper().readTree(path.toFile()));
    }

    JsonNode node(String... fields) {
        JsonNode n = root;
        for (String f : fields) {
            n = n.get(f);
            if (n == null || n.isNull()) {
                throw new IllegalArgumentException("lab config: missing " + String.join(".", fields));
            }
        }
        return n;
    }

    boolean has(String field) {
        return root.hasNonNull(field);
    }

    String text(String... fields) {
        return node(fields).asText();
    }

    long number(String... fields) {
        JsonNode n = node(fields);
        if (!n.canConvertToLong()) {
            throw new IllegalArgumentException("lab config: " + String.join(".", fields) + " is not an integer");
        }
        return n.asLong();
    }

    static Ip4Address addr(JsonNode n, String what) {
        try {
            return Ip4Address.valueOf(n.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lab config: " + what + " is not an IPv4 address: " + n);
        }
    }

    static Ip4Prefix prefix(JsonNode n, String what) {
        try {
            return Ip4Prefix.valueOf(n.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lab config: " + what + " is not an IPv4 prefix: " + n);
        }
    }

    static MacAddress mac(JsonNode n, String what) {
        try {
            return MacAddress.valueOf(n.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lab config: " + what + " is not a MAC address: " + n);
        }
    }

    /**
     * The Network Instances the runner's sessions may name ({@code network_instances}, a list of names; the standalone
     * host's and the ONOS netcfg's default when absent): a rule naming another is refused with cause 73.
     */
    Set<String> networkInstances() {
        if (!has("network_instances")) {
            return SessionTranslator.DEFAULT_NETWORK_INSTANCES;
        }
        Set<String> out = new HashSet<>();
        for (JsonNode n : node("network_instances")) {
            if (!n.isTextual() || n.asText().isEmpty()) {
                throw new IllegalArgumentException("lab config: network_instances: a name expected, got " + n);
            }
            out.add(n.asText());
        }
        return out;
    }

    /** Thresholds and pins: {"threshold_bps", "hold_ms", "hysteresis", "pins": {"slices"|"qfis"|"ues": {key: pin}}}. */
    static OffloadPolicy policy(JsonNode p) {
        OffloadPolicy.Builder b = OffloadPolicy.builder().thresholdBitsPerSec(p.get("threshold_bps").asLong())
                .holdMillis(p.get("hold_ms").asLong()).hysteresis(p.get("hysteresis").asDouble());
        JsonNode pins = p.path("pins");
        pins.path("slices").fields().forEachRemaining(
                f -> b.pinSlice(Integer.parseInt(f.getKey()), OffloadPolicy.Pin.valueOf(f.getValue().asText())));
        pins.path("qfis").fields().forEachRemaining(
                f -> b.pinQfi(Integer.parseInt(f.getKey()), OffloadPolicy.Pin.valueOf(f.getValue().asText())));
        pins.path("ues").fields().forEachRemaining(
                f -> b.pinUe(Ip4Address.valueOf(f.getKey()), OffloadPolicy.Pin.valueOf(f.getValue().asText())));
        return b.build();
    }
}
