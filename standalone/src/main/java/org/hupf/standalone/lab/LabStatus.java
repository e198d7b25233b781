package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadEvent;
import org.hupf.app.offload.OffloadManager;
import org.hupf.app.offload.SessionUsage;
import org.hupf.app.pfcp.PfcpStats;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * The runner's status file (JSON, replaced atomically): offload metrics, per-UE rate, path and usage
 * summed over both targets, recent offload events, and which UEs each target holds a downlink
 * session for (read back from the devices, so the lab can check deletions on both).
 */
final class LabStatus {

    private static final int EVENTS = 500;

    private final ObjectMapper json = new ObjectMapper();
    private final Path path;
    private final OffloadManager manager;
    private final HupfUpfDevice backend;
    private final HupfUpfDevice hardware;
    private final Deque<OffloadEvent> events = new ArrayDeque<>();
    private volatile boolean ready;

    LabStatus(Path path, OffloadManager manager, HupfUpfDevice backend, HupfUpfDevice hardware) {
        this.path = path;
        this.manager = manager;
        this.backend = backend;
        this.hardware = hardware;
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

    void write(int sessions, HhReports hh, PfcpStats pfcp) throws IOException {
        ObjectNode root = json.createObjectNode();
        root.put("ready", ready);
        root.put("mode", hardware == null ? "backend-only" : "hybrid");
        root.put("pfcp_sessions", sessions);
        root.set("metrics", json.readTree(manager.metrics().toJson()));
        ObjectNode ues = root.putObject("ues");
        for (Map.Entry<Ip4Address, SessionUsage> u : manager.lastUsages().entrySet()) {
            ObjectNode n = ues.putObject(u.getKey().toString());
            n.put("rate_bps", manager.rateBitsPerSec(u.getKey()));
            n.put("offloaded", manager.isOffloaded(u.getKey()));
            n.put("pkts", u.getValue().ingressPkts());
            n.put("bytes", u.getValue().ingressBytes());
            n.put("hw_bytes", u.getValue().hwBytes());
        }
        synchronized (this) {
            ArrayNode ev = root.putArray("events");
            for (OffloadEvent e : events) {
                ev.addObject().put("t", e.timeMillis()).put("kind", e.kind().name()).put("ue", e.ue().toString());
            }
        }
        ObjectNode targets = root.putObject("targets");
        targets.set("backend", downlinkUes(backend));
        if (hardware != null) {
            targets.set("switch", downlinkUes(hardware));
        }
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
    }

    private ArrayNode downlinkUes(HupfUpfDevice dev) {
        ArrayNode a = json.createArrayNode();
        try {
            for (UpfEntity e : dev.readAll(UpfEntityType.SESSION_DOWNLINK)) {
                a.add(((UpfSessionDownlink) e).ueAddress().toString());
            }
        } catch (UpfProgrammableException e) {
            a.add("read failed: " + e.getMessage());
        }
        return a;
    }
}
