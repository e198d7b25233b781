package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadEvent;
import org.hupf.core.offload.OffloadManager;
import org.hupf.core.offload.SessionUsage;
import org.hupf.core.pfcp.PfcpStats;
import org.hupf.api.RpsStatus;
import org.hupf.core.rps.RpsExporter;
import org.hupf.core.rps.RpsIntake;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.standalone.p4rt.DeviceHealth;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The runner's status file (JSON, replaced atomically): offload metrics, per-UE rate, path and usage
 * summed over both targets, recent offload events, and which UEs each target holds a downlink
 * session for (read back from the devices, so the lab can check deletions on both); with tenants, the switch's
 * tenant and slice counters.
 *
 * <p>Its cost follows what happens, not the sessions held: "ues" lists the UEs that counted traffic or went to
 * the switch (any other has counted nothing: absent means zero), and the devices are read back only after
 * something may have changed what they hold (a Write, a reconnection, a change of state).
 */
final class LabStatus {

    /** A device's tenant and slice counters, as {@link org.hupf.pipeconf.upf.HupfDataplane} reads them. */
    interface TenantCounters {
        /**
         * @return {packets, bytes} by tenant id
         * @throws PiTargetException if the read fails
         */
        Map<Integer, long[]> tenants() throws PiTargetException;

        /**
         * @param cells slice cells ({@link TenantSlice#cell})
         * @return {packets, bytes} by cell
         * @throws PiTargetException if a read fails
         */
        Map<Long, long[]> slices(Collection<Long> cells) throws PiTargetException;
    }

    private static final int EVENTS = 500;
    private static final int TARGETS_IDLE_FACTOR = 9;
    /** A write's cost grows with the sessions (a line per UE): the next one comes after nine times its duration. */
    private static final int WRITE_IDLE_FACTOR = 9;

    private final ObjectMapper json = new ObjectMapper();
    /**
     * Serialises writes (the status timer and the runner's first write). Events arrive under the offload
     * manager's lock and take only {@code this}; a write takes the manager's lock, so it must never hold
     * {@code this} while calling the manager: the two locks in both orders stalled the runner (PFCP unanswered).
     */
    private final Object writing = new Object();
    private final Path path;
    private final OffloadManager manager;
    private final HupfUpfDevice backend;
    private final HupfUpfDevice hardware;
    private final LongSupplier targetsVersion;
    private final Deque<OffloadEvent> events = new ArrayDeque<>();
    private final Map<String, DeviceHealth> health = new LinkedHashMap<>();
    /** Backends drained for good: their connection is closed, its last state no longer says anything. */
    private final Set<String> drained = new HashSet<>();
    private static final int STEERINGS_KEPT = 32;
    private List<String> steeredTo = List.of();
    private long steeredAtMillis;
    /** The latest steering changes, oldest first: a backend that leaves and returns between two status writes. */
    private final Deque<Map.Entry<Long, List<String>>> steerings = new ArrayDeque<>();
    private volatile boolean ready;
    /** When the last complete counter poll started (epoch ms): its usages hold every packet counted before. */
    private volatile long polledFrom;
    private ObjectNode lastTargets;
    /** targetsVersion when lastTargets was read. */
    private long lastTargetsVersion;
    /** The last read failed on a device: read again at the next write. */
    private boolean targetsFailed;
    private long targetsReadAt;
    private long targetsReadMillis;
    private long lastWriteAt;
    private long lastWriteMillis;
    /** Reads the switch's RPS (sizes, rps.events); null while the runner samples nothing. */
    private volatile RpsIntake.DeviceRead switchRps;
    /** The tenants whose switch counters the status reports, and their reader; null without tenants. */
    private volatile List<Tenant> tenants;
    private volatile TenantCounters tenantCounters;

    /**
     * @param targetsVersion moves whenever what the devices hold may have changed (their Writes, reconnections
     *                       and changes of state): the devices are read back again only once it moved
     */
    LabStatus(Path path, OffloadManager manager, HupfUpfDevice backend, HupfUpfDevice hardware,
              LongSupplier targetsVersion) {
        this.path = path;
        this.manager = manager;
        this.backend = backend;
        this.hardware = hardware;
        this.targetsVersion = targetsVersion;
    }

