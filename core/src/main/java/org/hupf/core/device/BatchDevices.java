package org.hupf.core.device;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Batch access to any {@link HupfUpfDevice}: a device that writes batches itself (the ONOS backend behaviour,
 * a P4Runtime device, a decorator) is used as is; another (e.g. the ONOS host's switch behaviour) gets its
 * updates one by one, in order, each with its own outcome.
 */
public final class BatchDevices {

    private BatchDevices() {
    }

    /**
     * @param device a device
     * @return its batch view
     */
    public static BatchUpfDevice of(HupfUpfDevice device) {
        if (device instanceof BatchUpfDevice) {
            return (BatchUpfDevice) device;
        }
        return updates -> CompletableFuture.completedFuture(writeEach(device, updates));
    }

    /**
     * Applies updates one at a time.
     *
     * @param device  device
     * @param updates updates, in order
     * @return per-update outcome
     */
    public static WriteResult writeEach(HupfUpfDevice device, List<DeviceUpdate> updates) {
        List<UpfProgrammableException> failures = new ArrayList<>(updates.size());
        for (DeviceUpdate u : updates) {
            try {
                if (u.kind() == DeviceUpdate.Kind.APPLY) {
                    device.apply(u.entity());
                } else {
                    device.delete(u.entity());
                }
                failures.add(null);
            } catch (UpfProgrammableException e) {
                failures.add(e);
            }
        }
        return WriteResult.of(failures);
    }
}
