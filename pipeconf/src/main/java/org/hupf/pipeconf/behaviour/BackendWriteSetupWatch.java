package org.hupf.pipeconf.behaviour;

import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.service.PiPipeconfListener;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.util.EnumSet;
import java.util.Set;

/**
 * Drops the backends' kept write set-ups ({@link BackendWriteSetups}) on any event that may change one: a device's
 * netcfg (its management address: another client or P4Runtime device id), the device itself (added, removed,
 * its driver or availability changed), its mastership, a pipeconf (un)registered. Such events are rare; port
 * and statistics events, frequent, change no set-up.
 */
@Component(immediate = true)
public class BackendWriteSetupWatch {

    static final Set<DeviceEvent.Type> DEVICE_CHANGES = EnumSet.of(
            DeviceEvent.Type.DEVICE_ADDED, DeviceEvent.Type.DEVICE_UPDATED, DeviceEvent.Type.DEVICE_REMOVED,
            DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, DeviceEvent.Type.DEVICE_SUSPENDED);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService netcfgService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    final NetworkConfigListener netcfgListener = event -> dropIf(event.subject() instanceof DeviceId);
    final DeviceListener deviceListener = event -> dropIf(DEVICE_CHANGES.contains(event.type()));
    final MastershipListener mastershipListener =
            event -> dropIf(event.type() != MastershipEvent.Type.BACKUPS_CHANGED);
    final PiPipeconfListener pipeconfListener = event -> BackendWriteSetups.dropAll();

    private static void dropIf(boolean mayChangeASetup) {
        if (mayChangeASetup) {
            BackendWriteSetups.dropAll();
        }
    }

    @Activate
    protected void activate() {
        netcfgService.addListener(netcfgListener);
        deviceService.addListener(deviceListener);
        mastershipService.addListener(mastershipListener);
        pipeconfService.addListener(pipeconfListener);
        BackendWriteSetups.dropAll();
    }

    @Deactivate
    protected void deactivate() {
        pipeconfService.removeListener(pipeconfListener);
        mastershipService.removeListener(mastershipListener);
        deviceService.removeListener(deviceListener);
        netcfgService.removeListener(netcfgListener);
        BackendWriteSetups.dropAll();
    }
}