    /**
     * Reports the backends the switch steers misses to now, under "steered_to", and when the steering last
     * changed (epoch ms, "steered_at_ms"), and the latest changes under "steerings": the lab times a backend's
     * departure and return by them.
     */
    synchronized void steeredTo(List<String> backends) {
        if (!backends.equals(steeredTo)) {
            steeredAtMillis = System.currentTimeMillis();
            if (steerings.size() == STEERINGS_KEPT) {
                steerings.removeFirst();
            }
            steerings.addLast(Map.entry(steeredAtMillis, List.copyOf(backends)));
        }
        steeredTo = List.copyOf(backends);
    }

    /** Reports a device connection's health under "devices" (state, last error, since, reconnects). */
    synchronized void health(String name, DeviceHealth h) {
        health.put(name, h);
    }

    /** Reports a backend drained for good: state "DRAINED" under "devices". */
    synchronized void drained(String name) {
        drained.add(name);
    }

    /**
     * Reports a complete counter poll, under "polled_from_ms": the lab takes its final usages from a status whose
     * poll started after its traffic's end (a status write can lag the polls by seconds with thousands of UEs).
     */
    void polled(long startedMillis) {
        polledFrom = startedMillis;
    }

    void ready(boolean r) {
        ready = r;
    }

    /** Reports the switch's RPS under "rps", "switch" (its sizes, rps.events per point, the settings' warnings). */
    void switchRps(RpsIntake.DeviceRead read) {
        switchRps = read;
    }

    /**
     * Reports these tenants' counters on the switch under "tenant_counters": "read_ms" (epoch ms, taken before the
     * reads: every packet counted before it is in), "tenants" {tenant id: [packets, bytes]} and "slices"
     * {"tenant id/qfi": [packets, bytes]} (null for a cell the device did not return), or "error" when a read failed.
     */
    void switchTenants(List<Tenant> tenants, TenantCounters counters) {
        this.tenants = List.copyOf(tenants);
        this.tenantCounters = counters;
    }

    synchronized void event(OffloadEvent e) {
        events.addLast(e);
        while (events.size() > EVENTS) {
            events.removeFirst();
        }
    }

    /** Writes the status, unless the last write was too recent for its duration (at most a tenth of a core). */
    void write(int sessions, HhReports hh, PfcpStats pfcp) throws IOException {
        synchronized (writing) {
            writeLocked(sessions, hh, pfcp);
        }
    }

    private void writeLocked(int sessions, HhReports hh, PfcpStats pfcp) throws IOException {
        long start = System.currentTimeMillis();
        if (start - lastWriteAt < WRITE_IDLE_FACTOR * lastWriteMillis) {
            return;
        }
        lastWriteAt = start;
        ObjectNode root = json.createObjectNode();
        root.put("written_ms", start);
        root.put("ready", ready);
        root.put("mode", hardware == null ? "backend-only" : "hybrid");
        root.put("pfcp_sessions", sessions);
        root.set("metrics", json.readTree(manager.metrics().toJson()));
        root.put("last_poll_ms", manager.pollDurationMillis());
        root.put("polled_from_ms", polledFrom);
        ObjectNode ues = root.putObject("ues");
        for (Map.Entry<Ip4Address, OffloadManager.Counted> u : manager.countedUsages().entrySet()) {
            ObjectNode n = ues.putObject(u.getKey().toString());
            SessionUsage usage = u.getValue().usage;
            n.put("rate_bps", u.getValue().rateBps);
            n.put("offloaded", u.getValue().offloaded);
            n.put("pkts", usage.ingressPkts());
            n.put("bytes", usage.ingressBytes());
            n.put("hw_bytes", usage.hwBytes());
        }
        synchronized (this) {
            ObjectNode devices = root.putObject("devices");
            health.forEach((name, h) -> devices.putObject(name).put("address", h.address())
                    .put("state", drained.contains(name) ? "DRAINED" : h.state().name())
                    .put("last_error", h.lastError())
                    .put("since_ms", h.sinceMillis()).put("reconnects", h.reconnects())
                    .put("write_rpcs", h.writes()).put("local_writes", h.localWrites())
                    .put("read_rpcs", h.reads()));
            ArrayNode steered = root.putArray("steered_to");
            steeredTo.forEach(steered::add);
            root.put("steered_at_ms", steeredAtMillis);
            ArrayNode changes = root.putArray("steerings");
            for (Map.Entry<Long, List<String>> c : steerings) {
                ArrayNode to = changes.addObject().put("at_ms", c.getKey()).putArray("to");
                c.getValue().forEach(to::add);
            }
            ArrayNode ev = root.putArray("events");
            for (OffloadEvent e : events) {
                ev.addObject().put("t", e.timeMillis()).put("kind", e.kind().name()).put("ue", e.ue().toString());
            }
        }
        root.set("targets", targets());
        if (tenantCounters != null) {
            root.set("tenant_counters", tenantCounters(tenants, tenantCounters));
        }
        if (hh != null) {
            root.putObject("hh").put("reports", hh.reports.get()).put("malformed", hh.malformed.get())
                    .put("other_packet_ins", hh.otherReasons.get());
            ObjectNode rps = root.putObject("rps").put("records", hh.rps().records())
                    .put("malformed", hh.rps().malformed()).put("not_exported", hh.rps().notExported());
            RpsExporter exporter = hh.rps().exporter();
            if (exporter != null) {
                rps.put("exported", exporter.exported()).put("dropped", exporter.dropped())
                        .put("send_failures", exporter.sendFailures()).put("monitor", exporter.monitor().toString());
            }
            RpsIntake.DeviceRead read = switchRps;
            if (read != null) {
                RpsStatus.Device sw = hh.rps().status(Map.of("switch", read)).devices.get("switch");
                if (sw != null) {
                    rps.set("switch", sw.toJson());
                }
            }
        }
        if (pfcp != null) {
            root.set("pfcp", json.valueToTree(pfcp.snapshot()));
        }
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        Files.write(tmp, json.writeValueAsBytes(root));
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        lastWriteMillis = System.currentTimeMillis() - start;
    }

