package org.hupf.core.rps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.onlab.packet.Ip4Prefix;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * hupf's RPS settings, the {@code rps} block of its netcfg (and of the lab runner's config, same format):
 * <pre>
 * "rps": {
 *   "mode": "OFF" | "DATA_PLANE" | "HYBRID",
 *   "quietUs": 100000,                  κ − μ, microseconds
 *   "sigma": 0.01,                      delayed-disclosure selection probability
 *   "monitor": "192.0.2.10:9700",       where the records go (UDP, "HRPS" datagrams); required unless OFF
 *   "bufferLen": 4096,                  DATA_PLANE: receipts the data plane's FIFO keeps per point (default: all)
 *   "hostBuffer": 65536,                HYBRID: receipts the reference algorithm keeps per observation point
 *   "flows": [ {"tenant": "acme", "uePrefix": "10.250.0.0/24", "direction": "uplink" | "downlink",
 *               "flowId": 1, "discThreshold": 42949673}, ... ]
 * }
 * </pre>
 * {@code discThreshold}: a packet whose digest is below it is a direct disclosure (δ · 2^32). A flow id belongs to
 * one tenant and one direction (the monitor reports per flow and per tenant); a (prefix, direction) is one flow.
 */
public final class RpsSettings {

    /** The block's fields. */
    static final Set<String> FIELDS = Set.of("mode", "quietUs", "sigma", "monitor", "bufferLen", "hostBuffer",
                                               "flows");
    static final Set<String> FLOW_FIELDS = Set.of("tenant", "uePrefix", "direction", "flowId", "discThreshold");
    /** Default host buffer: 64 Ki receipts per point (about 3 MB of host memory each). */
    public static final int DEFAULT_HOST_BUFFER = 1 << 16;
    /** Receipts the exporter's queue holds before it drops. */
    public static final int EXPORT_QUEUE = 1 << 16;
    private static final Pattern HOST_PORT = Pattern.compile("(.+):(\\d{1,5})");
    private static final long MAX_U32 = 0xFFFFFFFFL;
    private static final double TWO_32 = MAX_U32 + 1.0;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** RPS off, no monitor: what an absent block means. */
    public static final RpsSettings OFF = new RpsSettings(RpsConfig.OFF, null, DEFAULT_HOST_BUFFER, Map.of());

    private final RpsConfig config;
    private final InetSocketAddress monitor;
    private final int hostBuffer;
    private final Map<Integer, String> tenantOfFlow;
    private final Map<Integer, Long> discThresholds = new HashMap<>();

    private RpsSettings(RpsConfig config, InetSocketAddress monitor, int hostBuffer, Map<Integer, String> tenantOfFlow) {
        this.config = config;
        this.monitor = monitor;
        this.hostBuffer = hostBuffer;
        this.tenantOfFlow = Map.copyOf(tenantOfFlow);
        // Several prefixes of one flow id may disagree; the reference algorithm takes the flow's highest rate.
        config.flows().forEach(f -> discThresholds.merge(f.flowId(), f.discThreshold(), Math::max));
    }

