package org.hupf.standalone;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.hupf.api.BoundedJson;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;

/**
 * Loopback HTTP control API of the standalone runner, for tests and operators: health, sessions, the
 * entities on the in-memory device, agent stats, and hooks that stand in for traffic (counter values,
 * a buffered downlink packet) and for a device restart.
 *
 * <p>Reading (GET) is open on loopback. Changing (POST: counters feed usage reports, a device clear wipes
 * forwarding) needs {@code Authorization: Bearer TOKEN} with the token the host was started with; started
 * without one, the API is read-only (403). Parameters come in the query; a request body is refused past
 * {@link #MAX_BODY} bytes (413). Every answer, errors included, is a JSON object with a status code.
 */
final class ControlServer implements AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Logger log = LoggerFactory.getLogger(ControlServer.class);
    /** Largest request body read: no endpoint takes one, so anything past a small bound is abuse. */
    static final int MAX_BODY = 64 * 1024;

    private final HttpServer server;
    private final SessionManager manager;
    private final PfcpAgent agent;
    private final InMemoryUpfDevice device;
    /** Token that POST requests must carry; null: read-only. */
    private final byte[] token;

    /** An answer other than 200: its status and message. */
    private static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        Refusal(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /**
     * Starts the server on loopback.
     *
     * @param token bearer token for changes; null or empty for a read-only API
     */
    ControlServer(int port, SessionManager manager, PfcpAgent agent, InMemoryUpfDevice device, String token)
            throws IOException {
        this.token = token == null || token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
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
        String raw = ex.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                String[] p = kv.split("=", 2);
                q.put(URLDecoder.decode(p[0], StandardCharsets.UTF_8),
                      p.length > 1 ? URLDecoder.decode(p[1], StandardCharsets.UTF_8) : "");
            }
        }
        return q;
    }

    /** Lets a change through only with the configured token (compared in constant time). */
    private void authorize(HttpExchange ex) throws Refusal {
        if (token == null) {
            throw new Refusal(403, "read-only: start the host with --control-token or HUPF_CONTROL_TOKEN to allow"
                    + " changes");
        }
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        byte[] given = auth != null && auth.startsWith("Bearer ")
                ? auth.substring("Bearer ".length()).getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(token, given)) {
            ex.getResponseHeaders().add("WWW-Authenticate", "Bearer");
            throw new Refusal(401, "a change needs Authorization: Bearer <control token>");
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        int status = 200;
        Object body;
        try {
            BoundedJson.readAtMost(ex.getRequestBody(), MAX_BODY);
            if (!"GET".equals(ex.getRequestMethod())) {
                authorize(ex);
            }
            body = route(ex.getRequestMethod(), ex.getRequestURI().getPath(), query(ex));
            if (body == null) {
                throw new Refusal(404, "no such resource " + ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
            }
        } catch (Refusal e) {
            status = e.status;
            body = MAPPER.createObjectNode().put("error", e.getMessage());
        } catch (BoundedJson.TooLarge e) {
            status = 413;
            body = MAPPER.createObjectNode().put("error", e.getMessage());
        } catch (IllegalArgumentException | UpfProgrammableException e) {
            status = 400;
            body = MAPPER.createObjectNode().put("error", String.valueOf(e.getMessage()));
        } catch (RuntimeException e) {
            // A bug costs one request an answer of 500, never the connection.
            log.error("control API {} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
            status = 500;
            body = MAPPER.createObjectNode().put("error", "internal error: " + e);
        }
        byte[] out = MAPPER.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, out.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
        }
    }

    private static String text(Map<String, String> q, String k) {
        String v = q.get(k);
        if (v == null) {
            throw new IllegalArgumentException("missing query parameter " + k);
        }
        return v;
    }

    private static long num(Map<String, String> q, String k) {
        String v = text(q, k);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("query parameter " + k + " is not a number: " + v);
        }
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
                                                     agent.notifyDownlinkData(Ip4Address.valueOf(text(q, "ue"))));
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