    /**
     * Which UEs each target holds, read back from the devices once something may have changed it; a full read
     * costs time on the device that grows with its sessions, so while the devices change it is repeated only
     * after nine times its own duration (at most a tenth of the devices' time, and every status write while
     * reads are quick). A version taken before the read: a change during it makes the next write read again.
     */
    ObjectNode targets() {
        long now = System.currentTimeMillis();
        long version = targetsVersion.getAsLong();
        boolean changed = lastTargets == null || targetsFailed || version != lastTargetsVersion;
        if (changed && now - targetsReadAt >= TARGETS_IDLE_FACTOR * targetsReadMillis) {
            ObjectNode t = json.createObjectNode();
            boolean failed = downlinkUes(backend, t.putArray("backend"));
            if (hardware != null) {
                failed |= downlinkUes(hardware, t.putArray("switch"));
            }
            targetsReadAt = System.currentTimeMillis();
            targetsReadMillis = targetsReadAt - now;
            lastTargets = t;
            lastTargetsVersion = version;
            targetsFailed = failed;
        }
        return lastTargets;
    }

    private ObjectNode tenantCounters(List<Tenant> list, TenantCounters counters) {
        ObjectNode out = json.createObjectNode();
        out.put("read_ms", System.currentTimeMillis());
        Map<Integer, Tenant> byId = new LinkedHashMap<>();
        list.forEach(t -> byId.putIfAbsent(t.tenantId(), t));
        List<Long> cells = new ArrayList<>();
        byId.values().forEach(t -> t.slices().forEach(x -> cells.add(x.cell(t.tenantId()))));
        try {
            Map<Integer, long[]> read = counters.tenants();
            Map<Long, long[]> sliceRead = cells.isEmpty() ? Map.of() : counters.slices(cells);
            ObjectNode tn = out.putObject("tenants");
            ObjectNode sn = out.putObject("slices");
            for (Tenant t : byId.values()) {
                tn.set(String.valueOf(t.tenantId()), pair(read.get(t.tenantId())));
                for (TenantSlice x : t.slices()) {
                    sn.set(t.tenantId() + "/" + x.qfi(), pair(sliceRead.get(x.cell(t.tenantId()))));
                }
            }
        } catch (PiTargetException | RuntimeException e) {
            out.remove("tenants");
            out.remove("slices");
            out.put("error", String.valueOf(e.getMessage()));
        }
        return out;
    }

    private ArrayNode pair(long[] v) {
        if (v == null) {
            return null;
        }
        ArrayNode a = json.createArrayNode();
        a.add(v[0]);
        a.add(v[1]);
        return a;
    }

    /** @return whether the read failed ("read failed: ..." in the list) */
    private static boolean downlinkUes(HupfUpfDevice dev, ArrayNode a) {
        try {
            for (UpfEntity e : dev.readAll(UpfEntityType.SESSION_DOWNLINK)) {
                a.add(((UpfSessionDownlink) e).ueAddress().toString());
            }
            return false;
        } catch (UpfProgrammableException e) {
            a.add("read failed: " + e.getMessage());
            return true;
        }
    }
}
