package org.hupf.core.offload;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Map;

/** The devices of one site the ONOS component drives now and what runs over them. */
public final class Hybrid {
    /** The site's id ({@code default} without a {@code sites} block). */
    public final String siteId;
    /** The backends, the one the hybrid device is built over first. */
    public final List<DeviceId> backendIds;
    /** Each backend as the hybrid writes and reads it (through the usage ledger). */
    public final Map<DeviceId, HupfUpfDevice> ledgered;
    public final DeviceId switchId;
    public final OffloadManager manager;
    /** What the session core programs: the hybrid device, then the other backends. */
    public final List<HupfUpfDevice> devices;
    /** Whether the switch holds the netcfg's steering and HK-IPG configuration (retried until it does). */
    public volatile boolean switchProgrammed;
    /** The RPS configuration last written to the switch; null while none was. */
    public volatile RpsConfig rpsWritten;
    /** The backends the switch steers misses to, as last programmed. */
    public volatile List<String> steeredTo = List.of();

    public Hybrid(String siteId, List<DeviceId> backendIds, Map<DeviceId, HupfUpfDevice> ledgered, DeviceId switchId,
           OffloadManager manager, List<HupfUpfDevice> devices) {
        this.siteId = siteId;
        this.backendIds = backendIds;
        this.ledgered = ledgered;
        this.switchId = switchId;
        this.manager = manager;
        this.devices = devices;
    }

    public boolean drives(DeviceId id) {
        return backendIds.contains(id) || id.equals(switchId);
    }
}
