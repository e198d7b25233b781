package org.hupf.pipeconf.behaviour;

import com.google.common.collect.ImmutableMap;
import org.hupf.pipeconf.upf.Pipelines;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onosproject.cluster.NodeId;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipInfo;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.basics.BasicDeviceConfig;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.service.PiPipeconfEvent;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.p4runtime.api.P4RuntimeClient;
import org.onosproject.p4runtime.api.P4RuntimeController;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.easymock.EasyMock.anyObject;
import static org.easymock.EasyMock.createMock;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

/**
 * A backend's write set-up is kept between writes, and not used once something it was derived from may have
 * changed: a device's netcfg, the device, its mastership, the device's client re-created.
 */
public class BackendWriteSetupsTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:backend:b1");

    private final AtomicReference<P4RuntimeClient> clientNow = new AtomicReference<>();
    private P4RuntimeController controller;
    private PiPipeconf pipeconf;

    @Before
    public void setUp() {
        controller = createMock(P4RuntimeController.class);
        expect(controller.get(anyObject(DeviceId.class))).andAnswer(clientNow::get).anyTimes();
        replay(controller);
        pipeconf = createMock(PiPipeconf.class);
        expect(pipeconf.pipelineModel()).andReturn(Pipelines.model("sw")).anyTimes();
        replay(pipeconf);
        clientNow.set(createMock(P4RuntimeClient.class));
        BackendWriteSetups.dropAll();
    }

    private BackendWriteSetups.Setup keepOne() {
        BackendWriteSetups.Setup s = new BackendWriteSetups.Setup(BackendWriteSetups.epoch(), controller,
                                                                  clientNow.get(), 1, pipeconf,
                                                                  new MastershipServiceAdapter());
        BackendWriteSetups.keep(DEV, s);
        return s;
    }

    @Test
    public void aKeptSetupIsUsedWhileNothingChanged() {
        BackendWriteSetups.Setup s = keepOne();
        assertSame(s, BackendWriteSetups.current(DEV));
        assertSame("the same again", s, BackendWriteSetups.current(DEV));
        assertNull("another device has none", BackendWriteSetups.current(DeviceId.deviceId("device:backend:b2")));
    }

    @Test
    public void aReCreatedClientMakesTheSetupStale() {
        keepOne();
        clientNow.set(createMock(P4RuntimeClient.class));
        assertNull(BackendWriteSetups.current(DEV));
        clientNow.set(null);
        assertNull("no client at all", BackendWriteSetups.current(DEV));
    }

    @Test
    public void aSetupDerivedBeforeADropIsNotUsedEvenIfKeptAfterIt() {
        long before = BackendWriteSetups.epoch();
        BackendWriteSetups.dropAll();
        BackendWriteSetups.keep(DEV, new BackendWriteSetups.Setup(before, controller, clientNow.get(), 1, pipeconf,
                                                                  new MastershipServiceAdapter()));
        assertNull(BackendWriteSetups.current(DEV));
    }

    @Test
    public void netcfgDeviceMastershipAndPipeconfChangesDropTheSetups() {
        BackendWriteSetupWatch watch = new BackendWriteSetupWatch();
        NetworkConfigEvent netcfg = new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, DEV,
                                                           BasicDeviceConfig.class);
        Device device = new DefaultDevice(ProviderId.NONE, DEV, Device.Type.SWITCH, "hupf", "1", "1", "1", new ChassisId());
        MastershipEvent master = new MastershipEvent(MastershipEvent.Type.MASTER_CHANGED, DEV,
                new MastershipInfo(2, Optional.of(NodeId.nodeId("onos-2")), ImmutableMap.of()));
        Runnable[] changes = {
            () -> watch.netcfgListener.event(netcfg),
            () -> watch.deviceListener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, device)),
            () -> watch.mastershipListener.event(master),
            () -> watch.pipeconfListener.event(new PiPipeconfEvent(PiPipeconfEvent.Type.REGISTERED,
                                                                   new PiPipeconfId("org.hupf.other"))),
        };
        for (Runnable change : changes) {
            keepOne();
            assertNotNull(BackendWriteSetups.current(DEV));
            change.run();
            assertNull(BackendWriteSetups.current(DEV));
        }
        BackendWriteSetups.Setup kept = keepOne();
        watch.deviceListener.event(new DeviceEvent(DeviceEvent.Type.PORT_STATS_UPDATED, device));
        watch.mastershipListener.event(new MastershipEvent(MastershipEvent.Type.BACKUPS_CHANGED, DEV,
                                                           master.mastershipInfo()));
        watch.netcfgListener.event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, "hupf-app",
                                                          BasicDeviceConfig.class));
        assertSame("port statistics, backups and another subject's netcfg change no set-up", kept,
                   BackendWriteSetups.current(DEV));
    }
}
