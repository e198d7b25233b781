package org.hupf.core.device;

import org.hupf.pipeconf.api.HupfBatchUpf;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Batch access to any {@link HupfUpfDevice}: a device that writes batches itself is used as is; ONOS's backend
 * behaviour ({@link HupfBatchUpf}) gets each batch as one P4Runtime WriteRequest; another (e.g. the ONOS
 * host's switch behaviour) gets its updates one by one, in order, each with its own outcome.
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
        if (device instanceof HupfBatchUpf) {
            return updates -> writeBatch((HupfBatchUpf) device, updates);
        }
        return updates -> CompletableFuture.completedFuture(writeEach(device, updates));
    }

    /**
     * Writes updates as one batch of an ONOS device behaviour.
     *
     * @param device  device
     * @param updates updates, in order
     * @return per-update outcome; every update failed and the device marked unreachable if it was not reached
     */
    static CompletableFuture<WriteResult> writeBatch(HupfBatchUpf device, List<DeviceUpdate> updates) {
        List<UpfEntity> entities = new ArrayList<>(updates.size());
        BitSet removals = new BitSet(updates.size());
        for (int i = 0; i < updates.size(); i++) {
            entities.add(updates.get(i).entity());
            removals.set(i, updates.get(i).kind() == DeviceUpdate.Kind.DELETE);
        }
        CompletableFuture<List<UpfProgrammableException>> written;
        try {
            written = device.write(entities, removals);
        } catch (RuntimeException e) {
            written = CompletableFuture.failedFuture(e);
        }
        return written.handle((failures, error) -> {
            if (error == null) {
                return WriteResult.of(failures);
            }
            Throwable why = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            return WriteResult.unreachable(updates.size(), why instanceof UpfProgrammableException
                    ? (UpfProgrammableException) why : new UpfProgrammableException(String.valueOf(why)));
        });
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
