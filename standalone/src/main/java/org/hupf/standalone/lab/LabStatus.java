package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadEvent;
import org.hupf.app.offload.OffloadManager;
import org.hupf.app.offload.SessionUsage;
import org.hupf.app.pfcp.PfcpStats;
import org.hupf.standalone.p4rt.DeviceHealth;
import org.onlab.packet.Ip4Address;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runner's status file (JSON, replaced atomically): offload metrics, per-UE rate, path and usage
 * summed over both targets, recent offload events, and which UEs each target holds a session for (as
 * the offload manager tracks them, so the lab can check deletions on both).
 */
final class LabStatus {

    private static final int EVENTS = 500;
    /** A write's cost grows with the sessions: the next one comes after nine times its duration at least. */
    private static final int IDLE_FACTOR = 9;

    private final ObjectMapper json = new ObjectMapper();
    private final Path path;
    private final OffloadManager manager;
    private final boolean hardware;
    private final Deque<OffloadEvent> events = new ArrayDeque<>();
    private final Map<String, DeviceHealth> health = new LinkedHashMap<>();
    private volatile boolean ready;
    private long lastWriteAt;
    private long lastWriteMillis;

    LabStatus(Path path, OffloadManager manager, boolean hardware) {
        this.path = path;
        this.manager = manager;
        this.hardware = hardware;
    }

    /** Reports a device connection's health under "devices" (state, last error, since, reconnects). */
    synchronized void health(String name, DeviceHealth h) {
        health.put(name, h);
    }

    void ready(boolean r) {
        ready = r;
    }

    synchronized void event(OffloadEvent e) {
        events.addLast(e);
        while (events.size() > EVENTS) {
            events.removeFirst();
        }
    }

    /** Writes the status, unless the last write was too recent for its duration (at most a tenth of a core). */
    synchronized void write(int sessions, HhReports hh, PfcpStats pfcp) throws IOException {
        long start = System.currentTimeMillis();
        if (start - lastWriteAt < IDLE_FACTOR * lastWriteMillis) {
            return;
        }
        lastWriteAt = start;
        ObjectNode root = json.createObjectNode();
        root.put("ready", ready);
        root.put("mode", hardware ? "hybrid" : "backend-only");
        root.put("pfcp_sessions", sessions);
        root.set("metrics", json.readTree(manager.metrics().toJson()));
        root.put("last_poll_ms", manager.pollDurationMillis());
        ObjectNode ues = root.putObject("ues");
        Map<Ip4Address, SessionUsage> usages = manager.lastUsages();
        for (Map.Entry<Ip4Address, SessionUsage> u : usages.entrySet()) {
            ObjectNode n = ues.putObject(u.getKey().toString());
            n.put("rate_bps", manager.rateBitsPerSec(u.getKey()));
            n.put("offloaded", manager.isOffloaded(u.getKey()));
            n.put("pkts", u.getValue().ingressPkts());
            n.put("bytes", u.getValue().ingressBytes());
            n.put("hw_bytes", u.getValue().hwBytes());
        }
        synchronized (this) {
            ObjectNode devices = root.putObject("devices");
            health.forEach((name, h) -> devices.putObject(name).put("address", h.address())
                    .put("state", h.state().name()).put("last_error", h.lastError())
                    .put("since_ms", h.sinceMillis()).put("reconnects", h.reconnects()));
            ArrayNode ev = root.putArray("events");
            for (OffloadEvent e : events) {
                ev.addObject().put("t", e.timeMillis()).put("kind", e.kind().name()).put("ue", e.ue().toString());
            }
        }
        root.set("targets", targets(usages));
        if (hh != null) {
            root.putObject("hh").put("reports", hh.reports.get()).put("malformed", hh.malformed.get())
                    .put("other_packet_ins", hh.otherReasons.get());
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
     * Which UEs each target holds, as the offload manager tracks them: every session the backend
     * acknowledged, and on the switch the offloaded ones. Not a read of the devices' session tables: on
     * the backend such a read excludes writes for a time that grows with the sessions.
     */
    private ObjectNode targets(Map<Ip4Address, SessionUsage> tracked) {
        ObjectNode t = json.createObjectNode();
        ArrayNode backend = t.putArray("backend");
        tracked.keySet().forEach(ue -> backend.add(ue.toString()));
        if (hardware) {
            ArrayNode sw = t.putArray("switch");
            manager.offloaded().forEach(ue -> sw.add(ue.toString()));
        }
        return t;
    }
}
