package org.hupf.app.impl;

import org.hupf.app.CurrentDriver;
import org.hupf.api.RpsService;
import org.hupf.api.RpsStatus;
import org.hupf.core.HupfApp;
import org.hupf.app.config.HupfConfig;
import org.hupf.app.config.HupfConfigListener;
import org.hupf.core.device.Shutdowns;
import org.hupf.core.rps.RpsIntake;
import org.hupf.core.rps.RpsSettings;
import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * RPS in ONOS: the RPS records of the packet-ins of hupf's devices (RPS packet-ins, and receipts riding HH reports)
 * go to the monitor of the netcfg's {@code rps} block ({@link RpsIntake}: bounded queue, its own sender thread; the
 * reference algorithm in mode HYBRID). Each device is known to the monitor by its index among the netcfg's devices
 * in the order of their ids. Where packet-ins arrive (the device's master, the hupf leader) the records are taken;
 * the switch's {@code rps.config} and {@code rps.flows} are written with its other configuration by the offload
 * component. {@link #status()} reads the devices' counters and reports this node's export counts.
 */
@Component(immediate = true, service = RpsService.class)
public class RpsComponent implements RpsService {

    private static final Logger log = LoggerFactory.getLogger(RpsComponent.class);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PacketService packetService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService cfgService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    private final RpsIntake intake = new RpsIntake();
    private final PacketProcessor processor = this::onPacket;
    private final NetworkConfigListener cfgListener =
            new HupfConfigListener(event -> this.configurer.execute(this::configure));
    private ApplicationId appId;
    /** Applies netcfg changes off ONOS's event thread (a new exporter opens a socket). */
    private ExecutorService configurer;
    /** The netcfg's devices in the order of their ids: a device's index is its position. */
    private volatile List<DeviceId> devices = List.of();

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(HupfApp.APP_NAME);
        configurer = Executors.newSingleThreadExecutor(r -> new Thread(r, "hupf-rps-config"));
        cfgService.addListener(cfgListener);
        packetService.addProcessor(processor, PacketProcessor.director(2));
        configurer.execute(this::configure);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        packetService.removeProcessor(processor);
        cfgService.removeListener(cfgListener);
        Shutdowns.interrupt(configurer, "hupf-rps-config");
        intake.close();
        log.info("Stopped");
    }

    private void configure() {
        HupfConfig cfg = cfgService.getConfig(appId, HupfConfig.class);
        if (cfg == null || !cfg.isValid()) {
            // No (valid) netcfg: nothing sampled that hupf configured; the switch keeps what it had.
            return;
        }
        devices = cfg.devices().keySet().stream().sorted((a, b) -> a.toString().compareTo(b.toString()))
                .collect(Collectors.toList());
        RpsSettings settings = cfg.rps();
        try {
            intake.configure(settings);
        } catch (IOException e) {
            log.error("RPS: cannot open the export to {}: {}; records are not exported", settings.monitor(),
                      e.getMessage());
        }
    }

    /**
     * The settings in force, this node's export counts, and the {@code rps.events} of every device of the netcfg
     * whose pipeline has RPS, read from it now (with the settings' tracker warnings for its sizes).
     */
    @Override
    public RpsStatus status() {
        HupfConfig cfg = cfgService.getConfig(appId, HupfConfig.class);
        Map<String, RpsIntake.DeviceRead> reads = new HashMap<>();
        if (cfg != null && cfg.isValid()) {
            for (DeviceId id : cfg.devices().keySet()) {
                reads.put(id.toString(), () -> {
                    Device d = CurrentDriver.of(deviceService.getDevice(id));
                    if (d == null || !d.is(HupfDataplaneConfig.class)) {
                        throw new UpfProgrammableException("no hupf pipeline on " + id + " yet");
                    }
                    return d.as(HupfDataplaneConfig.class).readRps();
                });
            }
        }
        return intake.status(reads);
    }

    private void onPacket(PacketContext ctx) {
        InboundPacket pkt = ctx.inPacket();
        if (pkt.cookie().isEmpty()) {
            return;
        }
        int device = devices.indexOf(pkt.receivedFrom().deviceId());
        if (device < 0) {
            return;
        }
        // Never throws: a record cut short is counted by the intake.
        if (intake.onPacketIn(device, pkt.cookie().get(), pkt.unparsed()) && !ctx.isHandled()) {
            ctx.block();
        }
    }
}
