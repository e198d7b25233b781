package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.ClassifierModel;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.dataplane.TauTable;
import org.hupf.pipeconf.dataplane.Tenant;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.PortNumber;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiRegisterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiActionProfileMemberId;
import org.onosproject.net.pi.runtime.PiCloneSessionEntry;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiMeterBand;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiMeterCellId;
import org.onosproject.net.pi.runtime.PiPreReplica;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * What hupf's switch needs beyond ONOS's UPF API, written through any {@link PiTarget}: HK-IPG
 * configuration ({@code hh_config} default action, {@code tau_table} from Eq. 4.9), MATADOR classifier
 * installation (feature range tables, decision table, class → tc, {@code cls_config}), backend steering
 * ({@code backend_ports}, the {@code backends} action selector), the routes no session owns, the VXLAN
 * tenants ({@code tenants}, the tenant meter), Retroactive Packet Sampling ({@code rps.config}, {@code rps.flows})
 * and the CPU clone session. Each call replaces what was there.
 */
public final class HupfDataplane {

    /** One priority for range tables whose ranges never overlap (P4Runtime needs one). */
    static final int RANGE_PRIORITY = 1;
    private static final long MAX_U32 = 0xFFFFFFFFL;
    /** Member ids are slice * MEMBERS_PER_SLICE + index, so a slice's members are found by id. */
    static final int MEMBERS_PER_SLICE = 1 << 16;

    private static final Map<String, PiTableId> FEATURE_TABLES = Map.of(
            "pkts_up", HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_UP, "pkts_dn", HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_DN,
            "ps_up", HUPF_INGRESS_CLASSIFIER_FEATURE_PS_UP, "ps_dn", HUPF_INGRESS_CLASSIFIER_FEATURE_PS_DN,
            "ipg_up", HUPF_INGRESS_CLASSIFIER_FEATURE_IPG_UP, "ipg_dn", HUPF_INGRESS_CLASSIFIER_FEATURE_IPG_DN);
    private static final Map<String, PiActionId> FEATURE_ACTIONS = Map.of(
            "pkts_up", HUPF_INGRESS_CLASSIFIER_SET_CODE_PKTS_UP, "pkts_dn", HUPF_INGRESS_CLASSIFIER_SET_CODE_PKTS_DN,
            "ps_up", HUPF_INGRESS_CLASSIFIER_SET_CODE_PS_UP, "ps_dn", HUPF_INGRESS_CLASSIFIER_SET_CODE_PS_DN,
            "ipg_up", HUPF_INGRESS_CLASSIFIER_SET_CODE_IPG_UP, "ipg_dn", HUPF_INGRESS_CLASSIFIER_SET_CODE_IPG_DN);
    private static final List<PiMatchFieldId> DECISION_KEYS = List.of(
            HDR_CODE_PKTS_UP, HDR_CODE_PKTS_DN, HDR_CODE_PS_UP, HDR_CODE_PS_DN, HDR_CODE_IPG_UP, HDR_CODE_IPG_DN);

    private final PiCodec codec;
    private final PiTarget target;

    public HupfDataplane(PiPipelineModel model, PiTarget target) {
        this.codec = new PiCodec(model);
        this.target = target;
    }

    // ---- HK-IPG

    /**
     * Entries for an HK-IPG configuration: the {@code hh_config} default entry and the tau ranges.
     *
     * @param c parameters
     * @return entries (default entry first)
     * @throws PiCodecException if this pipeline has no HK-IPG or a value does not fit
     */
    public List<PiTableEntry> hhEntries(HhConfig c) throws PiCodecException {
        codec.table(HUPF_INGRESS_HH_HH_CONFIG);
        List<PiTableEntry> out = new ArrayList<>();
        out.add(defaultEntry(HUPF_INGRESS_HH_HH_CONFIG, codec.action(
                HUPF_INGRESS_HH_SET_HH_PARAMS, withAlphaShift(HUPF_INGRESS_HH_SET_HH_PARAMS, c.alphaShift(),
                        TAU_TH, c.tauTh(), IPG_INIT, c.ipgTh(), IPG_TH, c.ipgTh(), DECAY_K, c.decayK(),
                        TIMESLOT_US, c.timeslotUs(), KEY_MODE, c.keyMode()))));
        PiTableId t = HUPF_INGRESS_HH_TAU_TABLE;
        for (TauTable.Entry e : c.tauEntries((int) codec.table(t).maxSize())) {
            rangeEntry(t, HDR_IPG_EWMA, e.lo(), e.hi(), codec.action(HUPF_INGRESS_HH_SET_TAU, TAU, e.tau()))
                    .ifPresent(out::add);
        }
        return out;
    }

