package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.ClassifierModel;
import org.hupf.pipeconf.dataplane.ClassifierModelTest;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.dataplane.TauTable;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiMeterCellId;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableEntry;

import org.onosproject.p4runtime.model.P4InfoParser;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.hupf.pipeconf.HupfConstants.*;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * HK-IPG, classifier and steering entries on the real hw P4Info (the sw profile has none of them); routes
 * and VXLAN tenants on both.
 */
public class HupfDataplaneTest {

    private final PiPipelineModel hw = Pipelines.model("hw");
    private final MemoryPiTarget target = new MemoryPiTarget(hw);
    private final HupfDataplane dataplane = new HupfDataplane(hw, target);

    private static DataplaneTables tables(PiPipelineModel model, PiTarget device) {
        return new DataplaneTables(new PiCodec(model), device);
    }

    private List<PiTableEntry> table(org.onosproject.net.pi.model.PiTableId t) {
        return target.readTable(t).stream().collect(Collectors.toList());
    }

    private PiTableEntry defaultEntry(org.onosproject.net.pi.model.PiTableId t) {
        return target.entriesOf(t).stream().filter(PiTableEntry::isDefaultAction).findFirst().orElseThrow();
    }

    @Test
    public void hhConfigurationSetsParametersAndTauRanges() throws Exception {
        HhConfig c = HhConfig.builder().tauTh(1000).timeslotUs(8192).keyMode(HH_KEY_5TUPLE).build();
        dataplane.configureHh(c);
        PiAction params = (PiAction) defaultEntry(HUPF_INGRESS_HH_HH_CONFIG).action();
        assertEquals(HUPF_INGRESS_HH_SET_HH_PARAMS, params.id());
        assertEquals(1000, PiCodec.param(params, TAU_TH));
        assertEquals(8192, PiCodec.param(params, TIMESLOT_US));
        assertEquals(HH_KEY_5TUPLE, PiCodec.param(params, KEY_MODE));

        int capacity = (int) hw.table(HUPF_INGRESS_HH_TAU_TABLE).orElseThrow().maxSize();
        List<TauTable.Entry> expected = c.tauEntries(capacity);
        List<PiTableEntry> ranges = table(HUPF_INGRESS_HH_TAU_TABLE);
        assertEquals(expected.size(), ranges.size());
        PiTableEntry first = ranges.get(0);
        PiRangeFieldMatch r = (PiRangeFieldMatch) first.matchKey().fieldMatch(HDR_IPG_EWMA).orElseThrow();
        assertEquals(expected.get(0).lo(), PiCodec.toLong(r.lowValue(), "lo"));
        assertEquals(expected.get(0).hi(), PiCodec.toLong(r.highValue(), "hi"));
        assertEquals(expected.get(0).tau(), PiCodec.param((PiAction) first.action(), TAU));

        // Reconfiguring replaces the ranges.
        dataplane.configureHh(HhConfig.builder().build());
        assertEquals(HhConfig.builder().build().tauEntries(capacity).size(), table(HUPF_INGRESS_HH_TAU_TABLE).size());
    }

    @Test
    public void classifierFillsFeatureDecisionAndTcTables() throws Exception {
        ClassifierModel m = ClassifierModelTest.parse(ClassifierModelTest.MODEL);
        dataplane.installClassifier(m);
        assertEquals(2, table(HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_UP).size());
        assertEquals(1, table(HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_DN).size());
        assertEquals(2, table(HUPF_INGRESS_CLASSIFIER_FEATURE_PS_DN).size());
        List<PiTableEntry> decisions = table(HUPF_INGRESS_CLASSIFIER_DECISION);
        assertEquals(2, decisions.size());
        PiTableEntry gaming = decisions.stream()
                .filter(e -> ((PiAction) e.action()).parameters().iterator().next().value().asArray()[0] == 2)
                .findFirst().orElseThrow();
        assertEquals(1, PiCodec.exact(gaming, HDR_CODE_PKTS_UP));
        assertEquals(0, PiCodec.exact(gaming, HDR_CODE_PKTS_DN));
        assertEquals(1, PiCodec.exact(gaming, HDR_CODE_PS_DN));
        List<PiTableEntry> tc = table(HUPF_INGRESS_CLASSIFIER_CLASS_TO_TC);
        assertEquals("class 1 has tc null: no entry", 1, tc.size());
        assertEquals(2, PiCodec.exact(tc.get(0), HDR_CLASS_ID));
        assertEquals(3, PiCodec.param((PiAction) tc.get(0).action(), TC));
        PiAction cls = (PiAction) defaultEntry(HUPF_INGRESS_CLASSIFIER_CLS_CONFIG).action();
        assertEquals(1_000_000, PiCodec.param(cls, WINDOW_US));
        assertEquals(3, PiCodec.param(cls, ALPHA_SHIFT));

        dataplane.installClassifier(m);
        assertEquals("reinstalling replaces", 2, table(HUPF_INGRESS_CLASSIFIER_DECISION).size());
    }

    @Test
    public void steeringReplacesASlicesBackends() throws Exception {
        Backend a = new Backend(7, MacAddress.valueOf("02:00:00:00:00:07"));
        Backend b = new Backend(8, MacAddress.valueOf("02:00:00:00:00:08"));
        dataplane.setBackends(2, List.of(a, b));
        dataplane.setBackends(3, List.of(a));
        assertEquals(3, target.readMembers(HUPF_INGRESS_STEERING_BACKEND_SELECTOR).size());
        dataplane.setBackends(2, List.of(b));
        assertEquals(2, target.readMembers(HUPF_INGRESS_STEERING_BACKEND_SELECTOR).size());
        PiActionProfileGroup g = target.readGroups(HUPF_INGRESS_STEERING_BACKEND_SELECTOR).stream()
                .filter(x -> x.id().equals(SteeringWriter.groupId(2))).findFirst().orElseThrow();
        assertEquals(1, g.members().size());
        List<PiTableEntry> entries = table(HUPF_INGRESS_STEERING_BACKENDS);
        assertEquals(2, entries.size());
        PiTableEntry slice2 = entries.stream().filter(e -> e.action().equals(SteeringWriter.groupId(2)))
                .findFirst().orElseThrow();
        assertEquals(2, PiCodec.exact(slice2, HDR_SLICE_ID));
    }

