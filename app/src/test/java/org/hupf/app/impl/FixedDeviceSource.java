package org.hupf.app.impl;

import org.hupf.api.UpfDeviceSource;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.onlab.packet.Ip4Address;

import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/** Fixed devices as the manager's source; the usage-change feed it is given is kept for a test to look at. */
final class FixedDeviceSource implements UpfDeviceSource {

    private final List<HupfUpfDevice> devices;
    volatile Consumer<Collection<Ip4Address>> usageFeed;

    FixedDeviceSource(HupfUpfDevice... devices) {
        this.devices = List.of(devices);
    }

    @Override
    public Collection<HupfUpfDevice> devices() {
        return devices;
    }

    @Override
    public void feedUsageChanges(Consumer<Collection<Ip4Address>> feed) {
        usageFeed = feed;
    }
}
