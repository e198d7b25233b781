package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.hupf.core.offload.OffloadManagerTest.session;
import static org.hupf.core.offload.OffloadManagerTest.ue;
import static org.hupf.core.offload.OffloadManagerTest.uplink;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The counter poll: a constant number of device reads whatever the session count, made without the
 * manager's lock, and usage that stays exact when sessions move or go while a poll reads.
 */
public class OffloadPollTest {

    private static final long TIMEOUT_S = 10;

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final List<String> warnings = new ArrayList<>();
    private final ExecutorService pfcp = Executors.newSingleThreadExecutor();
    private final ExecutorService poller = Executors.newSingleThreadExecutor();
    private FakeUpfDevice backend;
    private FakeUpfDevice hw;
    private OffloadManager m;

    @Before
    public void setUp() throws Exception {
        backend = new FakeUpfDevice(1_000_000, 1_048_576, 65_536);
        hw = new FakeUpfDevice(4, 64, 16);
        m = new OffloadManager(backend, hw, OffloadPolicy.builder().thresholdBitsPerSec(2_000_000).holdMillis(60_000)
                .hysteresis(0.2).confirmReports(false).build(), clock::get, warnings::add);
    }

    @After
    public void tearDown() {
        pfcp.shutdownNow();
        poller.shutdownNow();
    }

    /** A session known to the backend only by its two counter cells, 2i and 2i + 1. */
    private static OffloadSession countersOnly(int i) {
        Ip4Address ue = Ip4Address.valueOf(0x0A000000 + i);
        return OffloadSession.of(ue, 1, List.of(9), List.of(
                UpfTerminationUplink.builder().withUeSessionId(ue).withApplicationId(0).withCounterId(2 * i)
                        .withTrafficClass(0).withAppMeterIdx(0).build(),
                UpfTerminationDownlink.builder().withUeSessionId(ue).withApplicationId(0).withCounterId(2 * i + 1)
                        .withTeid(i + 1).withQfi(9).withTrafficClass(0).withAppMeterIdx(0).build()));
    }

    /** One uplink packet of OffloadManagerTest's UE i, on the switch if it holds the session, else the backend. */
    private void send(int i, long bytes) {
        if (!hw.countUplink(uplink(i, 1000 + i), ue(i), bytes)) {
            assertTrue(backend.countUplink(uplink(i, 1000 + i), ue(i), bytes));
        }
    }

    /** Starts a poll and waits until its bulk read of a target has read the counters and is held. */
    private Future<?> pollHeldIn(FakeUpfDevice target) throws InterruptedException {
        target.holdNextBulkRead();
        clock.addAndGet(1000);
        Future<?> poll = poller.submit(m::poll);
        target.awaitBulkRead();
        return poll;
    }

    private void offloadedWith1000Bytes() throws UpfProgrammableException {
        m.put(session(1));
        m.onHeavyHitter(ue(1));
        assertTrue(m.isOffloaded(ue(1)));
        send(1, 1000);
    }

    private void tick() {
        clock.addAndGet(1000);
        m.poll();
    }

    /**
     * What a status lists and the listeners hear follows the traffic: among ten thousand sessions, the ones that
     * counted something or went to the switch, and after each poll the UEs whose usage changed in it.
     */
    @Test
    public void onlySessionsThatCountedAreListedAndOnlyChangesAreTold() throws Exception {
        List<List<Ip4Address>> told = new ArrayList<>();
        m.addUsageListener(ues -> told.add(List.copyOf(ues)));
        for (int i = 0; i < 10_000; i++) {
            m.track(countersOnly(i));
        }
        tick();
        assertEquals(Map.of(), m.countedUsages());
        assertEquals("nothing changed: nobody told", List.of(), told);
        Ip4Address busy = Ip4Address.valueOf(0x0A000000 + 4321);
        backend.setCounter(2 * 4321, 3, 300);
        tick();
        assertEquals(List.of(List.of(busy)), told);
        assertEquals(Set.of(busy), m.countedUsages().keySet());
        assertEquals(300, m.countedUsages().get(busy).usage.ingressBytes());
        assertEquals(300, m.metrics().swBytes());
        tick();
        assertEquals("no further change", 1, told.size());
        m.put(session(1));
        m.onHeavyHitter(ue(1));
        assertEquals("on the switch, counted nothing yet", Set.of(busy, ue(1)), m.countedUsages().keySet());
        assertTrue(m.countedUsages().get(ue(1)).offloaded);
        assertEquals(1, m.metrics().offloaded());
        m.untrack(busy);
        assertEquals(Set.of(ue(1)), m.countedUsages().keySet());
    }

    @Test
    public void aPollOverTenThousandSessionsMakesOneBulkReadPerTarget() throws Exception {
        for (int i = 0; i < 10_000; i++) {
            m.track(countersOnly(i));
        }
        m.put(session(1));
        m.onHeavyHitter(ue(1));
        assertTrue(m.isOffloaded(ue(1)));
        backend.setCounter(2 * 4321, 3, 300);
        send(1, 700);
        backend.singleReads.set(0);
        hw.singleReads.set(0);
        for (int p = 1; p <= 3; p++) {
            tick();
            assertEquals("backend bulk reads after " + p + " polls", p, backend.bulkReads.get());
            assertEquals("switch bulk reads after " + p + " polls", p, hw.bulkReads.get());
        }
        assertEquals(0, backend.singleReads.get());
        assertEquals(0, hw.singleReads.get());
        assertEquals(300, m.lastUsages().get(Ip4Address.valueOf(0x0A000000 + 4321)).ingressBytes());
        assertEquals(700, m.lastUsages().get(ue(1)).hwBytes());
        assertEquals(700, m.metrics().hwBytes());
        assertEquals("ingress bytes on the backend", 300, m.metrics().swBytes());
    }

