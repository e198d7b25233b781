package org.hupf.app.store;

import org.hupf.core.store.InMemorySessionStore;
import org.hupf.core.store.UsageBaseline;
import org.hupf.core.store.UsageBaselineStore;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Urr;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.pfcp.UsageReporter;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.message.UsageReport;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.pipeconf.api.UpfCounter;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.store.service.StorageService;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Usage baselines in the distributed store: a reporter on a new leader (built on the same cluster storage)
 * goes on from the last report its predecessor sent, so nothing is reported twice and the sequence number
 * keeps counting; what a session no longer has leaves the store.
 */
public class DistributedUsageBaselineStoreTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final long URR = 5;

    private InMemoryUpfDevice device;
    private SessionManager sessions;
    private PfcpSession session;
    private long nowMillis = 1_000_000;

    @Before
    public void setUp() throws Exception {
        device = new InMemoryUpfDevice("backend", 1024);
        sessions = new SessionManager(new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10),
                                      new ResourcePool(1024, 1024), () -> List.of(device), N3);
        Ip4Address ue = Ip4Address.valueOf("10.250.0.7");
        Pdr ul = new Pdr(1, 100, Pdr.ACCESS, null, null, true, null, ue, List.of(), null, 0, null, 1L, List.of(),
                         List.of(URR));
        Pdr dl = new Pdr(2, 100, Pdr.CORE, null, null, false, null, ue, List.of(), null, null, null, 2L, List.of(),
                         List.of(URR));
        session = sessions.establish(new PfcpSession(0, 77, "10.0.0.1", "smf", Map.of(1, ul, 2, dl),
                Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                       2L, new Far(2, Far.FORW, Far.ACCESS, 0x100L, Ip4Address.valueOf("192.168.1.10"), null)),
                Map.of(), Map.of(URR, new Urr(URR, Urr.VOLUM, Urr.PERIO, 60L, null, null, null)), Map.of()));
    }

    /** Sets the uplink and downlink PDRs' counters to cumulative byte counts. */
    private void counted(long uplinkBytes, long downlinkBytes) {
        device.setCounter(UpfCounter.builder().withCellId(session.allocations.get("ctr:1"))
                                  .setEgress(uplinkBytes / 100, uplinkBytes).build());
        device.setCounter(UpfCounter.builder().withCellId(session.allocations.get("ctr:2"))
                                  .setEgress(downlinkBytes / 100, downlinkBytes).build());
    }

    private UsageReport report(UsageReporter r, int ieType) {
        return r.report(session, session.urrs.get(URR), ieType, UsageReporter.PERIO);
    }

    private static long uplink(UsageReport report) {
        return report.volume.uplink;
    }

    @Test
    public void aNewLeaderReportsOnlyWhatTheOldOneDidNot() {
        StorageService cluster = DistributedSessionStoreTest.cluster();
        UsageReporter oldLeader = new UsageReporter(sessions, () -> nowMillis,
                                                    new DistributedUsageBaselineStore(cluster));
        counted(1_000, 400);
        UsageReport first = report(oldLeader, IeType.USAGE_REPORT_REPORT);
        assertEquals(1_000, uplink(first));
        assertEquals(400, (long) first.volume.downlink);
        assertEquals(0, first.sequence);

        nowMillis += 30_000;
        counted(1_700, 400);
        UsageReporter newLeader = new UsageReporter(sessions, () -> nowMillis,
                                                    new DistributedUsageBaselineStore(cluster));
        UsageReport second = report(newLeader, IeType.USAGE_REPORT_DELETION);
        assertEquals("only the 700 octets after the old leader's report", 700, uplink(second));
        assertEquals(0, (long) second.volume.downlink);
        assertEquals(1, second.sequence);
        assertEquals("the interval starts at the old leader's report",
                     1_000 + UsageReporter.NTP_OFFSET, second.startTime);
    }

    @Test
    public void withoutTheStoreANewReporterCountsEverythingAgain() {
        counted(1_000, 0);
        report(new UsageReporter(sessions, () -> nowMillis), IeType.USAGE_REPORT_REPORT);
        counted(1_700, 0);
        assertEquals(1_700, uplink(report(new UsageReporter(sessions, () -> nowMillis), IeType.USAGE_REPORT_REPORT)));
    }

    @Test
    public void deletedSessionsAndRemovedUrrsLeaveTheStore() {
        UsageBaselineStore store = new DistributedUsageBaselineStore(DistributedSessionStoreTest.cluster());
        UsageReporter r = new UsageReporter(sessions, () -> nowMillis, store);
        counted(10, 20);
        report(r, IeType.USAGE_REPORT_REPORT);
        assertEquals(Set.of(URR), store.all().get(session.upSeid).keySet());
        r.sessionChanged(new PfcpSession(session.upSeid, session.cpSeid, session.cpAddress, session.nodeId,
                                         session.pdrs, session.fars, session.qers, Map.of(), session.allocations));
        assertTrue(store.all().isEmpty());

        report(r, IeType.USAGE_REPORT_REPORT);
        r.forget(session.upSeid);
        assertTrue(store.all().isEmpty());
        report(r, IeType.USAGE_REPORT_DELETION);
        assertTrue("a deletion's report records no baseline", store.all().isEmpty());
    }

    @Test
    public void baselinesSurviveTheirEncoding() {
        Map<Long, UsageBaseline> urrs = Map.of(1L, new UsageBaseline(1, 2, 3, 4),
                                               9L, new UsageBaseline(Long.MAX_VALUE, 0, 3_900_000_000L, 0));
        assertEquals(urrs, DistributedUsageBaselineStore.decode(DistributedUsageBaselineStore.encode(urrs)));
    }
}
