package org.hupf.pipeconf.api;

import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.HashSet;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.fail;
import static org.junit.Assert.assertTrue;

public class UpfEntitiesTest {

    private static final Ip4Address UE = Ip4Address.valueOf("10.250.0.1");

    private static String error(Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        fail("no IllegalArgumentException");
        return null;
    }

    @Test
    public void buildersRejectOutOfRangeFieldsWithTheFieldName() {
        assertEquals("sliceId 16 out of range [0, 15]", error(() -> UpfInterface.builder()
                .setPrefix(Ip4Prefix.valueOf("10.0.0.0/24")).setAccess().setSliceId(16).build()));
        assertEquals("tunPeerId is required", error(() -> UpfSessionDownlink.builder().withUeAddress(UE).build()));
        assertEquals("teid 4294967296 out of range [0, 4294967295]", error(() -> UpfSessionUplink.builder()
                .setTunDstAddr(UE).setTeid(1L << 32).build()));
        assertEquals("qfi 64 out of range [0, 63]", error(() -> UpfTerminationDownlink.builder()
                .withUeSessionId(UE).withCounterId(1).withTeid(5).withQfi(64).build()));
        assertEquals("trafficClass 4 out of range [0, 3]", error(() -> UpfTerminationUplink.builder()
                .withUeSessionId(UE).withCounterId(1).withTrafficClass(4).build()));
        assertEquals("appId 0 out of range [1, 255]", error(() -> UpfApplication.builder()
                .withIpProto(17).withAppId(0).build()));
        assertEquals("l4PortRange high 10 out of range [20, 65535]",
                     error(() -> UpfApplication.builder().withL4PortRange(20, 10)));
        assertEquals("peakRate 5 out of range [10, 9223372036854775807]", error(() -> UpfMeter.builder()
                .setSession().setCellId(1).setCommittedBand(10, 10).setPeakBand(5, 10).build()));
        assertEquals("a downlink session cannot both buffer and drop", error(() -> UpfSessionDownlink.builder()
                .withUeAddress(UE).needsBuffering(true).needsDropping(true).build()));
    }

    @Test
    public void valueSemanticsCoverEveryField() {
        UpfTerminationDownlink a = UpfTerminationDownlink.builder().withUeSessionId(UE).withCounterId(3)
                .withTeid(0xFFFFFFFFL).withQfi(9).withApplicationId(2).build();
        UpfTerminationDownlink b = UpfTerminationDownlink.builder().withUeSessionId(UE).withCounterId(3)
                .withTeid(0xFFFFFFFFL).withQfi(9).withApplicationId(2).build();
        UpfTerminationDownlink c = UpfTerminationDownlink.builder().withUeSessionId(UE).withCounterId(3)
                .withTeid(0xFFFFFFFFL).withQfi(8).withApplicationId(2).build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, c);
        assertTrue(a.toString().contains("teid=4294967295"));
        assertEquals(UpfEntityType.TERMINATION_DOWNLINK, a.type());
    }

    @Test
    public void meterTypeFollowsItsArrayAndResetHasNoBands() {
        UpfMeter reset = UpfMeter.resetMeter(UpfMeter.Type.APPLICATION, 7);
        assertEquals(UpfEntityType.APPLICATION_METER, reset.type());
        assertTrue(reset.isReset());
        UpfMeter m = UpfMeter.builder().setSession().setCellId(7).setPeakBand(1000, 100).build();
        assertEquals(UpfEntityType.SESSION_METER, m.type());
        assertEquals(0, m.committedRate());
        assertNotEquals(reset, UpfMeter.resetMeter(UpfMeter.Type.SESSION, 7));
    }

    @Test
    public void bufferingDownlinkSessionHasNoPeer() {
        UpfSessionDownlink s = UpfSessionDownlink.builder().withUeAddress(UE).needsBuffering(true).build();
        assertEquals(0, s.tunPeerId());
        assertEquals("a buffering or dropping downlink session has no tunPeerId", error(() ->
                UpfSessionDownlink.builder().withUeAddress(UE).needsDropping(true).withGtpTunnelPeerId(3).build()));
    }

    @Test
    public void consecutiveSessionsHashApart() {
        // Sessions' UE addresses, TEIDs and cells move in step: their entities must not share hash codes, or the
        // session core's maps of them degrade into trees.
        Set<Integer> downlinks = new HashSet<>();
        Set<Integer> terminations = new HashSet<>();
        Set<Integer> uplinks = new HashSet<>();
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            Ip4Address ue = Ip4Address.valueOf(UE.toInt() + i);
            downlinks.add(UpfSessionDownlink.builder().withUeAddress(ue).withGtpTunnelPeerId(1)
                                  .withSessionMeterIdx(i).build().hashCode());
            terminations.add(UpfTerminationDownlink.builder().withUeSessionId(ue).withCounterId(2 * i)
                                     .withTeid(0x100 + i).build().hashCode());
            uplinks.add(UpfSessionUplink.builder().setTunDstAddr(UE).setTeid(0x100 + 2L * i).withUeAddress(ue)
                                .build().hashCode());
        }
        assertEquals(n, downlinks.size());
        assertEquals(n, terminations.size());
        assertEquals(n, uplinks.size());
    }
}
