package org.hupf.app.impl;

import org.hupf.api.DeviceStatus;
import org.hupf.api.DeviceStatusService;
import org.hupf.core.HupfApp;
import org.hupf.app.config.HupfConfig;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.service.PiPipeconfWatchdogService;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The devices of hupf's netcfg as ONOS sees them: up while ONOS has the device available, the pipeline
 * pushed once ONOS's pipeconf watchdog reports it READY. ONOS programs through its own flow of writes, so
 * the entry count is not tracked here (-1).
 */
@Component(immediate = true, service = DeviceStatusService.class)
public class DeviceStatusManager implements DeviceStatusService {

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService cfgService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfWatchdogService watchdog;

    @Override
    public List<DeviceStatus> devices() {
        ApplicationId appId = coreService.getAppId(HupfApp.APP_NAME);
        HupfConfig cfg = appId == null ? null : cfgService.getConfig(appId, HupfConfig.class);
        if (cfg == null || !cfg.isValid()) {
            return List.of();
        }
        return statusOf(cfg.devices().keySet());
    }

    List<DeviceStatus> statusOf(Collection<DeviceId> ids) {
        List<DeviceStatus> out = new ArrayList<>();
        for (DeviceId id : ids) {
            if (deviceService.getDevice(id) == null) {
                out.add(new DeviceStatus(id.toString(), DeviceStatus.State.DOWN, false, -1,
                                         "not known to ONOS: check its netcfg entry and driver"));
                continue;
            }
            boolean up = deviceService.isAvailable(id);
            boolean pipeline = watchdog.getStatus(id) == PiPipeconfWatchdogService.PipelineStatus.READY;
            out.add(new DeviceStatus(id.toString(), up ? DeviceStatus.State.UP : DeviceStatus.State.DOWN, pipeline,
                                     -1, null));
        }
        out.sort(Comparator.comparing(DeviceStatus::id));
        return out;
    }
}
