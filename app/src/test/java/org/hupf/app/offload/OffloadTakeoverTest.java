package org.hupf.app.offload;

import org.hupf.core.offload.FakeUpfDevice;
import org.hupf.core.offload.OffloadManager;
import org.hupf.core.offload.OffloadRecord;
import org.hupf.core.offload.OffloadStore;
import org.hupf.core.offload.SwitchReclaim;
import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.TestStorageService;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.hupf.core.offload.OffloadManagerTest.session;
import static org.hupf.core.offload.OffloadManagerTest.ue;
import static org.hupf.core.offload.OffloadManagerTest.uplink;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * A new offload manager (the next hupf leader's, or the same node's after its devices changed) over the
 * previous one's distributed records: what the switch counted is not lost, and the sessions the previous
 * manager left on the switch go back to the backend. The store is the ONOS one, over ONOS's test storage.
 */
public class OffloadTakeoverTest {

    private static final OffloadPolicy POLICY = OffloadPolicy.builder().thresholdBitsPerSec(2_000_000)
            .holdMillis(2_000).confirmReports(false).build();

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private FakeUpfDevice backend;
    private FakeUpfDevice hw;
    private OffloadStore store;

    @Before
    public void setUp() {
        backend = new FakeUpfDevice(1_000_000, 1_048_576, 65_536);
        hw = new FakeUpfDevice(2, 64, 16);
        store = new DistributedOffloadStore(new TestStorageService());
    }

    private OffloadManager manager() throws Exception {
        OffloadManager m = new OffloadManager(backend, hw, POLICY, clock::get);
        m.useStore(store);
        return m;
    }

    /** UE 1 offloaded by the first leader, with 5000 switch bytes folded by a poll and 3000 not yet. */
    private OffloadManager leaderWithUnfoldedSwitchBytes() throws Exception {
        OffloadManager first = manager();
        first.put(session(1));
        first.onHeavyHitter(ue(1));
        assertTrue(first.isOffloaded(ue(1)));
        assertTrue(hw.countUplink(uplink(1, 1001), ue(1), 5000));
        clock.addAndGet(1000);
        first.poll();
        assertEquals(5000, first.lastUsages().get(ue(1)).hwBytes());
        assertTrue(hw.countUplink(uplink(1, 1001), ue(1), 3000));
        return first;
    }

    @Test
    public void aNewLeaderLosesNoSwitchUsageAndTakesTheSessionBackToTheBackend() throws Exception {
        leaderWithUnfoldedSwitchBytes();  // then the leader is gone without a word

        List<Ip4Address> back = SwitchReclaim.reclaim(store, hw);
        assertEquals(List.of(ue(1)), back);
        assertEquals("packets of UE 1 take the backend now", 0, hw.count(UpfEntityType.SESSION_UPLINK));
        assertEquals(0, hw.count(UpfEntityType.TERMINATION_UPLINK));
        assertFalse(hw.countUplink(uplink(1, 1001), ue(1), 1));

        OffloadManager next = manager();
        next.track(session(1));  // as adopting the backend does
        assertFalse(next.isOffloaded(ue(1)));
        assertEquals("5000 folded by the old leader + 3000 counted since", 8000, next.usage(ue(1)).hwBytes());
        assertTrue(backend.countUplink(uplink(1, 1001), ue(1), 700));
        assertEquals(8700, next.usage(ue(1)).ingressBytes());
    }

    @Test
    public void aSitesSwitchReclaimsOnlyTheRecordsOfItsOwnSite() throws Exception {
        DistributedOffloadStore records = new DistributedOffloadStore(new TestStorageService());
        store = records.ofSite("site1");
        leaderWithUnfoldedSwitchBytes();  // UE 1 offloaded to site1's switch

        assertEquals(List.of(), SwitchReclaim.reclaim(records.ofSite("site2"), new FakeUpfDevice(2, 64, 16)));
        assertEquals("the implicit site's records are not site1's", Map.of(), records.all());
        assertEquals(List.of(ue(1)), SwitchReclaim.reclaim(records.ofSite("site1"), hw));
        OffloadManager next = manager();
        next.track(session(1));
        assertEquals(8000, next.usage(ue(1)).hwBytes());
    }

    @Test
    public void aSecondReclaimFindsNothingLeft() throws Exception {
        leaderWithUnfoldedSwitchBytes();
        SwitchReclaim.reclaim(store, hw);
        assertEquals(List.of(), SwitchReclaim.reclaim(store, hw));
        OffloadManager next = manager();
        next.track(session(1));
        assertEquals("not folded twice", 8000, next.usage(ue(1)).hwBytes());
    }

    @Test
    public void aRepromotedSessionAddsToWhatItHad() throws Exception {
        leaderWithUnfoldedSwitchBytes();
        SwitchReclaim.reclaim(store, hw);
        OffloadManager next = manager();
        next.track(session(1));
        next.onHeavyHitter(ue(1));
        assertTrue(next.isOffloaded(ue(1)));
        assertTrue(hw.countUplink(uplink(1, 1001), ue(1), 2000));
        assertEquals(10_000, next.usage(ue(1)).hwBytes());
        next.onHeavyHitter(ue(2));  // an unknown UE changes nothing
        assertNull(store.get(ue(2)));
    }

    @Test
    public void aRemovedSessionLeavesNoRecord() throws Exception {
        OffloadManager first = leaderWithUnfoldedSwitchBytes();
        assertTrue(store.get(ue(1)).onSwitch());
        assertEquals(8000, first.remove(ue(1)).hwBytes());
        assertNull(store.get(ue(1)));
        assertEquals(List.of(), SwitchReclaim.reclaim(store, hw));
    }

    @Test
    public void aDemotedSessionsRecordHasItsCountsAndNoSwitchCells() throws Exception {
        OffloadManager first = leaderWithUnfoldedSwitchBytes();
        assertTrue(first.fallBack(ue(1)));
        OffloadRecord r = store.get(ue(1));
        assertFalse(r.onSwitch());
        long bytes = r.hwAccum().values().stream().mapToLong(v -> v[1]).sum();
        assertEquals(8000, bytes);
    }

    @Test
    public void recordsTravelBetweenNodes() {
        OffloadRecord r = new OffloadRecord(Map.of(7, new long[]{1, 2, 3, 4}), Map.of(7, 70),
                                            Map.of(7, new long[]{5, 6, 7, 8}));
        Serializer s = Serializer.using(DistributedOffloadStore.serializer().build());
        OffloadRecord back = s.decode(s.encode(r));
        assertEquals(r, back);
        assertArrayEquals(new long[]{1, 2, 3, 4}, back.hwAccum().get(7));
        assertEquals(Integer.valueOf(70), back.switchCells().get(7));
    }

    @Test
    public void aSwitchCellBelowItsLastValueCountsNothing() {
        OffloadRecord r = new OffloadRecord(Map.of(7, new long[]{10, 1000, 0, 0}), Map.of(7, 70),
                                            Map.of(7, new long[]{50, 5000, 0, 0}));
        OffloadRecord after = r.reclaimed(Map.of(70, new long[]{2, 100, 0, 0}));
        assertArrayEquals(new long[]{10, 1000, 0, 0}, after.hwAccum().get(7));
    }
}
