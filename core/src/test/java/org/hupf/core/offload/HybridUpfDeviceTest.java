package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import static org.hupf.core.offload.OffloadManagerTest.session;
import static org.hupf.core.offload.OffloadManagerTest.ue;
import static org.hupf.core.offload.OffloadManagerTest.uplink;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The hybrid device driven entity by entity, in the order a session manager writes (interfaces, then
 * per session: peer, meter, sessions, terminations; deletions in reverse).
 */
public class HybridUpfDeviceTest {

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private FakeUpfDevice backend;
    private FakeUpfDevice hw;
    private OffloadManager manager;
    private HybridUpfDevice hybrid;

    @Before
    public void setUp() throws UpfProgrammableException {
        backend = new FakeUpfDevice(1_000_000, 1_048_576, 65_536);
        hw = new FakeUpfDevice(4, 64, 16);
        manager = new OffloadManager(backend, hw, OffloadPolicy.builder().holdMillis(2000).confirmReports(false)
                .pinSlice(7, OffloadPolicy.Pin.HARDWARE).build(), clock::get);
        hybrid = new HybridUpfDevice(backend, hw, manager, false);
        hybrid.apply(UpfInterface.builder().setAccess().setSliceId(1)
                             .setPrefix(Ip4Prefix.valueOf("198.51.100.1/32")).build());
        hybrid.apply(UpfInterface.builder().setCore().setSliceId(1)
                             .setPrefix(Ip4Prefix.valueOf("10.250.0.0/24")).build());
    }

    private void install(int i) throws UpfProgrammableException {
        for (UpfEntity e : session(i).entities()) {
            hybrid.apply(e);
        }
    }

    @Test
    public void sessionsGoToTheBackendAndInterfacesToBoth() throws Exception {
        install(1);
        assertEquals(2, hw.count(UpfEntityType.INTERFACE));
        assertEquals(2, backend.count(UpfEntityType.INTERFACE));
        assertEquals(0, hw.count(UpfEntityType.SESSION_DOWNLINK));
        assertTrue(backend.holds(uplink(1, 1001)));
        assertTrue(manager.isTracked(ue(1)));
        assertEquals("reads show the logical device: the backend", 1,
                     hybrid.readAll(UpfEntityType.TERMINATION_UPLINK).size());
    }

    @Test
    public void aReportedUeIsMirroredWithItsPeerAndMeter() throws Exception {
        install(1);
        install(2);
        manager.onHeavyHitter(ue(1));
        assertTrue(hw.holds(uplink(1, 1001)));
        assertFalse(hw.holds(uplink(2, 1002)));
        assertEquals(1, hw.count(UpfEntityType.TUNNEL_PEER));
        assertEquals(1, hw.count(UpfEntityType.SESSION_METER));
        assertEquals(2, hw.count(UpfEntityType.TERMINATION_UPLINK) + hw.count(UpfEntityType.TERMINATION_DOWNLINK));
    }

    @Test
    public void counterReadsAddWhatTheSwitchCarried() throws Exception {
        install(1);
        backend.countUplink(uplink(1, 1001), ue(1), 100);
        manager.onHeavyHitter(ue(1));
        hw.countUplink(uplink(1, 1001), ue(1), 900);
        assertEquals(1000, hybrid.readCounter(500_002).ingressBytes());
        assertEquals(2, hybrid.readCounter(500_002).ingressPkts());
        assertEquals(0, hybrid.readCounter(500_003).ingressBytes());
    }

    @Test
    public void removingPartOfAnOffloadedSessionFallsBackFirstThenDeletingAllForgetsIt() throws Exception {
        install(1);
        manager.onHeavyHitter(ue(1));
        UpfTerminationUplink term = (UpfTerminationUplink) session(1).entities().get(2);
        hybrid.delete(term);
        assertFalse("off the switch before the backend lost the termination", hw.holds(uplink(1, 1001)));
        assertFalse(backend.holds(term));
        assertFalse(manager.isOffloaded(ue(1)));
        for (UpfEntity e : session(1).entities()) {
            if (!e.equals(term)) {
                hybrid.delete(e);
            }
        }
        assertFalse(manager.isTracked(ue(1)));
        assertEquals(0, backend.count(UpfEntityType.TUNNEL_PEER));
        assertEquals(0, hw.count(UpfEntityType.TUNNEL_PEER));
    }

