package org.hupf.core.translation;

import org.hupf.api.session.AppFilter;
import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Qer;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.Urr;
import org.hupf.core.site.SitePlacement;
import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Translates a PFCP session into the UPF entities of docs/PIPELINE_CONTRACT.md.
 *
 * <p>Mapping: an uplink PDR (source ACCESS) gives an uplink session keyed by its F-TEID and an uplink
 * termination keyed by (UE, application); a downlink PDR (source CORE/SGi-LAN) gives the downlink session
 * keyed by the UE, a downlink termination and the tunnel peer of its FAR. An SDF filter gives an
 * application; a QER shared by every PDR of the session is the session meter, another one the
 * application meter; each PDR gets its own counter cell. Anything else is refused with a
 * {@link RuleException} naming the rule and the PFCP cause.
 *
 * <p>Tenants: a session whose access-side Network Instances (uplink PDIs, downlink FARs' Forwarding
 * Parameters) name a VXLAN tenant is bound to it; its tunnel peers are routed to the tenant's edge VTEP and
 * get the tenant's {@code peer_vxlan} entry (when the tenant has an overlay). Other names bind nothing; a
 * translator given the Network Instances it serves refuses any name that is neither one of them nor a
 * tenant's (cause 73, the rule, Offending IE Network Instance).
 */
public final class SessionTranslator {

    /** The Network Instances served when the configuration names none (standalone, lab runner, ONOS netcfg). */
    public static final Set<String> DEFAULT_NETWORK_INSTANCES = Set.of("internet");

    /** PFCP Outer Header Removal value for GTP-U/UDP/IPv4 (§8.2.64). */
    private static final int OHR_GTPU_UDP_IPV4 = 0;
    private static final int OHR_GTPU_UDP_IP = 6;
    private static final long MIN_BURST_BYTES = 3000;
    private static final Comparator<Pdr> PDR_ID = Comparator.comparingInt(p -> p.pdrId);
    private static final Comparator<Far> FAR_ID = Comparator.comparingLong(f -> f.farId);
    private static final Comparator<Pdr> PRECEDENCE = Comparator.comparingLong((Pdr p) -> p.precedence)
            .thenComparingInt(p -> p.pdrId);

    private final Ip4Address n3Address;
    private final int sliceId;
    private final Map<Integer, Integer> qfiToTc;
    private final long burstMillis;
    private final Supplier<Map<String, SessionTenant>> tenants;
    /** Network Instances served beside the tenants'; null: any. */
    private final Set<String> networkInstances;
    /** The sites a session may be placed at; null: one implicit site serving every gNB. */
    private final SitePlacement placement;

    /**
     * Creates a translator without tenants.
     *
     * @param n3Address   N3 address used as the outer source of downlink tunnels
     * @param sliceId     slice of every application entry
     * @param qfiToTc     QFI to traffic class; missing QFIs map to class 0
     * @param burstMillis meter burst as milliseconds of the rate (at least 2 MTUs)
     */
    public SessionTranslator(Ip4Address n3Address, int sliceId, Map<Integer, Integer> qfiToTc, long burstMillis) {
        this(n3Address, sliceId, qfiToTc, burstMillis, Map::of);
    }

    /**
     * Creates a translator.
     *
     * @param n3Address   N3 address used as the outer source of downlink tunnels
     * @param sliceId     slice of every application entry
     * @param qfiToTc     QFI to traffic class; missing QFIs map to class 0
     * @param burstMillis meter burst as milliseconds of the rate (at least 2 MTUs)
     * @param tenants     the tenants by network instance, read at every translation (the netcfg's)
     */
    public SessionTranslator(Ip4Address n3Address, int sliceId, Map<Integer, Integer> qfiToTc, long burstMillis,
                             Supplier<Map<String, SessionTenant>> tenants) {
        this(n3Address, sliceId, qfiToTc, burstMillis, tenants, null);
    }

