package org.hupf.standalone.lab;

import org.hupf.core.offload.BackendUsageLedger;
import org.hupf.core.offload.LedgeredBackend;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.standalone.p4rt.BatchingUpfDevice;
import org.hupf.standalone.p4rt.DeviceState;

/** A backend of the lab: its device, batched for recoveries, and the switch port that reaches it. */
final class LabBackend {
    final String name;
    final LabDevice device;
    final BatchingUpfDevice batched;
    /** The batched device, its counts kept in the lab's ledger across its departures and restarts. */
    final LedgeredBackend counted;
    /** Where the switch steers this backend's share of the UEs; null without a switch. */
    final Backend steering;
    /** Left to connect in the background: the lab starts its process under traffic. */
    final boolean joinsLater;
    /** Being drained: no longer steered to, still written and read. */
    volatile boolean leaving;
    /** Drained: neither steered to, nor written, nor read; the ledger holds its final counts. */
    volatile boolean drained;

    LabBackend(String name, LabDevice device, Backend steering, BackendUsageLedger ledger, boolean first,
               boolean joinsLater) {
        this.name = name;
        this.joinsLater = joinsLater;
        this.device = device;
        this.batched = new BatchingUpfDevice(device.upf);
        this.counted = new LedgeredBackend(name, batched, ledger, first);
        this.steering = steering;
    }

    DeviceState state() {
        return device.upf.client().state();
    }
}