    @Test
    public void aChangedTunnelPeerReachesTheOffloadedSessions() throws Exception {
        install(1);
        manager.onHeavyHitter(ue(1));
        UpfGtpTunnelPeer moved = UpfGtpTunnelPeer.builder().withTunnelPeerId(1)
                .withSrcAddr(Ip4Address.valueOf("198.51.100.1")).withDstAddr(Ip4Address.valueOf("192.0.2.99"))
                .withSrcPort(2152).build();
        hybrid.apply(moved);
        assertTrue(hw.readAll(UpfEntityType.TUNNEL_PEER).contains(moved));
        assertTrue(manager.isOffloaded(ue(1)));
    }

    /** A UE's slice is worked out once, and again after the core pools changed. */
    @Test
    public void aPoolAddedAfterAUesSessionDecidesItsSliceAtTheSessionsNextChange() throws Exception {
        install(9);
        assertEquals("slice 1's pool: no pin", Set.of(), manager.offloaded());
        hybrid.apply(UpfInterface.builder().setCore().setSliceId(7)
                             .setPrefix(Ip4Prefix.valueOf("10.250.0.8/29")).build());
        hybrid.apply(session(9).entities().get(2));
        assertEquals("now in slice 7's pool, pinned to hardware", Set.of(ue(9)), manager.offloaded());
    }

    @Test
    public void theSliceOfTheUePoolDecidesSlicePins() throws Exception {
        hybrid.apply(UpfInterface.builder().setCore().setSliceId(7)
                             .setPrefix(Ip4Prefix.valueOf("10.250.0.8/29")).build());
        install(9);
        install(1);
        assertEquals("UE 9 is in slice 7's pool, pinned to hardware", java.util.Set.of(ue(9)),
                     manager.offloaded());
    }

    @Test
    public void aNewHybridTakesOverWhatTheBackendAlreadyHolds() throws Exception {
        install(1);
        FakeUpfDevice freshSwitch = new FakeUpfDevice(4, 64, 16);
        OffloadManager fresh = new OffloadManager(backend, freshSwitch,
                                                  OffloadPolicy.builder().confirmReports(false).build(), clock::get);
        HybridUpfDevice again = new HybridUpfDevice(backend, freshSwitch, fresh, false);
        int writes = backend.log.size();
        again.adoptBackend();
        assertEquals("nothing written again to the backend", writes, backend.log.size());
        assertEquals(2, freshSwitch.count(UpfEntityType.INTERFACE));
        assertTrue(fresh.isTracked(ue(1)));
        fresh.onHeavyHitter(ue(1));
        assertTrue("the adopted session is on the switch", freshSwitch.holds(uplink(1, 1001)));
        assertEquals(1, freshSwitch.count(UpfEntityType.TERMINATION_DOWNLINK));
        assertEquals(1, freshSwitch.count(UpfEntityType.TUNNEL_PEER));
    }

    @Test
    public void aWriteRemovingManySessionsReadsTheirFinalUsageOnceForAll() throws Exception {
        removeManySessions();
        assertEquals("one read of every removed session's cells", 1, backend.cellSetReads.get());
    }

    @Test
    public void finalCountsTheBackendReturnsWithTheWriteAreNotReadAgain() throws Exception {
        hybrid = new HybridUpfDevice(backend, hw, manager, true);
        backend.finalCountsWithWrites = true;
        removeManySessions();
        assertEquals("no read of the removed sessions' cells", 0, backend.cellSetReads.get());
    }

