package org.hupf.core.pfcp;

import org.hupf.api.Association;
import org.hupf.api.TenantOverlay;
import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.pfcp.codec.Ie;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.codec.IeFields;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.PfcpMessage;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.FTeid;
import org.hupf.core.pfcp.message.FailedRuleId;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.OuterHeaderCreation;
import org.hupf.core.pfcp.message.UeIpAddress;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTenant;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.dataplane.Tenant;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

/**
 * N4 that cannot be hijacked: every request from somewhere other than an association's peer, or against
 * the header rules or the UP function's TEID and UE address space, is refused with its cause and changes
 * nothing (the victim's session, its device entities and its association stay as they were).
 */
public class PfcpHandlerTest {

    /** The real SMF: Node ID 127.0.0.1, allowed from 127.0.0.1 (plain form) and from 127.0.0.4 (failover). */
    private static final InetSocketAddress SMF = new InetSocketAddress("127.0.0.1", 8805);
    private static final InetSocketAddress SMF_OTHER_PORT = new InetSocketAddress("127.0.0.1", 40000);
    private static final InetSocketAddress SMF_FAILOVER = new InetSocketAddress("127.0.0.4", 8805);
    /** Another SMF, allowed as smf2.test from 127.0.0.2 only: the intruder of these tests. */
    private static final InetSocketAddress INTRUDER = new InetSocketAddress("127.0.0.2", 8805);
    private static final long RECOVERY = 3_900_000_000L;

    private InMemoryUpfDevice device;
    private SessionManager sessions;
    private PfcpHandler handler;
    private PfcpStats stats;
    private int seq;
    private long now = 1_000;

    @Before
    public void setUp() {
        Ip4Address n3 = Ip4Address.valueOf("192.168.0.1");
        device = new InMemoryUpfDevice("test", 1024);
        SessionTenant tenant = new SessionTenant("tenant-a", new Tenant(100, n3, 1, 0, 0), new TenantOverlay(
                n3, Ip4Address.valueOf("172.16.0.2"), MacAddress.valueOf("02:00:00:00:0a:01"),
                MacAddress.valueOf("02:00:00:00:0a:02")));
        sessions = new SessionManager(new InMemorySessionStore(),
                                      new SessionTranslator(n3, 0, Map.of(), 10, () -> Map.of("tenant-a", tenant)),
                                      new ResourcePool(1024, 1024), () -> List.of(device), n3);
        PfcpConfig cfg = new PfcpConfig("127.0.0.1", 0, "127.0.0.9",
                                        Set.of("127.0.0.1", "127.0.0.1@127.0.0.4", "smf2.test@127.0.0.2"),
                                        0, 3000, 3, 60_000, 1000);
        stats = new PfcpStats();
        handler = new PfcpHandler(cfg, sessions, new UsageReporter(sessions, () -> now), 1, stats);
    }

    // Messages ------------------------------------------------------------------------------------------

    private static Ie node(String id) {
        return IeFields.NODE_ID.encode(NodeId.of(id));
    }

    private static Inet4Address v4(String a) throws Exception {
        return (Inet4Address) InetAddress.getByName(a);
    }

    private PfcpMessage setup(String nodeId, long recovery) {
        return PfcpMessage.node(MessageType.ASSOCIATION_SETUP_REQUEST, ++seq,
                                List.of(node(nodeId), Ie.u32(IeType.RECOVERY_TIME_STAMP, recovery)));
    }

    private PfcpMessage heartbeat(long recovery) {
        return PfcpMessage.node(MessageType.HEARTBEAT_REQUEST, ++seq, List.of(Ie.u32(IeType.RECOVERY_TIME_STAMP,
                                                                                     recovery)));
    }

