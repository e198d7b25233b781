package org.hupf.standalone.p4rt;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.upf.PiUpfDevice;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.model.PiPipelineModel;

import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collection;

/**
 * A hupf UPF device reached directly over P4Runtime, without ONOS: the lab drives bmv2 and the backend
 * with the same translator the ONOS behaviour uses.
 */
public final class P4RuntimeUpfDevice implements HupfUpfDevice, AutoCloseable {

    private final P4rtClient client;
    private final PiUpfDevice device;
    private final P4RuntimeTarget target;
    private final PiPipelineModel model;

    /**
     * Wraps a connected client.
     *
     * @param client  primary client of the device
     * @param p4info  P4Info index of the device's pipeline
     * @param model   the same pipeline as ONOS's model (for widths and capacities)
     */
    public P4RuntimeUpfDevice(P4rtClient client, P4InfoIndex p4info, PiPipelineModel model) {
        this.client = client;
        this.model = model;
        this.target = new P4RuntimeTarget(client, new PiEncoder(p4info));
        this.device = new PiUpfDevice(new UpfTranslator(model), target);
    }

    /**
     * Connects to a device as primary and, if a target configuration is given, pushes the pipeline.
     *
     * @param host         P4Runtime server address
     * @param port         P4Runtime server port
     * @param deviceId     P4Runtime device id
     * @param p4info       P4Info text of the device's profile (e.g. the bundle's p4c-out/hw/bmv2/p4info.txt)
     * @param deviceConfig target configuration to push (bmv2 JSON), or null to use the running pipeline
     * @return the device
     * @throws P4RuntimeException if the connection, arbitration or pipeline push fails
     * @throws IOException        if the P4Info or configuration cannot be read
     */
    public static P4RuntimeUpfDevice open(String host, int port, long deviceId, URL p4info, URL deviceConfig)
            throws P4RuntimeException, IOException {
        P4InfoIndex index = P4InfoIndex.parse(p4info);
        PiPipelineModel model;
        try {
            model = P4InfoParser.parse(p4info);
        } catch (P4InfoParserException e) {
            throw new IOException("P4Info " + p4info + " does not parse: " + e.getMessage(), e);
        }
        P4rtClient client = P4rtClient.connect(host, port, deviceId, 1);
        try {
            if (deviceConfig != null) {
                try (InputStream in = deviceConfig.openStream()) {
                    client.setPipeline(index.p4info(), in.readAllBytes());
                }
            }
            return new P4RuntimeUpfDevice(client, index, model);
        } catch (P4RuntimeException | IOException e) {
            client.close();
            throw e;
        }
    }

    /**
     * Returns the PI target, to write non-UPF entities (routes, ACL, HK-IPG configuration) to the device.
     *
     * @return target
     */
    public P4RuntimeTarget target() {
        return target;
    }

    public P4rtClient client() {
        return client;
    }

    public PiPipelineModel model() {
        return model;
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        device.apply(entity);
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        device.delete(entity);
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        return device.readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        return device.readCounter(cellId);
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        return device.readCounters(maxCounterId);
    }

    @Override
    public long tableSize(UpfEntityType type) throws UpfProgrammableException {
        return device.tableSize(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        device.deleteAll(type);
    }

    @Override
    public void close() {
        client.close();
    }
}