    @Test
    public void finalCountsOfRemovedSessionsAddWhatTheSwitchCarriedForTheOffloadedOne() throws Exception {
        hybrid = new HybridUpfDevice(backend, hw, manager, true);
        backend.finalCountsWithWrites = true;
        install(1);
        install(2);
        backend.countUplink(uplink(1, 1001), ue(1), 100);
        backend.countUplink(uplink(2, 1002), ue(2), 20);
        manager.onHeavyHitter(ue(1));
        hw.countUplink(uplink(1, 1001), ue(1), 900);
        WriteResult removed = hybrid.write(removals(2)).join();
        assertTrue(removed.ok());
        assertEquals("backend and switch", 1000, removed.finalCounts().get(500_002).ingressBytes());
        assertEquals("never offloaded: the backend's alone", 20, removed.finalCounts().get(500_004).ingressBytes());
        assertEquals(0, removed.finalCounts().get(500_003).ingressBytes());
    }

    @Test(timeout = 10_000)
    public void theWriterGoesOnWhileTheBackendWritesAndOutcomesKeepTheirOrder() throws Exception {
        backend.holdWrites = true;
        CompletableFuture<WriteResult> first = hybrid.write(applies(session(1).entities()));
        List<UpfEntity> removedAgain = new ArrayList<>(session(1).entities());
        Collections.reverse(removedAgain);
        List<DeviceUpdate> removal = new ArrayList<>();
        removedAgain.forEach(e -> removal.add(DeviceUpdate.remove(e)));
        CompletableFuture<WriteResult> second = hybrid.write(removal);
        CompletableFuture<WriteResult> third = hybrid.write(applies(session(2).entities()));

        assertFalse("the writer did not wait for the backend", first.isDone());
        assertEquals("a batch goes to the backend after the one before it", 1, backend.heldWrites());
        assertFalse(manager.isTracked(ue(1)));

        backend.releaseHeldWrite();
        assertTrue(first.join().ok());
        assertTrue("the first batch's outcome is recorded before the next batch goes out", manager.isTracked(ue(1)));
        assertFalse(second.isDone());
        assertEquals(1, backend.heldWrites());

        backend.releaseHeldWrite();
        assertTrue(second.join().ok());
        assertFalse("the removal was judged against the session the first batch installed",
                    manager.isTracked(ue(1)));
        assertFalse(backend.holds(uplink(1, 1001)));

        backend.releaseHeldWrite();
        assertTrue(third.join().ok());
        assertTrue(manager.isTracked(ue(2)));
        assertEquals(0, backend.heldWrites());
    }

    private static List<DeviceUpdate> applies(Collection<? extends UpfEntity> entities) {
        List<DeviceUpdate> out = new ArrayList<>();
        entities.forEach(e -> out.add(DeviceUpdate.apply(e)));
        return out;
    }

    /** Installs 40 sessions, counts on each, removes them all in one write; checks the usage they reported. */
    private void removeManySessions() throws Exception {
        int n = 40;
        long sent = 0;
        for (int i = 1; i <= n; i++) {
            install(i);
            backend.countUplink(uplink(i, 1000 + i), ue(i), 10L * i);
            sent += 10L * i;
        }
        assertTrue(hybrid.write(removals(n)).join().ok());
        assertEquals("no read per session", 0, backend.singleReads.get());
        assertEquals(0, manager.metrics().sessions());
        assertEquals("the final usage of each, counted until its removal", sent, manager.metrics().swBytes());
    }

    /** Removals of sessions 1 to n in one write, each session's entities in reverse, the shared ones once. */
    private static List<DeviceUpdate> removals(int n) {
        List<DeviceUpdate> removals = new ArrayList<>();
        Set<UpfEntity> seen = new HashSet<>();
        for (int i = 1; i <= n; i++) {
            List<UpfEntity> entities = new ArrayList<>(session(i).entities());
            Collections.reverse(entities);
            entities.stream().filter(seen::add).forEach(e -> removals.add(DeviceUpdate.remove(e)));
        }
        return removals;
    }
}
