package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.standalone.p4rt.P4InfoIndex;
import org.hupf.standalone.p4rt.P4RuntimeException;
import org.hupf.standalone.p4rt.P4RuntimeUpfDevice;
import org.hupf.standalone.p4rt.P4rtClient;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;
import p4.config.v1.P4InfoOuterClass.P4Info;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens one lab device over direct P4Runtime: connect as primary, push the pipeline (P4Info, plus the
 * bmv2 JSON for the switch) unless the device already runs it, and wrap it as a UPF device with the
 * pipeconf's translator.
 */
final class LabDevice {

    private static final long ELECTION_ID = 10;

    final P4RuntimeUpfDevice upf;
    final P4Info p4info;
    private final byte[] deviceConfig;

    private LabDevice(P4RuntimeUpfDevice upf, P4Info p4info, byte[] deviceConfig) {
        this.upf = upf;
        this.p4info = p4info;
        this.deviceConfig = deviceConfig;
    }

    /**
     * Connects an {@link #unconnected} device as primary and pushes its pipeline unless it already runs it.
     *
     * @throws P4RuntimeException if the device cannot be reached, or refuses the read or the push
     */
    void connect() throws P4RuntimeException {
        upf.client().connectNow();
        ensurePipeline();
    }

    /**
     * Pushes the device's pipeline unless it already runs it (after a restart of the device it has none).
     *
     * @return whether it was pushed
     * @throws P4RuntimeException if the device refuses the read or the push
     */
    boolean ensurePipeline() throws P4RuntimeException {
        return upf.client().ensurePipeline(p4info, deviceConfig);
    }

    static LabDevice open(JsonNode cfg, String name) throws IOException, P4RuntimeException {
        return open(cfg, name, true);
    }

    /**
     * A device not connected yet: its client reaches it with {@link #connect}, or with
     * {@link P4rtClient#connectInBackground} (a device that joins later; the recovery pushes the pipeline).
     *
     * @param cfg  the device's config
     * @param name its name in errors
     * @return the device, DOWN
     * @throws IOException        if the P4Info cannot be read
     * @throws P4RuntimeException if the P4Info lacks what the translator needs (no RPC is sent)
     */
    static LabDevice unconnected(JsonNode cfg, String name) throws IOException, P4RuntimeException {
        return open(cfg, name, false);
    }

    private static LabDevice open(JsonNode cfg, String name, boolean now) throws IOException, P4RuntimeException {
        String grpc = req(cfg, "grpc", name).asText();
        int colon = grpc.lastIndexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("lab config: " + name + ".grpc must be host:port, got " + grpc);
        }
        URL p4info = Path.of(req(cfg, "p4info", name).asText()).toUri().toURL();
        P4InfoIndex index = P4InfoIndex.parse(p4info);
        PiPipelineModel model;
        try {
            model = P4InfoParser.parse(p4info);
        } catch (P4InfoParserException e) {
            throw new IOException(name + ": cannot parse " + p4info + ": " + e.getMessage(), e);
        }
        byte[] deviceConfig = cfg.hasNonNull("config") ? Files.readAllBytes(Path.of(cfg.get("config").asText()))
                : new byte[0];
        String host = grpc.substring(0, colon);
        int port = Integer.parseInt(grpc.substring(colon + 1));
        long deviceId = req(cfg, "device_id", name).asLong();
        if (!now) {
            P4rtClient client = P4rtClient.unconnected(host, port, deviceId, ELECTION_ID);
            localWrites(cfg, client);
            return new LabDevice(new P4RuntimeUpfDevice(client, index, model), index.p4info(), deviceConfig);
        }
        P4rtClient client = P4rtClient.connect(host, port, deviceId, ELECTION_ID);
        localWrites(cfg, client);
        try {
            client.ensurePipeline(index.p4info(), deviceConfig);
        } catch (P4RuntimeException e) {
            client.close();
            throw e;
        }
        return new LabDevice(new P4RuntimeUpfDevice(client, index, model), index.p4info(), deviceConfig);
    }

    /** hupf-backend's local write channel, where the config names its socket ({@code local_writes}). */
    private static void localWrites(JsonNode cfg, P4rtClient client) {
        if (cfg.hasNonNull("local_writes")) {
            client.useLocalWrites(Path.of(cfg.get("local_writes").asText()));
        }
    }

    private static JsonNode req(JsonNode cfg, String field, String name) {
        JsonNode n = cfg.get(field);
        if (n == null || n.isNull()) {
            throw new IllegalArgumentException("lab config: missing " + name + "." + field);
        }
        return n;
    }
}
