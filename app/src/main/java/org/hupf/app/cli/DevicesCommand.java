package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.DeviceStatus;
import org.hupf.api.DeviceStatusService;

import java.util.List;

/**
 * Shows each data-plane target hupf programs: connection state, pipeline, entries, last error.
 */
@Service
@Command(scope = "hupf", name = "devices",
        description = "Shows each hupf data-plane target: state (up/down/reconciling), pipeline, entries, last error")
public class DevicesCommand extends HupfCommand {

    /** @return the device status service (a method so tests can supply one) */
    protected DeviceStatusService deviceStatus() {
        return get(DeviceStatusService.class);
    }

    @Override
    protected void doExecute() {
        List<DeviceStatus> devices = deviceStatus().devices();
        if (devices.isEmpty()) {
            print("no hupf device");
            return;
        }
        for (DeviceStatus d : devices) {
            print("%s state=%s pipeline=%s entries=%s lastError=%s", d.id(), d.state().name().toLowerCase(),
                  d.pipelinePushed() ? "pushed" : "none", d.entries() < 0 ? "unknown" : d.entries(),
                  d.lastError() == null ? "none" : d.lastError());
        }
    }
}
