package org.hupf.app.offload;

import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.HupfUpf;
import org.junit.Test;
import org.onlab.packet.Ethernet;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.pi.model.PiPipeconfId;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.easymock.EasyMock.createMock;
import static org.hupf.pipeconf.HupfConstants.PKTIN_ACL_PUNT;
import static org.hupf.pipeconf.HupfConstants.PKTIN_HH_REPORT;
import static org.easymock.EasyMock.expect;
import static org.easymock.EasyMock.replay;
import static org.junit.Assert.assertEquals;

public class OffloadComponentTest {

    private static Device device(String id, boolean hupf) {
        Device d = createMock(Device.class);
        expect(d.id()).andReturn(DeviceId.deviceId(id)).anyTimes();
        expect(d.is(HupfUpf.class)).andReturn(hupf).anyTimes();
        replay(d);
        return d;
    }

    @Test
    public void backendAndSwitchAreToldApartByTheirPipeconf() {
        Map<String, PiPipeconfId> pipeconfs = Map.of("device:other", new PiPipeconfId("org.onosproject.basic"),
                                                     "device:s1", HupfPipeconfIds.BMV2,
                                                     "device:b1", HupfPipeconfIds.BACKEND,
                                                     "device:broken", HupfPipeconfIds.BACKEND);
        List<Device> devices = List.of(device("device:other", false), device("device:broken", false),
                                       device("device:s1", true), device("device:b1", true));
        assertEquals(Optional.of(DeviceId.deviceId("device:b1")),
                     OffloadComponent.pick(devices, id -> Optional.ofNullable(pipeconfs.get(id.toString())),
                                           Set.of(HupfPipeconfIds.BACKEND)));
        assertEquals(Optional.of(DeviceId.deviceId("device:s1")),
                     OffloadComponent.pick(devices, id -> Optional.ofNullable(pipeconfs.get(id.toString())),
                                           Set.of(HupfPipeconfIds.BMV2, HupfPipeconfIds.TOFINO)));
        assertEquals(Optional.empty(), OffloadComponent.pick(List.of(device("device:x", true)), id -> Optional.empty(),
                                                             Set.of(HupfPipeconfIds.BACKEND)));
    }

    private static InboundPacket packetIn(long reason, byte[] payload) {
        return new DefaultInboundPacket(new ConnectPoint(DeviceId.deviceId("device:s1"), PortNumber.portNumber(1)),
                                        new Ethernet(), ByteBuffer.wrap(payload), Optional.of(reason));
    }

    @Test
    public void anHhReportPacketInNamesItsUeOthersNone() {
        byte[] report = ByteBuffer.allocate(12 + 14).putInt(Ip4Address.valueOf("10.250.0.7").toInt()).array();
        assertEquals(Optional.of(Ip4Address.valueOf("10.250.0.7")),
                     OffloadComponent.reportedUe(packetIn(PKTIN_HH_REPORT, report)));
        assertEquals(Optional.empty(), OffloadComponent.reportedUe(packetIn(PKTIN_ACL_PUNT, report)));
        assertEquals("an undefined reason is ignored", Optional.empty(),
                     OffloadComponent.reportedUe(packetIn(99, report)));
    }
}
