package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** One or more instances of every writable UPF entity type and variant, with values at field edges. */
public final class UpfEntities {

    public static final Ip4Address N3 = Ip4Address.valueOf("192.0.2.1");
    public static final Ip4Address GNB = Ip4Address.valueOf("192.0.2.2");
    public static final Ip4Address UE = Ip4Address.valueOf("10.45.0.7");
    public static final Ip4Address UE_HIGH = Ip4Address.valueOf("255.255.255.254");
    /** The edge VTEP of a tunnel peer in a VXLAN overlay. */
    public static final Ip4Address EDGE_VTEP = Ip4Address.valueOf("198.51.100.9");

    private UpfEntities() {
    }

    /**
     * Asserts that a device holds every entity of {@link #all()}, type by type (meters: every cell reads
     * back, the configured ones as written).
     *
     * @param device device the entities were applied to
     * @param label  for failure messages
     * @throws UpfProgrammableException if a read fails
     */
    public static void assertHoldsAll(HupfUpfDevice device, String label) throws UpfProgrammableException {
        assertHoldsAll(device, label, all());
    }

    /**
     * Asserts that a device holds every entity of a list, type by type, and nothing else (meters: every cell
     * reads back, the configured ones as written).
     *
     * @param device  device the entities were applied to
     * @param label   for failure messages
     * @param applied the entities applied
     * @throws UpfProgrammableException if a read fails
     */
    public static void assertHoldsAll(HupfUpfDevice device, String label, List<UpfEntity> applied)
            throws UpfProgrammableException {
        for (UpfEntityType type : UpfEntityType.values()) {
            if (type == UpfEntityType.COUNTER) {
                continue;
            }
            List<UpfEntity> expected = applied.stream().filter(e -> e.type() == type).collect(Collectors.toList());
            Collection<? extends UpfEntity> read = device.readAll(type);
            if (type == UpfEntityType.SESSION_METER || type == UpfEntityType.APPLICATION_METER) {
                assertEquals(label + " " + type, device.tableSize(type), read.size());
                assertTrue(label + " " + type + ": " + expected, read.containsAll(expected));
            } else {
                assertEquals(label + " " + type, new HashSet<>(expected), new HashSet<>(read));
            }
        }
    }

    /**
     * Returns the entities of {@link #all()} a pipeline can hold: the Tofino programs have no VXLAN overlay.
     *
     * @param translator the pipeline's translator
     * @return entities whose table the pipeline has
     */
    public static List<UpfEntity> heldBy(UpfTranslator translator) {
        return all().stream().filter(e -> translator.holds(e.type())).collect(Collectors.toList());
    }

    public static List<UpfEntity> all() {
        return List.of(
                UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("192.0.2.1/32")).setAccess().setSliceId(15).build(),
                UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("10.45.0.0/16")).setCore().build(),
                UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("0.0.0.0/0")).setCore().setSliceId(3).build(),
                UpfSessionUplink.builder().setTunDstAddr(N3).setTeid(0xFFFFFFFFL).withUeAddress(UE)
                        .setSessionMeterIdx(5).build(),
                UpfSessionUplink.builder().setTunDstAddr(N3).setTeid(1).needsDropping(true).build(),
                UpfSessionDownlink.builder().withUeAddress(UE).withGtpTunnelPeerId(255).withSessionMeterIdx(7).build(),
                UpfSessionDownlink.builder().withUeAddress(UE_HIGH).needsBuffering(true).withSessionMeterIdx(1).build(),
                UpfSessionDownlink.builder().withUeAddress(GNB).needsDropping(true).build(),
                UpfTerminationUplink.builder().withUeSessionId(UE).withApplicationId(255).withCounterId(42)
                        .withTrafficClass(3).withAppMeterIdx(9).build(),
                UpfTerminationUplink.builder().withUeSessionId(UE).withCounterId(0).needsDropping(true).build(),
                UpfTerminationDownlink.builder().withUeSessionId(UE).withApplicationId(1).withCounterId(43)
                        .withTeid(0x80000001L).withQfi(63).withTrafficClass(2).withAppMeterIdx(3).build(),
                UpfTerminationDownlink.builder().withUeSessionId(UE_HIGH).withCounterId(44).needsDropping(true).build(),
                UpfGtpTunnelPeer.builder().withTunnelPeerId(1).withSrcAddr(N3).withDstAddr(GNB).build(),
                UpfGtpTunnelPeer.builder().withTunnelPeerId(255).withSrcAddr(N3).withDstAddr(UE_HIGH)
                        .withSrcPort(65535).build(),
                UpfGtpTunnelPeer.builder().withTunnelPeerId(2).withSrcAddr(N3).withDstAddr(GNB)
                        .withRoutingDst(EDGE_VTEP).build(),
                UpfPeerVxlan.builder().withTunnelPeerId(2).withVni(UpfPeerVxlan.MAX_VNI).withVteps(N3, EDGE_VTEP)
                        .withInnerMacs(MacAddress.valueOf("02:00:00:00:00:01"), MacAddress.valueOf("ff:ff:ff:ff:ff:fe"))
                        .build(),
                UpfApplication.builder().withIp4Prefix(Ip4Prefix.valueOf("198.51.100.0/24")).withL4PortRange(80, 443)
                        .withIpProto(6).withSliceId(2).withAppId(255).withPriority(0).build(),
                UpfApplication.builder().withIpProto(17).withAppId(1).withPriority(Integer.MAX_VALUE - 1).build(),
                UpfApplication.builder().withL4PortRange(0, 0).withAppId(2).withPriority(10).build(),
                UpfMeter.builder().setSession().setCellId(1).setCommittedBand(125_000, 1500)
                        .setPeakBand(250_000, 3000).build(),
                UpfMeter.builder().setApplication().setCellId(3).setPeakBand(1_000_000, 10_000).build(),
                UpfMeter.resetMeter(UpfMeter.Type.SESSION, 0));
    }
}
