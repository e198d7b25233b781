package org.hupf.core.offload;

import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.UpfEntity;
import org.junit.Test;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.hupf.core.offload.OffloadManagerTest.session;
import static org.hupf.core.offload.OffloadManagerTest.ue;
import static org.hupf.core.offload.OffloadManagerTest.uplink;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Two backends sharing the sessions, the switch's steering splitting their traffic: the offload manager
 * measures and confirms a heavy UE whatever backend its packets reach, and its usage is both backends' sum.
 */
public class BackendReplicasTest {

    private static final long PACKET = 50_000;

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final FakeUpfDevice first = new FakeUpfDevice(1_000_000, 1_048_576, 65_536);
    private final FakeUpfDevice second = new FakeUpfDevice(1_000_000, 1_048_576, 65_536);
    private final FakeUpfDevice hw = new FakeUpfDevice(2, 64, 16);

    private OffloadManager manager(FakeUpfDevice... backends) throws UpfProgrammableException {
        OffloadPolicy confirmed = OffloadPolicy.builder().thresholdBitsPerSec(2_000_000).holdMillis(60_000)
                .hysteresis(0.2).confirmReports(true).build();
        return new OffloadManager(backends.length == 1 ? backends[0] : new BackendReplicas(List.of(backends)),
                                  hw, confirmed, clock::get);
    }

    /** A second of UE 1's uplink at 4 Mbit/s, all of it steered to the given backend. */
    private void secondOfTraffic(OffloadManager m, FakeUpfDevice to) {
        for (int p = 0; p < 10; p++) {
            assertTrue("every backend holds the session", to.countUplink(uplink(1, 1001), ue(1), PACKET));
        }
        clock.addAndGet(1000);
        m.poll();
    }

    @Test
    public void aSessionIsOnEveryBackendAndAReportIsConfirmedByTheTrafficOfAny() throws UpfProgrammableException {
        OffloadManager m = manager(first, second);
        m.put(session(1));
        assertTrue(first.countUplink(uplink(1, 1001), ue(1), 1) && second.countUplink(uplink(1, 1001), ue(1), 1));
        m.poll();
        secondOfTraffic(m, second);
        assertEquals(4_000_000, m.rateBitsPerSec(ue(1)), 1);
        m.onHeavyHitter(ue(1));
        assertTrue("confirmed by the second backend's counters", m.isOffloaded(ue(1)));
    }

    @Test
    public void overTheFirstBackendAloneTheSameReportIsNotConfirmed() throws UpfProgrammableException {
        OffloadManager m = manager(first);
        m.put(session(1));
        for (UpfEntity e : session(1).entities()) {
            second.apply(e);
        }
        m.poll();
        secondOfTraffic(m, second);
        m.onHeavyHitter(ue(1));
        assertFalse("what this test guards against: a backend the manager does not read", m.isOffloaded(ue(1)));
    }

    @Test
    public void usageAndFinalCountsAreBothBackendsSummed() throws UpfProgrammableException {
        OffloadManager m = manager(first, second);
        m.put(session(1));
        first.countUplink(uplink(1, 1001), ue(1), 300);
        second.countUplink(uplink(1, 1001), ue(1), 700);
        assertEquals(2, m.usage(ue(1)).ingressPkts());
        assertEquals(1000, m.usage(ue(1)).ingressBytes());
        assertEquals(1000, m.readBackendCells(List.of(ue(1))).values().stream()
                .mapToLong(c -> c.ingressBytes()).sum());
        assertEquals(1000, m.untrack(Ip4Bits.of(ue(1)), CellCounts.of(m.readBackendCells(List.of(ue(1))).values()))
                .ingressBytes());
    }

    @Test
    public void aRemovedSessionLeavesEveryBackend() throws UpfProgrammableException {
        OffloadManager m = manager(first, second);
        m.put(session(1));
        m.remove(ue(1));
        assertFalse(first.countUplink(uplink(1, 1001), ue(1), 1));
        assertFalse(second.countUplink(uplink(1, 1001), ue(1), 1));
    }
}
