package org.hupf.pipeconf.pdrfar;

import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.behaviour.upf.ForwardingActionRule;
import org.onosproject.net.behaviour.upf.PacketDetectionRule;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * ONOS 2.7 PDR/FAR onto hupf entities: the join, any arrival order, shared tunnel peers, and refusals.
 */
public class PdrFarStateTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.0.2.1");
    private static final Ip4Address GNB = Ip4Address.valueOf("192.0.2.2");
    private static final Ip4Address UE1 = Ip4Address.valueOf("10.0.0.1");
    private static final Ip4Address UE2 = Ip4Address.valueOf("10.0.0.2");
    private static final long SESSION = 0xABCDL;

    private PdrFarState state;
    private RecordingUpfDevice device;

    @Before
    public void setUp() {
        state = new PdrFarState();
        device = new RecordingUpfDevice();
    }

    static PacketDetectionRule uplinkPdr(int teid, int ctr, int far) {
        return PacketDetectionRule.builder().withSessionId(SESSION).withCounterId(ctr)
                .withLocalFarId(far).withTunnel(ImmutableByteSequence.copyFrom(teid), N3).build();
    }

    static PacketDetectionRule downlinkPdr(Ip4Address ue, int ctr, int far) {
        return PacketDetectionRule.builder().withSessionId(SESSION).withUeAddr(ue).withCounterId(ctr)
                .withLocalFarId(far).build();
    }

    static ForwardingActionRule forwardFar(int far) {
        return ForwardingActionRule.builder().withSessionId(SESSION).setFarId(far).setForwardFlag(true).build();
    }

    static ForwardingActionRule encapFar(int far, long teid) {
        return ForwardingActionRule.builder().withSessionId(SESSION).setFarId(far).setForwardFlag(true)
                .setTunnel(N3, GNB, ImmutableByteSequence.copyFrom((int) teid), (short) 2152).build();
    }

    static ForwardingActionRule dropFar(int far) {
        return ForwardingActionRule.builder().withSessionId(SESSION).setFarId(far).setDropFlag(true).build();
    }

    @Test
    public void uplinkPdrWaitsForItsFarAndUeThenBecomesSessionAndTermination() throws Exception {
        state.addPdr(uplinkPdr(0x100, 7, 1), device);
        assertTrue("nothing without the FAR", device.entries.isEmpty());
        state.addFar(forwardFar(1), device);
        assertTrue("nothing without the session's UE", device.entries.isEmpty());
        state.addFar(dropFar(5), device);
        state.addPdr(downlinkPdr(UE1, 70, 5), device);
        UpfSessionUplink s = device.all(UpfSessionUplink.class).get(0);
        assertEquals(N3, s.tunDstAddr());
        assertEquals(0x100, s.teid());
        assertEquals(UE1, s.ueAddress().orElseThrow());
        assertFalse(s.needsDropping());
        UpfTerminationUplink t = device.all(UpfTerminationUplink.class).get(0);
        assertEquals(UE1, t.ueSessionId());
        assertEquals(0, t.applicationId());
        assertEquals(7, t.counterId());
    }

    @Test
    public void changingTheFarToDropRewritesTheSession() throws Exception {
        state.addPdr(downlinkPdr(UE1, 70, 5), device);
        state.addFar(forwardFar(1), device);
        state.addPdr(uplinkPdr(0x100, 7, 1), device);
        state.addFar(dropFar(1), device);
        assertEquals(2, device.all(UpfSessionUplink.class).size() + device.all(UpfTerminationUplink.class).size());
        assertTrue(device.all(UpfSessionUplink.class).get(0).needsDropping());
        assertTrue(device.all(UpfTerminationUplink.class).get(0).needsDropping());
    }

    @Test
    public void downlinkPdrsShareTheTunnelPeerOfEqualTunnels() throws Exception {
        state.addFar(encapFar(2, 0x200), device);
        state.addFar(ForwardingActionRule.builder().withSessionId(SESSION).setFarId(3).setForwardFlag(true)
                             .setTunnel(N3, GNB, ImmutableByteSequence.copyFrom(0x300), (short) 2152).build(), device);
        state.addPdr(downlinkPdr(UE1, 8, 2), device);
        state.addPdr(downlinkPdr(UE2, 9, 3), device);
        assertEquals(1, device.all(UpfGtpTunnelPeer.class).size());
        UpfGtpTunnelPeer peer = device.all(UpfGtpTunnelPeer.class).get(0);
        assertEquals(N3, peer.src());
        assertEquals(GNB, peer.dst());
        for (UpfSessionDownlink s : device.all(UpfSessionDownlink.class)) {
            assertEquals(peer.tunPeerId(), s.tunPeerId());
        }
        assertEquals(2, device.all(UpfTerminationDownlink.class).size());
        // The peer stays while one PDR still uses it.
        state.removePdr(downlinkPdr(UE1, 8, 2).withoutActionParams(), device);
        assertEquals(1, device.all(UpfGtpTunnelPeer.class).size());
        state.removePdr(downlinkPdr(UE2, 9, 3).withoutActionParams(), device);
        assertTrue(device.entries.isEmpty());
    }

    @Test
    public void downlinkTerminationCarriesTheFarTeidAndDefaultQfi() throws Exception {
        state.setDefaultQfi(9);
        state.addFar(encapFar(2, 0xBEEF), device);
        state.addPdr(downlinkPdr(UE1, 8, 2), device);
        UpfTerminationDownlink t = device.all(UpfTerminationDownlink.class).get(0);
        assertEquals(0xBEEF, t.teid());
        assertEquals(9, t.qfi());
        assertEquals(8, t.counterId());
    }

    @Test
    public void removingTheFarUninstallsItsPdrsButKeepsThemForLater() throws Exception {
        state.addPdr(downlinkPdr(UE1, 70, 5), device);
        state.addFar(forwardFar(1), device);
        state.addPdr(uplinkPdr(0x100, 7, 1), device);
        state.removeFar(forwardFar(1), device);
        assertTrue(device.entries.isEmpty());
        assertEquals(2, state.pdrs().size());
        state.addFar(forwardFar(1), device);
        assertEquals(2, device.entries.size());
    }

    @Test
    public void qfiMatchingIsRefusedWithAReason() {
        try {
            state.addPdr(PacketDetectionRule.builder().withSessionId(SESSION).withCounterId(1)
                                 .withLocalFarId(1).withTunnel(ImmutableByteSequence.copyFrom(1), N3, (byte) 5)
                                 .withQfiMatch().build(), device);
            fail("accepted");
        } catch (UpfProgrammableException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("QFI"));
            assertEquals(UpfProgrammableException.Type.UNSUPPORTED_OPERATION, e.getType());
        }
    }

    @Test
    public void uplinkFarThatEncapsulatesIsRefused() throws Exception {
        state.addPdr(downlinkPdr(UE1, 70, 5), device);
        state.addPdr(uplinkPdr(0x100, 7, 1), device);
        try {
            state.addFar(encapFar(1, 5), device);
            fail("accepted");
        } catch (UpfProgrammableException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("uplink"));
        }
        assertTrue(device.entries.isEmpty());
    }
}
