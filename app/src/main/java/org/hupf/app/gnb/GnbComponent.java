package org.hupf.app.gnb;

import org.hupf.core.HupfApp;
import org.hupf.app.config.GnbConfig;
import org.hupf.core.config.GnbsParser;
import org.hupf.core.device.Shutdowns;
import org.hupf.pipeconf.gnb.GnbPipeconf;
import org.onosproject.app.ApplicationService;
import org.onosproject.app.ApplicationState;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupProgrammable;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.onosproject.net.config.basics.SubjectFactories.APP_SUBJECT_FACTORY;

/**
 * hupf programs the Hybrid-gNodeB's switches (docs/GNB.md, "Control from ONOS"): the netcfg's gNB block
 * ({@link GnbConfig}) gives each gNB device its site and UE contexts, and {@link GnbWriter} writes the gNB
 * program's entries through the {@code org.hupf.gnb.bmv2} pipeconf when the device connects (with the pipeconf
 * pushed), when the block changes and every few seconds (a write ONOS lost, a device this node became master of);
 * they go when the block drops a gNB or a UE, and all of them when the app is deactivated or uninstalled (the
 * clone groups waited out of ONOS's group store: {@link CloneGroupsRemoval}). Each
 * device is written by its master only. The block holds no keys: the switch never needs one.
 */
@Component(immediate = true)
public class GnbComponent {

    private static final Logger log = LoggerFactory.getLogger(GnbComponent.class);
    /** How often the config is compared with ONOS's stores (in memory; writes only what differs). */
    private static final long CHECK_S = 5;
    /** The device events that can make a gNB writable (port and statistics events cannot). */
    private static final Set<DeviceEvent.Type> DEVICE_CHANGES = Set.of(
            DeviceEvent.Type.DEVICE_ADDED, DeviceEvent.Type.DEVICE_UPDATED,
            DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry cfgRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GroupService groupService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ApplicationService applicationService;

    private final ConfigFactory<ApplicationId, GnbConfig> factory =
            new ConfigFactory<>(APP_SUBJECT_FACTORY, GnbConfig.class, GnbConfig.KEY) {
                @Override
                public GnbConfig createConfig() {
                    return new GnbConfig();
                }
            };
    private final NetworkConfigListener cfgListener = new NetworkConfigListener() {
        @Override
        public boolean isRelevant(NetworkConfigEvent event) {
            return event.configClass() == GnbConfig.class;
        }

        @Override
        public void event(NetworkConfigEvent event) {
            executor.execute(GnbComponent.this::sync);
        }
    };
    private final DeviceListener deviceListener = this::onDeviceEvent;
    /** Devices whose pipeconf is not the gNB's, already warned about. */
    private final Set<DeviceId> warned = new HashSet<>();
    private ScheduledExecutorService executor;
    private ApplicationId appId;
    private GnbWriter writer;
    private volatile Set<DeviceId> configured = Set.of();

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(HupfApp.APP_NAME);
        writer = new GnbWriter(flowRuleService, groupService, appId);
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "hupf-gnb"));
        cfgRegistry.registerConfigFactory(factory);
        cfgRegistry.addListener(cfgListener);
        deviceService.addListener(deviceListener);
        executor.scheduleWithFixedDelay(this::sync, 0, CHECK_S, TimeUnit.SECONDS);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        long t0 = System.nanoTime();
        deviceService.removeListener(deviceListener);
        cfgRegistry.removeListener(cfgListener);
        Shutdowns.interrupt(executor, "hupf-gnb");
        if (applicationService.getState(appId) != ApplicationState.ACTIVE) {
            log.info("The app is deactivated: gNB entries removed ({})", writer.removeAll());
            List<DeviceId> devices = new ArrayList<>();
            deviceService.getDevices().forEach(d -> devices.add(d.id()));
            CloneGroupsRemoval.remove(groupService, this::groupsOnDevice, devices, appId,
                                      CloneGroupsRemoval.POLL_WAIT_S);
        }
        cfgRegistry.unregisterConfigFactory(factory);
        log.info("Stopped in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** A device's groups as ONOS's group poll reads them, on the devices it polls; null on the others. */
    private Collection<Group> groupsOnDevice(DeviceId id) {
        Device d = deviceService.getDevice(id);
        if (d == null || !deviceService.isAvailable(id) || !mastershipService.isLocalMaster(id)
                || !d.is(GroupProgrammable.class)) {
            return null;
        }
        try {
            return d.as(GroupProgrammable.class).getGroups();
        } catch (RuntimeException e) {
            log.debug("Cannot read the groups of {}: {}", id, e.toString());
            return null;
        }
    }

    private void onDeviceEvent(DeviceEvent event) {
        if (DEVICE_CHANGES.contains(event.type()) && configured.contains(event.subject().id())) {
            executor.execute(this::sync);
        }
    }

    private void sync() {
        try {
            List<GnbsParser.Gnb> gnbs = gnbs();
            Set<DeviceId> ids = new HashSet<>();
            gnbs.forEach(g -> ids.add(g.deviceId));
            configured = Set.copyOf(ids);
            GnbWriter.Changes c = writer.sync(gnbs, this::writable);
            if (c.any()) {
                log.info("gNB switches {}: {}", ids, c);
            }
        } catch (RuntimeException e) {
            log.warn("Programming the gNB switches failed; tried again in {} s", CHECK_S, e);
        }
    }

    /** The block's gNBs; none when it is absent or invalid (ONOS refused the POST of an invalid one). */
    private List<GnbsParser.Gnb> gnbs() {
        GnbConfig cfg = cfgRegistry.getConfig(appId, GnbConfig.class);
        if (cfg == null) {
            return List.of();
        }
        if (!cfg.isValid()) {
            log.warn("The gNB block is invalid, its gNBs are not programmed: {}", cfg.error());
            return List.of();
        }
        return cfg.gnbs();
    }

    private boolean writable(DeviceId id) {
        if (!deviceService.isAvailable(id) || !mastershipService.isLocalMaster(id)) {
            return false;
        }
        boolean gnb = pipeconfService.ofDevice(id).map(GnbPipeconf.ID::equals).orElse(false);
        if (!gnb && warned.add(id)) {
            log.warn("gNB {}: its pipeconf is {}, not {}: not programmed", id,
                     pipeconfService.ofDevice(id).orElse(null), GnbPipeconf.ID);
        } else if (gnb) {
            warned.remove(id);
        }
        return gnb;
    }
}
