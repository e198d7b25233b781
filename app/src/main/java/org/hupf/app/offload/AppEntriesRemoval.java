package org.hupf.app.offload;

import org.hupf.app.CurrentDriver;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.Device;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Removes what hupf wrote on the backends this node masters when the app is deactivated or uninstalled (not when
 * one node stops); its flow rules (the switch's) go by {@link AppFlowRulesRemoval}.
 */
final class AppEntriesRemoval {

    private static final Logger log = LoggerFactory.getLogger(AppEntriesRemoval.class);
    /** Order in which a backend's entities are removed: the contract's install order reversed. */
    private static final List<UpfEntityType> REMOVAL_ORDER = HupfTables.REMOVAL_ORDER;

    private AppEntriesRemoval() {
    }

    /**
     * Removes hupf's entities from the backends this node is master of (they are not flow rules: ONOS would not
     * remove them), while the pipeconf bundle that writes them still runs.
     */
    static void clearBackends(DeviceService deviceService, PiPipeconfService pipeconfService,
                              MastershipService mastershipService, DeviceRoutes routes) {
        for (Device stored : deviceService.getAvailableDevices()) {
            Device d = CurrentDriver.of(stored);
            if (!pipeconfService.ofDevice(d.id()).filter(HupfPipeconfIds.BACKEND::equals).isPresent()
                    || !mastershipService.isLocalMaster(d.id()) || !d.is(HupfUpf.class)) {
                continue;
            }
            HupfUpf backend = d.as(HupfUpf.class);
            try {
                for (UpfEntityType t : REMOVAL_ORDER) {
                    backend.deleteAll(t);
                }
                routes.clear(List.of(d.id()));
                log.info("Removed hupf's entries from backend {}", d.id());
            } catch (UpfProgrammableException e) {
                log.warn("Removing hupf's entries from backend {}: {}", d.id(), e.getMessage());
            }
        }
    }
}
