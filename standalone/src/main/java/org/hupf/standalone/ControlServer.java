package org.hupf.standalone;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.hupf.api.EntityJson;
import org.hupf.api.session.PfcpSession;
import org.hupf.app.core.SessionManager;
import org.hupf.app.device.InMemoryUpfDevice;
import org.hupf.app.pfcp.PfcpAgent;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Loopback HTTP control API of the standalone runner, for tests and operators: health, sessions, the
 * entities on the in-memory device, agent stats, and hooks that stand in for traffic (counter values,
 * a buffered downlink packet) and for a device restart.
 */
final class ControlServer implements AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpServer server;
    private final SessionManager manager;
    private final PfcpAgent agent;
    private final InMemoryUpfDevice device;

    ControlServer(int port, SessionManager manager, PfcpAgent agent, InMemoryUpfDevice device) throws IOException {
        this.manager = manager;
        this.agent = agent;
        this.device = device;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    private static Map<String, String> query(HttpExchange ex) {
        Map<String, String> q = new HashMap<>();
        String raw = ex.getRequestURI().getQuery();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                String[] p = kv.split("=", 2);
                q.put(p[0], p.length > 1 ? p[1] : "");
            }
        }
        return q;
    }

    private void handle(HttpExchange ex) throws IOException {
        int status = 200;
        Object body;
        try {
            body = route(ex.getRequestMethod(), ex.getRequestURI().getPath(), query(ex));
            if (body == null) {
                status = 404;
                body = MAPPER.createObjectNode().put("error", "no such resource " + ex.getRequestURI().getPath());
            }
        } catch (IllegalArgumentException | UpfProgrammableException e) {
            status = 400;
            body = MAPPER.createObjectNode().put("error", String.valueOf(e.getMessage()));
        }
        byte[] out = MAPPER.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, out.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
        }
    }

    private static long num(Map<String, String> q, String k) {
        String v = q.get(k);
        if (v == null) {
            throw new IllegalArgumentException("missing query parameter " + k);
        }
        return Long.parseLong(v);
    }

    private Object route(String method, String path, Map<String, String> q) throws UpfProgrammableException {
        switch (method + " " + path) {
            case "GET /health":
                return MAPPER.createObjectNode().put("status", "ok")
                        .put("sessions", manager.store().all().size())
                        .put("associations", agent.associations().size())
                        .put("deviceErrors", manager.deviceErrors());
            case "GET /stats":
                return agent.stats().snapshot();
            case "GET /sessions":
                ArrayNode sessions = MAPPER.createArrayNode();
                for (PfcpSession s : manager.store().all()) {
                    sessions.add(MAPPER.createObjectNode().put("upSeid", s.upSeid).put("cpSeid", s.cpSeid)
                                         .put("nodeId", s.nodeId).put("pdrs", s.pdrs.size())
                                         .put("fars", s.fars.size()).put("qers", s.qers.size())
                                         .put("urrs", s.urrs.size()));
                }
                return sessions;
            case "GET /entities":
                ObjectNode all = MAPPER.createObjectNode();
                for (UpfEntityType t : UpfEntityType.values()) {
                    ArrayNode list = all.putArray(t.humanReadableName());
                    for (UpfEntity e : device.entities(t)) {
                        list.add(EntityJson.encode(e));
                    }
                }
                return all;
            case "POST /counter":
                device.setCounter(UpfCounter.builder().withCellId((int) num(q, "cell"))
                                          .setIngress(num(q, "pkts"), num(q, "bytes"))
                                          .setEgress(num(q, "pkts"), num(q, "bytes")).build());
                return MAPPER.createObjectNode().put("ok", true);
            case "POST /ddn":
                return MAPPER.createObjectNode().put("reported",
                                                     agent.notifyDownlinkData(Ip4Address.valueOf(q.get("ue"))));
            case "POST /device/clear":
                for (UpfEntityType t : UpfEntityType.values()) {
                    device.deleteAll(t);
                }
                return MAPPER.createObjectNode().put("ok", true);
            case "POST /reconcile":
                return MAPPER.createObjectNode().put("operations", manager.reconcile());
            default:
                return null;
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