    /**
     * Creates a translator that refuses a Network Instance it does not know.
     *
     * @param n3Address        N3 address used as the outer source of downlink tunnels
     * @param sliceId          slice of every application entry
     * @param qfiToTc          QFI to traffic class; missing QFIs map to class 0
     * @param burstMillis      meter burst as milliseconds of the rate (at least 2 MTUs)
     * @param tenants          the tenants by network instance, read at every translation (the netcfg's)
     * @param networkInstances the Network Instances served beside the tenants'; null: any name is taken
     */
    public SessionTranslator(Ip4Address n3Address, int sliceId, Map<Integer, Integer> qfiToTc, long burstMillis,
                             Supplier<Map<String, SessionTenant>> tenants, Set<String> networkInstances) {
        this(n3Address, sliceId, qfiToTc, burstMillis, tenants, networkInstances, null);
    }

    /**
     * Creates a translator that also refuses a session no site serves ({@link SitePlacement#place}).
     *
     * @param n3Address        N3 address used as the outer source of downlink tunnels
     * @param sliceId          slice of every application entry
     * @param qfiToTc          QFI to traffic class; missing QFIs map to class 0
     * @param burstMillis      meter burst as milliseconds of the rate (at least 2 MTUs)
     * @param tenants          the tenants by network instance, read at every translation (the netcfg's)
     * @param networkInstances the Network Instances served beside the tenants'; null: any name is taken
     * @param placement        the sites; null: one site serving every gNB
     */
    public SessionTranslator(Ip4Address n3Address, int sliceId, Map<Integer, Integer> qfiToTc, long burstMillis,
                             Supplier<Map<String, SessionTenant>> tenants, Set<String> networkInstances,
                             SitePlacement placement) {
        this.placement = placement;
        this.n3Address = n3Address;
        this.sliceId = sliceId;
        this.qfiToTc = Map.copyOf(qfiToTc);
        this.burstMillis = burstMillis;
        this.tenants = tenants;
        this.networkInstances = networkInstances == null ? null : Set.copyOf(networkInstances);
    }

    /**
     * Returns the tenant a session is bound to: the one its access-side Network Instances name (uplink PDIs,
     * the Forwarding Parameters of FARs towards the access side); names that are no tenant's bind nothing.
     *
     * @param s     session
     * @param known tenants by network instance
     * @return the tenant, or null
     * @throws RuleException 73 naming the rule and its Network Instance if two of them name different tenants
     */
    public static SessionTenant tenantOf(PfcpSession s, Map<String, SessionTenant> known) throws RuleException {
        if (known.isEmpty()) {
            return null;
        }
        SessionTenant bound = null;
        String boundBy = null;
        Pdr[] pdrs = s.pdrs.values().toArray(new Pdr[s.pdrs.size()]);
        Arrays.sort(pdrs, PDR_ID);
        for (Pdr p : pdrs) {
            SessionTenant t = p.isUplink() && p.networkInstance != null ? known.get(p.networkInstance) : null;
            if (t != null) {
                checkSameTenant(bound, boundBy, t, 0, p.pdrId, "PDR " + p.pdrId);
                bound = t;
                boundBy = "PDR " + p.pdrId;
            }
        }
        Far[] fars = s.fars.values().toArray(new Far[s.fars.size()]);
        Arrays.sort(fars, FAR_ID);
        for (Far f : fars) {
            boolean accessSide = f.ohcAddress != null || Integer.valueOf(Far.ACCESS).equals(f.destinationInterface);
            SessionTenant t = accessSide && f.networkInstance != null ? known.get(f.networkInstance) : null;
            if (t != null) {
                checkSameTenant(bound, boundBy, t, 1, f.farId, "FAR " + f.farId);
                bound = t;
                boundBy = "FAR " + f.farId;
            }
        }
        return bound;
    }

