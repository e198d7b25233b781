package org.hupf.core.impl;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.Assert.assertEquals;

/** The array sizes sessions are allocated in: the smallest device's, asked once per device list. */
public class DeviceCellsTest {

    /** A device whose only answer is its size (or a refusal while size is negative), counting the questions. */
    private static HupfUpfDevice device(AtomicInteger size, AtomicInteger asked) {
        return (HupfUpfDevice) Proxy.newProxyInstance(HupfUpfDevice.class.getClassLoader(),
                new Class<?>[] {HupfUpfDevice.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("tableSize")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    asked.incrementAndGet();
                    if (size.get() < 0) {
                        throw new UpfProgrammableException("no pipeline yet");
                    }
                    return (long) size.get();
                });
    }

    @Test
    public void theSmallestDeviceSizeIsAskedOncePerDeviceList() {
        AtomicInteger asked = new AtomicInteger();
        List<HupfUpfDevice> two = List.of(device(new AtomicInteger(4096), asked),
                                          device(new AtomicInteger(1024), asked));
        AtomicReference<Collection<HupfUpfDevice>> devices = new AtomicReference<>(two);
        DeviceCells cells = new DeviceCells(devices::get, 7);
        for (int i = 0; i < 3; i++) {
            assertEquals(1024, cells.applyAsInt(UpfEntityType.COUNTER));
        }
        assertEquals(2, asked.get());

        devices.set(List.of(device(new AtomicInteger(2048), asked)));
        assertEquals(2048, cells.applyAsInt(UpfEntityType.COUNTER));
        assertEquals(3, asked.get());
    }

    @Test
    public void aNewListOfTheSameDevicesIsNotAskedAgain() {
        AtomicInteger asked = new AtomicInteger();
        HupfUpfDevice a = device(new AtomicInteger(4096), asked);
        HupfUpfDevice b = device(new AtomicInteger(1024), asked);
        DeviceCells cells = new DeviceCells(() -> new ArrayList<>(List.of(a, b)), 7);
        for (int i = 0; i < 3; i++) {
            assertEquals(1024, cells.applyAsInt(UpfEntityType.COUNTER));
        }
        assertEquals(2, asked.get());
    }

    @Test
    public void aDeviceThatCannotReportIsAskedAgain() {
        AtomicInteger asked = new AtomicInteger();
        AtomicInteger size = new AtomicInteger(-1);
        List<HupfUpfDevice> one = List.of(device(size, asked));
        DeviceCells cells = new DeviceCells(() -> one, 7);
        assertEquals(7, cells.applyAsInt(UpfEntityType.SESSION_METER));
        size.set(512);
        assertEquals(512, cells.applyAsInt(UpfEntityType.SESSION_METER));
        assertEquals(512, cells.applyAsInt(UpfEntityType.SESSION_METER));
        assertEquals(2, asked.get());
    }
}