    /**
     * Configures HK-IPG, replacing the tau table.
     *
     * @param c parameters
     * @throws PiCodecException if this pipeline has no HK-IPG or a value does not fit
     * @throws PiTargetException if the device refuses an entry
     */
    public void configureHh(HhConfig c) throws PiCodecException, PiTargetException {
        replace(List.of(HUPF_INGRESS_HH_TAU_TABLE), hhEntries(c));
    }

    // ---- MATADOR

    /**
     * Entries of a classifier model: {@code cls_config} default entry, six feature tables, decision,
     * class → tc.
     *
     * @param m model
     * @return entries
     * @throws PiCodecException if this pipeline has no classifier or the model exceeds a table
     */
    public List<PiTableEntry> classifierEntries(ClassifierModel m) throws PiCodecException {
        codec.table(HUPF_INGRESS_CLASSIFIER_CLS_CONFIG);
        List<PiTableEntry> out = new ArrayList<>();
        out.add(defaultEntry(HUPF_INGRESS_CLASSIFIER_CLS_CONFIG, codec.action(
                HUPF_INGRESS_CLASSIFIER_SET_CLS_PARAMS,
                withAlphaShift(HUPF_INGRESS_CLASSIFIER_SET_CLS_PARAMS, m.alphaShift(), WINDOW_US, m.windowUs()))));
        for (String f : ClassifierModel.FEATURES) {
            PiTableId t = FEATURE_TABLES.get(f);
            List<PiTableEntry> ranges = new ArrayList<>();
            for (ClassifierModel.Range r : m.ranges(f)) {
                rangeEntry(t, HDR_VALUE, r.lo, r.hi, codec.action(FEATURE_ACTIONS.get(f), CODE, r.code))
                        .ifPresent(ranges::add);
            }
            requireFits(t, ranges.size());
            out.addAll(ranges);
        }
        PiTableId decision = HUPF_INGRESS_CLASSIFIER_DECISION;
        requireFits(decision, m.decisions().size());
        for (ClassifierModel.Decision d : m.decisions()) {
            PiMatchKey.Builder key = PiMatchKey.builder();
            for (int i = 0; i < DECISION_KEYS.size(); i++) {
                key.addFieldMatch(new PiExactFieldMatch(DECISION_KEYS.get(i),
                                                        codec.field(decision, DECISION_KEYS.get(i), d.codes.get(i))));
            }
            out.add(PiTableEntry.builder().forTable(decision).withMatchKey(key.build())
                            .withAction(codec.action(HUPF_INGRESS_CLASSIFIER_SET_CLASS, CLASS_ID, d.classId))
                            .build());
        }
        PiTableId tcTable = HUPF_INGRESS_CLASSIFIER_CLASS_TO_TC;
        requireFits(tcTable, m.classTc().size());
        for (Map.Entry<Integer, Integer> e : m.classTc().entrySet()) {
            out.add(PiTableEntry.builder().forTable(tcTable)
                            .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiExactFieldMatch(
                                    HDR_CLASS_ID, codec.field(tcTable, HDR_CLASS_ID, e.getKey()))).build())
                            .withAction(codec.action(HUPF_INGRESS_CLASSIFIER_SET_TC, TC, e.getValue())).build());
        }
        return out;
    }

    /**
     * Installs a classifier, replacing the previous one's entries.
     *
     * @param m model
     * @throws PiCodecException if this pipeline has no classifier or the model exceeds a table
     * @throws PiTargetException if the device refuses an entry
     */
    public void installClassifier(ClassifierModel m) throws PiCodecException, PiTargetException {
        List<PiTableId> tables = new ArrayList<>(FEATURE_TABLES.values());
        tables.add(HUPF_INGRESS_CLASSIFIER_DECISION);
        tables.add(HUPF_INGRESS_CLASSIFIER_CLASS_TO_TC);
        replace(tables, classifierEntries(m));
    }

    // ---- steering

    /**
     * Declares the switch ports that lead to backends: packets from them were processed there.
     *
     * @param ports port numbers
     * @throws PiCodecException if this pipeline has no steering or a port does not fit
     * @throws PiTargetException if the device refuses an entry
     */
    public void setBackendPorts(Collection<Long> ports) throws PiCodecException, PiTargetException {
        PiTableId t = HUPF_INGRESS_STEERING_BACKEND_PORTS;
        requireFits(t, ports.size());
        List<PiEntity> entries = new ArrayList<>();
        for (long p : ports) {
            entries.add(PiTableEntry.builder().forTable(t)
                                .withMatchKey(PiMatchKey.builder().addFieldMatch(
                                        new PiExactFieldMatch(HDR_IG_PORT, codec.field(t, HDR_IG_PORT, p))).build())
                                .withAction(codec.action(HUPF_INGRESS_STEERING_FROM_BACKEND)).build());
        }
        replace(List.of(t), entries);
    }

    /**
     * Entities that steer a slice's session misses to its backends: one selector member per backend, with
     * the backend's weight in the group, one group per slice (id slice + 1), the {@code backends} entry of the slice pointing at the group.
     *
     * @param sliceId  slice
     * @param backends backends (at least one)
     * @return members, then the group, then the table entry
     * @throws PiCodecException if this pipeline has no steering or a value does not fit
     */
    public List<PiEntity> steeringEntities(int sliceId, List<Backend> backends) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_STEERING_BACKENDS;
        long groupMax = codec.model().actionProfiles(HUPF_INGRESS_STEERING_BACKEND_SELECTOR)
                .orElseThrow(() -> new PiCodecException("pipeline has no backend selector")).maxGroupSize();
        if (backends.isEmpty() || (groupMax > 0 && backends.size() > groupMax)) {
            throw new PiCodecException("a slice needs 1.." + groupMax + " backends, got " + backends.size());
        }
        List<PiEntity> out = new ArrayList<>();
        PiActionProfileGroup.Builder group = PiActionProfileGroup.builder()
                .withActionProfileId(HUPF_INGRESS_STEERING_BACKEND_SELECTOR)
                .withId(groupId(sliceId)).withMaxSize((int) groupMax);
        for (int i = 0; i < backends.size(); i++) {
            Backend b = backends.get(i);
            PiActionProfileMember m = PiActionProfileMember.builder()
                    .forActionProfile(HUPF_INGRESS_STEERING_BACKEND_SELECTOR)
                    .withId(memberId(sliceId, i))
                    .withAction(codec.action(HUPF_INGRESS_STEERING_STEER_TO_BACKEND,
                                             PORT, b.port(), DST_MAC, b.mac().toLong()))
                    .build();
            out.add(m);
            group.addMember(m.id(), b.weight());
        }
        out.add(group.build());
        out.add(PiTableEntry.builder().forTable(t)
                        .withMatchKey(PiMatchKey.builder().addFieldMatch(
                                new PiExactFieldMatch(HDR_SLICE_ID, codec.field(t, HDR_SLICE_ID, sliceId))).build())
                        .withAction(groupId(sliceId)).build());
        return out;
    }

    /**
     * Steers a slice's session misses to the given backends, replacing its previous backends. Make before
     * break: the members and the group are written in place (inserted, or modified where they exist) and the
     * slice's entry kept, so that its misses always have a backend to go to (a backend that dies, or comes
     * back, moves its UEs without a gap); only then go the members the group no longer holds.
     *
     * @param sliceId  slice
     * @param backends backends
     * @throws PiCodecException if this pipeline has no steering or a value does not fit
     * @throws PiTargetException if the device refuses an entity
     */
    public void setBackends(int sliceId, List<Backend> backends) throws PiCodecException, PiTargetException {
        target.write(steeringEntities(sliceId, backends));
        List<PiEntity> stale = new ArrayList<>();
        for (PiActionProfileMember m : target.readMembers(HUPF_INGRESS_STEERING_BACKEND_SELECTOR)) {
            int id = m.id().id();
            if (id / MEMBERS_PER_SLICE == sliceId && id % MEMBERS_PER_SLICE >= backends.size()) {
                stale.add(m);
            }
        }
        target.delete(stale);
    }

    static PiActionProfileGroupId groupId(int sliceId) {
        return PiActionProfileGroupId.of(sliceId + 1);
    }

    static PiActionProfileMemberId memberId(int sliceId, int index) {
        return PiActionProfileMemberId.of(sliceId * MEMBERS_PER_SLICE + index);
    }

    // ---- routes

    /**
     * The {@code routes_v4} entry of a route.
     *
     * @param r route
     * @return table entry
     * @throws PiCodecException if this pipeline has no routes or a value does not fit
     */
    public PiTableEntry routeEntry(Route r) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_ROUTING_ROUTES_V4;
        return PiTableEntry.builder().forTable(t)
                .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiLpmFieldMatch(
                        HDR_IPV4_DST, codec.field(t, HDR_IPV4_DST, r.prefix().address().toInt() & MAX_U32),
                        r.prefix().prefixLength())).build())
                .withAction(codec.action(HUPF_INGRESS_ROUTING_ROUTE, SRC_MAC, r.srcMac().toLong(),
                                         DST_MAC, r.dstMac().toLong(), PORT, r.port()))
                .build();
    }

    /**
     * Reads a {@code routes_v4} entry back as a route (values compared as numbers: a device may answer
     * with shorter, canonical byte strings than were written).
     *
     * @param e table entry
     * @return the route, empty if the entry is not a route this class writes
     */
    static Optional<Route> route(PiTableEntry e) {
        try {
            PiFieldMatch m = PiCodec.match(e, HDR_IPV4_DST).orElse(null);
            if (!(m instanceof PiLpmFieldMatch) || !(e.action() instanceof PiAction)
                    || !((PiAction) e.action()).id().equals(HUPF_INGRESS_ROUTING_ROUTE)) {
                return Optional.empty();
            }
            PiLpmFieldMatch lpm = (PiLpmFieldMatch) m;
            PiAction a = (PiAction) e.action();
            return Optional.of(new Route(
                    Ip4Prefix.valueOf((int) PiCodec.toLong(lpm.value(), "ipv4_dst"), lpm.prefixLength()),
                    PiCodec.param(a, PORT), MacAddress.valueOf(PiCodec.param(a, SRC_MAC)),
                    MacAddress.valueOf(PiCodec.param(a, DST_MAC))));
        } catch (PiCodecException | IllegalArgumentException ex) {
            return Optional.empty();
        }
    }

    /**
     * Makes the device's routes these, by a read and a diff: entries that differ or are not wanted are
     * removed, missing ones written; routes already right are left alone (no gap in forwarding).
     *
     * @param routes routes (one per prefix)
     * @return entries removed plus entries written (0: the device already held exactly these routes)
     * @throws PiCodecException if this pipeline has no routes, a value does not fit or a prefix repeats
     * @throws PiTargetException if the device refuses an entry
     */
    public int setRoutes(Collection<Route> routes) throws PiCodecException, PiTargetException {
        PiTableId t = HUPF_INGRESS_ROUTING_ROUTES_V4;
        requireFits(t, routes.size());
        Map<Ip4Prefix, Route> wanted = new HashMap<>();
        for (Route r : routes) {
            if (wanted.put(r.prefix(), r) != null) {
                throw new PiCodecException("two routes for " + r.prefix());
            }
        }
        List<PiEntity> stale = new ArrayList<>();
        Map<Ip4Prefix, Route> held = new HashMap<>();
        for (PiTableEntry e : target.readTable(t)) {
            Optional<Route> r = route(e);
            if (r.isPresent() && r.get().equals(wanted.get(r.get().prefix()))) {
                held.put(r.get().prefix(), r.get());
            } else {
                stale.add(e);
            }
        }
        List<PiEntity> missing = new ArrayList<>();
        for (Route r : wanted.values()) {
            if (!held.containsKey(r.prefix())) {
                missing.add(routeEntry(r));
            }
        }
        if (!stale.isEmpty()) {
            target.delete(stale);
        }
        if (!missing.isEmpty()) {
            target.write(missing);
        }
        return stale.size() + missing.size();
    }

    // ---- VXLAN tenants

    /**
     * The {@code tenants} entries of these tenants: key (VNI, local VTEP), action {@code set_tenant}.
     *
     * @param tenants tenants (one per VNI and VTEP)
     * @return table entries, in the order given
     * @throws PiCodecException if this pipeline has no tenants, a value does not fit, a (VNI, VTEP) repeats or
     *                          the table is too small
     */
    public List<PiTableEntry> tenantEntries(Collection<Tenant> tenants) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_TENANT_TENANTS;
        requireFits(t, tenants.size());
        Set<String> keys = new HashSet<>();
        List<PiTableEntry> out = new ArrayList<>();
        for (Tenant x : tenants) {
            if (!keys.add(x.vni() + "@" + x.vtep())) {
                throw new PiCodecException("two tenants for VNI " + x.vni() + " at VTEP " + x.vtep());
            }
            out.add(PiTableEntry.builder().forTable(t)
                            .withMatchKey(PiMatchKey.builder()
                                                  .addFieldMatch(new PiExactFieldMatch(
                                                          HDR_VNI, codec.field(t, HDR_VNI, x.vni())))
                                                  .addFieldMatch(new PiExactFieldMatch(
                                                          HDR_VTEP_IPV4_DST, codec.field(
                                                                  t, HDR_VTEP_IPV4_DST, x.vtep().toInt() & MAX_U32)))
                                                  .build())
                            .withAction(codec.action(HUPF_INGRESS_TENANT_SET_TENANT, TENANT_ID, x.tenantId(),
                                                     TC, x.tc(), DSCP, x.dscp()))
                            .build());
        }
        return out;
    }

    /**
     * The tenant meter's cells these tenants want, by cell (the tenant id): a metered tenant's cell with its
     * rate as both bands (the meter counts bytes: bytes per second, burst in bytes; trTCM, so that what exceeds
     * the rate is red and dropped). Unmetered tenants have no cell here: theirs stays, or is reset to, green.
     *
     * @param tenants tenants (several entries of one tenant id must agree on its meter)
     * @return cell configurations by tenant id
     * @throws PiCodecException if this pipeline has no tenant meter, a tenant id is beyond its cells or two
     *                          entries give one tenant id different meters
     */
    public Map<Long, PiMeterCellConfig> tenantMeterCells(Collection<Tenant> tenants) throws PiCodecException {
        long cells = codec.model().meter(HUPF_INGRESS_TENANT_TENANT_METER)
                .orElseThrow(() -> new PiCodecException("pipeline has no tenant meter")).size();
        Map<Long, Tenant> byId = new HashMap<>();
        Map<Long, PiMeterCellConfig> out = new LinkedHashMap<>();
        for (Tenant x : tenants) {
            long id = x.tenantId();
            if (id >= cells) {
                throw new PiCodecException("tenant id " + id + " is beyond the tenant meter's " + cells + " cells");
            }
            Tenant other = byId.putIfAbsent(id, x);
            if (other != null && (other.rateBps() != x.rateBps() || other.burstBytes() != x.burstBytes())) {
                throw new PiCodecException("tenant id " + id + " has two meters (VNI " + other.vni() + " and "
                                                   + x.vni() + ")");
            }
            if (x.metered()) {
                long rate = x.rateBps() / 8;
                out.put(id, PiMeterCellConfig.builder()
                        .withMeterCellId(PiMeterCellId.ofIndirect(HUPF_INGRESS_TENANT_TENANT_METER, id))
                        .withCommittedBand(rate, x.burstBytes()).withPeakBand(rate, x.burstBytes()).build());
            }
        }
        return out;
    }

    /**
     * Makes the device's tenants these: the {@code tenants} entries replaced make before break (an entry already
     * right is left alone), then the tenant meter's cells brought to the tenants' rates by a read and a diff
     * (a cell no tenant meters any more is reset). A pipeline without the tenant table (the TNA program) is
     * left alone.
     *
     * @param tenants tenants (one per VNI and VTEP)
     * @return entries and cells written or removed (0: nothing changed, or no tenant table)
     * @throws PiCodecException if a value does not fit, a key repeats or a table is too small
     * @throws PiTargetException if the device refuses an entry
     */
    public int setTenants(Collection<Tenant> tenants) throws PiCodecException, PiTargetException {
        if (!codec.hasTable(HUPF_INGRESS_TENANT_TENANTS)) {
            return 0;
        }
        List<PiTableEntry> entries = tenantEntries(tenants);
        Map<Long, PiMeterCellConfig> cells = tenantMeterCells(tenants);
        int changes = replace(List.of(HUPF_INGRESS_TENANT_TENANTS), entries);
        List<PiEntity> writeCells = new ArrayList<>();
        for (PiMeterCellConfig held : target.readMeter(HUPF_INGRESS_TENANT_TENANT_METER)) {
            long id = held.cellId().index();
            PiMeterCellConfig wanted = cells.remove(id);
            if (wanted == null) {
                if (!held.isDefaultConfig()) {
                    writeCells.add(PiMeterCellConfig.reset(held.cellId()));
                }
            } else if (!sameBands(held, wanted)) {
                writeCells.add(wanted);
            }
        }
        // Cells the device did not list are written too.
        writeCells.addAll(cells.values());
        if (!writeCells.isEmpty()) {
            target.write(writeCells);
        }
        return changes + writeCells.size();
    }

    /**
     * Reads the tenant counter ({@code HupfIngress.tenant.tenant_counter}: the VXLAN frames of each tenant id as
     * received, counted before its meter) in one read.
     *
     * @return {packets, bytes} by tenant id, every cell the device returned; empty if the pipeline has no tenants
     * @throws PiTargetException if the read fails
     */
    public Map<Integer, long[]> tenantCounters() throws PiTargetException {
        Map<Integer, long[]> out = new TreeMap<>();
        if (codec.model().counter(HUPF_INGRESS_TENANT_TENANT_COUNTER).isEmpty()) {
            return out;
        }
        for (PiCounterCell c : target.readCounter(HUPF_INGRESS_TENANT_TENANT_COUNTER, -1)) {
            out.put((int) c.cellId().index(), new long[]{c.data().packets(), c.data().bytes()});
        }
        return out;
    }

    private static boolean sameBands(PiMeterCellConfig a, PiMeterCellConfig b) {
        return !a.isDefaultConfig() && sameBand(a.committedBand(), b.committedBand())
                && sameBand(a.peakBand(), b.peakBand());
    }

    private static boolean sameBand(PiMeterBand a, PiMeterBand b) {
        return a != null && b != null && a.rate() == b.rate() && a.burst() == b.burst();
    }

    // ---- RPS

    /**
     * The entries of an RPS configuration: the {@code rps.config} default entry ({@code set_config}), then one
     * {@code rps.flows} entry per flow (UE prefix, direction → {@code set_flow}).
     *
     * @param c configuration
     * @return entries, the default entry first
     * @throws PiCodecException if this pipeline has no RPS, a flow id is beyond its flows, the buffer length beyond
     *                          its buffer, a (prefix, direction) repeats or the flows exceed the table
     */
    public List<PiTableEntry> rpsEntries(RpsConfig c) throws PiCodecException {
        codec.table(HUPF_INGRESS_RPS_CONFIG);
        long slots = perPoint(RPS_BUF_FLOW);
        long bufferLen = c.bufferLen() == RpsConfig.WHOLE_BUFFER ? slots : c.bufferLen();
        if (bufferLen > slots) {
            throw new PiCodecException("RPS buffer length " + bufferLen + " exceeds the " + slots
                                               + " receipts per point the pipeline has");
        }
        List<Object> params = new ArrayList<>(List.of(MODE, c.mode().code(), QUIET_US, c.quietUs(),
                                                      SELECT_THRESHOLD, c.selectThreshold()));
        if (codec.hasParam(HUPF_INGRESS_RPS_SET_CONFIG, BUFFER_LEN)) {
            params.addAll(List.of(BUFFER_LEN, bufferLen));
        }
        List<PiTableEntry> out = new ArrayList<>();
        out.add(defaultEntry(HUPF_INGRESS_RPS_CONFIG, codec.action(HUPF_INGRESS_RPS_SET_CONFIG, params.toArray())));
        PiTableId t = HUPF_INGRESS_RPS_FLOWS;
        requireFits(t, c.flows().size());
        long flowIds = perPoint(RPS_NEXT_DNUM);
        Set<String> keys = new HashSet<>();
        for (RpsConfig.Flow f : c.flows()) {
            if (f.flowId() >= flowIds) {
                throw new PiCodecException("RPS flow id " + f.flowId() + " is beyond the pipeline's " + flowIds
                                                   + " flows");
            }
            if (!keys.add(f.uePrefix() + "/" + f.direction())) {
                throw new PiCodecException("two RPS flows for " + f.uePrefix() + " direction " + f.direction());
            }
            out.add(PiTableEntry.builder().forTable(t)
                            .withMatchKey(PiMatchKey.builder()
                                                  .addFieldMatch(new PiLpmFieldMatch(HDR_UE_ADDR, codec.field(
                                                          t, HDR_UE_ADDR, f.uePrefix().address().toInt() & MAX_U32),
                                                                                     f.uePrefix().prefixLength()))
                                                  .addFieldMatch(new PiExactFieldMatch(
                                                          HDR_DIRECTION, codec.field(t, HDR_DIRECTION, f.direction())))
                                                  .build())
                            .withAction(codec.action(HUPF_INGRESS_RPS_SET_FLOW, FLOW_ID, f.flowId(),
                                                     DISC_THRESHOLD, f.discThreshold()))
                            .build());
        }
        return out;
    }

    /**
     * Reads an {@code rps.flows} entry back as a flow (values compared as numbers, as a device may answer with
     * canonical byte strings).
     *
     * @param e table entry
     * @return the flow, empty if the entry is not one this class writes
     */
    static Optional<RpsConfig.Flow> rpsFlow(PiTableEntry e) {
        try {
            PiFieldMatch ue = PiCodec.match(e, HDR_UE_ADDR).orElse(null);
            PiFieldMatch dir = PiCodec.match(e, HDR_DIRECTION).orElse(null);
            if (!(ue instanceof PiLpmFieldMatch) || !(dir instanceof PiExactFieldMatch)
                    || !(e.action() instanceof PiAction)
                    || !((PiAction) e.action()).id().equals(HUPF_INGRESS_RPS_SET_FLOW)) {
                return Optional.empty();
            }
            PiLpmFieldMatch lpm = (PiLpmFieldMatch) ue;
            PiAction a = (PiAction) e.action();
            return Optional.of(new RpsConfig.Flow(
                    Ip4Prefix.valueOf((int) PiCodec.toLong(lpm.value(), "ue_addr"), lpm.prefixLength()),
                    (int) PiCodec.toLong(((PiExactFieldMatch) dir).value(), "direction"),
                    (int) PiCodec.param(a, FLOW_ID), PiCodec.param(a, DISC_THRESHOLD)));
        } catch (PiCodecException | IllegalArgumentException ex) {
            return Optional.empty();
        }
    }

    /**
     * Makes the device's RPS configuration this one: the {@code rps.config} default entry and the {@code rps.flows}
     * entries, make before break (an entry already right is left alone). A pipeline without RPS (the sw profile,
     * the TNA program) is left alone.
     *
     * @param c configuration
     * @return entries written or removed (0 for a pipeline without RPS)
     * @throws PiCodecException if a value does not fit the pipeline
     * @throws PiTargetException if the device refuses an entry
     */
    public int setRps(RpsConfig c) throws PiCodecException, PiTargetException {
        if (!codec.hasTable(HUPF_INGRESS_RPS_FLOWS)) {
            return 0;
        }
        return replace(List.of(HUPF_INGRESS_RPS_FLOWS), rpsEntries(c));
    }

    /**
     * Reads the device's RPS: the pipeline's sizes (receipts and flow ids per point, the tracker's depth: its cells
     * over the flows') and both points' {@code rps.events} cells ({@code HupfIngress.rps.events} counts IN's,
     * {@code HupfEgress.rps.events} OUT's, each at index point * {@code RPS_EVENTS} + event), two reads.
     *
     * @return the state, empty for a pipeline without RPS (the sw profile, the TNA program)
     * @throws PiCodecException if the pipeline has RPS's tables without its registers
     * @throws PiTargetException if a read fails
     */
    public Optional<RpsState> readRps() throws PiCodecException, PiTargetException {
        if (!codec.hasTable(HUPF_INGRESS_RPS_FLOWS)) {
            return Optional.empty();
        }
        long[][] events = new long[RPS_POINTS][RPS_EVENTS];
        Map<Integer, PiCounterId> counters = Map.of(RPS_POINT_IN, HUPF_INGRESS_RPS_EVENTS,
                                                    RPS_POINT_OUT, HUPF_EGRESS_RPS_EVENTS);
        for (Map.Entry<Integer, PiCounterId> c : counters.entrySet()) {
            long first = (long) c.getKey() * RPS_EVENTS;
            for (PiCounterCell cell : target.readCounter(c.getValue(), -1)) {
                long i = cell.cellId().index() - first;
                if (i >= 0 && i < RPS_EVENTS) {
                    events[c.getKey()][(int) i] = cell.data().packets();
                }
            }
        }
        long flows = perPoint(RPS_NEXT_DNUM);
        return Optional.of(new RpsState(perPoint(RPS_BUF_FLOW), flows, perPoint(RPS_TRACK_DNUM) / flows, events));
    }

    /** Cells of a per-point register, per point (its P4Info size over the two points). */
    private long perPoint(PiRegisterId r) throws PiCodecException {
        return codec.model().register(r)
                .orElseThrow(() -> new PiCodecException("pipeline has no register " + r)).size() / RPS_POINTS;
    }

    // ---- QoS

    /**
     * Makes {@code qos.queues} map these traffic classes to these queues (v1model {@code priority}: bmv2's
     * priority queue, the backend's egress queue on a port with a rate), make before break; a class left out
     * takes the table's default, queue 0.
     *
     * @param queueByTc queue (0..7) by traffic class (0..3)
     * @return entries written plus deleted (0: the device already held exactly these)
     * @throws PiCodecException if a class or queue does not fit the P4Info's widths
     * @throws PiTargetException if the device refuses an entry
     */
    public int setQueues(Map<Integer, Integer> queueByTc) throws PiCodecException, PiTargetException {
        PiTableId t = HUPF_INGRESS_QOS_QUEUES;
        requireFits(t, queueByTc.size());
        List<PiTableEntry> entries = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : queueByTc.entrySet()) {
            entries.add(PiTableEntry.builder().forTable(t)
                                .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiExactFieldMatch(
                                        HDR_TC, codec.field(t, HDR_TC, e.getKey()))).build())
                                .withAction(codec.action(HUPF_INGRESS_QOS_SET_QUEUE, QID, e.getValue())).build());
        }
        return replace(List.of(t), entries);
    }

    // ---- CPU copies

    /**
     * The clone session ACL copies and HH reports use: one replica to the CPU port (contract: Packet I/O).
     *
     * @param cpuPort the target's CPU port
     * @return clone session entry
     */
    public static PiCloneSessionEntry cpuCloneSession(long cpuPort) {
        return PiCloneSessionEntry.builder().withSessionId(CPU_CLONE_SESSION_ID)
                .addReplica(new PiPreReplica(PortNumber.portNumber(cpuPort), 1)).build();
    }

    /**
     * Creates (or updates) the CPU clone session; without it ACL copies and HH reports are lost.
     *
     * @param cpuPort the target's CPU port
     * @throws PiTargetException if the device refuses it
     */
    public void setCpuPort(long cpuPort) throws PiTargetException {
        target.write(List.of(cpuCloneSession(cpuPort)));
    }

    // ---- helpers

    /**
     * Makes the tables hold these entries (and writes the default entries among them). Make before break: an
     * entry already held as wanted is left alone, the others are written (inserted, or modified in place)
     * before the entries no longer wanted are deleted, so that what stays never goes missing (a backend port
     * unmarked for a moment turns the traffic coming back from the backends into misses); only when a table
     * has no room for both are the stale entries deleted first.
     *
     * @return entries written plus deleted
     */
    private int replace(List<PiTableId> tables, List<? extends PiEntity> entries)
            throws PiCodecException, PiTargetException {
        Map<String, PiTableEntry> wanted = new LinkedHashMap<>();
        List<PiEntity> write = new ArrayList<>();
        for (PiEntity e : entries) {
            if (e instanceof PiTableEntry && !((PiTableEntry) e).isDefaultAction()) {
                wanted.put(CanonicalEntries.key((PiTableEntry) e), (PiTableEntry) e);
            } else {
                write.add(e);
            }
        }
        List<PiEntity> stale = new ArrayList<>();
        Set<String> held = new HashSet<>();
        boolean room = true;
        for (PiTableId t : tables) {
            int staleHere = 0;
            for (PiTableEntry e : target.readTable(t)) {
                String k = CanonicalEntries.key(e);
                PiTableEntry w = wanted.get(k);
                if (w == null) {
                    stale.add(e);
                    staleHere++;
                } else if (CanonicalEntries.sameAction(e, w)) {
                    held.add(k);
                }
            }
            long wantedHere = wanted.values().stream().filter(e -> e.table().equals(t)).count();
            room &= wantedHere + staleHere <= codec.table(t).maxSize();
        }
        wanted.forEach((k, e) -> {
            if (!held.contains(k)) {
                write.add(e);
            }
        });
        if (!room && !stale.isEmpty()) {
            target.delete(stale);
        }
        if (!write.isEmpty()) {
            target.write(write);
        }
        if (room && !stale.isEmpty()) {
            target.delete(stale);
        }
        return write.size() + stale.size();
    }

    /**
     * An action's parameters, with alpha_shift where the P4Info's action has it: the v1model EWMAs shift by
     * it, the TNA program's are Tofino low-pass filters whose time constant the control plane sets, so
     * its actions have no alpha_shift (docs/TOFINO.md).
     */
    private Object[] withAlphaShift(PiActionId action, int alphaShift, Object... params) {
        if (!codec.hasParam(action, ALPHA_SHIFT)) {
            return params;
        }
        Object[] all = Arrays.copyOf(params, params.length + 2);
        all[params.length] = ALPHA_SHIFT;
        all[params.length + 1] = alphaShift;
        return all;
    }

    private void requireFits(PiTableId t, int n) throws PiCodecException {
        long size = codec.table(t).maxSize();
        if (n > size) {
            throw new PiCodecException(n + " entries exceed " + t + " (size " + size + ")");
        }
    }

    /**
     * The largest value of a range key, from its width in the P4Info: 2^32 - 1 in the v1model program,
     * 2^20 - 1 in the TNA program, which range-matches a saturated 20-bit view of the value
     * ({@code min(v, 0xFFFFF)}: p4c-barefoot takes range keys of at most 20 bits, docs/TOFINO.md).
     */
    long rangeKeyMax(PiTableId t, PiMatchFieldId f) throws PiCodecException {
        int width = codec.table(t).matchField(f).orElseThrow(
                () -> new PiCodecException("table " + t + " has no match field " + f)).bitWidth();
        return width >= 63 ? Long.MAX_VALUE : (1L << width) - 1;
    }

    /**
     * A range entry in the key's view of the value. Where the key is narrower than the value (the TNA
     * program's saturated view), a high bound above the key's maximum becomes the maximum, and a range whose
     * low bound is above it is dropped (empty result): the switch then looks up {@code min(v, max)}, and these
     * clipped entries give it exactly the action the unclipped table gives that value. Merging a dropped
     * range into the one holding the maximum would change the action of the values up to the maximum,
     * which the key still tells apart; the values above it cannot be told apart and take the maximum's.
     */
    private Optional<PiTableEntry> rangeEntry(PiTableId t, PiMatchFieldId f, long lo, long hi, PiAction a)
            throws PiCodecException {
        long max = Math.min(rangeKeyMax(t, f), MAX_U32);
        if (lo > max) {
            return Optional.empty();
        }
        return Optional.of(PiTableEntry.builder().forTable(t)
                .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiRangeFieldMatch(
                        f, codec.field(t, f, lo), codec.field(t, f, Math.min(hi, max)))).build())
                .withAction(a).withPriority(RANGE_PRIORITY).build());
    }

    private static PiTableEntry defaultEntry(PiTableId t, PiAction a) {
        return PiTableEntry.builder().forTable(t).withMatchKey(PiMatchKey.EMPTY).withAction(a).build();
    }
}
