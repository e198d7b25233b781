package org.hupf.app.offload;

import org.hupf.app.CurrentDriver;
import org.hupf.app.HupfApp;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.core.ApplicationId;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.Device;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleOperationsContext;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Removes what hupf wrote when the app is deactivated or uninstalled (not when one node stops): its entries on
 * the backends this node masters, and its flow rules (the switch's).
 */
final class AppEntriesRemoval {

    private static final Logger log = LoggerFactory.getLogger(AppEntriesRemoval.class);
    /** Longest wait for the devices to confirm the removal of hupf's flow rules when the app goes. */
    private static final long FLOW_REMOVAL_WAIT_S = 20;
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

    /**
     * Removes the app's flow rules and waits (bounded) until the devices confirmed: the pipeconf bundle, which
     * translates them for the devices, stops right after this one.
     */
    static void removeFlowRules(FlowRuleService flowRuleService, ApplicationId appId) {
        FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
        int n = 0;
        for (FlowEntry r : flowRuleService.getFlowEntriesById(appId)) {
            ops.remove(r);
            n++;
        }
        CountDownLatch done = new CountDownLatch(1);
        boolean[] ok = new boolean[1];
        flowRuleService.apply(ops.build(new FlowRuleOperationsContext() {
            @Override
            public void onSuccess(FlowRuleOperations o) {
                ok[0] = true;
                done.countDown();
            }

            @Override
            public void onError(FlowRuleOperations o) {
                done.countDown();
            }
        }));
        try {
            if (!done.await(FLOW_REMOVAL_WAIT_S, TimeUnit.SECONDS)) {
                log.warn("Removing the {} flow rules of {}: not confirmed after {} s", n, HupfApp.APP_NAME,
                         FLOW_REMOVAL_WAIT_S);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (ok[0]) {
            log.info("Removed the {} flow rules of {}", n, HupfApp.APP_NAME);
        } else {
            log.warn("Removing the {} flow rules of {}: a device refused some", n, HupfApp.APP_NAME);
        }
    }
}