    /** A backend going and coming back: the slice's entry and group stay, its misses always have a backend. */
    @Test
    public void changingASlicesBackendsKeepsItsEntryAndGroup() throws Exception {
        Backend a = new Backend(7, MacAddress.valueOf("02:00:00:00:00:07"));
        Backend b = new Backend(8, MacAddress.valueOf("02:00:00:00:00:08"), 2);
        dataplane.setBackends(0, List.of(a, b));
        dataplane.setBackends(0, List.of(b));
        dataplane.setBackends(0, List.of(a, b));
        assertEquals("only the member the group no longer held went", 1, target.deleted.size());
        assertTrue(target.deleted.get(0) instanceof org.onosproject.net.pi.runtime.PiActionProfileMember);
        PiActionProfileGroup g = target.readGroups(HUPF_INGRESS_STEERING_BACKEND_SELECTOR).iterator().next();
        assertEquals(2, g.members().size());
        assertEquals(2, g.member(SteeringWriter.memberId(0, 1)).orElseThrow().weight());
        assertEquals(1, table(HUPF_INGRESS_STEERING_BACKENDS).size());
    }

    @Test
    public void aBackendsWeightIsItsMembersWeightInTheSlicesGroup() throws Exception {
        Backend light = new Backend(7, MacAddress.valueOf("02:00:00:00:00:07"));
        Backend heavy = new Backend(8, MacAddress.valueOf("02:00:00:00:00:08"), 3);
        dataplane.setBackends(1, List.of(light, heavy));
        PiActionProfileGroup g = target.readGroups(HUPF_INGRESS_STEERING_BACKEND_SELECTOR).iterator().next();
        assertEquals(1, g.member(SteeringWriter.memberId(1, 0)).orElseThrow().weight());
        assertEquals(3, g.member(SteeringWriter.memberId(1, 1)).orElseThrow().weight());
    }

