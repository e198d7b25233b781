package org.hupf.api;

import java.util.List;

/**
 * The state of each data-plane target hupf programs, for REST ({@code devices}), the CLI
 * ({@code hupf:devices}) and monitoring. Each host implements it from its own device layer: ONOS from its
 * device and pipeconf services, the standalone host from its P4Runtime client or in-memory device.
 */
public interface DeviceStatusService {

    /** @return one status per target, in a stable order */
    List<DeviceStatus> devices();
}
