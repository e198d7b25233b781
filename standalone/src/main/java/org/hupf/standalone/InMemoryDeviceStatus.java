package org.hupf.standalone;

import org.hupf.api.DeviceStatus;
import org.hupf.api.DeviceStatusService;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.UpfEntityType;

import java.util.List;

/**
 * The in-memory device's status: always up, its pipeline is hupf's entity model itself, its entries
 * those it holds (counters excluded: every cell exists).
 */
final class InMemoryDeviceStatus implements DeviceStatusService {

    private final String id;
    private final InMemoryUpfDevice device;

    InMemoryDeviceStatus(String id, InMemoryUpfDevice device) {
        this.id = id;
        this.device = device;
    }

    @Override
    public List<DeviceStatus> devices() {
        long entries = 0;
        for (UpfEntityType t : UpfEntityType.values()) {
            if (t != UpfEntityType.COUNTER) {
                entries += device.entities(t).size();
            }
        }
        return List.of(new DeviceStatus(id, DeviceStatus.State.UP, true, entries, null));
    }
}