    /** The IEs of an establishment: an uplink PDR (F-TEID CHOOSE, or the given TEID), a downlink PDR. */
    private static List<Ie> establishmentIes(String nodeId, long cpSeid, String ue, Long teid) throws Exception {
        Ie fteid = teid == null ? IeFields.F_TEID.encode(new FTeid(0, null, true, null))
                : IeFields.F_TEID.encode(new FTeid(teid, v4("192.168.0.1"), false, null));
        Ie ul = Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 1), Ie.u32(IeType.PRECEDENCE, 100),
                           Ie.grouped(IeType.PDI, Ie.u8(IeType.SOURCE_INTERFACE, 0), fteid,
                                      IeFields.UE_IP_ADDRESS.encode(new UeIpAddress(v4(ue), false, false))),
                           Ie.u8(IeType.OUTER_HEADER_REMOVAL, 0), Ie.u32(IeType.FAR_ID, 1));
        Ie dl = Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 2), Ie.u32(IeType.PRECEDENCE, 100),
                           Ie.grouped(IeType.PDI, Ie.u8(IeType.SOURCE_INTERFACE, 1),
                                      IeFields.UE_IP_ADDRESS.encode(new UeIpAddress(v4(ue), true, false))),
                           Ie.u32(IeType.FAR_ID, 2));
        Ie ulFar = Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.u8(IeType.APPLY_ACTION, 0x02),
                              Ie.grouped(IeType.FORWARDING_PARAMETERS, Ie.u8(IeType.DESTINATION_INTERFACE, 1)));
        Ie dlFar = Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 2), Ie.u8(IeType.APPLY_ACTION, 0x0c));
        return List.of(node(nodeId), IeFields.F_SEID.encode(new FSeid(cpSeid, v4("127.0.0.1"), null)), ul, dl, ulFar, dlFar);
    }

    private PfcpMessage establishment(String nodeId, long cpSeid, String ue, Long teid) throws Exception {
        return PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, ++seq,
                                   establishmentIes(nodeId, cpSeid, ue, teid));
    }

    private PfcpMessage deletion(long upSeid) {
        return PfcpMessage.session(MessageType.SESSION_DELETION_REQUEST, upSeid, ++seq, List.of());
    }

    /** The downlink FAR starts forwarding to a gNB. */
    private PfcpMessage modification(long upSeid) throws Exception {
        return PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, upSeid, ++seq, List.of(
                Ie.grouped(IeType.UPDATE_FAR, Ie.u32(IeType.FAR_ID, 2), Ie.u8(IeType.APPLY_ACTION, 0x02),
                           Ie.grouped(IeType.UPDATE_FORWARDING_PARAMETERS, Ie.u8(IeType.DESTINATION_INTERFACE, 0),
                                      IeFields.OUTER_HEADER_CREATION.encode(OuterHeaderCreation.gtpuIpv4(0x77, v4("192.168.1.10")))))));
    }

    private PfcpMessage send(InetSocketAddress from, PfcpMessage m) throws Exception {
        byte[] in = PfcpCodec.encode(m);
        byte[] out = handler.handle(from, in, in.length, now);
        assertNotNull("no answer to " + m, out);
        PfcpMessage r = PfcpCodec.decode(out, out.length);
        assertEquals(m.type() + 1, r.type());
        assertEquals(m.sequence(), r.sequence());
        return r;
    }

    private static int cause(PfcpMessage r) throws Exception {
        return r.require(IeType.CAUSE).reader().u8();
    }

    private int send(InetSocketAddress from, PfcpMessage m, int expectedCause) throws Exception {
        PfcpMessage r = send(from, m);
        assertEquals(m.toString(), expectedCause, cause(r));
        return expectedCause;
    }

    // State -----------------------------------------------------------------------------------------------

    /** What a refused request must leave as it was: sessions, device entities, associations. */
    private List<Object> state() {
        Map<String, String> assoc = new HashMap<>();
        for (Association a : handler.associations()) {
            assoc.put(a.nodeId, a.peer + "/" + a.recoveryTimeStamp + "/" + a.establishedMillis);
        }
        List<Object> out = new ArrayList<>();
        out.add(new HashSet<>(sessions.store().all()));
        for (UpfEntityType t : UpfEntityType.values()) {
            out.add(new HashSet<>(device.entities(t)));
        }
        out.add(assoc);
        return out;
    }

    /** The real SMF associated, with one session; returns its UP SEID. */
    private long victim() throws Exception {
        send(SMF, setup("127.0.0.1", RECOVERY), Cause.REQUEST_ACCEPTED);
        PfcpMessage r = send(SMF, establishment("127.0.0.1", 100, "10.250.0.1", null));
        assertEquals(Cause.REQUEST_ACCEPTED, cause(r));
        return IeFields.F_SEID.require(r).seid;
    }

    private void victimStillServed(long upSeid) throws Exception {
        send(SMF, modification(upSeid), Cause.REQUEST_ACCEPTED);
        send(SMF, deletion(upSeid), Cause.REQUEST_ACCEPTED);
        assertNull(sessions.store().get(upSeid));
    }

    // Tests -----------------------------------------------------------------------------------------------

    /** Bulk deletions (peer restart, release, replaced association) run in the background after the answer. */
    private void awaitNoSessions() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        while (!sessions.store().all().isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(0, sessions.store().all().size());
    }

    /**
     * An answer is kept for the retransmission window from when it was made: a request received longer than the
     * window before it was answered (queued behind slow devices) gets its own answer again, not a refusal of its CP
     * F-SEID as a new establishment's.
     */
    @Test
    public void aRetransmissionOfARequestAnsweredLateGetsItsAnswer() throws Exception {
        send(SMF, setup("127.0.0.1", RECOVERY), Cause.REQUEST_ACCEPTED);
        PfcpMessage establish = establishment("127.0.0.1", 100, "10.250.0.1", null);
        now = System.currentTimeMillis() - 2 * 60_000;
        PfcpMessage answered = send(SMF, establish);
        now = System.currentTimeMillis();
        handler.evictResponses(now);
        PfcpMessage again = send(SMF, establish);
        assertEquals(Cause.REQUEST_ACCEPTED, cause(again));
        assertEquals(IeFields.F_SEID.require(answered).seid, IeFields.F_SEID.require(again).seid);
    }

    @Test
    public void establishmentFromAnotherAddressNamingAnAssociatedNodeIsRefused() throws Exception {
        long up = victim();
        send(INTRUDER, setup("smf2.test", RECOVERY), Cause.REQUEST_ACCEPTED);
        List<Object> before = state();
        send(INTRUDER, establishment("127.0.0.1", 7, "10.250.0.2", null), Cause.NO_ESTABLISHED_PFCP_ASSOCIATION);
        send(SMF_OTHER_PORT, establishment("127.0.0.1", 8, "10.250.0.3", null),
             Cause.NO_ESTABLISHED_PFCP_ASSOCIATION);
        assertEquals(before, state());
        victimStillServed(up);
    }

    @Test
    public void associationSetupFromAnAddressNotAllowedForTheNodeIdIsRefused() throws Exception {
        long up = victim();
        List<Object> before = state();
        PfcpMessage r = send(INTRUDER, setup("127.0.0.1", RECOVERY + 1));
        assertEquals(Cause.REQUEST_REJECTED, cause(r));
        assertNotNull(r.ie(IeType.NODE_ID));
        assertNotNull(r.ie(IeType.RECOVERY_TIME_STAMP));
        assertNull(r.ie(IeType.UP_FUNCTION_FEATURES));
        assertEquals(before, state());
        assertEquals(1, stats.snapshot().get("reject.peer_address").intValue());
        victimStillServed(up);
    }

    @Test
    public void associationReleaseAndUpdateOnlyFromThePeer() throws Exception {
        long up = victim();
        List<Object> before = state();
        PfcpMessage release = PfcpMessage.node(MessageType.ASSOCIATION_RELEASE_REQUEST, ++seq,
                                               List.of(node("127.0.0.1")));
        send(INTRUDER, release, Cause.NO_ESTABLISHED_PFCP_ASSOCIATION);
        send(SMF_OTHER_PORT, release, Cause.NO_ESTABLISHED_PFCP_ASSOCIATION);
        send(SMF_FAILOVER, release, Cause.NO_ESTABLISHED_PFCP_ASSOCIATION);
        PfcpMessage update = PfcpMessage.node(MessageType.ASSOCIATION_UPDATE_REQUEST, ++seq,
                                              List.of(node("127.0.0.1")));
        send(INTRUDER, update, Cause.NO_ESTABLISHED_PFCP_ASSOCIATION);
        assertEquals(before, state());
        send(SMF, update, Cause.REQUEST_ACCEPTED);
        send(SMF, modification(up), Cause.REQUEST_ACCEPTED);
        send(SMF, PfcpMessage.node(MessageType.ASSOCIATION_RELEASE_REQUEST, ++seq, List.of(node("127.0.0.1"))),
             Cause.REQUEST_ACCEPTED);
        awaitNoSessions();
        assertEquals(0, handler.associations().size());
    }

    @Test
    public void onlyThePeersHeartbeatsCarryItsRecovery() throws Exception {
        long up = victim();
        List<Object> before = state();
        // Same IP, another port, a new Recovery Time Stamp: answered, and nothing else.
        PfcpMessage r = send(SMF_OTHER_PORT, heartbeat(RECOVERY + 50));
        assertNotNull(r.ie(IeType.RECOVERY_TIME_STAMP));
        send(INTRUDER, heartbeat(RECOVERY + 60));
        assertEquals(before, state());
        send(SMF, modification(up), Cause.REQUEST_ACCEPTED);
        // From the peer's own address and port (which a blind spoofer can forge too), the news is checked with the
        // peer: nothing changes until its answer to hupf's own request confirms it.
        List<InetSocketAddress> asked = new ArrayList<>();
        handler.onAskRecovery(peer -> {
            asked.add(peer);
            return new CompletableFuture<>();
        });
        List<Object> modified = state();
        send(SMF, heartbeat(RECOVERY + 70));
        assertEquals(List.of(SMF), asked);
        assertEquals(modified, state());
        handler.peerRecovery(SMF, RECOVERY);
        assertEquals("the peer answered with its stamp: it did not restart", modified, state());
        handler.peerRecovery(SMF, RECOVERY + 70);
        awaitNoSessions();
        assertEquals(RECOVERY + 70, handler.associations().iterator().next().recoveryTimeStamp);
    }

    @Test
    public void aSetupThatWouldDeleteSessionsWaitsForThePeersConfirmation() throws Exception {
        long up = victim();
        List<Object> before = state();
        // The peer answers with the stamp it has (the setup was forged in its name), or not at all.
        Map<InetSocketAddress, Long> answers = new HashMap<>(Map.of(SMF, RECOVERY));
        List<InetSocketAddress> asked = new ArrayList<>();
        handler.onAskRecovery(peer -> {
            asked.add(peer);
            return CompletableFuture.completedFuture(answers.get(peer));
        });
        for (InetSocketAddress from : List.of(SMF, SMF_FAILOVER)) {
            PfcpMessage r = send(from, setup("127.0.0.1", RECOVERY + 5));
            assertEquals(Cause.REQUEST_REJECTED, cause(r));
            assertNull(r.ie(IeType.UP_FUNCTION_FEATURES));
        }
        assertEquals(List.of(SMF, SMF_FAILOVER), asked);
        assertEquals(before, state());
        assertEquals(2, stats.snapshot().get("reject.association_unconfirmed").intValue());
        victimStillServed(up);
        // Without sessions to lose, a new setup needs no confirmation.
        send(SMF_FAILOVER, setup("127.0.0.1", RECOVERY + 6), Cause.REQUEST_ACCEPTED);
        assertEquals(2, asked.size());
        assertEquals(SMF_FAILOVER, handler.associations().iterator().next().peer);
    }

    @Test
    public void sessionMessagesOnlyFromTheAssociationsPeer() throws Exception {
        long up = victim();
        send(INTRUDER, setup("smf2.test", RECOVERY), Cause.REQUEST_ACCEPTED);
        List<Object> before = state();
        for (InetSocketAddress from : List.of(INTRUDER, SMF_OTHER_PORT, SMF_FAILOVER)) {
            PfcpMessage r = send(from, deletion(up));
            assertEquals(Cause.SESSION_CONTEXT_NOT_FOUND, cause(r));
            assertEquals(0, r.seid());
            send(from, modification(up), Cause.SESSION_CONTEXT_NOT_FOUND);
        }
        assertEquals(before, state());
        victimStillServed(up);
    }

    @Test
    public void headerRulesOfSessionMessages() throws Exception {
        long up = victim();
        List<Object> before = state();
        // S = 0 on session messages (§7.2.2.3).
        PfcpMessage noSeid = PfcpMessage.node(MessageType.SESSION_ESTABLISHMENT_REQUEST, ++seq,
                                              establishmentIes("127.0.0.1", 9, "10.250.0.9", null));
        PfcpMessage r = send(SMF, noSeid);
        assertEquals(Cause.REQUEST_REJECTED, cause(r));
        assertNotNull(r.ie(IeType.NODE_ID));
        r = send(SMF, PfcpMessage.node(MessageType.SESSION_DELETION_REQUEST, ++seq, List.of()));
        assertEquals(Cause.REQUEST_REJECTED, cause(r));
        assertEquals(0, r.seid());
        send(SMF, PfcpMessage.node(MessageType.SESSION_MODIFICATION_REQUEST, ++seq, modification(up).ies()),
             Cause.REQUEST_REJECTED);
        // A non-zero SEID on an establishment (§7.2.2.4.2), even the SEID of an existing session.
        send(SMF, PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, up, ++seq,
                                      establishmentIes("127.0.0.1", 10, "10.250.0.10", null)),
             Cause.REQUEST_REJECTED);
        assertEquals(before, state());
        assertEquals(4, stats.snapshot().get("reject.header").intValue());
        victimStillServed(up);
    }

    @Test
    public void teidAndUeAddressSpaceIsTheUpFunctions() throws Exception {
        long up = victim();
        long teid = sessions.store().get(up).pdrs.get(1).teid;
        send(INTRUDER, setup("smf2.test", RECOVERY), Cause.REQUEST_ACCEPTED);
        List<Object> before = state();
        PfcpMessage r = send(INTRUDER, establishment("smf2.test", 1, "10.250.0.2", teid));
        assertEquals(Cause.INVALID_FTEID_ALLOCATION_OPTION, cause(r));
        FailedRuleId failed = IeFields.FAILED_RULE_ID.require(r);
        assertEquals(FailedRuleId.PDR, failed.ruleType);
        assertEquals(1, failed.ruleId);
        send(INTRUDER, establishment("smf2.test", 2, "10.250.0.2", 0L), Cause.MANDATORY_IE_INCORRECT);
        send(INTRUDER, establishment("smf2.test", 3, "10.250.0.1", null), Cause.RULE_CREATION_MODIFICATION_FAILURE);
        assertEquals(before, state());
        // A free TEID given by the CP function is taken (restoration, §5.5.1), and then never chosen.
        send(INTRUDER, establishment("smf2.test", 4, "10.250.0.2", teid + 1), Cause.REQUEST_ACCEPTED);
        victimStillServed(up);
    }

    @Test
    public void aNewSetupFromAnAllowedAddressReplacesTheAssociationAndItsSessions() throws Exception {
        long up = victim();
        // §6.2.6.2.2: overwritten whatever the Recovery Time Stamp; the old association's sessions go, once the
        // new peer answered hupf's heartbeat with the stamp of its setup.
        handler.onAskRecovery(peer -> CompletableFuture.completedFuture(peer.equals(SMF_FAILOVER) ? RECOVERY : null));
        send(SMF_FAILOVER, setup("127.0.0.1", RECOVERY), Cause.REQUEST_ACCEPTED);
        awaitNoSessions();
        assertEquals(SMF_FAILOVER, handler.associations().iterator().next().peer);
        send(SMF, deletion(up), Cause.SESSION_CONTEXT_NOT_FOUND);
        send(SMF, establishment("127.0.0.1", 5, "10.250.0.5", null), Cause.NO_ESTABLISHED_PFCP_ASSOCIATION);
        send(SMF_FAILOVER, establishment("127.0.0.1", 5, "10.250.0.5", null), Cause.REQUEST_ACCEPTED);
    }

    @Test
    public void aRestartedSmfsReEstablishmentsAreTakenAtOnceAndTheDeviceEndsExact() throws Exception {
        send(SMF, setup("127.0.0.1", RECOVERY), Cause.REQUEST_ACCEPTED);
        int n = 300;   // more than one device batch of removals
        for (int i = 1; i <= n; i++) {
            send(SMF, establishment("127.0.0.1", i, "10.250." + (i >> 8) + "." + (i & 0xFF), null),
                 Cause.REQUEST_ACCEPTED);
        }
        Set<Long> old = new HashSet<>();
        sessions.store().all().forEach(x -> old.add(x.upSeid));
        // The SMF restarted: a new association (the SMF confirms its new stamp when asked), then the same UEs and
        // CP SEIDs again, without a pause.
        handler.onAskRecovery(peer -> CompletableFuture.completedFuture(RECOVERY + 1));
        send(SMF, setup("127.0.0.1", RECOVERY + 1), Cause.REQUEST_ACCEPTED);
        for (int i = 1; i <= n; i++) {
            send(SMF, establishment("127.0.0.1", i, "10.250." + (i >> 8) + "." + (i & 0xFF), null),
                 Cause.REQUEST_ACCEPTED);
        }
        assertEquals(n, sessions.store().all().size());
        sessions.store().all().forEach(x -> assertFalse(old.contains(x.upSeid)));
        assertEquals("a device write refused", 0, sessions.deviceErrors());
        assertEquals("the device holds exactly what the store implies", 0, sessions.reconcile());
    }

    /** A Create QER without its mandatory Gate Status. */
    private static final Ie QER_WITHOUT_GATE = Ie.grouped(IeType.CREATE_QER, Ie.u32(IeType.QER_ID, 9));

    @Test
    public void aMalformedRequestIsFirstCheckedForItsSessionOrAssociation() throws Exception {
        long up = victim();
        List<Object> before = state();
        // As before the typed requests: no such session (or not this peer's) outranks the malformed IE.
        send(SMF, PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, up + 1, ++seq,
                                      List.of(QER_WITHOUT_GATE)), Cause.SESSION_CONTEXT_NOT_FOUND);
        send(INTRUDER, PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, up, ++seq,
                                           List.of(QER_WITHOUT_GATE)), Cause.SESSION_CONTEXT_NOT_FOUND);
        List<Ie> establishment = new ArrayList<>(establishmentIes("127.0.0.1", 200, "10.250.0.9", null));
        establishment.add(QER_WITHOUT_GATE);
        send(INTRUDER, PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, ++seq, establishment),
             Cause.NO_ESTABLISHED_PFCP_ASSOCIATION);
        List<Ie> reused = new ArrayList<>(establishmentIes("127.0.0.1", 100, "10.250.0.9", null));
        reused.add(QER_WITHOUT_GATE);
        send(SMF, PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, ++seq, reused),
             Cause.REQUEST_REJECTED);
        assertEquals(before, state());
        // The owner's malformed requests get the decoding cause and name the Offending IE.
        for (PfcpMessage m : List.of(
                PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, up, ++seq, List.of(QER_WITHOUT_GATE)),
                PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, ++seq, establishment))) {
            PfcpMessage r = send(SMF, m);
            assertEquals(Cause.MANDATORY_IE_MISSING, cause(r));
            assertEquals(IeType.GATE_STATUS, (int) IeFields.OFFENDING_IE.require(r));
        }
        assertEquals(before, state());
        victimStillServed(up);
    }

    /** An establishment whose downlink FAR forwards to the gNB 192.168.1.10, naming a Network Instance or not. */
    private PfcpMessage establishmentTowardsGnb(long cpSeid, String ue, String networkInstance) throws Exception {
        List<Ie> ies = new ArrayList<>(establishmentIes("127.0.0.1", cpSeid, ue, null));
        List<Ie> forwarding = new ArrayList<>(List.of(Ie.u8(IeType.DESTINATION_INTERFACE, 0)));
        if (networkInstance != null) {
            forwarding.add(IeFields.NETWORK_INSTANCE.encode(networkInstance));
        }
        forwarding.add(IeFields.OUTER_HEADER_CREATION.encode(OuterHeaderCreation.gtpuIpv4(0x77, v4("192.168.1.10"))));
        ies.set(ies.size() - 1, Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 2), Ie.u8(IeType.APPLY_ACTION, 0x02),
                                           Ie.grouped(IeType.FORWARDING_PARAMETERS, forwarding)));
        return PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, ++seq, ies);
    }

    /**
     * A gNB in tenant-a's overlay (bound by a FAR's Network Instance, TS 29.244 §8.2.4): an establishment towards
     * it without the tenant is refused with cause 73, the FAR as Failed Rule ID and its Outer Header Creation as
     * Offending IE, and nothing changes.
     */
    @Test
    public void aGnbOfATenantRefusesAnUnboundSessionNamingTheFarAndItsIe() throws Exception {
        send(SMF, setup("127.0.0.1", RECOVERY), Cause.REQUEST_ACCEPTED);
        send(SMF, establishmentTowardsGnb(100, "10.250.0.1", "tenant-a"), Cause.REQUEST_ACCEPTED);
        assertEquals(1, device.count(UpfEntityType.PEER_VXLAN));
        List<Object> before = state();
        PfcpMessage r = send(SMF, establishmentTowardsGnb(101, "10.250.0.2", null));
        assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, cause(r));
        assertEquals(IeType.OUTER_HEADER_CREATION, (int) IeFields.OFFENDING_IE.require(r));
        FailedRuleId failed = IeFields.FAILED_RULE_ID.require(r);
        assertEquals(FailedRuleId.FAR, failed.ruleType);
        assertEquals(2, failed.ruleId);
        assertEquals(before, state());
    }
}
