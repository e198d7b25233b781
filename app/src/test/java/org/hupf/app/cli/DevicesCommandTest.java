package org.hupf.app.cli;

import org.hupf.api.DeviceStatus;
import org.hupf.api.DeviceStatusService;
import org.junit.Rule;
import org.junit.Test;

import java.util.List;

import static org.junit.Assert.assertEquals;

public class DevicesCommandTest {

    @Rule
    public final StdoutCapture stdout = new StdoutCapture();

    private String run(List<DeviceStatus> devices) {
        DeviceStatusService service = () -> devices;
        new DevicesCommand() {
            @Override
            protected DeviceStatusService deviceStatus() {
                return service;
            }
        }.doExecute();
        return stdout.text();
    }

    @Test
    public void oneLinePerDeviceWithItsStateAndLastError() {
        String text = run(List.of(
                new DeviceStatus("device:backend1", DeviceStatus.State.UP, true, 42, null),
                new DeviceStatus("device:switch1", DeviceStatus.State.DOWN, false, -1, "UNAVAILABLE: io exception"),
                new DeviceStatus("device:backend2", DeviceStatus.State.RECONCILING, true, 7, null)));
        assertEquals("device:backend1 state=up pipeline=pushed entries=42 lastError=none\n"
                             + "device:switch1 state=down pipeline=none entries=unknown"
                             + " lastError=UNAVAILABLE: io exception\n"
                             + "device:backend2 state=reconciling pipeline=pushed entries=7 lastError=none\n",
                     text);
    }

    @Test
    public void saysSoWithoutDevices() {
        assertEquals("no hupf device\n", run(List.of()));
    }
}
