package org.hupf.pipeconf.api;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A device programmed in batches: the updates of one write go to it together (one P4Runtime
 * WriteRequest on a P4Runtime device), in the order given, and the future completes when the device
 * answered. The future never completes exceptionally: failures are in the {@link WriteResult}.
 */
public interface BatchUpfDevice {

    /**
     * Writes updates in order.
     *
     * @param updates updates, in the order the pipeline contract requires (referenced entries first)
     * @return the per-update outcome, once the device answered
     */
    CompletableFuture<WriteResult> write(List<DeviceUpdate> updates);
}
