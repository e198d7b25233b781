package org.hupf.app.offload;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Map;

/** The devices of one site the ONOS component drives now and what runs over them. */
final class Hybrid {
    /** The site's id ({@code default} without a {@code sites} block). */
    final String siteId;
    /** The backends, the one the hybrid device is built over first. */
    final List<DeviceId> backendIds;
    /** Each backend as the hybrid writes and reads it (through the usage ledger). */
    final Map<DeviceId, HupfUpfDevice> ledgered;
    final DeviceId switchId;
    final OffloadManager manager;
    /** What the session core programs: the hybrid device, then the other backends. */
    final List<HupfUpfDevice> devices;
    /** Whether the switch holds the netcfg's steering and HK-IPG configuration (retried until it does). */
    volatile boolean switchProgrammed;
    /** The RPS configuration last written to the switch; null while none was. */
    volatile RpsConfig rpsWritten;
    /** The backends the switch steers misses to, as last programmed. */
    volatile List<String> steeredTo = List.of();

    Hybrid(String siteId, List<DeviceId> backendIds, Map<DeviceId, HupfUpfDevice> ledgered, DeviceId switchId,
           OffloadManager manager, List<HupfUpfDevice> devices) {
        this.siteId = siteId;
        this.backendIds = backendIds;
        this.ledgered = ledgered;
        this.switchId = switchId;
        this.manager = manager;
        this.devices = devices;
    }

    boolean drives(DeviceId id) {
        return backendIds.contains(id) || id.equals(switchId);
    }
}
