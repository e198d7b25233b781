package org.hupf.core.translation;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Qer;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.Urr;
import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * One test per PDR/FAR/QER/URR combination: what it becomes, or why it is refused.
 */
public class SessionTranslatorTest {

    static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    static final Ip4Address UE = Ip4Address.valueOf("10.250.0.1");
    static final Ip4Address GNB = Ip4Address.valueOf("192.168.1.10");
    static final int TC_FOR_QFI_9 = 2;

    private final SessionTranslator translator = new SessionTranslator(N3, 1, Map.of(9, TC_FOR_QFI_9), 10);
    private final ResourcePool pool = new ResourcePool(1024, 1024);

    static Pdr uplinkPdr(int id, long far, List<Long> qers, List<Long> urrs, String... sdf) {
        return new Pdr(id, 100 + id, Pdr.ACCESS, 0x1000L + id, N3, false, null, UE, List.of(sdf), null, 0,
                       null, far, qers, urrs);
    }

    static Pdr downlinkPdr(int id, long far, List<Long> qers, List<Long> urrs, String... sdf) {
        return new Pdr(id, 100 + id, Pdr.CORE, null, null, false, null, UE, List.of(sdf), null, null, null, far,
                       qers, urrs);
    }

    static Far forwardCore(long id) {
        return new Far(id, Far.FORW, Far.CORE, null, null, null);
    }

    static Far forwardGnb(long id, long teid) {
        return new Far(id, Far.FORW, Far.ACCESS, teid, GNB, null);
    }

    static PfcpSession session(List<Pdr> pdrs, List<Far> fars, List<Qer> qers, List<Urr> urrs) {
        return new PfcpSession(1, 2, "10.0.0.1", "10.0.0.1",
                               pdrs.stream().collect(Collectors.toMap(p -> p.pdrId, p -> p)),
                               fars.stream().collect(Collectors.toMap(f -> f.farId, f -> f)),
                               qers.stream().collect(Collectors.toMap(q -> q.qerId, q -> q)),
                               urrs.stream().collect(Collectors.toMap(u -> u.urrId, u -> u)), Map.of());
    }

    private Set<UpfEntity> translate(PfcpSession s) throws RuleException {
        return translator.translate(s, pool.begin(new HashMap<>()));
    }

    private static <T> List<T> of(Set<UpfEntity> es, Class<T> c) {
        return es.stream().filter(c::isInstance).map(c::cast).collect(Collectors.toList());
    }

    private RuleException refused(PfcpSession s) {
        try {
            translate(s);
        } catch (RuleException e) {
            return e;
        }
        fail("translated");
        return null;
    }

    @Test
    public void uplinkForwardWithoutQerOrUrr() throws Exception {
        Set<UpfEntity> es = translate(session(List.of(uplinkPdr(1, 1, List.of(), List.of())),
                                              List.of(forwardCore(1)), List.of(), List.of()));
        assertEquals(List.of(UpfSessionUplink.builder().setTunDstAddr(N3).setTeid(0x1001).withUeAddress(UE).build()),
                     of(es, UpfSessionUplink.class));
        UpfTerminationUplink t = of(es, UpfTerminationUplink.class).get(0);
        assertEquals(UE, t.ueSessionId());
        assertEquals(0, t.applicationId());
        assertEquals(1, t.counterId());
        assertEquals(2, es.size());
    }

    @Test
    public void downlinkForwardCreatesTunnelPeerSessionAndTermination() throws Exception {
        Set<UpfEntity> es = translate(session(List.of(downlinkPdr(2, 2, List.of(), List.of())),
                                              List.of(forwardGnb(2, 0xabcdef01L)), List.of(), List.of()));
        UpfGtpTunnelPeer peer = of(es, UpfGtpTunnelPeer.class).get(0);
        assertEquals(N3, peer.src());
        assertEquals(GNB, peer.dst());
        assertEquals(2152, peer.srcPort());
        UpfSessionDownlink s = of(es, UpfSessionDownlink.class).get(0);
        assertEquals(peer.tunPeerId(), s.tunPeerId());
        assertEquals(0xabcdef01L, of(es, UpfTerminationDownlink.class).get(0).teid());
    }

    @Test
    public void downlinkBufferingFarBuffersTheSessionWithoutTunnelPeer() throws Exception {
        Far buff = new Far(2, Far.BUFF | Far.NOCP, null, null, null, 1);
        Set<UpfEntity> es = translate(session(List.of(downlinkPdr(2, 2, List.of(), List.of())), List.of(buff),
                                              List.of(), List.of()));
        assertTrue(of(es, UpfSessionDownlink.class).get(0).needsBuffering());
        assertTrue(of(es, UpfGtpTunnelPeer.class).isEmpty());
        assertEquals(false, of(es, UpfTerminationDownlink.class).get(0).needsDropping());
    }

