package org.hupf.app.impl;

import org.hupf.api.DeviceStatus;
import org.junit.Test;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.pi.service.PiPipeconfWatchdogListener;
import org.onosproject.net.pi.service.PiPipeconfWatchdogService;
import org.onosproject.net.provider.ProviderId;
import org.onlab.packet.ChassisId;

import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;

public class DeviceStatusManagerTest {

    private static final DeviceId UP = DeviceId.deviceId("device:up");
    private static final DeviceId UNAVAILABLE = DeviceId.deviceId("device:unavailable");
    private static final DeviceId UNKNOWN = DeviceId.deviceId("device:unknown");

    @Test
    public void reportsAvailabilityPipelineAndDevicesOnosDoesNotKnow() {
        DeviceStatusManager m = new DeviceStatusManager();
        m.deviceService = new DeviceServiceAdapter() {
            @Override
            public Device getDevice(DeviceId id) {
                return id.equals(UNKNOWN) ? null : new DefaultDevice(ProviderId.NONE, id, Device.Type.SWITCH, "hupf",
                                                                     "1", "1", "1", new ChassisId());
            }

            @Override
            public boolean isAvailable(DeviceId id) {
                return id.equals(UP);
            }
        };
        m.watchdog = new PiPipeconfWatchdogService() {
            @Override
            public void triggerProbe(DeviceId id) {
            }

            @Override
            public PipelineStatus getStatus(DeviceId id) {
                return id.equals(UP) ? PipelineStatus.READY : PipelineStatus.UNKNOWN;
            }

            @Override
            public void addListener(PiPipeconfWatchdogListener listener) {
            }

            @Override
            public void removeListener(PiPipeconfWatchdogListener listener) {
            }
        };
        List<DeviceStatus> s = m.statusOf(Set.of(UNKNOWN, UP, UNAVAILABLE));
        assertEquals(List.of(
                new DeviceStatus("device:unavailable", DeviceStatus.State.DOWN, false, -1, null),
                new DeviceStatus("device:unknown", DeviceStatus.State.DOWN, false, -1,
                                 "not known to ONOS: check its netcfg entry and driver"),
                new DeviceStatus("device:up", DeviceStatus.State.UP, true, -1, null)), s);
    }
}
