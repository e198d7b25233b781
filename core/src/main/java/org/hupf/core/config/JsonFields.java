package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The field readers the netcfg's block parsers share: each failure an {@link IllegalArgumentException} that names
 * the field (and the list index) that is wrong.
 */
public final class JsonFields {

    static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private JsonFields() {
    }

    public static String fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out.toString();
    }

    public static int intIn(JsonNode n, String field, long min, long max, int dflt) {
        JsonNode v = n.get(field);
        if (v == null) {
            return dflt;
        }
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw new IllegalArgumentException(field + ": integer in [" + min + ", " + max + "] expected, got " + v);
        }
        return v.asInt();
    }

    /** An optional positive integer field, 0 when absent. */
    static long longIn(JsonNode n, String field, long min, long max) {
        JsonNode v = n.get(field);
        if (v == null) {
            return 0;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
            throw new IllegalArgumentException(field + ": integer in [" + min + ", " + max + "] expected, got " + v);
        }
        return v.asLong();
    }

    public static <T> List<T> list(JsonNode n, String field, Function<JsonNode, T> parse) {
        List<T> out = new ArrayList<>();
        JsonNode a = n.get(field);
        if (a == null) {
            return out;
        }
        if (!a.isArray()) {
            throw new IllegalArgumentException(field + ": a list is expected");
        }
        int i = 0;
        for (JsonNode e : a) {
            try {
                out.add(parse.apply(e));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(field + "[" + i + "]: " + ex.getMessage());
            }
            i++;
        }
        return out;
    }

    static MacAddress mac(JsonNode n, String field) {
        try {
            return MacAddress.valueOf(n.path(field).asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": a MAC address expected, got " + n.get(field));
        }
    }

    static Ip4Address ipv4(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || !IPV4.matcher(v.asText()).matches()) {
            throw new IllegalArgumentException(field + ": an IPv4 address expected, got " + v);
        }
        try {
            return Ip4Address.valueOf(v.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": an IPv4 address expected, got " + v);
        }
    }
}