    @Test
    public void dropFarsDropInSessionAndTermination() throws Exception {
        Far drop = new Far(1, Far.DROP, null, null, null, null);
        Set<UpfEntity> es = translate(session(List.of(uplinkPdr(1, 1, List.of(), List.of()),
                                                      downlinkPdr(2, 1, List.of(), List.of())),
                                              List.of(drop), List.of(), List.of()));
        assertTrue(of(es, UpfTerminationUplink.class).get(0).needsDropping());
        assertTrue(of(es, UpfSessionDownlink.class).get(0).needsDropping());
        assertTrue(of(es, UpfTerminationDownlink.class).get(0).needsDropping());
    }

    @Test
    public void sharedQerIsSessionMeterOtherIsAppMeterAndQfiSetsClassAndPsc() throws Exception {
        Qer session = new Qer(1, false, false, 100_000L, 200_000L, null, null, null);
        Qer app = new Qer(2, false, false, 8_000L, 16_000L, 4_000L, 8_000L, 9);
        Set<UpfEntity> es = translate(session(
                List.of(uplinkPdr(1, 1, List.of(1L, 2L), List.of()), downlinkPdr(2, 2, List.of(1L, 2L), List.of())),
                List.of(forwardCore(1), forwardGnb(2, 7)), List.of(session, app), List.of()));
        List<UpfMeter> meters = of(es, UpfMeter.class);
        assertEquals(4, meters.size());
        UpfMeter ulSession = meters.stream().filter(m -> m.type() == UpfEntityType.SESSION_METER
                && m.peakRate() == 100_000L * 125).findFirst().orElseThrow();
        assertEquals(ulSession.cellId(), of(es, UpfSessionUplink.class).get(0).sessionMeterIdx());
        UpfMeter dlApp = meters.stream().filter(m -> m.type() == UpfEntityType.APPLICATION_METER
                && m.peakRate() == 16_000L * 125).findFirst().orElseThrow();
        assertEquals(8_000L * 125, dlApp.committedRate());
        UpfTerminationDownlink t = of(es, UpfTerminationDownlink.class).get(0);
        assertEquals(dlApp.cellId(), t.appMeterIdx());
        assertEquals(9, t.qfi());
        assertEquals(TC_FOR_QFI_9, t.trafficClass());
        assertEquals(TC_FOR_QFI_9, of(es, UpfTerminationUplink.class).get(0).trafficClass());
    }

    @Test
    public void pdiQfiSelectsTheTrafficClassWithoutQer() throws Exception {
        Pdr ul = new Pdr(1, 1, Pdr.ACCESS, 0x10L, N3, false, null, UE, List.of(), 9, 0, null, 1L, List.of(),
                         List.of());
        Set<UpfEntity> es = translate(session(List.of(ul), List.of(forwardCore(1)), List.of(), List.of()));
        assertEquals(TC_FOR_QFI_9, of(es, UpfTerminationUplink.class).get(0).trafficClass());
    }

    @Test
    public void closedGateDropsOnlyItsDirection() throws Exception {
        Qer gate = new Qer(1, true, false, null, null, null, null, null);
        Set<UpfEntity> es = translate(session(
                List.of(uplinkPdr(1, 1, List.of(1L), List.of()), downlinkPdr(2, 2, List.of(1L), List.of())),
                List.of(forwardCore(1), forwardGnb(2, 7)), List.of(gate), List.of()));
        assertTrue(of(es, UpfTerminationUplink.class).get(0).needsDropping());
        assertEquals(false, of(es, UpfTerminationDownlink.class).get(0).needsDropping());
        assertTrue(of(es, UpfMeter.class).isEmpty());
    }

    @Test
    public void sdfFilterBecomesApplicationSharedAcrossDirections() throws Exception {
        String fd = "permit out udp from 8.8.8.0/24 53 to assigned";
        Set<UpfEntity> es = translate(session(
                List.of(uplinkPdr(1, 1, List.of(), List.of(), fd), downlinkPdr(2, 2, List.of(), List.of(), fd)),
                List.of(forwardCore(1), forwardGnb(2, 7)), List.of(), List.of()));
        List<UpfApplication> apps = of(es, UpfApplication.class);
        assertEquals(2, apps.size());  // different precedence, so two entries
        UpfApplication a = apps.get(0);
        assertEquals(Ip4Prefix.valueOf("8.8.8.0/24"), a.ip4Prefix().get());
        assertEquals(17, (int) a.ipProto().get());
        assertEquals(53, (int) a.l4PortRange().get().lowerEndpoint());
        assertEquals(1, a.sliceId());
        assertEquals(a.appId(), of(es, UpfTerminationUplink.class).get(0).applicationId());
    }

