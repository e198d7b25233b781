package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.pipeconf.gnb.GnbEntries;
import org.hupf.pipeconf.gnb.GnbSite;
import org.hupf.pipeconf.gnb.GnbUe;
import org.onosproject.net.DeviceId;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import static org.hupf.core.config.JsonFields.fieldNames;
import static org.hupf.core.config.JsonFields.intIn;
import static org.hupf.core.config.JsonFields.ipv4;
import static org.hupf.core.config.JsonFields.list;
import static org.hupf.core.config.JsonFields.longIn;
import static org.hupf.core.config.JsonFields.mac;

/**
 * Parses the gNB netcfg block ({@code apps.org.hupf.app.gnb}), the RAN control plane's stand-in for the gNB
 * switches hupf programs (docs/GNB.md, "Control"): {@code {"gnbs": [{"deviceId", "gnb", "ues"}]}}, where
 * {@code gnb} and {@code ues} are the RAN config of {@code hupf_tools.gnb.ran_control} without its keys. The
 * switch never holds a key (they go to the crypto service's UE file only), so a key field is refused by its
 * name, never echoing its value.
 */
public final class GnbsParser {

    public static final String GNBS = "gnbs";
    static final Set<String> KEY_FIELDS = Set.of("kUpEnc", "kUpInt");
    private static final Set<String> ENTRY_FIELDS = Set.of("deviceId", "gnb", "ues");
    private static final Set<String> GNB_FIELDS = Set.of("n3", "cryptoPort", "baasPort", "airMac");
    private static final Set<String> N3_FIELDS = Set.of("port", "addr", "mac", "upfMac");
    private static final Set<String> UE_FIELDS = Set.of("ue", "port", "mac", "lcid", "drb", "snBits", "dlTeid",
                                                        "ulTeid", "qfi", "upfAddr");
    private static final long MAX_U32 = 0xFFFF_FFFFL;

    /** A gNB switch as the netcfg gives it: the ONOS device, its site and its UEs' contexts. */
    public static final class Gnb {
        public final DeviceId deviceId;
        public final GnbSite site;
        public final List<GnbUe> ues;

        Gnb(DeviceId deviceId, GnbSite site, List<GnbUe> ues) {
            this.deviceId = deviceId;
            this.site = site;
            this.ues = List.copyOf(ues);
        }
    }

    private GnbsParser() {
    }

    /**
     * @param root the block's object
     * @return the gNB switches in the order given
     * @throws IllegalArgumentException naming the entry and field that is wrong (and never a key's value)
     */
    public static List<Gnb> gnbs(JsonNode root) {
        only(root, Set.of(GNBS));
        Set<DeviceId> devices = new HashSet<>();
        return list(root, GNBS, n -> {
            only(n, ENTRY_FIELDS);
            if (!n.path("deviceId").isTextual()) {
                throw new IllegalArgumentException("deviceId: a device id is required");
            }
            DeviceId id = DeviceId.deviceId(n.get("deviceId").asText());
            if (!devices.add(id)) {
                throw new IllegalArgumentException("deviceId: " + id + " is given twice");
            }
            GnbSite site = at("gnb", () -> site(object(n, "gnb")));
            List<GnbUe> ues = list(n, "ues", GnbsParser::ue);
            if (ues.isEmpty()) {
                throw new IllegalArgumentException("ues: at least one UE is required");
            }
            at("ues", () -> GnbEntries.all(site, ues));
            return new Gnb(id, site, ues);
        });
    }

    private static GnbSite site(JsonNode g) {
        only(g, GNB_FIELDS);
        JsonNode n3 = at("n3", () -> {
            JsonNode o = object(g, "n3");
            only(o, N3_FIELDS);
            return o;
        });
        return new GnbSite(at("n3", () -> required(n3, "port", 0, 510)), required(g, "cryptoPort", 0, 510),
                           required(g, "baasPort", 0, 510), at("n3", () -> ipv4(n3, "addr")),
                           at("n3", () -> mac(n3, "mac")), at("n3", () -> mac(n3, "upfMac")), mac(g, "airMac"));
    }

    private static GnbUe ue(JsonNode u) {
        for (String key : KEY_FIELDS) {
            if (u.has(key)) {
                throw new IllegalArgumentException(key + ": keys go to the crypto service (gnb-svc's UE file), "
                                                           + "never to the switch: remove it from the netcfg");
            }
        }
        only(u, UE_FIELDS);
        // The DRB is the crypto service's (its BEARER input): checked here, not written to the switch.
        intIn(u, "drb", 1, 32, 1);
        return new GnbUe(requiredLong(u, "ue", 0, MAX_U32), required(u, "port", 0, 510), mac(u, "mac"),
                         required(u, "lcid", 4, 32), required(u, "snBits", 12, 18),
                         requiredLong(u, "dlTeid", 1, MAX_U32), requiredLong(u, "ulTeid", 1, MAX_U32),
                         required(u, "qfi", 0, 63), ipv4(u, "upfAddr"));
    }

    private static void only(JsonNode n, Set<String> fields) {
        n.fieldNames().forEachRemaining(f -> {
            if (!fields.contains(f)) {
                throw new IllegalArgumentException("unknown field " + f + " among " + fieldNames(n) + " (known: "
                                                           + new TreeSet<>(fields) + ")");
            }
        });
    }

    private static JsonNode object(JsonNode n, String field) {
        JsonNode o = n.get(field);
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException(field + ": an object is required");
        }
        return o;
    }

    private static int required(JsonNode n, String field, int min, int max) {
        return (int) requiredLong(n, field, min, max);
    }

    private static long requiredLong(JsonNode n, String field, long min, long max) {
        if (!n.has(field)) {
            throw new IllegalArgumentException(field + ": required");
        }
        return longIn(n, field, min, max);
    }

    /** Runs a parse, its failure prefixed with where it happened. */
    private static <T> T at(String where, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }
}
