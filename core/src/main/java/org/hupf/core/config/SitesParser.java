package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.core.site.Site;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.hupf.core.config.JsonFields.IPV4;
import static org.hupf.core.config.JsonFields.fieldNames;
import static org.hupf.core.config.JsonFields.list;

/**
 * Parses the netcfg's {@code sites} block: a list of {@code {"siteId", "switch", "backends", "gnbs",
 * "n3NetworkInstances", "n3Addresses"}}, the UPF sites one controller runs, each a switch (optional) with its own
 * backends, and what places a session there (see {@link org.hupf.core.site.SitePlacement}).
 */
public final class SitesParser {

    public static final String SITES = "sites";
    private static final String SITE_ID = "siteId";
    private static final String SWITCH = "switch";
    private static final String BACKENDS = "backends";
    private static final String GNBS = "gnbs";
    private static final String N3_NETWORK_INSTANCES = "n3NetworkInstances";
    private static final String N3_ADDRESSES = "n3Addresses";
    /** A site's name goes into REST paths, CLI arguments and chart labels. */
    private static final Pattern SITE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
    private static final Pattern PREFIX = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}(/\\d{1,2})?");

    private SitesParser() {
    }

    /**
     * Returns the sites as given; each device, gNB prefix (or one inside it), Network Instance and N3 address
     * belongs to one site, and with several sites each names at least one gNB, Network Instance or N3 address
     * (a site nothing names would never serve a session).
     *
     * @param root the netcfg's hupf object
     * @return the sites in the order given; empty without the block
     * @throws IllegalArgumentException naming the entry and the field that is wrong, or the two sites that share
     *                                  something
     */
    public static List<Site> sites(JsonNode root) {
        Set<String> ids = new HashSet<>();
        Map<DeviceId, String> deviceSite = new HashMap<>();
        Map<String, String> instanceSite = new HashMap<>();
        Map<Ip4Address, String> addressSite = new HashMap<>();
        Map<Ip4Prefix, String> prefixSite = new HashMap<>();
        List<Site> out = list(root, SITES, n -> {
            Site s = site(n);
            if (!ids.add(s.id)) {
                throw new IllegalArgumentException(SITE_ID + ": '" + s.id + "' is given twice");
            }
            if (s.switchId != null) {
                claim(deviceSite, s.switchId, s.id, SWITCH);
            }
            for (DeviceId b : s.backends) {
                claim(deviceSite, b, s.id, BACKENDS);
            }
            s.n3NetworkInstances.forEach(i -> claim(instanceSite, i, s.id, N3_NETWORK_INSTANCES));
            s.n3Addresses.forEach(a -> claim(addressSite, a, s.id, N3_ADDRESSES));
            for (Ip4Prefix p : s.gnbs) {
                prefixSite.forEach((other, at) -> {
                    if (!at.equals(s.id) && (other.contains(p) || p.contains(other))) {
                        throw new IllegalArgumentException(GNBS + ": " + p + " overlaps site " + at + "'s " + other);
                    }
                });
                prefixSite.put(p, s.id);
            }
            return s;
        });
        if (out.size() > 1) {
            for (Site s : out) {
                if (s.gnbs.isEmpty() && s.n3NetworkInstances.isEmpty() && s.n3Addresses.isEmpty()) {
                    throw new IllegalArgumentException(SITES + ": site " + s.id + " names no gNB, N3 Network"
                                                               + " Instance or N3 address: no session would be"
                                                               + " placed there");
                }
            }
        }
        return out;
    }

    private static Site site(JsonNode n) {
        if (!n.isObject()) {
            throw new IllegalArgumentException("an object {siteId, switch, backends, gnbs} expected, got " + n);
        }
        Set<String> fields = new HashSet<>();
        n.fieldNames().forEachRemaining(fields::add);
        fields.removeAll(List.of(SITE_ID, SWITCH, BACKENDS, GNBS, N3_NETWORK_INSTANCES, N3_ADDRESSES));
        if (!fields.isEmpty()) {
            throw new IllegalArgumentException("unknown field among " + fieldNames(n));
        }
        JsonNode id = n.path(SITE_ID);
        if (!id.isTextual() || !SITE_NAME.matcher(id.asText()).matches()) {
            throw new IllegalArgumentException(SITE_ID + ": 1 to 63 letters, digits, '.', '_' or '-' expected, got "
                                                       + (id.isMissingNode() ? "nothing" : id));
        }
        DeviceId switchId = n.has(SWITCH) ? deviceId(n.get(SWITCH), SWITCH) : null;
        List<DeviceId> backends = list(n, BACKENDS, b -> deviceId(b, "a backend"));
        if (backends.isEmpty()) {
            throw new IllegalArgumentException(BACKENDS + ": at least one backend is required");
        }
        if (new HashSet<>(backends).size() != backends.size()) {
            throw new IllegalArgumentException(BACKENDS + ": a backend is given twice");
        }
        List<Ip4Prefix> gnbs = list(n, GNBS, SitesParser::prefix);
        Set<String> instances = new LinkedHashSet<>(list(n, N3_NETWORK_INSTANCES,
                                                         TenantsParser::networkInstanceName));
        List<Ip4Address> addresses = list(n, N3_ADDRESSES, SitesParser::address);
        return new Site(id.asText(), switchId, backends, gnbs, instances, addresses);
    }

    private static Ip4Address address(JsonNode n) {
        try {
            if (n.isTextual() && IPV4.matcher(n.asText()).matches()) {
                return Ip4Address.valueOf(n.asText());
            }
        } catch (IllegalArgumentException e) {
            // the same answer as for text that is no address
        }
        throw new IllegalArgumentException("an IPv4 address expected, got " + n);
    }

    private static DeviceId deviceId(JsonNode n, String what) {
        if (!n.isTextual() || n.asText().isEmpty()) {
            throw new IllegalArgumentException(what + ": a device id expected, got " + n);
        }
        return DeviceId.deviceId(n.asText());
    }

    /** A gNB prefix, or one address (a /32). */
    private static Ip4Prefix prefix(JsonNode n) {
        if (!n.isTextual() || !PREFIX.matcher(n.asText()).matches()) {
            throw new IllegalArgumentException("an IPv4 address or prefix expected, got " + n);
        }
        try {
            String text = n.asText();
            return text.contains("/") ? Ip4Prefix.valueOf(text) : Ip4Prefix.valueOf(Ip4Address.valueOf(text), 32);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("an IPv4 address or prefix expected, got " + n);
        }
    }

    private static <K> void claim(Map<K, String> owners, K key, String site, String field) {
        String other = owners.putIfAbsent(key, site);
        if (other != null) {
            throw new IllegalArgumentException(field + ": " + key + (other.equals(site) ? " is given twice in site "
                    + site : " is site " + other + "'s already"));
        }
    }
}