    @Test
    public void wildcardSdfFilterIsTheDefaultApplication() throws Exception {
        Set<UpfEntity> es = translate(session(
                List.of(uplinkPdr(1, 1, List.of(), List.of(), "permit out ip from any to assigned")),
                List.of(forwardCore(1)), List.of(), List.of()));
        assertTrue(of(es, UpfApplication.class).isEmpty());
        assertEquals(0, of(es, UpfTerminationUplink.class).get(0).applicationId());
    }

    @Test
    public void urrWithSupportedTriggersIsAcceptedAndCountsPerPdr() throws Exception {
        Urr urr = new Urr(1, Urr.VOLUM, Urr.PERIO | Urr.VOLTH, 60L, 1_000_000L, null, null);
        Set<UpfEntity> es = translate(session(
                List.of(uplinkPdr(1, 1, List.of(), List.of(1L)), downlinkPdr(2, 2, List.of(), List.of(1L))),
                List.of(forwardCore(1), forwardGnb(2, 7)), List.of(), List.of(urr)));
        int ul = of(es, UpfTerminationUplink.class).get(0).counterId();
        int dl = of(es, UpfTerminationDownlink.class).get(0).counterId();
        assertTrue(ul != dl);
    }

    @Test
    public void refusalsNameTheRuleAndCause() {
        Urr quota = new Urr(1, Urr.VOLUM, 0x0100, null, null, null, null);
        RuleException e = refused(session(List.of(uplinkPdr(1, 1, List.of(), List.of(1L))),
                                          List.of(forwardCore(1)), List.of(), List.of(quota)));
        assertEquals(Cause.SERVICE_NOT_SUPPORTED, e.cause());
        assertEquals(3, e.ruleType());

        e = refused(session(List.of(uplinkPdr(1, 9, List.of(), List.of())), List.of(forwardCore(1)), List.of(),
                            List.of()));
        assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, e.cause());
        assertEquals("PDR 1 refers to unknown FAR 9", e.getMessage());

        e = refused(session(List.of(downlinkPdr(2, 2, List.of(), List.of())),
                            List.of(forwardCore(2)), List.of(), List.of()));
        assertEquals(Cause.CONDITIONAL_IE_MISSING, e.cause());
        assertEquals(1, e.ruleType());

        e = refused(session(List.of(uplinkPdr(1, 1, List.of(), List.of())),
                            List.of(new Far(1, Far.FORW | Far.DUPL, Far.CORE, null, null, null)), List.of(),
                            List.of()));
        assertEquals(Cause.SERVICE_NOT_SUPPORTED, e.cause());

        e = refused(session(List.of(uplinkPdr(1, 1, List.of(), List.of(), "permit in ip from any to assigned")),
                            List.of(forwardCore(1)), List.of(), List.of()));
        assertTrue(e.getMessage(), e.getMessage().contains("permit out"));

        e = refused(session(List.of(uplinkPdr(1, 1, List.of(), List.of())),
                            List.of(new Far(1, Far.BUFF, null, null, null, null)), List.of(), List.of()));
        assertEquals("FAR 1: uplink buffering", e.getMessage());

        Pdr noTeid = new Pdr(1, 1, Pdr.ACCESS, null, null, true, null, UE, List.of(), null, null, null, 1L,
                             List.of(), List.of());
        e = refused(session(List.of(noTeid), List.of(forwardCore(1)), List.of(), List.of()));
        assertEquals("uplink PDR 1 has no F-TEID", e.getMessage());
    }

    @Test
    public void translationIsStableAndPoolReleasesOnCommit() throws Exception {
        PfcpSession s = session(List.of(uplinkPdr(1, 1, List.of(), List.of()), downlinkPdr(2, 2, List.of(), List.of())),
                                List.of(forwardCore(1), forwardGnb(2, 7)), List.of(), List.of());
        ResourcePool.Allocation a = pool.begin(Map.of());
        Set<UpfEntity> first = translator.translate(s, a);
        Map<String, Integer> held = pool.commit(a);
        assertEquals(2, pool.countersInUse());
        ResourcePool.Allocation b = pool.begin(held);
        assertEquals(first, translator.translate(s, b));
        assertEquals(held, pool.commit(b));
        pool.releaseAll(held);
        assertEquals(0, pool.countersInUse());
    }
}