    @Test
    public void withNothingOffloadedThePollReadsOnlyTheBackend() throws Exception {
        m.track(countersOnly(7));
        tick();
        assertEquals(1, backend.bulkReads.get());
        assertEquals(0, hw.bulkReads.get());
    }

    @Test
    public void thePfcpPathIsNotBlockedWhileAPollReads() throws Exception {
        m.put(session(1));
        Future<?> poll = pollHeldIn(backend);
        pfcp.submit(() -> {
            m.track(countersOnly(5));
            m.put(session(2));
            return null;
        }).get(TIMEOUT_S, TimeUnit.SECONDS);
        assertTrue(m.isTracked(ue(2)));
        assertFalse("the poll is still reading", poll.isDone());
        m.poll();
        assertEquals("a poll called during another returns at once", 1, backend.bulkReads.get());
        backend.releaseBulkRead();
        poll.get(TIMEOUT_S, TimeUnit.SECONDS);
    }

    @Test
    public void usageStaysExactWhenASessionLeavesTheSwitchDuringAPoll() throws Exception {
        offloadedWith1000Bytes();
        Future<?> poll = pollHeldIn(hw);
        send(1, 5000);
        assertTrue(m.fallBack(ue(1)));
        send(1, 200);
        hw.releaseBulkRead();
        poll.get(TIMEOUT_S, TimeUnit.SECONDS);
        m.track(session(1)); // the change that took it off the switch is written
        SessionUsage u = m.usage(ue(1));
        assertEquals(6200, u.ingressBytes());
        assertEquals(6000, u.hwBytes());
        assertEquals(3, u.ingressPkts());
        assertEquals("the first and the one sent during the poll", 2, u.hwPkts());
        tick();
        assertEquals(6200, m.lastUsages().get(ue(1)).ingressBytes());
        m.onHeavyHitter(ue(1));
        send(1, 300);
        tick();
        assertEquals("a second episode adds to the first", 6500, m.lastUsages().get(ue(1)).ingressBytes());
        assertEquals(6300, m.remove(ue(1)).hwBytes());
        assertEquals("a session gone keeps its switch packets in the totals", 3, m.metrics().hwPackets());
        assertEquals(6300, m.metrics().hwBytes());
    }

    @Test
    public void switchCountsReadDuringAPollAreNotCountedTwice() throws Exception {
        offloadedWith1000Bytes();
        Future<?> poll = pollHeldIn(hw);
        send(1, 5000);
        assertEquals(6000, m.usage(ue(1)).hwBytes());
        hw.releaseBulkRead();
        poll.get(TIMEOUT_S, TimeUnit.SECONDS);
        tick();
        assertTrue(m.isOffloaded(ue(1)));
        assertEquals("the poll's older switch read is not applied", 6000, m.lastUsages().get(ue(1)).hwBytes());
    }

    @Test
    public void usageStaysExactWhenASessionReachesTheSwitchOrGoesDuringAPoll() throws Exception {
        m.put(session(1));
        m.put(session(2));
        send(1, 1000);
        send(2, 50);
        Future<?> poll = pollHeldIn(backend);
        m.onHeavyHitter(ue(1));
        send(1, 4000);
        assertEquals(50, m.remove(ue(2)).ingressBytes());
        backend.releaseBulkRead();
        poll.get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(5000, m.usage(ue(1)).ingressBytes());
        tick();
        assertEquals(5000, m.lastUsages().get(ue(1)).ingressBytes());
        assertEquals(4000, m.lastUsages().get(ue(1)).hwBytes());
        assertFalse(m.lastUsages().containsKey(ue(2)));
        assertEquals("the removed session's bytes are retired once", 1050, m.metrics().swBytes());
    }

    @Test
    public void aFailingReadIsWarnedOnceAMinuteAndCounted() throws Exception {
        for (int i = 0; i < 100; i++) {
            m.track(countersOnly(i));
        }
        backend.setCounter(0, 1, 100);
        tick();
        backend.failReads = true;
        for (int p = 0; p < 3; p++) {
            tick();
        }
        assertEquals(List.of("Cannot read usage counters: injected read failure"), warnings);
        assertEquals(3, m.metrics().failedCounterPolls());
        assertEquals("the last good usage is kept", 100,
                     m.lastUsages().get(Ip4Address.valueOf(0x0A000000)).ingressBytes());
        clock.addAndGet(60_000);
        m.poll();
        assertEquals(2, warnings.size());
        assertEquals("Cannot read usage counters: injected read failure (and 2 unreported failures since the last"
                             + " warning)", warnings.get(1));
        assertEquals(4, m.metrics().failedCounterPolls());
        backend.failReads = false;
        tick();
        assertEquals(4, m.metrics().failedCounterPolls());
        assertEquals(2, warnings.size());
    }

    /** A poll whose read failed (a deadline a starved device let pass, most often) does not pace the next. */
    @Test
    public void aFailedPollIsNoMeasureOfAPollsDuration() {
        m.track(countersOnly(1));
        backend.failReads = true;
        tick();
        assertEquals("no complete poll yet", -1, m.pollDurationMillis());
        backend.failReads = false;
        tick();
        assertTrue(m.pollDurationMillis() >= 0);
    }
}
