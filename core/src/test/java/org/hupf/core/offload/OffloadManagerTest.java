package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.api.OffloadEvent;
import org.hupf.api.OffloadMetrics;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class OffloadManagerTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("198.51.100.1");
    private static final long HOLD = 2_000;
    /** Per one-second poll: 1 MB is 8 Mbit/s (heavy), 1 kB is 8 kbit/s (a mouse); threshold 2 Mbit/s. */
    private static final long HEAVY = 1_000_000;
    private static final long MOUSE = 1_000;

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private FakeUpfDevice backend;
    private FakeUpfDevice hw;
    private final List<OffloadEvent> events = new ArrayList<>();

    @Before
    public void setUp() {
        backend = new FakeUpfDevice(1_000_000, 1_048_576, 65_536);
        hw = new FakeUpfDevice(2, 64, 16);
    }

    private OffloadManager manager(OffloadPolicy policy) throws UpfProgrammableException {
        OffloadManager m = new OffloadManager(backend, hw, policy, clock::get);
        m.addListener(events::add);
        return m;
    }

    private OffloadManager manager() throws UpfProgrammableException {
        return manager(OffloadPolicy.builder().thresholdBitsPerSec(2_000_000).holdMillis(HOLD).hysteresis(0.2)
                               .confirmReports(false).build());
    }

    public static Ip4Address ue(int i) {
        return Ip4Address.valueOf("10.250.0." + i);
    }

    public static UpfSessionUplink uplink(int i, long teid) {
        return UpfSessionUplink.builder().setTunDstAddr(N3).setTeid(teid).withUeAddress(ue(i))
                .setSessionMeterIdx(100 + i).build();
    }

    public static OffloadSession session(int i, long teid, int slice, int qfi) {
        List<UpfEntity> e = List.of(
                UpfGtpTunnelPeer.builder().withTunnelPeerId(1).withSrcAddr(N3)
                        .withDstAddr(Ip4Address.valueOf("192.0.2.1")).withSrcPort(2152).build(),
                UpfMeter.builder().setSession().setCellId(100 + i).setCommittedBand(1000, 100)
                        .setPeakBand(2000, 100).build(),
                UpfTerminationUplink.builder().withUeSessionId(ue(i)).withApplicationId(0)
                        .withCounterId(500_000 + 2 * i).withTrafficClass(0).withAppMeterIdx(0).build(),
                UpfTerminationDownlink.builder().withUeSessionId(ue(i)).withApplicationId(0)
                        .withCounterId(500_001 + 2 * i).withTeid(2000 + i).withQfi(qfi).withTrafficClass(0)
                        .withAppMeterIdx(0).build(),
                uplink(i, teid),
                UpfSessionDownlink.builder().withUeAddress(ue(i)).withGtpTunnelPeerId(1)
                        .withSessionMeterIdx(100 + i).build());
        return OffloadSession.of(ue(i), slice, List.of(qfi), e);
    }

    public static OffloadSession session(int i) {
        return session(i, 1000 + i, 1, 9);
    }

    /** One uplink packet of UE i: the switch takes it on a session hit, else it is steered to the backend. */
    private void send(int i, long bytes) {
        if (!hw.countUplink(uplink(i, 1000 + i), ue(i), bytes)) {
            assertTrue("the backend must hold every session", backend.countUplink(uplink(i, 1000 + i), ue(i), bytes));
        }
    }

    private void tick(OffloadManager m) {
        clock.addAndGet(1000);
        m.poll();
    }

    private List<OffloadEvent.Kind> kinds() {
        List<OffloadEvent.Kind> k = new ArrayList<>();
        events.forEach(e -> k.add(e.kind()));
        return k;
    }

    @Test
    public void everySessionGoesToTheBackendOnly() throws Exception {
        OffloadManager m = manager();
        for (int i = 1; i <= 3; i++) {
            m.put(session(i));
        }
        assertEquals(3, backend.count(UpfEntityType.SESSION_UPLINK));
        assertEquals(3, backend.count(UpfEntityType.TERMINATION_DOWNLINK));
        assertEquals("the gNB's tunnel peer is shared", 1, backend.count(UpfEntityType.TUNNEL_PEER));
        assertTrue(hw.log.isEmpty());
        assertEquals(Set.of(), m.offloaded());
    }

    @Test
    public void heavyHitterIsPromotedMakeBeforeBreakWithSwitchLocalCells() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        m.onHeavyHitter(ue(1));
        assertTrue(m.isOffloaded(ue(1)));
        assertEquals(List.of("apply TUNNEL_PEER", "apply SESSION_METER", "apply TERMINATION_UPLINK",
                             "apply TERMINATION_DOWNLINK", "apply SESSION_UPLINK", "apply SESSION_DOWNLINK"),
                     hw.log);
        assertEquals("one switch write (inside ONOS: one confirmation waited for)", 1, hw.inOrderApplies.size());
        for (UpfEntity e : hw.readAll(UpfEntityType.TERMINATION_UPLINK)) {
            assertTrue("switch counter cells lie within its array", ((UpfTerminationUplink) e).counterId() < 64);
        }
        for (UpfEntity e : hw.readAll(UpfEntityType.SESSION_UPLINK)) {
            int meter = ((UpfSessionUplink) e).sessionMeterIdx();
            assertTrue("meter cell " + meter, meter >= 1 && meter < 16);
        }
        assertEquals(List.of(OffloadEvent.Kind.HH_REPORT, OffloadEvent.Kind.PROMOTED), kinds());
        send(1, 100);
        assertEquals("the switch now carries the flow", 100, m.usage(ue(1)).hwBytes());
    }

    @Test
    public void coldSessionIsDemotedAfterTheHoldTimeSessionsFirst() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        tick(m);
        m.onHeavyHitter(ue(1));
        send(1, HEAVY);
        tick(m);
        assertTrue(m.isOffloaded(ue(1)));
        send(1, MOUSE);
        tick(m);
        tick(m);
        assertTrue("still inside the hold time", m.isOffloaded(ue(1)));
        tick(m);
        assertFalse("cold for the hold time", m.isOffloaded(ue(1)));
        List<String> deletes = hw.log.subList(hw.log.indexOf("delete SESSION_UPLINK"), hw.log.size());
        assertEquals(List.of("delete SESSION_UPLINK", "delete SESSION_DOWNLINK", "delete TERMINATION_UPLINK",
                             "delete TERMINATION_DOWNLINK", "delete SESSION_METER", "delete TUNNEL_PEER"), deletes);
        assertEquals("one switch removal", 1, hw.inOrderDeletes.size());
        assertEquals(0, hw.count(UpfEntityType.TERMINATION_UPLINK));
        assertTrue("the backend never lost it", backend.holds(uplink(1, 1001)));
        assertEquals(1, m.metrics().demotions());
    }

    @Test
    public void aSessionThatTurnsHeavyAgainWithinTheHoldTimeStays() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        m.onHeavyHitter(ue(1));
        tick(m);
        tick(m);
        send(1, HEAVY);
        tick(m);
        tick(m);
        send(1, HEAVY);
        tick(m);
        tick(m);
        assertTrue(m.isOffloaded(ue(1)));
    }

    @Test
    public void fullSwitchEvictsTheColdestOnlyForAClearlyHotterSession() throws Exception {
        OffloadManager m = manager();
        for (int i = 1; i <= 3; i++) {
            m.put(session(i));
        }
        tick(m);
        m.onHeavyHitter(ue(1));
        m.onHeavyHitter(ue(2));
        for (int t = 0; t < 3; t++) {
            send(1, 4 * HEAVY);
            send(2, HEAVY);
            send(3, HEAVY * 11 / 10);
            tick(m);
        }
        m.onHeavyHitter(ue(3));
        assertFalse("10 % hotter is inside the 20 % hysteresis", m.isOffloaded(ue(3)));
        assertEquals(OffloadEvent.Kind.REJECTED, events.get(events.size() - 1).kind());
        send(1, 4 * HEAVY);
        send(2, HEAVY);
        send(3, 2 * HEAVY);
        tick(m);
        m.onHeavyHitter(ue(3));
        assertEquals(Set.of(ue(1), ue(3)), m.offloaded());
        assertEquals(1, m.metrics().evictions());
        assertEquals(2, hw.count(UpfEntityType.SESSION_DOWNLINK));
    }

    @Test
    public void aFreshlyOffloadedSessionIsNotEvicted() throws Exception {
        OffloadManager m = manager();
        for (int i = 1; i <= 3; i++) {
            m.put(session(i));
        }
        m.onHeavyHitter(ue(1));
        m.onHeavyHitter(ue(2));
        send(3, 10 * HEAVY);
        tick(m);
        m.onHeavyHitter(ue(3));
        assertEquals("victims must have had the hold time on the switch", Set.of(ue(1), ue(2)), m.offloaded());
        assertEquals(1, m.metrics().rejections());
    }

    @Test
    public void pinsForceHardwareOrSoftware() throws Exception {
        OffloadManager m = manager(OffloadPolicy.builder().pinSlice(2, OffloadPolicy.Pin.HARDWARE)
                                           .pinUe(ue(3), OffloadPolicy.Pin.SOFTWARE).holdMillis(HOLD).build());
        m.put(session(1));
        m.put(session(2, 1002, 2, 9));
        m.put(session(3));
        assertEquals("slice 2 is pinned to hardware without any report", Set.of(ue(2)), m.offloaded());
        m.onHeavyHitter(ue(3));
        assertFalse("UE 3 is pinned to software", m.isOffloaded(ue(3)));
        for (int t = 0; t < 5; t++) {
            tick(m);
        }
        assertTrue("a pinned session is never demoted, even idle", m.isOffloaded(ue(2)));
    }

    /** A pinned session taken off the switch for its deletion stays off until it is tracked again. */
    @Test
    public void aSessionFallenBackForAChangeIsNotPutBackBeforeItIsTrackedAgain() throws Exception {
        OffloadManager m = manager(OffloadPolicy.builder().pinUe(ue(1), OffloadPolicy.Pin.HARDWARE)
                                           .holdMillis(HOLD).build());
        m.put(session(1));
        assertTrue(m.isOffloaded(ue(1)));
        assertTrue(m.fallBack(ue(1)));
        tick(m);
        m.onHeavyHitter(ue(1));
        assertFalse("not promoted again while its change is under way", m.isOffloaded(ue(1)));
        m.track(session(1));
        assertTrue("back on the switch once tracked again", m.isOffloaded(ue(1)));
        assertTrue(m.fallBack(ue(1)));
        m.remove(ue(1));
        assertEquals("promoted twice, demoted twice", List.of(OffloadEvent.Kind.PROMOTED, OffloadEvent.Kind.DEMOTED,
                     OffloadEvent.Kind.HH_REPORT, OffloadEvent.Kind.PROMOTED, OffloadEvent.Kind.DEMOTED), kinds());
    }

    @Test
    public void aHardwarePinEvictsEvenAFreshHeavyHitter() throws Exception {
        OffloadManager m = manager(OffloadPolicy.builder().pinQfi(1, OffloadPolicy.Pin.HARDWARE)
                                           .holdMillis(HOLD).confirmReports(false).build());
        m.put(session(1));
        m.put(session(2));
        m.onHeavyHitter(ue(1));
        m.onHeavyHitter(ue(2));
        m.put(session(3, 1003, 1, 1));
        assertTrue(m.isOffloaded(ue(3)));
        assertEquals(2, m.offloaded().size());
    }

    @Test
    public void countersAddUpAcrossMovesAndIgnoreAStaleSwitchCell() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        m.put(session(2));
        hw.setCounter(0, 7, 7777);
        hw.setCounter(1, 7, 7777);
        send(1, 1000);
        m.onHeavyHitter(ue(1));
        send(1, 5000);
        send(1, 5000);
        tick(m);
        for (int t = 0; t < 4; t++) {
            tick(m);
        }
        assertFalse(m.isOffloaded(ue(1)));
        send(1, 200);
        SessionUsage u = m.usage(ue(1));
        assertEquals(4, u.ingressPkts());
        assertEquals(11_200, u.ingressBytes());
        assertEquals(10_000, u.hwBytes());
        assertEquals(1_200, u.swBytes());
        m.onHeavyHitter(ue(1));
        send(1, 300);
        assertEquals("a second episode adds to the first", 11_500, m.usage(ue(1)).ingressBytes());
        assertEquals(10_300, m.remove(ue(1)).hwBytes());
    }

    @Test
    public void deletingASessionRemovesItFromBothTargetsButKeepsSharedPeers() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        m.put(session(2));
        m.onHeavyHitter(ue(1));
        m.onHeavyHitter(ue(2));
        m.remove(ue(1));
        assertFalse(hw.holds(uplink(1, 1001)));
        assertFalse(backend.holds(uplink(1, 1001)));
        assertEquals(1, hw.count(UpfEntityType.TERMINATION_UPLINK));
        assertEquals(1, backend.count(UpfEntityType.TERMINATION_UPLINK));
        assertEquals("UE 2 still uses the gNB peer", 1, hw.count(UpfEntityType.TUNNEL_PEER));
        m.remove(ue(2));
        assertEquals(0, hw.count(UpfEntityType.TUNNEL_PEER));
        assertEquals(0, backend.count(UpfEntityType.TUNNEL_PEER));
        assertEquals(0, hw.count(UpfEntityType.SESSION_METER));
        try {
            m.remove(ue(2));
            fail("a second delete must say the session is unknown");
        } catch (UpfProgrammableException expected) {
            assertTrue(expected.getMessage().contains("10.250.0.2"));
        }
    }

    @Test
    public void aModifiedSessionChangesBothTargets() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        m.onHeavyHitter(ue(1));
        m.put(session(1, 4242, 1, 9));
        for (FakeUpfDevice d : List.of(hw, backend)) {
            assertTrue(d.holds(uplink(1, 4242)));
            assertFalse("the old TEID is gone", d.holds(uplink(1, 1001)));
            assertEquals(1, d.count(UpfEntityType.TERMINATION_UPLINK));
        }
        assertTrue(m.isOffloaded(ue(1)));
    }

    @Test
    public void aFailedSwitchWriteLeavesNothingBehind() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        hw.failApplyOf = UpfEntityType.SESSION_DOWNLINK;
        m.onHeavyHitter(ue(1));
        assertFalse(m.isOffloaded(ue(1)));
        for (UpfEntityType t : UpfEntityType.values()) {
            assertEquals(t + " rolled back", 0, hw.count(t));
        }
        assertEquals(1, m.metrics().rejections());
        hw.failApplyOf = null;
        m.onHeavyHitter(ue(1));
        assertTrue("cells were given back, so a retry fits", m.isOffloaded(ue(1)));
    }

    @Test
    public void aBackendRejectionIsReportedAndKeepsThePreviousSession() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        backend.failApplyOf = UpfEntityType.SESSION_UPLINK;
        try {
            m.put(session(1, 4242, 1, 9));
            fail("the backend's error must reach the caller");
        } catch (UpfProgrammableException expected) {
            assertTrue(expected.getMessage().contains("SESSION_UPLINK"));
        }
        assertTrue(backend.holds(uplink(1, 1001)));
        assertFalse(backend.holds(uplink(1, 4242)));
    }

    @Test
    public void metricsReportOccupancyReportRateAndPathShares() throws Exception {
        OffloadManager m = manager();
        m.put(session(1));
        m.put(session(2));
        send(2, 3000);
        m.onHeavyHitter(ue(1));
        m.onHeavyHitter(ue(7));
        send(1, 1000);
        m.poll();
        OffloadMetrics x = m.metrics();
        assertEquals(2, x.sessions());
        assertEquals(1, x.offloaded());
        assertEquals(2, x.hhReports());
        assertEquals(0.2, x.hhReportsPerSec(), 1e-9);
        assertEquals(1, x.occupancy().get(UpfEntityType.SESSION_DOWNLINK)[0]);
        assertEquals(2, x.occupancy().get(UpfEntityType.SESSION_DOWNLINK)[1]);
        assertEquals(0.25, x.hwShare(), 1e-9);
        assertTrue(x.toJson().contains("\"offloaded\":1"));
        assertEquals(3000, m.lastUsages().get(ue(2)).swBytes());
        assertEquals(1000, m.lastUsages().get(ue(1)).hwBytes());
        clock.addAndGet(11_000);
        assertEquals(0.0, m.metrics().hhReportsPerSec(), 1e-9);
    }

    @Test
    public void withoutASwitchEverythingStaysInSoftware() throws Exception {
        OffloadManager m = new OffloadManager(backend, null, OffloadPolicy.builder().build(), clock::get);
        m.put(session(1));
        m.onHeavyHitter(ue(1));
        send(1, 500);
        m.poll();
        assertFalse(m.isOffloaded(ue(1)));
        assertEquals(500, m.usage(ue(1)).swBytes());
        assertTrue(m.metrics().occupancy().isEmpty());
    }

    @Test
    public void aSessionCannotCarryDeviceWideEntities() {
        try {
            OffloadSession.of(ue(1), 1, List.of(9), List.of(UpfInterface.builder().setAccess()
                    .setPrefix(Ip4Prefix.valueOf("198.51.100.1/32")).setSliceId(1).build()));
            fail("an interface belongs to the device, not a session");
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage().contains("interface"));
        }
    }

    @Test
    public void aReportMovesASessionOnlyOnceItsCountersConfirmIt() throws Exception {
        OffloadManager m = manager(OffloadPolicy.builder().thresholdBitsPerSec(2_000_000).holdMillis(HOLD).build());
        m.put(session(1));
        m.put(session(2));
        send(1, MOUSE);
        tick(m);
        m.onHeavyHitter(ue(1));
        assertFalse("a mouse's report waits for its counters", m.isOffloaded(ue(1)));
        send(1, MOUSE);
        tick(m);
        tick(m);
        tick(m);
        assertFalse(m.isOffloaded(ue(1)));
        assertEquals("unconfirmed after the hold time", 1, m.metrics().unconfirmed());
        m.onHeavyHitter(ue(2));
        send(2, HEAVY);
        tick(m);
        assertTrue("confirmed at the next poll", m.isOffloaded(ue(2)));
        send(1, HEAVY);
        tick(m);
        m.onHeavyHitter(ue(1));
        assertTrue("already measured heavy: moved at once", m.isOffloaded(ue(1)));
    }
}