    /**
     * Reads an {@code rps} block.
     *
     * @param n the block; null or missing: {@link #OFF}
     * @return settings
     * @throws IllegalArgumentException naming the field (and flow entry) that is wrong
     */
    public static RpsSettings parse(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return OFF;
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException("rps: an object expected, got " + n);
        }
        unknownFields("rps", n, FIELDS);
        RpsConfig.Mode mode = mode(n.get("mode"));
        long quiet = u32(n, "rps.quietUs", "quietUs", 0);
        JsonNode sigmaNode = n.get("sigma");
        long select = 0;
        if (sigmaNode != null) {
            if (!sigmaNode.isNumber()) {
                throw new IllegalArgumentException("rps.sigma: a probability in [0, 1] expected, got " + sigmaNode);
            }
            try {
                select = RpsConfig.selectThreshold(sigmaNode.asDouble());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("rps." + e.getMessage());
            }
        }
        long bufferLen = u32(n, "rps.bufferLen", "bufferLen", RpsConfig.WHOLE_BUFFER);
        if (bufferLen > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("rps.bufferLen: " + bufferLen + " receipts is beyond any buffer");
        }
        JsonNode hostNode = n.get("hostBuffer");
        int hostBuffer = DEFAULT_HOST_BUFFER;
        if (hostNode != null) {
            if (!hostNode.canConvertToInt() || !hostNode.isIntegralNumber() || hostNode.asInt() < 1) {
                throw new IllegalArgumentException("rps.hostBuffer: a positive number of receipts expected, got "
                                                           + hostNode);
            }
            hostBuffer = hostNode.asInt();
        }
        InetSocketAddress monitor = n.has("monitor") ? monitor(n.get("monitor")) : null;
        if (monitor == null && mode != RpsConfig.Mode.OFF) {
            throw new IllegalArgumentException("rps.monitor is required when mode is " + mode);
        }
        List<RpsConfig.Flow> flows = new ArrayList<>();
        Map<Integer, String> tenants = new HashMap<>();
        Map<Integer, Integer> directions = new HashMap<>();
        Set<String> keys = new HashSet<>();
        JsonNode list = n.path("flows");
        if (!list.isMissingNode() && !list.isArray()) {
            throw new IllegalArgumentException("rps.flows: a list expected, got " + list);
        }
        for (int i = 0; i < list.size(); i++) {
            String where = "rps.flows[" + i + "]";
            RpsConfig.Flow f = flow(where, list.get(i));
            String tenant = list.get(i).get("tenant").asText();
            if (!keys.add(f.uePrefix() + "/" + f.direction())) {
                throw new IllegalArgumentException(where + ": " + f.uePrefix() + " " + direction(f.direction())
                                                           + " is already a flow");
            }
            String otherTenant = tenants.putIfAbsent(f.flowId(), tenant);
            if (otherTenant != null && !otherTenant.equals(tenant)) {
                throw new IllegalArgumentException(where + ": flowId " + f.flowId() + " is already tenant "
                                                           + otherTenant + "'s");
            }
            Integer otherDirection = directions.putIfAbsent(f.flowId(), f.direction());
            if (otherDirection != null && otherDirection != f.direction()) {
                throw new IllegalArgumentException(where + ": flowId " + f.flowId() + " is already "
                                                           + direction(otherDirection));
            }
            flows.add(f);
        }
        return new RpsSettings(new RpsConfig(mode, quiet, select, (int) bufferLen, flows), monitor, hostBuffer, tenants);
    }

    private static RpsConfig.Flow flow(String where, JsonNode e) {
        if (!e.isObject()) {
            throw new IllegalArgumentException(where + ": an object {" + String.join(", ", FLOW_FIELDS)
                                                       + "} expected, got " + e);
        }
        unknownFields(where, e, FLOW_FIELDS);
        for (String f : FLOW_FIELDS) {
            if (!e.has(f)) {
                throw new IllegalArgumentException(where + "." + f + " is required");
            }
        }
        JsonNode tenant = e.get("tenant");
        if (!(tenant.isTextual() && !tenant.asText().isBlank()) && !tenant.isIntegralNumber()) {
            throw new IllegalArgumentException(where + ".tenant: a name or a number expected, got " + tenant);
        }
        Ip4Prefix prefix;
        try {
            prefix = Ip4Prefix.valueOf(e.get("uePrefix").asText());
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(where + ".uePrefix: an IPv4 prefix expected, got " + e.get("uePrefix"));
        }
        String dir = e.get("direction").asText();
        int direction;
        if ("uplink".equals(dir)) {
            direction = RpsConfig.UPLINK;
        } else if ("downlink".equals(dir)) {
            direction = RpsConfig.DOWNLINK;
        } else {
            throw new IllegalArgumentException(where + ".direction: uplink or downlink expected, got "
                                                       + e.get("direction"));
        }
        JsonNode id = e.get("flowId");
        if (!id.isIntegralNumber() || id.asLong() < 0 || id.asLong() > 0xFFFF) {
            throw new IllegalArgumentException(where + ".flowId: an integer in 0..65535 expected, got " + id);
        }
        return new RpsConfig.Flow(prefix, direction, id.asInt(), u32(e, where + ".discThreshold", "discThreshold", 0));
    }

    private static RpsConfig.Mode mode(JsonNode m) {
        if (m == null) {
            throw new IllegalArgumentException("rps.mode is required (OFF, DATA_PLANE or HYBRID)");
        }
        for (RpsConfig.Mode x : RpsConfig.Mode.values()) {
            if (x.name().equals(m.asText()) && m.isTextual()) {
                return x;
            }
        }
        throw new IllegalArgumentException("rps.mode: OFF, DATA_PLANE or HYBRID expected, got " + m);
    }

    private static InetSocketAddress monitor(JsonNode m) {
        Matcher hp = HOST_PORT.matcher(m.isTextual() ? m.asText() : "");
        if (!hp.matches() || Integer.parseInt(hp.group(2)) < 1 || Integer.parseInt(hp.group(2)) > 0xFFFF) {
            throw new IllegalArgumentException("rps.monitor: host:port expected, got " + m);
        }
        InetSocketAddress a = new InetSocketAddress(hp.group(1), Integer.parseInt(hp.group(2)));
        if (a.isUnresolved()) {
            throw new IllegalArgumentException("rps.monitor: " + hp.group(1) + " does not resolve");
        }
        return a;
    }

    private static long u32(JsonNode n, String where, String field, long absent) {
        JsonNode v = n.get(field);
        if (v == null) {
            return absent;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0 || v.asLong() > MAX_U32) {
            throw new IllegalArgumentException(where + ": an integer in 0.." + MAX_U32 + " expected, got " + v);
        }
        return v.asLong();
    }

    private static void unknownFields(String where, JsonNode n, Set<String> known) {
        Set<String> fields = new LinkedHashSet<>();
        n.fieldNames().forEachRemaining(fields::add);
        fields.removeAll(known);
        if (!fields.isEmpty()) {
            throw new IllegalArgumentException(where + ": unknown field among " + fields + " (known: "
                                                       + String.join(", ", new TreeSet<>(known)) + ")");
        }
    }

    private static String direction(int d) {
        return d == RpsConfig.UPLINK ? "uplink" : "downlink";
    }

    /** @return what the data plane is given ({@code rps.config}, {@code rps.flows}) */
    public RpsConfig config() {
        return config;
    }

    /** @return the monitor's address, null when RPS is off and none is given */
    public InetSocketAddress monitor() {
        return monitor;
    }

    public int hostBuffer() {
        return hostBuffer;
    }

    /** @return whether the controller runs the reference algorithm over the data plane's receipts */
    public boolean runsReferenceAlgorithm() {
        return config.mode() == RpsConfig.Mode.HYBRID;
    }

    /** @return the tenant of each flow id (for the monitor's per-tenant report) */
    public Map<Integer, String> tenantOfFlow() {
        return tenantOfFlow;
    }

    /**
     * @param flowId flow id
     * @return its direct-disclosure threshold, null for a flow id no entry has
     */
    public Long discThreshold(int flowId) {
        return discThresholds.get(flowId);
    }

    /** @return whether records go to a monitor */
    public boolean exports() {
        return config.mode() != RpsConfig.Mode.OFF && monitor != null;
    }

    /**
     * The settings as an {@code rps} block (what {@link #parse} reads back as these settings): every field, the
     * defaults filled in, but {@code bufferLen} only when it is not the whole buffer.
     *
     * @return JSON object
     */
    public ObjectNode toJson() {
        ObjectNode o = MAPPER.createObjectNode().put("mode", config.mode().name()).put("quietUs", config.quietUs())
                .put("sigma", config.selectThreshold() / TWO_32);
        if (monitor != null) {
            o.put("monitor", monitor.getHostString() + ":" + monitor.getPort());
        }
        if (config.bufferLen() != RpsConfig.WHOLE_BUFFER) {
            o.put("bufferLen", config.bufferLen());
        }
        o.put("hostBuffer", hostBuffer);
        ArrayNode flows = o.putArray("flows");
        for (RpsConfig.Flow f : config.flows()) {
            flows.addObject().put("tenant", tenantOfFlow.get(f.flowId())).put("uePrefix", f.uePrefix().toString())
                    .put("direction", direction(f.direction())).put("flowId", f.flowId())
                    .put("discThreshold", f.discThreshold());
        }
        return o;
    }

    /**
     * What the data plane's tracker cannot serve (mode DATA_PLANE): a receipt leaves the FIFO after
     * {@code bufferLen} others, and if its flow had more direct disclosures than the tracker remembers meanwhile,
     * its own disclosure is forgotten: it is neither disclosed nor warned of (a tracker overrun, counted in
     * {@code rps.events}). A flow that is a share s of a point's sampled packets has on average
     * bufferLen · s · δ / (1 − δ) disclosures in that time (δ = discThreshold / 2^32); one entry is named when that
     * exceeds the depth at some share, with the share from which it does and the buffer length that serves it at
     * any share. Whether the traffic reaches that share, only the {@code trackOverrun} counter tells.
     *
     * @param bufferSize the pipeline's receipts per point (what {@code bufferLen} absent means)
     * @param trackDepth the pipeline's disclosures tracked per (point, flow)
     * @return one message per flow entry, in the block's order; none outside mode DATA_PLANE
     */
    public List<String> trackerWarnings(long bufferSize, long trackDepth) {
        List<String> out = new ArrayList<>();
        if (config.mode() != RpsConfig.Mode.DATA_PLANE) {
            return out;
        }
        long len = config.bufferLen() == RpsConfig.WHOLE_BUFFER ? bufferSize : config.bufferLen();
        List<RpsConfig.Flow> flows = config.flows();
        for (int i = 0; i < flows.size(); i++) {
            RpsConfig.Flow f = flows.get(i);
            double delta = f.discThreshold() / TWO_32;
            double alone = len * delta / (1 - delta);
            if (alone > trackDepth) {
                long serves = (long) Math.floor(trackDepth * (1 - delta) / delta);
                out.add(String.format(Locale.ROOT, "rps.flows[%d] (flow %d): a receipt waits for %d others (bufferLen)"
                        + " and sees %.1f of its flow's disclosures (discThreshold %d) on average if the flow is all a"
                        + " point samples, the tracker remembers %d: where the flow is more than %.1f %% of a point's"
                        + " sampled packets its receipts outlive their disclosure and are neither disclosed nor warned"
                        + " of (trackOverrun); %s", i, f.flowId(), len, alone, f.discThreshold(), trackDepth,
                        100.0 * trackDepth / alone, serves >= 1 ? "bufferLen " + serves + " serves it at any share"
                                : "no bufferLen serves it at any share"));
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RpsSettings)) {
            return false;
        }
        RpsSettings s = (RpsSettings) o;
        return config.equals(s.config) && Objects.equals(monitor, s.monitor) && hostBuffer == s.hostBuffer
                && tenantOfFlow.equals(s.tenantOfFlow);
    }

    @Override
    public int hashCode() {
        return Objects.hash(config, monitor, hostBuffer, tenantOfFlow);
    }
}
