package org.hupf.core.pfcp;

import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Urr;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.message.UsageReport;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfCounter;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

/**
 * What is due costs what is due: periodic reports come from a queue by due second (a report or a change of the
 * session moves a URR in it), volume thresholds are checked for the sessions named only.
 */
public class UsageReporterTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final long PERIODIC = 5;
    private static final long THRESHOLD = 6;

    private InMemoryUpfDevice device;
    private SessionManager sessions;
    private long nowMillis = 1_000_000;
    private UsageReporter reporter;

    @Before
    public void setUp() {
        device = new InMemoryUpfDevice("backend", 1024);
        sessions = new SessionManager(new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10),
                                      new ResourcePool(1024, 1024), () -> List.of(device), N3);
        reporter = new UsageReporter(sessions, () -> nowMillis);
    }

    /** A session of UE 10.250.0.i whose uplink PDR counts for its URR. */
    private PfcpSession session(int i, Urr urr) throws Exception {
        Ip4Address ue = Ip4Address.valueOf("10.250.0." + i);
        Pdr ul = new Pdr(1, 100, Pdr.ACCESS, null, null, true, null, ue, List.of(), null, 0, null, 1L, List.of(),
                         List.of(urr.urrId));
        PfcpSession s = sessions.establish(new PfcpSession(0, 70 + i, "10.0.0.1", "smf", Map.of(1, ul),
                Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null)), Map.of(), Map.of(urr.urrId, urr),
                Map.of()));
        reporter.sessionChanged(s);
        return s;
    }

    private void uplinkBytes(PfcpSession s, long bytes) {
        device.setCounter(UpfCounter.builder().withCellId(s.allocations.get("ctr:1")).setEgress(1, bytes).build());
    }

    @Test
    public void aPeriodicUrrIsDueOnceEachPeriodAndAReportRestartsIt() throws Exception {
        PfcpSession s = session(1, new Urr(PERIODIC, Urr.VOLUM, Urr.PERIO, 60L, null, null, null));
        nowMillis += 59_000;
        assertEquals(List.of(), reporter.periodicDue());
        nowMillis += 1_000;
        List<UsageReporter.Due> due = reporter.periodicDue();
        assertEquals(1, due.size());
        assertEquals(UsageReporter.PERIO, due.get(0).trigger);
        assertEquals("taken off the queue until its report", List.of(), reporter.periodicDue());
        reporter.report(s, s.urrs.get(PERIODIC), IeType.USAGE_REPORT_REPORT, UsageReporter.PERIO);
        nowMillis += 30_000;
        reporter.report(s, s.urrs.get(PERIODIC), IeType.USAGE_REPORT_MODIFICATION, UsageReporter.IMMER);
        nowMillis += 59_000;
        assertEquals("the modification's report restarted the period", List.of(), reporter.periodicDue());
        nowMillis += 1_000;
        assertEquals(1, reporter.periodicDue().size());
    }

    @Test
    public void aSessionsUrrsKeepTheirOwnMeasurementsWhenOneGoes() throws Exception {
        Urr periodic = new Urr(PERIODIC, Urr.VOLUM, Urr.PERIO, 60L, null, null, null);
        Urr threshold = new Urr(THRESHOLD, Urr.VOLUM, Urr.VOLTH, null, 1_000L, null, null);
        PfcpSession s = session(1, periodic);
        PfcpSession both = s.with(s.pdrs, s.fars, s.qers, Map.of(PERIODIC, periodic, THRESHOLD, threshold),
                                  s.allocations);
        reporter.sessionChanged(both);
        nowMillis += 10_000;
        assertEquals(0, reporter.report(both, periodic, IeType.USAGE_REPORT_REPORT, UsageReporter.IMMER).sequence);
        assertEquals(0, reporter.report(both, threshold, IeType.USAGE_REPORT_REPORT, UsageReporter.IMMER).sequence);
        assertEquals(1, reporter.report(both, threshold, IeType.USAGE_REPORT_REPORT, UsageReporter.IMMER).sequence);
        assertEquals(1, reporter.report(both, periodic, IeType.USAGE_REPORT_REPORT, UsageReporter.IMMER).sequence);
        PfcpSession thresholdOnly = s.with(s.pdrs, s.fars, s.qers, Map.of(THRESHOLD, threshold), s.allocations);
        reporter.sessionChanged(thresholdOnly);
        assertEquals("the URR kept goes on", 2,
                     reporter.report(thresholdOnly, threshold, IeType.USAGE_REPORT_REPORT, UsageReporter.IMMER).sequence);
        nowMillis += 60_000;
        assertEquals("the URR gone is no longer due", List.of(), reporter.periodicDue());
        reporter.sessionChanged(both);
        UsageReport again = reporter.report(both, periodic, IeType.USAGE_REPORT_REPORT, UsageReporter.IMMER);
        assertEquals("the URR added back starts anew", 0, again.sequence);
        assertEquals(nowMillis / 1000 + UsageReporter.NTP_OFFSET, again.startTime);
    }

    @Test
    public void aDeletedSessionLeavesNothingDue() throws Exception {
        PfcpSession s = session(1, new Urr(PERIODIC, Urr.VOLUM, Urr.PERIO, 60L, null, null, null));
        sessions.delete(s.upSeid);
        reporter.forget(s.upSeid);
        nowMillis += 120_000;
        assertEquals(List.of(), reporter.periodicDue());
    }

    @Test
    public void aThresholdIsCheckedForTheSessionsNamedAndReachedOnceCounted() throws Exception {
        PfcpSession quiet = session(1, new Urr(THRESHOLD, Urr.VOLUM, Urr.VOLTH, null, 1_000L, null, null));
        PfcpSession busy = session(2, new Urr(THRESHOLD, Urr.VOLUM, Urr.VOLTH, null, 1_000L, null, null));
        uplinkBytes(busy, 999);
        assertEquals(List.of(), reporter.thresholdsDue(List.of(quiet, busy)));
        uplinkBytes(busy, 1_000);
        uplinkBytes(quiet, 5_000);
        List<UsageReporter.Due> due = reporter.thresholdsDue(List.of(busy));
        assertEquals("the quiet one was not named", 1, due.size());
        assertEquals(busy.upSeid, due.get(0).session.upSeid);
        assertEquals(UsageReporter.VOLTH, due.get(0).trigger);
        reporter.report(busy, busy.urrs.get(THRESHOLD), IeType.USAGE_REPORT_REPORT, UsageReporter.VOLTH);
        assertEquals("counted again from the report", List.of(), reporter.thresholdsDue(List.of(busy)));
        assertEquals("the quiet one, named now", quiet.upSeid,
                     reporter.thresholdsDue(List.of(quiet, busy)).get(0).session.upSeid);
    }

    @Test
    public void aRestartsFullThresholdCheckWaitsForItsStoredSessionsTracking() throws Exception {
        PfcpSession s = session(1, new Urr(THRESHOLD, Urr.VOLUM, Urr.VOLTH, null, 1_000L, null, null));
        uplinkBytes(s, 5_000);
        SessionManager restarted = new SessionManager(sessions.store(), new SessionTranslator(N3, 0, Map.of(), 10),
                                                      new ResourcePool(1024, 1024), () -> List.of(device), N3);
        UsageReporter usage = new UsageReporter(restarted, () -> nowMillis);
        restarted.store().all().forEach(usage::sessionChanged);
        VolumeThresholdCheck check = new VolumeThresholdCheck(restarted, usage);
        assertEquals("not while the stored sessions are untracked", List.of(), check.due(nowMillis));
        restarted.trackStoredSessions();
        List<UsageReporter.Due> due = check.due(nowMillis);
        assertEquals(1, due.size());
        assertEquals(s.upSeid, due.get(0).session.upSeid);
    }
}