    private static void checkSameTenant(SessionTenant bound, String boundBy, SessionTenant t, int ruleType,
                                        long ruleId, String rule) throws RuleException {
        if (bound != null && !bound.networkInstance.equals(t.networkInstance)) {
            throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, ruleType, ruleId,
                                    RuleException.NETWORK_INSTANCE_IE, rule + ": Network Instance '"
                                            + t.networkInstance + "' names another tenant than " + boundBy + "'s '"
                                            + bound.networkInstance + "': a session is bound to one tenant");
        }
    }

    /**
     * Translates a session.
     *
     * @param s   session
     * @param res index allocation
     * @return the entities the session needs on every device
     * @throws RuleException if a rule cannot be expressed in the pipeline
     */
    public Set<UpfEntity> translate(PfcpSession s, SessionResources res) throws RuleException {
        Map<String, SessionTenant> known = tenants.get();
        NetworkInstanceCheck.check(s, known, networkInstances);
        if (placement != null) {
            placement.place(s);
        }
        SessionTenant tenant = tenantOf(s, known);
        EntitySet.Builder out = new EntitySet.Builder();
        Pdr[] pdrs = s.pdrs.values().toArray(new Pdr[s.pdrs.size()]);
        Arrays.sort(pdrs, PRECEDENCE);
        Long sessionQer = sessionQer(pdrs);
        Pdr downlinkDefault = null;
        for (Pdr p : pdrs) {
            if (p.sourceInterface == Pdr.CORE || p.sourceInterface == Pdr.SGI_LAN) {
                if (downlinkDefault == null || p.sdfFilters.isEmpty() && !downlinkDefault.sdfFilters.isEmpty()) {
                    downlinkDefault = p;
                }
            }
        }
        for (Pdr p : pdrs) {
            Far far = far(s, p);
            Long appQer = appQer(s, p, sessionQer);
            int appId = appId(p, res);
            int ctr = res.counter(p.pdrId);
            if (p.isUplink()) {
                uplink(s, p, far, sessionQer, appQer, appId, ctr, res, out);
            } else if (p.sourceInterface == Pdr.CORE || p.sourceInterface == Pdr.SGI_LAN) {
                downlink(s, p, far, sessionQer, appQer, appId, ctr, p == downlinkDefault, tenant, res, out);
            } else {
                throw reject(Cause.SERVICE_NOT_SUPPORTED, 0, p.pdrId,
                             "source interface " + p.sourceInterface + " is not supported (ACCESS or CORE only)");
            }
        }
        return out.build();
    }

    private static RuleException reject(int cause, int ruleType, long id, String reason) {
        return new RuleException(cause, ruleType, id, reason);
    }

    private static Far far(PfcpSession s, Pdr p) throws RuleException {
        if (p.farId == null) {
            throw reject(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId, "PDR " + p.pdrId + " has no FAR ID");
        }
        Far far = s.fars.get(p.farId);
        if (far == null) {
            throw reject(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                         "PDR " + p.pdrId + " refers to unknown FAR " + p.farId);
        }
        if ((far.applyAction & Far.DUPL) != 0) {
            throw reject(Cause.SERVICE_NOT_SUPPORTED, 1, far.farId, "FAR " + far.farId + ": duplication (DUPL)");
        }
        if (!far.drops() && !far.forwards() && !far.buffers()) {
            throw reject(Cause.RULE_CREATION_MODIFICATION_FAILURE, 1, far.farId,
                         "FAR " + far.farId + " neither drops, forwards nor buffers");
        }
        return far;
    }

    /**
     * A QER used by every PDR of the session meters the whole session; a lone PDR with two QERs names
     * the session QER first.
     */
    private static Long sessionQer(Pdr[] pdrs) {
        if (pdrs.length < 2) {
            return pdrs.length == 0 || pdrs[0].qerIds.size() != 2 ? null : pdrs[0].qerIds.get(0);
        }
        List<Long> first = pdrs[0].qerIds;
        nextQer:
        for (int i = 0, n = first.size(); i < n; i++) {
            for (Pdr p : pdrs) {
                if (!p.qerIds.contains(first.get(i))) {
                    continue nextQer;
                }
            }
            return first.get(i);
        }
        return null;
    }

    private static Long appQer(PfcpSession s, Pdr p, Long sessionQer) throws RuleException {
        // The PDR's QERs less the session's (its first occurrence): at most one is left, the application's.
        List<Long> qers = p.qerIds;
        int sessionAt = sessionQer == null ? -1 : qers.indexOf(sessionQer);
        if (qers.size() - (sessionAt >= 0 ? 1 : 0) > 1) {
            throw reject(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                         "PDR " + p.pdrId + " has more than one session and one application QER");
        }
        for (int i = 0, n = qers.size(); i < n; i++) {
            if (!s.qers.containsKey(qers.get(i))) {
                throw reject(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                             "PDR " + p.pdrId + " refers to unknown QER " + qers.get(i));
            }
        }
        for (int i = 0, n = p.urrIds.size(); i < n; i++) {
            Long u = p.urrIds.get(i);
            Urr urr = s.urrs.get(u);
            if (urr == null) {
                throw reject(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                             "PDR " + p.pdrId + " refers to unknown URR " + u);
            }
            if ((urr.reportingTriggers & ~Urr.SUPPORTED_TRIGGERS) != 0) {
                throw reject(Cause.SERVICE_NOT_SUPPORTED, 3, u, "URR " + u + ": reporting triggers 0x"
                        + Integer.toHexString(urr.reportingTriggers) + " beyond periodic and volume threshold");
            }
        }
        return qers.size() == (sessionAt >= 0 ? 1 : 0) ? null : qers.get(sessionAt == 0 ? 1 : 0);
    }

    private int appId(Pdr p, SessionResources res) throws RuleException {
        if (p.sdfFilters.size() > 1) {
            throw reject(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId,
                         "PDR " + p.pdrId + " has " + p.sdfFilters.size() + " SDF filters (one is supported)");
        }
        if (p.sdfFilters.isEmpty()) {
            return 0;
        }
        AppFilter f;
        try {
            f = AppFilter.parse(p.sdfFilters.get(0));
        } catch (IllegalArgumentException e) {
            throw reject(Cause.RULE_CREATION_MODIFICATION_FAILURE, 0, p.pdrId, e.getMessage());
        }
        return f.isWildcard() ? 0 : res.appId(f, p.precedence);
    }

    private UpfApplication application(AppFilter f, int appId, long precedence) {
        UpfApplication.Builder b = UpfApplication.builder().withAppId(appId).withSliceId(sliceId)
                .withPriority((int) Math.max(0, Integer.MAX_VALUE - precedence));
        if (f.prefix != null) {
            b.withIp4Prefix(f.prefix);
        }
        if (f.portLow != null) {
            b.withL4PortRange(f.portLow, f.portHigh);
        }
        if (f.proto != null) {
            b.withIpProto(f.proto);
        }
        return b.build();
    }

    private void applications(Pdr p, int appId, EntitySet.Builder out) {
        if (appId != 0) {
            out.add(application(AppFilter.parse(p.sdfFilters.get(0)), appId, p.precedence));
        }
    }

    private int tc(Integer qfi) {
        return qfi == null ? 0 : qfiToTc.getOrDefault(qfi, 0);
    }

    private Integer meter(PfcpSession s, Long qerId, boolean uplink, boolean session, SessionResources res,
                          EntitySet.Builder out) throws RuleException {
        if (qerId == null) {
            return 0;
        }
        Qer q = s.qers.get(qerId);
        Long mbr = uplink ? q.mbrUplink : q.mbrDownlink;
        Long gbr = uplink ? q.gbrUplink : q.gbrDownlink;
        if (mbr == null || mbr == 0) {
            return 0;
        }
        int cell = res.meter(qerId, uplink, session);
        long pir = mbr * 125;  // kbit/s to bytes/s
        long cir = gbr == null ? 0 : Math.min(gbr * 125, pir);
        UpfMeter.Builder b = UpfMeter.builder().setCellId(cell)
                .setPeakBand(pir, burst(pir)).setCommittedBand(cir, cir == 0 ? 0 : burst(cir));
        out.add((session ? b.setSession() : b.setApplication()).build());
        return cell;
    }

    private long burst(long bytesPerSecond) {
        return Math.max(MIN_BURST_BYTES, bytesPerSecond * burstMillis / 1000);
    }

    /**
     * The QoS flow of a PDR's traffic: its QERs' QFI, else the QFI its PDI names (the pipeline cannot
     * match on an uplink QFI, so the PDI QFI only selects the traffic class).
     */
    private static Integer qfi(PfcpSession s, Pdr p, Long appQer, Long sessionQer) {
        Integer qfi = appQer == null ? null : s.qers.get(appQer).qfi;
        if (qfi == null && sessionQer != null) {
            qfi = s.qers.get(sessionQer).qfi;
        }
        return qfi != null ? qfi : p.qfi;
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private void uplink(PfcpSession s, Pdr p, Far far, Long sessionQer, Long appQer, int appId, int ctr,
                        SessionResources res, EntitySet.Builder out) throws RuleException {
        if (p.teid == null || p.tunnelAddress == null) {
            throw reject(Cause.CONDITIONAL_IE_MISSING, 0, p.pdrId, "uplink PDR " + p.pdrId + " has no F-TEID");
        }
        if (p.ueAddress == null) {
            throw reject(Cause.CONDITIONAL_IE_MISSING, 0, p.pdrId, "uplink PDR " + p.pdrId + " has no UE IP address");
        }
        if (p.outerHeaderRemoval != null && p.outerHeaderRemoval != OHR_GTPU_UDP_IPV4
                && p.outerHeaderRemoval != OHR_GTPU_UDP_IP) {
            throw reject(Cause.SERVICE_NOT_SUPPORTED, 0, p.pdrId,
                         "uplink PDR " + p.pdrId + ": outer header removal " + p.outerHeaderRemoval);
        }
        if (far.buffers()) {
            throw reject(Cause.SERVICE_NOT_SUPPORTED, 1, far.farId, "FAR " + far.farId + ": uplink buffering");
        }
        if (far.forwards() && far.destinationInterface != null && far.destinationInterface != Far.CORE) {
            throw reject(Cause.SERVICE_NOT_SUPPORTED, 1, far.farId,
                         "FAR " + far.farId + ": uplink forwarding to interface " + far.destinationInterface);
        }
        int sessionMeter = meter(s, sessionQer, true, true, res, out);
        int appMeter = meter(s, appQer, true, false, res, out);
        boolean gateClosed = gateClosed(s, p, true);
        out.add(UpfSessionUplink.builder().setTunDstAddr(p.tunnelAddress).setTeid(p.teid).withUeAddress(p.ueAddress)
                        .setSessionMeterIdx(sessionMeter).build());
        applications(p, appId, out);
        out.add(UpfTerminationUplink.builder().withUeSessionId(p.ueAddress).withApplicationId(appId)
                        .withCounterId(ctr).withTrafficClass(tc(qfi(s, p, appQer, sessionQer)))
                        .withAppMeterIdx(appMeter).needsDropping(far.drops() || gateClosed).build());
    }

    /**
     * The tunnel peer of a FAR's gNB, in the overlay of the session's tenant if it has one: routed to the edge
     * VTEP, with the tenant's VXLAN encapsulation.
     */
    private int tunnelPeer(Far far, SessionTenant tenant, SessionResources res, EntitySet.Builder out)
            throws RuleException {
        int peer;
        try {
            peer = res.tunnelPeer(far.ohcAddress, tenant == null ? null : tenant.networkInstance);
        } catch (RuleException e) {
            if (e.cause() != Cause.RULE_CREATION_MODIFICATION_FAILURE) {
                throw e;
            }
            // The gNB is another tenant's (or no tenant's): the FAR's Network Instance, or its missing one, is at
            // fault.
            throw new RuleException(e.cause(), 1, far.farId, tenant == null ? RuleException.OUTER_HEADER_CREATION_IE
                    : RuleException.NETWORK_INSTANCE_IE, "FAR " + far.farId + ": " + e.getMessage());
        }
        Ip4Address src = placement == null ? n3Address : placement.n3OfGnb(far.ohcAddress, n3Address);
        UpfGtpTunnelPeer.Builder b = UpfGtpTunnelPeer.builder().withTunnelPeerId(peer).withSrcAddr(src)
                .withDstAddr(far.ohcAddress);
        if (tenant != null && tenant.overlay != null) {
            b.withRoutingDst(tenant.overlay.vtepDst);
            out.add(UpfPeerVxlan.builder().withTunnelPeerId(peer).withVni(tenant.entry.vni())
                            .withVteps(tenant.overlay.vtepSrc, tenant.overlay.vtepDst)
                            .withInnerMacs(tenant.overlay.innerSrcMac, tenant.overlay.innerDstMac).build());
        }
        out.add(b.build());
        return peer;
    }

    private static boolean gateClosed(PfcpSession s, Pdr p, boolean uplink) {
        for (int i = 0, n = p.qerIds.size(); i < n; i++) {
            Qer q = s.qers.get(p.qerIds.get(i));
            if (uplink ? q.uplinkGateClosed : q.downlinkGateClosed) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private void downlink(PfcpSession s, Pdr p, Far far, Long sessionQer, Long appQer, int appId, int ctr,
                          boolean sessionEntry, SessionTenant tenant, SessionResources res, EntitySet.Builder out)
            throws RuleException {
        if (p.ueAddress == null) {
            throw reject(Cause.CONDITIONAL_IE_MISSING, 0, p.pdrId, "downlink PDR " + p.pdrId + " has no UE IP address");
        }
        boolean forwards = far.forwards() && !far.buffers() && !far.drops();
        Integer peer = null;
        if (forwards) {
            if (far.ohcTeid == null || far.ohcAddress == null) {
                throw reject(Cause.CONDITIONAL_IE_MISSING, 1, far.farId,
                             "FAR " + far.farId + " forwards downlink without Outer Header Creation");
            }
            if (far.destinationInterface != null && far.destinationInterface != Far.ACCESS) {
                throw reject(Cause.SERVICE_NOT_SUPPORTED, 1, far.farId,
                             "FAR " + far.farId + ": downlink forwarding to interface " + far.destinationInterface);
            }
            peer = tunnelPeer(far, tenant, res, out);
        }
        int sessionMeter = meter(s, sessionQer, false, true, res, out);
        int appMeter = meter(s, appQer, false, false, res, out);
        if (sessionEntry) {
            UpfSessionDownlink.Builder b = UpfSessionDownlink.builder().withUeAddress(p.ueAddress)
                    .withSessionMeterIdx(sessionMeter)
                    .needsBuffering(far.buffers() && !far.drops()).needsDropping(far.drops());
            if (peer != null) {
                b.withGtpTunnelPeerId(peer);
            }
            out.add(b.build());
        }
        applications(p, appId, out);
        Integer qfi = qfi(s, p, appQer, sessionQer);
        boolean drop = far.drops() || gateClosed(s, p, false);
        UpfTerminationDownlink.Builder t = UpfTerminationDownlink.builder().withUeSessionId(p.ueAddress)
                .withApplicationId(appId).withCounterId(ctr).withQfi(qfi == null ? 0 : qfi).withTrafficClass(tc(qfi))
                .withAppMeterIdx(appMeter).needsDropping(drop);
        if (!drop) {
            t.withTeid(forwards ? far.ohcTeid : 0);
        }
        out.add(t.build());
    }
}