    @Test
    public void aWeightOutsideItsRangeIsRefused() {
        for (int w : new int[]{0, Backend.MAX_WEIGHT + 1}) {
            try {
                new Backend(7, MacAddress.valueOf("02:00:00:00:00:07"), w);
                fail("weight " + w + " accepted");
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("weight is 1.." + Backend.MAX_WEIGHT));
            }
        }
    }

    @Test
    public void backendPortsAreReplaced() throws Exception {
        dataplane.setBackendPorts(List.of(5L, 6L));
        dataplane.setBackendPorts(List.of(6L));
        List<PiTableEntry> ports = table(HUPF_INGRESS_STEERING_BACKEND_PORTS);
        assertEquals(1, ports.size());
        assertEquals(6, PiCodec.exact(ports.get(0), HDR_IG_PORT));
        assertEquals(HUPF_INGRESS_STEERING_FROM_BACKEND, ((PiAction) ports.get(0).action()).id());
        assertTrue(ports.get(0).matchKey().fieldMatch(HDR_IG_PORT).orElseThrow() instanceof PiExactFieldMatch);
    }

    /**
     * A backend added or gone: the ports that stay are never unmarked (traffic back from their backends would
     * become misses), and an unchanged configuration writes nothing away.
     */
    @Test
    public void replacingKeepsWhatStays() throws Exception {
        dataplane.setBackendPorts(List.of(5L));
        dataplane.setBackendPorts(List.of(5L, 6L));
        assertTrue("nothing deleted when a port is added: " + target.deleted, target.deleted.isEmpty());
        dataplane.setBackendPorts(List.of(6L));
        assertEquals(1, target.deleted.size());
        assertEquals(5, PiCodec.exact((PiTableEntry) target.deleted.get(0), HDR_IG_PORT));
        HhConfig c = HhConfig.builder().build();
        dataplane.configureHh(c);
        int deleted = target.deleted.size();
        dataplane.configureHh(c);
        assertEquals("the same HK-IPG configuration again deletes no range", deleted, target.deleted.size());
    }

    @Test
    public void portBeyondNineBitsIsRefused() throws Exception {
        try {
            dataplane.setBackendPorts(List.of(512L));
            fail("accepted");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("9 bits"));
        }
    }

    @Test
    public void swProfileHasNoHkIpg() throws Exception {
        PiPipelineModel sw = Pipelines.model("sw");
        try {
            new HupfDataplane(sw, new MemoryPiTarget(sw)).configureHh(HhConfig.builder().build());
            fail("sw accepted HK-IPG");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("no table"));
        }
    }

    private static Route route(String prefix, long port, String next) {
        return new Route(Ip4Prefix.valueOf(prefix), port, MacAddress.valueOf("02:00:00:00:00:01"),
                         MacAddress.valueOf(next));
    }

    /** The value without its leading zero bytes, as P4Runtime's canonical byte strings are. */
    private static ImmutableByteSequence shortest(ImmutableByteSequence v) {
        byte[] b = v.asArray();
        int i = 0;
        while (i < b.length - 1 && b[i] == 0) {
            i++;
        }
        return ImmutableByteSequence.copyFrom(Arrays.copyOfRange(b, i, b.length));
    }

    @Test
    public void routesAreDiffedAgainstTheDevice() throws Exception {
        for (String profile : List.of("hw", "sw")) {
            PiPipelineModel model = Pipelines.model(profile);
            MemoryPiTarget device = new MemoryPiTarget(model);
            HupfDataplane d = new HupfDataplane(model, device);
            Route dn = route("10.9.9.0/24", 2, "02:00:00:00:00:02");
            Route gnb = route("192.168.1.0/24", 1, "02:00:00:00:00:03");
            assertEquals(profile + ": both written", 2, d.setRoutes(List.of(dn, gnb)));
            assertEquals(2, device.readTable(HUPF_INGRESS_ROUTING_ROUTES_V4).size());
            assertEquals(profile + ": nothing to do the second time", 0, d.setRoutes(List.of(gnb, dn)));

            // A device answers with canonical byte strings: still the same route, left alone.
            PiTableEntry written = new RouteWriter(tables(model, device)).entry(dn);
            device.delete(List.of(written));
            PiLpmFieldMatch lpm = (PiLpmFieldMatch) written.matchKey().fieldMatch(HDR_IPV4_DST).orElseThrow();
            PiAction a = (PiAction) written.action();
            PiAction.Builder canonical = PiAction.builder().withId(a.id());
            a.parameters().forEach(p -> canonical.withParameter(new PiActionParam(p.id(), shortest(p.value()))));
            device.write(List.of(PiTableEntry.builder().forTable(HUPF_INGRESS_ROUTING_ROUTES_V4)
                                         .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiLpmFieldMatch(
                                                 HDR_IPV4_DST, lpm.value(), lpm.prefixLength())).build())
                                         .withAction(canonical.build()).build()));
            assertEquals(profile + ": canonical bytes are the same route", 0, d.setRoutes(List.of(gnb, dn)));

            // A changed next hop is replaced (removed, written); a route no longer wanted is removed.
            Route moved = route("10.9.9.0/24", 3, "02:00:00:00:00:02");
            assertEquals(2, d.setRoutes(List.of(moved, gnb)));
            assertEquals(1, d.setRoutes(List.of(moved)));
            List<Route> held = device.readTable(HUPF_INGRESS_ROUTING_ROUTES_V4).stream()
                    .map(e -> RouteWriter.route(e).orElseThrow()).collect(Collectors.toList());
            assertEquals(List.of(moved), held);
        }
    }

    @Test
    public void twoRoutesForOnePrefixAreRefusedBeforeAnyWrite() throws Exception {
        try {
            dataplane.setRoutes(List.of(route("10.9.9.0/24", 2, "02:00:00:00:00:02"),
                                        route("10.9.9.0/24", 3, "02:00:00:00:00:03")));
            fail("two routes for one prefix accepted");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("10.9.9.0/24"));
        }
        assertTrue(table(HUPF_INGRESS_ROUTING_ROUTES_V4).isEmpty());
    }

    /** The committed hw P4Info, rewritten, parsed by ONOS's parser. */
    private static PiPipelineModel variant(java.util.function.UnaryOperator<String> edit) throws Exception {
        String text = new String(Pipelines.p4infoUrl("hw").openStream().readAllBytes(), StandardCharsets.UTF_8);
        Path p = Files.createTempFile("p4info-variant", ".txt");
        Files.writeString(p, edit.apply(text));
        try {
            return P4InfoParser.parse(p.toUri().toURL());
        } finally {
            Files.delete(p);
        }
    }

    /**
     * The committed hw P4Info with HK-IPG's and MATADOR's 32-bit range keys narrowed to 20 bits, as the TNA
     * program declares them (a saturated 20-bit view of the value, docs/TOFINO.md).
     */
    static PiPipelineModel rangeKeys20() throws Exception {
        String wide = "    bitwidth: 32\n    match_type: RANGE";
        return variant(text -> {
            assertEquals("tau_table's key and the six feature tables' keys", 7, text.split(wide, -1).length - 1);
            return text.replace(wide, "    bitwidth: 20\n    match_type: RANGE");
        });
    }

    private static long[] bounds(PiTableEntry e, org.onosproject.net.pi.model.PiMatchFieldId f) throws Exception {
        PiRangeFieldMatch r = (PiRangeFieldMatch) e.matchKey().fieldMatch(f).orElseThrow();
        return new long[]{PiCodec.toLong(r.lowValue(), "lo"), PiCodec.toLong(r.highValue(), "hi")};
    }

    /**
     * Against 20-bit range keys, a high bound above 2^20 - 1 becomes 2^20 - 1 and a range starting above it
     * is dropped: the switch looks up min(v, 2^20 - 1), and gets the action the 32-bit table gives that value.
     */
    @Test
    public void rangeBoundsAreClippedToTheKeyWidthOfTheP4Info() throws Exception {
        long max = 0xFFFFF;
        PiPipelineModel narrow = rangeKeys20();
        MemoryPiTarget device = new MemoryPiTarget(narrow);
        HupfDataplane d = new HupfDataplane(narrow, device);
        assertEquals(max, tables(narrow, device).rangeKeyMax(HUPF_INGRESS_HH_TAU_TABLE, HDR_IPG_EWMA));
        assertEquals("the committed P4Info keeps 32 bits", 0xFFFFFFFFL,
                     tables(hw, target).rangeKeyMax(HUPF_INGRESS_HH_TAU_TABLE, HDR_IPG_EWMA));

        // MATADOR: [58, 2^32 - 1] -> [58, 2^20 - 1]; a range above 2^20 - 1 is dropped.
        String model = ClassifierModelTest.MODEL.replace(
                "{\"lo\": 1000, \"hi\": 4294967295, \"code\": 1}",
                "{\"lo\": 1000, \"hi\": 1048575, \"code\": 1}, {\"lo\": 1048576, \"hi\": 4294967295, \"code\": 2}");
        d.installClassifier(ClassifierModelTest.parse(model));
        List<List<Long>> pktsUp = new ArrayList<>();
        for (PiTableEntry e : device.readTable(HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_UP)) {
            long[] b = bounds(e, HDR_VALUE);
            pktsUp.add(List.of(b[0], b[1]));
        }
        pktsUp.sort((a, b) -> Long.compare(a.get(0), b.get(0)));
        assertEquals(2, pktsUp.size());
        assertEquals(List.of(List.of(0L, 57L), List.of(58L, max)), pktsUp);
        List<PiTableEntry> psDn = new ArrayList<>(device.readTable(HUPF_INGRESS_CLASSIFIER_FEATURE_PS_DN));
        assertEquals("[1048576, 2^32 - 1] dropped", 2, psDn.size());
        for (PiTableEntry e : psDn) {
            assertTrue(bounds(e, HDR_VALUE)[1] <= max);
            assertFalse("code 2 only matched values above 2^20 - 1",
                        PiCodec.param((PiAction) e.action(), CODE) == 2);
        }
        // The same model on the 32-bit P4Info keeps its bounds.
        dataplane.installClassifier(ClassifierModelTest.parse(model));
        assertEquals(3, table(HUPF_INGRESS_CLASSIFIER_FEATURE_PS_DN).size());

        assertTauRangesClipped(narrow, d, device, max);
    }

    /**
     * HK-IPG with an HH threshold and a time window that put tau ranges past 2^20 - 1 us (IPG_th 1,142,857 us):
     * the tau table holds the ranges up to the key's maximum, the last one clipped to it.
     */
    private static void assertTauRangesClipped(PiPipelineModel model, HupfDataplane d, MemoryPiTarget device,
                                               long max) throws Exception {
        HhConfig c = HhConfig.builder().hhThresholdBps(7000).timeWindowUs(1_000_000_000L).build();
        int capacity = (int) model.table(HUPF_INGRESS_HH_TAU_TABLE).orElseThrow().maxSize();
        List<TauTable.Entry> wide = c.tauEntries(capacity);
        assertTrue("a range starts above the key's maximum: " + c + " " + wide, wide.get(wide.size() - 1).lo() > max);
        assertTrue("a range spans the key's maximum", wide.stream().anyMatch(e -> e.lo() <= max && e.hi() > max));
        d.configureHh(c);
        List<List<Long>> expected = wide.stream().filter(e -> e.lo() <= max)
                .map(e -> List.of(e.lo(), Math.min(e.hi(), max), (long) e.tau())).collect(Collectors.toList());
        List<List<Long>> held = new ArrayList<>();
        for (PiTableEntry e : device.readTable(HUPF_INGRESS_HH_TAU_TABLE)) {
            long[] b = bounds(e, HDR_IPG_EWMA);
            held.add(List.of(b[0], b[1], PiCodec.param((PiAction) e.action(), TAU)));
        }
        held.sort((a, b) -> Long.compare(a.get(0), b.get(0)));
        assertEquals(expected, held);
    }

    /**
     * The hw program compiled for Tofino 1 and Tofino 2 (the committed P4Infos: their own ids, range keys of the
     * width they declare, configuration actions without alpha_shift, no VXLAN tenant objects): HK-IPG, MATADOR,
     * steering, backend ports and routes are written through the same dataplane, as each P4Info says.
     */
    @Test
    public void theTofinoP4InfosTakeTheDataplaneConfiguration() throws Exception {
        for (String target : List.of("tofino", "tofino2")) {
            assertTofinoTakesTheDataplaneConfiguration(Pipelines.model("hw", target));
        }
    }

    private void assertTofinoTakesTheDataplaneConfiguration(PiPipelineModel tna) throws Exception {
        MemoryPiTarget device = new MemoryPiTarget(tna);
        HupfDataplane d = new HupfDataplane(tna, device);
        int width = tna.table(HUPF_INGRESS_HH_TAU_TABLE).orElseThrow().matchField(HDR_IPG_EWMA).orElseThrow()
                .bitWidth();
        long max = tables(tna, device).rangeKeyMax(HUPF_INGRESS_HH_TAU_TABLE, HDR_IPG_EWMA);
        assertEquals((1L << width) - 1, max);
        assertTrue("narrower than the v1model key",
                   max < tables(hw, target).rangeKeyMax(HUPF_INGRESS_HH_TAU_TABLE, HDR_IPG_EWMA));
        assertTauRangesClipped(tna, d, device, max);
        PiAction hh = (PiAction) device.entriesOf(HUPF_INGRESS_HH_HH_CONFIG).stream()
                .filter(PiTableEntry::isDefaultAction).findFirst().orElseThrow().action();
        assertEquals("the parameters the P4Info's set_hh_params takes",
                     tna.table(HUPF_INGRESS_HH_HH_CONFIG).orElseThrow().action(HUPF_INGRESS_HH_SET_HH_PARAMS)
                             .orElseThrow().params().size(), hh.parameters().size());

        ClassifierModel m = ClassifierModelTest.parse(ClassifierModelTest.MODEL);
        d.installClassifier(m);
        dataplane.installClassifier(m);
        for (org.onosproject.net.pi.model.PiTableId t : List.of(
                HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_UP, HUPF_INGRESS_CLASSIFIER_FEATURE_PKTS_DN,
                HUPF_INGRESS_CLASSIFIER_FEATURE_PS_UP, HUPF_INGRESS_CLASSIFIER_FEATURE_PS_DN,
                HUPF_INGRESS_CLASSIFIER_FEATURE_IPG_UP, HUPF_INGRESS_CLASSIFIER_FEATURE_IPG_DN)) {
            long keyMax = tables(tna, device).rangeKeyMax(t, HDR_VALUE);
            for (PiTableEntry e : device.readTable(t)) {
                assertTrue(t + " within its key", bounds(e, HDR_VALUE)[1] <= keyMax);
            }
        }
        assertEquals("the same decisions as on bmv2", table(HUPF_INGRESS_CLASSIFIER_DECISION).size(),
                     device.readTable(HUPF_INGRESS_CLASSIFIER_DECISION).size());
        assertEquals(table(HUPF_INGRESS_CLASSIFIER_CLASS_TO_TC).size(),
                     device.readTable(HUPF_INGRESS_CLASSIFIER_CLASS_TO_TC).size());

        d.setBackends(2, List.of(new Backend(7, MacAddress.valueOf("02:00:00:00:00:07"))));
        assertEquals(1, device.readTable(HUPF_INGRESS_STEERING_BACKENDS).size());
        d.setBackendPorts(List.of(5L));
        assertEquals(1, device.readTable(HUPF_INGRESS_STEERING_BACKEND_PORTS).size());
        assertEquals(1, d.setRoutes(List.of(route("10.9.9.0/24", 2, "02:00:00:00:00:02"))));
    }

    /**
     * The TNA program's set_hh_params and set_cls_params have no alpha_shift (Tofino low-pass filters): the
     * configuration is written without it there, with it where the P4Info has it.
     */
    @Test
    public void alphaShiftIsWrittenOnlyWhereTheP4InfoHasIt() throws Exception {
        String param = "  params \\{\n    id: \\d+\n    name: \"alpha_shift\"\n    bitwidth: 8\n  \\}\n";
        PiPipelineModel tna = variant(text -> {
            String out = text.replaceAll(param, "");
            assertEquals("two alpha_shift parameters removed", 2, text.split("\"alpha_shift\"", -1).length
                    - out.split("\"alpha_shift\"", -1).length);
            return out;
        });
        MemoryPiTarget device = new MemoryPiTarget(tna);
        HupfDataplane d = new HupfDataplane(tna, device);
        d.configureHh(HhConfig.builder().build());
        d.installClassifier(ClassifierModelTest.parse(ClassifierModelTest.MODEL));
        PiAction hh = (PiAction) device.entriesOf(HUPF_INGRESS_HH_HH_CONFIG).stream()
                .filter(PiTableEntry::isDefaultAction).findFirst().orElseThrow().action();
        PiAction cls = (PiAction) device.entriesOf(HUPF_INGRESS_CLASSIFIER_CLS_CONFIG).stream()
                .filter(PiTableEntry::isDefaultAction).findFirst().orElseThrow().action();
        assertFalse(hh.parameters().stream().anyMatch(p -> p.id().equals(ALPHA_SHIFT)));
        assertEquals(6, hh.parameters().size());
        assertFalse(cls.parameters().stream().anyMatch(p -> p.id().equals(ALPHA_SHIFT)));
        assertEquals(1_000_000, PiCodec.param(cls, WINDOW_US));

        dataplane.configureHh(HhConfig.builder().alphaShift(5).build());
        assertEquals(5, PiCodec.param((PiAction) defaultEntry(HUPF_INGRESS_HH_HH_CONFIG).action(), ALPHA_SHIFT));
    }

    // ---- VXLAN tenants

    private static final Ip4Address VTEP = Ip4Address.valueOf("192.168.100.1");

    private static Tenant tenant(int vni, int id, int tc, int dscp) {
        return new Tenant(vni, VTEP, id, tc, dscp);
    }

    private static PiMeterCellConfig cell(MemoryPiTarget device, long index) {
        PiMeterCellId id = PiMeterCellId.ofIndirect(HUPF_INGRESS_TENANT_TENANT_METER, index);
        return device.readMeter(HUPF_INGRESS_TENANT_TENANT_METER).stream().filter(c -> c.cellId().equals(id))
                .findFirst().orElseThrow();
    }

    /** Tenant's ranges are the P4Info's: tenant_id's width, the meter's cells, tc, dscp and the VNI. */
    @Test
    public void tenantRangesAreTheP4Infos() {
        for (String profile : List.of("hw", "sw")) {
            PiPipelineModel model = Pipelines.model(profile);
            var setTenant = model.table(HUPF_INGRESS_TENANT_TENANTS).orElseThrow()
                    .action(HUPF_INGRESS_TENANT_SET_TENANT).orElseThrow();
            assertEquals(profile, Tenant.MAX_TENANT_ID, (1 << setTenant.param(TENANT_ID).orElseThrow().bitWidth()) - 1);
            assertEquals(profile, Tenant.MAX_TC, (1 << setTenant.param(TC).orElseThrow().bitWidth()) - 1);
            assertEquals(profile, Tenant.MAX_DSCP, (1 << setTenant.param(DSCP).orElseThrow().bitWidth()) - 1);
            assertEquals(profile, Tenant.MAX_VNI, (1 << model.table(HUPF_INGRESS_TENANT_TENANTS).orElseThrow()
                    .matchField(HDR_VNI).orElseThrow().bitWidth()) - 1);
            assertEquals(profile, Tenant.MAX_TENANT_ID + 1,
                         model.meter(HUPF_INGRESS_TENANT_TENANT_METER).orElseThrow().size());
        }
    }

    @Test
    public void tenantEntriesAreKeyedByVniAndVtep() throws Exception {
        for (String profile : List.of("hw", "sw")) {
            PiPipelineModel model = Pipelines.model(profile);
            TenantWriter tenants = new TenantWriter(tables(model, new MemoryPiTarget(model)));
            List<PiTableEntry> entries = tenants.tenantEntries(List.of(
                    tenant(Tenant.MAX_VNI, Tenant.MAX_TENANT_ID, 3, 63), tenant(100, 1, 2, 46)));
            assertEquals(2, entries.size());
            PiTableEntry e = entries.get(1);
            assertEquals(HUPF_INGRESS_TENANT_TENANTS, e.table());
            PiExactFieldMatch vni = (PiExactFieldMatch) e.matchKey().fieldMatch(HDR_VNI).orElseThrow();
            assertEquals(profile + ": vni is 24 bits", 3, vni.value().size());
            assertEquals(100, PiCodec.exact(e, HDR_VNI));
            PiExactFieldMatch vtep = (PiExactFieldMatch) e.matchKey().fieldMatch(HDR_VTEP_IPV4_DST).orElseThrow();
            assertEquals(4, vtep.value().size());
            assertEquals(VTEP.toInt() & 0xFFFFFFFFL, PiCodec.exact(e, HDR_VTEP_IPV4_DST));
            PiAction a = (PiAction) e.action();
            assertEquals(HUPF_INGRESS_TENANT_SET_TENANT, a.id());
            assertEquals(1, PiCodec.param(a, TENANT_ID));
            assertEquals(2, PiCodec.param(a, TC));
            assertEquals(46, PiCodec.param(a, DSCP));
            assertEquals(Tenant.MAX_VNI, PiCodec.exact(entries.get(0), HDR_VNI));
            assertEquals(Tenant.MAX_TENANT_ID, PiCodec.param((PiAction) entries.get(0).action(), TENANT_ID));
        }
    }

    @Test
    public void aMeteredTenantsCellHasItsRateInBytes() throws Exception {
        Map<Long, PiMeterCellConfig> cells = new TenantWriter(tables(hw, target)).tenantMeterCells(List.of(
                new Tenant(100, VTEP, 7, 0, 0, 80_000_000, 100_000), tenant(101, 8, 0, 0),
                new Tenant(102, Ip4Address.valueOf("192.168.100.2"), 7, 1, 10, 80_000_000, 100_000)));
        assertEquals("one cell per metered tenant id", List.of(7L), List.copyOf(cells.keySet()));
        PiMeterCellConfig c = cells.get(7L);
        assertEquals(HUPF_INGRESS_TENANT_TENANT_METER, c.cellId().meterId());
        assertEquals(10_000_000, c.committedBand().rate());
        assertEquals(100_000, c.committedBand().burst());
        assertEquals(10_000_000, c.peakBand().rate());
        assertEquals(100_000, c.peakBand().burst());
    }

    /**
     * Tenants replaced make before break: an unchanged tenant is never deleted or rewritten, one whose marking
     * changes is modified in place, one no longer configured goes after the others are written; the meter's
     * cells follow by a diff (a cell no tenant meters any more is reset).
     */
    @Test
    public void tenantsAreReplacedMakeBeforeBreakOnBothProfiles() throws Exception {
        for (String profile : List.of("hw", "sw")) {
            PiPipelineModel model = Pipelines.model(profile);
            MemoryPiTarget device = new MemoryPiTarget(model);
            HupfDataplane d = new HupfDataplane(model, device);
            // hw: the backend_classes of their DSCPs too (10 -> 1, 20 -> 2, then 34 -> 2, 0 -> 0).
            int hwOnly = profile.equals("hw") ? 1 : 0;
            Tenant a = new Tenant(100, VTEP, 1, 1, 10, 8_000_000, 15_000);
            Tenant b = tenant(200, 2, 2, 20);
            assertEquals(profile + ": two entries and one cell", 3 + 2 * hwOnly, d.setTenants(List.of(a, b)));
            assertEquals(2, device.readTable(HUPF_INGRESS_TENANT_TENANTS).size());
            assertEquals(1_000_000, cell(device, 1).committedBand().rate());
            assertTrue(cell(device, 2).isDefaultConfig());
            assertEquals(profile + ": nothing to do the second time", 0, d.setTenants(List.of(b, a)));

            Tenant b2 = tenant(200, 2, 2, 34);
            Tenant c = new Tenant(300, VTEP, 3, 0, 0, 16_000_000, 30_000);
            int deleted = device.deleted.size();
            assertEquals(profile + ": b modified, c and its cell written, a deleted and its cell reset", 5 + 4 * hwOnly,
                         d.setTenants(List.of(b2, c)));
            assertEquals(deleted + 1 + 2 * hwOnly, device.deleted.size());
            assertEquals(100, PiCodec.exact((PiTableEntry) device.deleted.get(deleted), HDR_VNI));
            assertTrue(cell(device, 1).isDefaultConfig());
            assertEquals(2_000_000, cell(device, 3).committedBand().rate());
            PiTableEntry held = device.readTable(HUPF_INGRESS_TENANT_TENANTS).stream()
                    .filter(e -> {
                        try {
                            return PiCodec.exact(e, HDR_VNI) == 200;
                        } catch (PiCodecException ex) {
                            return false;
                        }
                    }).findFirst().orElseThrow();
            assertEquals(34, PiCodec.param((PiAction) held.action(), DSCP));

            assertEquals(profile + ": both removed, c's cell reset", 3 + 2 * hwOnly, d.setTenants(List.of()));
            assertTrue(device.readTable(HUPF_INGRESS_TENANT_TENANTS).isEmpty());
            assertTrue(cell(device, 3).isDefaultConfig());
        }
    }

    @Test
    public void aRepeatedKeyOrTwoMetersForOneTenantAreRefusedBeforeAnyWrite() throws Exception {
        try {
            dataplane.setTenants(List.of(tenant(100, 1, 0, 0), tenant(100, 2, 0, 0)));
            fail("two tenants for one VNI and VTEP accepted");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("VNI 100 at VTEP 192.168.100.1"));
        }
        try {
            dataplane.setTenants(List.of(new Tenant(100, VTEP, 1, 0, 0, 8000, 1500),
                                         new Tenant(101, VTEP, 1, 0, 0, 16000, 1500)));
            fail("two meters for one tenant id accepted");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("tenant id 1 has two meters"));
        }
        assertTrue(table(HUPF_INGRESS_TENANT_TENANTS).isEmpty());
        assertTrue(target.meters.isEmpty());
    }

    /** TenantSlice's ranges are the P4Info's: the QFI key, tc, dscp, and one meter cell per tenant id and QFI. */
    @Test
    public void sliceRangesAreTheP4Infos() {
        for (String profile : List.of("hw", "sw")) {
            PiPipelineModel model = Pipelines.model(profile);
            var slices = model.table(HUPF_INGRESS_TENANT_SLICES).orElseThrow();
            var setSlice = slices.action(HUPF_INGRESS_TENANT_SET_SLICE).orElseThrow();
            assertEquals(profile, TenantSlice.MAX_QFI, (1 << slices.matchField(HDR_QFI).orElseThrow().bitWidth()) - 1);
            assertEquals(profile, Tenant.MAX_TENANT_ID,
                         (1 << slices.matchField(HDR_TENANT_ID).orElseThrow().bitWidth()) - 1);
            assertEquals(profile, Tenant.MAX_TC, (1 << setSlice.param(TC).orElseThrow().bitWidth()) - 1);
            assertEquals(profile, Tenant.MAX_DSCP, (1 << setSlice.param(DSCP).orElseThrow().bitWidth()) - 1);
            long cells = (Tenant.MAX_TENANT_ID + 1L) * TenantSlice.CELLS_PER_TENANT;
            assertEquals(profile, cells, model.meter(HUPF_INGRESS_TENANT_SLICE_METER).orElseThrow().size());
            assertEquals(profile, cells, model.counter(HUPF_INGRESS_TENANT_SLICE_COUNTER).orElseThrow().size());
        }
    }

    private static PiMeterCellConfig sliceCell(MemoryPiTarget device, long index) {
        PiMeterCellId id = PiMeterCellId.ofIndirect(HUPF_INGRESS_TENANT_SLICE_METER, index);
        return device.readMeter(HUPF_INGRESS_TENANT_SLICE_METER).stream().filter(c -> c.cellId().equals(id))
                .findFirst().orElseThrow();
    }

    private static Map<List<Long>, List<Long>> slicesHeld(MemoryPiTarget device) throws PiCodecException {
        Map<List<Long>, List<Long>> out = new java.util.HashMap<>();
        for (PiTableEntry e : device.readTable(HUPF_INGRESS_TENANT_SLICES)) {
            PiAction a = (PiAction) e.action();
            out.put(List.of(PiCodec.exact(e, HDR_TENANT_ID), PiCodec.exact(e, HDR_QFI)),
                    List.of(PiCodec.param(a, TC), PiCodec.param(a, DSCP)));
        }
        return out;
    }

    /**
     * Slices go with their tenants, make before break: keyed by (tenant id, QFI), written once per tenant id
     * (two entries of one id give the same slices), an unchanged slice left alone, a changed one modified, one
     * no longer configured deleted; a metered slice's cell (tenant id * 64 + QFI) follows by a diff.
     */
    @Test
    public void slicesAreReplacedMakeBeforeBreakWithTheirMeterCells() throws Exception {
        for (String profile : List.of("hw", "sw")) {
            PiPipelineModel model = Pipelines.model(profile);
            MemoryPiTarget device = new MemoryPiTarget(model);
            HupfDataplane d = new HupfDataplane(model, device);
            List<TenantSlice> slices = List.of(new TenantSlice(9, 3, 34, 8_000_000, 15_000), new TenantSlice(5, 2, 18));
            Tenant a = new Tenant(100, VTEP, 1, 1, 10, 0, 0, slices);
            Tenant a2 = new Tenant(101, VTEP, 1, 1, 10, 0, 0, slices);
            // hw: the backend_classes of their DSCPs too (10 -> 1, 34 -> 3, 18 -> 2, then 0 -> 0, 8 -> 1).
            int hwOnly = profile.equals("hw") ? 1 : 0;
            assertEquals(profile + ": two tenant entries, two slices, one cell", 5 + 3 * hwOnly,
                         d.setTenants(List.of(a, a2)));
            assertEquals(Map.of(List.of(1L, 9L), List.of(3L, 34L), List.of(1L, 5L), List.of(2L, 18L)),
                         slicesHeld(device));
            assertEquals(1_000_000, sliceCell(device, 64 + 9).committedBand().rate());
            assertTrue(sliceCell(device, 64 + 5).isDefaultConfig());
            assertEquals(profile + ": nothing to do the second time", 0, d.setTenants(List.of(a2, a)));

            Tenant b = new Tenant(100, VTEP, 1, 1, 10, 0, 0,
                                  List.of(new TenantSlice(5, 0, 0), new TenantSlice(1, 1, 8, 16_000_000, 30_000)));
            int deleted = device.deleted.size();
            assertEquals(profile + ": 5 modified, 1 and its cell written, 9 deleted and its cell reset, a2 deleted",
                         6 + 4 * hwOnly, d.setTenants(List.of(b)));
            assertEquals(deleted + 2 + 2 * hwOnly, device.deleted.size());
            assertEquals(Map.of(List.of(1L, 5L), List.of(0L, 0L), List.of(1L, 1L), List.of(1L, 8L)),
                         slicesHeld(device));
            assertTrue(sliceCell(device, 64 + 9).isDefaultConfig());
            assertEquals(2_000_000, sliceCell(device, 64 + 1).committedBand().rate());

            assertEquals(profile + ": the tenant and its slices removed, 1's cell reset", 4 + 3 * hwOnly,
                         d.setTenants(List.of()));
            assertTrue(device.readTable(HUPF_INGRESS_TENANT_SLICES).isEmpty());
            assertTrue(sliceCell(device, 64 + 1).isDefaultConfig());
        }
    }

    /**
     * hw: the class each tenant's and slice's DSCP stands for goes to steering.backend_classes with the tenants
     * (a steered packet's class comes back from the backend as its DSCP); sw has no such table.
     */
    @Test
    public void theTenantsDscpsClassesGoToBackendClassesOnHw() throws Exception {
        Tenant a = new Tenant(100, VTEP, 1, 3, 46, 0, 0, List.of(new TenantSlice(5, 2, 26)));
        Tenant b = tenant(200, 2, 0, 0);
        assertEquals(Map.of(46, 3, 26, 2, 0, 0), TenantWriter.dscpClasses(List.of(a, b)));
        dataplane.setTenants(List.of(a, b));
        Map<Long, Long> held = new java.util.HashMap<>();
        for (PiTableEntry e : table(HUPF_INGRESS_STEERING_BACKEND_CLASSES)) {
            held.put(PiCodec.exact(e, HDR_DSCP), PiCodec.param((PiAction) e.action(), TC));
        }
        assertEquals(Map.of(46L, 3L, 26L, 2L, 0L, 0L), held);
        assertFalse(Pipelines.model("sw").table(HUPF_INGRESS_STEERING_BACKEND_CLASSES).isPresent());
        try {
            dataplane.setTenants(List.of(a, tenant(300, 3, 1, 26)));
            fail("DSCP 26 for two classes accepted");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("VNI 300 marks DSCP 26 for class 1"));
        }
    }

    @Test
    public void twoSetsOfSlicesForOneTenantAreRefusedBeforeAnyWrite() throws Exception {
        try {
            dataplane.setTenants(List.of(new Tenant(100, VTEP, 1, 0, 0, 0, 0, List.of(new TenantSlice(9, 3, 34))),
                                         tenant(101, 1, 0, 0)));
            fail("two sets of slices for one tenant id accepted");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("tenant id 1 has two sets of slices (VNI 100 and 101)"));
        }
        assertTrue(table(HUPF_INGRESS_TENANT_TENANTS).isEmpty());
        assertTrue(table(HUPF_INGRESS_TENANT_SLICES).isEmpty());
        assertTrue(target.meters.isEmpty());
    }

    /** The slice counter is read cell by cell: the cells asked for, by cell. */
    @Test
    public void sliceCountersAreReadByCell() throws Exception {
        target.setCounter(HUPF_INGRESS_TENANT_SLICE_COUNTER, 64 + 9, 4, 600);
        Map<Long, long[]> cells = dataplane.sliceCounters(List.of(64L + 9, 2L * 64 + 5));
        assertEquals(List.of(64L + 9, 2L * 64 + 5), List.copyOf(cells.keySet()));
        assertArrayEquals(new long[]{4, 600}, cells.get(64L + 9));
        assertArrayEquals(new long[]{0, 0}, cells.get(2L * 64 + 5));
    }

    /** qos.queues on both profiles: written once, left alone when unchanged, a class left out removed. */
    @Test
    public void queuesAreSetAndReplaced() throws Exception {
        for (String profile : List.of("hw", "sw")) {
            PiPipelineModel model = Pipelines.model(profile);
            MemoryPiTarget device = new MemoryPiTarget(model);
            HupfDataplane d = new HupfDataplane(model, device);
            assertEquals(profile, 3, d.setQueues(Map.of(0, 0, 2, 2, 3, 6)));
            assertEquals(profile, 0, d.setQueues(Map.of(3, 6, 2, 2, 0, 0)));
            assertEquals(profile + ": 3 modified, 2 removed", 2, d.setQueues(Map.of(0, 0, 3, 7)));
            Map<Long, Long> held = new java.util.HashMap<>();
            for (PiTableEntry e : device.readTable(HUPF_INGRESS_QOS_QUEUES)) {
                held.put(PiCodec.exact(e, HDR_TC), PiCodec.param((PiAction) e.action(), QID));
            }
            assertEquals(Map.of(0L, 0L, 3L, 7L), held);
            try {
                d.setQueues(Map.of(4, 1));
                fail(profile + ": traffic class 4 accepted");
            } catch (PiCodecException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("tc"));
            }
        }
    }

    /** A pipeline without the tenant table (the TNA program) gets nothing, and no error. */
    @Test
    public void aPipelineWithoutTenantsIsLeftAlone() throws Exception {
        // The hw model without the tenant table and meter.
        PiPipelineModel noTenants = (PiPipelineModel) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{PiPipelineModel.class}, (proxy, method, args) ->
                        args != null && args.length == 1 && (HUPF_INGRESS_TENANT_TENANTS.equals(args[0])
                                || HUPF_INGRESS_TENANT_TENANT_METER.equals(args[0]))
                                ? Optional.empty() : method.invoke(hw, args));
        MemoryPiTarget device = new MemoryPiTarget(noTenants);
        assertEquals(0, new HupfDataplane(noTenants, device).setTenants(List.of(tenant(100, 1, 0, 0))));
        assertTrue(device.meters.isEmpty());
        assertFalse(noTenants.table(HUPF_INGRESS_TENANT_TENANTS).isPresent());
    }

    /** The tenant counter is read in one request: every cell, by tenant id. */
    @Test
    public void tenantCountersAreReadByTenantId() throws Exception {
        target.setCounter(HUPF_INGRESS_TENANT_TENANT_COUNTER, 7, 3, 450);
        Map<Integer, long[]> cells = dataplane.tenantCounters();
        assertEquals(hw.counter(HUPF_INGRESS_TENANT_TENANT_COUNTER).orElseThrow().size(), cells.size());
        assertArrayEquals(new long[]{3, 450}, cells.get(7));
        assertArrayEquals(new long[]{0, 0}, cells.get(0));
    }

    private static RpsConfig rps(int bufferLen, RpsConfig.Flow... flows) {
        return new RpsConfig(RpsConfig.Mode.DATA_PLANE, 100_000, RpsConfig.selectThreshold(0.01), bufferLen,
                             List.of(flows));
    }

    private static RpsConfig.Flow rpsFlow(String prefix, int direction, int id, long threshold) {
        return new RpsConfig.Flow(Ip4Prefix.valueOf(prefix), direction, id, threshold);
    }

    private long rpsPerPoint(org.onosproject.net.pi.model.PiRegisterId r) {
        return hw.register(r).orElseThrow().size() / RPS_POINTS;
    }

    @Test
    public void rpsSetsTheConfigurationAndTheFlowsWhichReadBackAsWritten() throws Exception {
        RpsConfig.Flow up = rpsFlow("10.250.0.0/16", RpsConfig.UPLINK, 1, 0x04000000L);
        RpsConfig.Flow down = rpsFlow("10.250.7.0/24", RpsConfig.DOWNLINK, 2, 0xFFFFFFFFL);
        assertTrue(dataplane.setRps(rps(RpsConfig.WHOLE_BUFFER, up, down)) > 0);
        PiAction config = (PiAction) defaultEntry(HUPF_INGRESS_RPS_CONFIG).action();
        assertEquals(HUPF_INGRESS_RPS_SET_CONFIG, config.id());
        assertEquals(RPS_MODE_DATA_PLANE, PiCodec.param(config, MODE));
        assertEquals(100_000, PiCodec.param(config, QUIET_US));
        assertEquals(RpsConfig.selectThreshold(0.01), PiCodec.param(config, SELECT_THRESHOLD));
        assertEquals("the whole buffer", rpsPerPoint(RPS_BUF_FLOW), PiCodec.param(config, BUFFER_LEN));
        List<RpsConfig.Flow> back = table(HUPF_INGRESS_RPS_FLOWS).stream()
                .map(e -> RpsWriter.rpsFlow(e).orElseThrow()).collect(Collectors.toList());
        assertEquals(Set.of(up, down), Set.copyOf(back));

        // Again with one flow and a shorter buffer: the other flow goes, the configuration follows.
        dataplane.setRps(new RpsConfig(RpsConfig.Mode.HYBRID, 0, 0, 16, List.of(down)));
        assertEquals(List.of(down), table(HUPF_INGRESS_RPS_FLOWS).stream()
                .map(e -> RpsWriter.rpsFlow(e).orElseThrow()).collect(Collectors.toList()));
        config = (PiAction) defaultEntry(HUPF_INGRESS_RPS_CONFIG).action();
        assertEquals(RPS_MODE_HYBRID, PiCodec.param(config, MODE));
        assertEquals(16, PiCodec.param(config, BUFFER_LEN));
        dataplane.setRps(RpsConfig.OFF);
        assertTrue(table(HUPF_INGRESS_RPS_FLOWS).isEmpty());
        assertEquals(RPS_MODE_OFF, PiCodec.param((PiAction) defaultEntry(HUPF_INGRESS_RPS_CONFIG).action(), MODE));
    }

    @Test
    public void rpsValuesBeyondThePipelineAreRefusedBeforeAnyWrite() {
        long flows = rpsPerPoint(RPS_NEXT_DNUM);
        long slots = rpsPerPoint(RPS_BUF_FLOW);
        Object[][] cases = {
                {rps(0, rpsFlow("10.0.0.0/8", 0, (int) flows, 1)), "flow id " + flows},
                {rps((int) slots + 1), "buffer length " + (slots + 1)},
                {rps(0, rpsFlow("10.0.0.0/8", 0, 1, 1), rpsFlow("10.0.0.0/8", 0, 2, 1)), "two RPS flows"}};
        for (Object[] c : cases) {
            try {
                dataplane.setRps((RpsConfig) c[0]);
                fail("accepted " + c[0]);
            } catch (PiCodecException e) {
                assertTrue(e.getMessage(), e.getMessage().contains((String) c[1]));
            } catch (PiTargetException e) {
                throw new AssertionError(e);
            }
        }
        assertTrue(target.entriesOf(HUPF_INGRESS_RPS_CONFIG).isEmpty());
        assertTrue(table(HUPF_INGRESS_RPS_FLOWS).isEmpty());
    }

    @Test
    public void aPipelineWithoutRpsIsLeftAlone() throws Exception {
        PiPipelineModel sw = Pipelines.model("sw");
        MemoryPiTarget swTarget = new MemoryPiTarget(sw);
        assertEquals(0, new HupfDataplane(sw, swTarget).setRps(rps(0, rpsFlow("10.0.0.0/8", 0, 1, 1))));
        assertTrue("nothing to read", new HupfDataplane(sw, swTarget).readRps().isEmpty());
    }

    /** Each point's events are its own counter's half (IN: ingress cells 0..7, OUT: egress cells 8..15). */
    @Test
    public void rpsReadsThePipelinesSizesAndEachPointsEvents() throws Exception {
        target.setCounter(HUPF_INGRESS_RPS_EVENTS, RPS_EV_OBSERVED, 100, 0);
        target.setCounter(HUPF_INGRESS_RPS_EVENTS, RPS_EV_TRACK_OVERRUN, 3, 0);
        target.setCounter(HUPF_INGRESS_RPS_EVENTS, RPS_EVENTS + RPS_EV_OBSERVED, 77, 0);   // not IN's: ignored
        target.setCounter(HUPF_EGRESS_RPS_EVENTS, RPS_EVENTS + RPS_EV_OBSERVED, 98, 0);
        target.setCounter(HUPF_EGRESS_RPS_EVENTS, RPS_EVENTS + RPS_EV_INVALID, 2, 0);
        target.setCounter(HUPF_EGRESS_RPS_EVENTS, RPS_EV_DIRECT, 55, 0);                    // not OUT's: ignored
        RpsState s = dataplane.readRps().orElseThrow();
        assertEquals(rpsPerPoint(RPS_BUF_FLOW), s.bufferSize());
        assertEquals(rpsPerPoint(RPS_NEXT_DNUM), s.flows());
        assertEquals(rpsPerPoint(RPS_TRACK_DNUM) / rpsPerPoint(RPS_NEXT_DNUM), s.trackDepth());
        long[][] want = new long[RPS_POINTS][RPS_EVENTS];
        want[RPS_POINT_IN][RPS_EV_OBSERVED] = 100;
        want[RPS_POINT_IN][RPS_EV_TRACK_OVERRUN] = 3;
        want[RPS_POINT_OUT][RPS_EV_OBSERVED] = 98;
        want[RPS_POINT_OUT][RPS_EV_INVALID] = 2;
        for (int p = 0; p < RPS_POINTS; p++) {
            for (int e = 0; e < RPS_EVENTS; e++) {
                assertEquals(RpsState.POINT_NAMES.get(p) + " " + RpsState.EVENT_NAMES.get(e), want[p][e],
                             s.event(p, e));
            }
        }
    }
}
