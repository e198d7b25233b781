package org.hupf.pipeconf.upf;

import com.google.protobuf.TextFormat;
import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.onlab.packet.Ip4Prefix;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMatchType;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;
import org.onosproject.p4runtime.model.P4InfoParser;
import p4.config.v1.P4InfoOuterClass;

import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.hupf.pipeconf.HupfConstants.HDR_APP_IPV4_ADDR;
import static org.hupf.pipeconf.HupfConstants.HUPF_EGRESS_UPF_POST_QOS_COUNTER;
import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_UPF_APPLICATIONS;
import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_UPF_PRE_QOS_COUNTER;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Entity ↔ PI translation against every real committed P4Info ({@link Pipelines#upfPipelines()}).
 */
@RunWith(Parameterized.class)
public class UpfTranslatorTest {

    @Parameterized.Parameters(name = "{0}/{1}")
    public static List<String[]> pipelines() {
        return Pipelines.upfPipelines();
    }

    private final String pipeline;
    private final URL p4info;
    private final PiPipelineModel model;
    private final UpfTranslator translator;

    public UpfTranslatorTest(String profile, String target) {
        this.pipeline = profile + "/" + target;
        this.p4info = Pipelines.p4infoUrl(profile, target);
        this.model = Pipelines.model(profile, target);
        this.translator = new UpfTranslator(model);
    }

    @Test
    public void everyEntityRoundTrips() throws Exception {
        Set<UpfEntityType> covered = EnumSet.noneOf(UpfEntityType.class);
        for (UpfEntity e : UpfEntities.heldBy(translator)) {
            List<PiEntity> pi = translator.toPi(e);
            UpfEntity back;
            if (e instanceof UpfMeter) {
                assertEquals(1, pi.size());
                back = translator.fromMeterCell((PiMeterCellConfig) pi.get(0));
            } else if (e instanceof UpfGtpTunnelPeer) {
                assertEquals("ingress and egress entry", 2, pi.size());
                back = translator.tunnelPeer((PiTableEntry) pi.get(1), (PiTableEntry) pi.get(0));
            } else {
                assertEquals(1, pi.size());
                back = translator.fromTableEntry((PiTableEntry) pi.get(0));
            }
            assertEquals(pipeline + ": " + e, e, back);
            covered.add(e.type());
        }
        Set<UpfEntityType> expected = EnumSet.complementOf(EnumSet.of(UpfEntityType.COUNTER));
        if (!translator.holds(UpfEntityType.PEER_VXLAN)) {
            expected.remove(UpfEntityType.PEER_VXLAN);
            UpfEntity overlay = UpfEntities.all().stream().filter(e -> e.type() == UpfEntityType.PEER_VXLAN)
                    .findFirst().orElseThrow();
            try {
                translator.toPi(overlay);
                fail(pipeline + " expressed a VXLAN overlay it has no table for");
            } catch (PiCodecException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("cannot sit in a VXLAN overlay"));
            }
        }
        assertEquals(expected, covered);
    }

    /**
     * The TNA program matches applications' prefix ternary (Tofino has no LPM beside range and ternary):
     * the translator reads the match kind from the P4Info, writes value and prefix mask, and reads back only
     * prefix masks. The Tofino P4Info says TERNARY itself; the bmv2 ones say LPM and are rewritten to it.
     */
    @Test
    public void applicationPrefixIsTernaryWhereTheP4InfoSaysSo() throws Exception {
        String text = new String(p4info.openStream().readAllBytes(), StandardCharsets.UTF_8);
        String lpm = "name: \"app_ipv4_addr\"\n    bitwidth: 32\n    match_type: LPM";
        PiMatchType committed = model.table(HUPF_INGRESS_UPF_APPLICATIONS).orElseThrow()
                .matchField(HDR_APP_IPV4_ADDR).orElseThrow().matchType();
        assertEquals(pipeline, committed == PiMatchType.LPM, text.contains(lpm));
        Path tna = Files.createTempFile("p4info-ternary-app", ".txt");
        Files.writeString(tna, text.replace(lpm, lpm.replace("LPM", "TERNARY")));
        UpfTranslator ternary = new UpfTranslator(P4InfoParser.parse(tna.toUri().toURL()));
        Files.delete(tna);

        UpfApplication app = UpfApplication.builder().withSliceId(1).withAppId(3).withPriority(10)
                .withIp4Prefix(Ip4Prefix.valueOf("198.51.100.0/24")).withL4PortRange(80, 443).build();
        PiTableEntry entry = (PiTableEntry) ternary.toPi(app).get(0);
        PiTernaryFieldMatch m = (PiTernaryFieldMatch) entry.matchKey().fieldMatches().stream()
                .filter(f -> f.fieldId().id().equals("app_ipv4_addr")).findFirst().orElseThrow();
        assertEquals(0xC6336400L, PiCodec.toLong(m.value(), "value"));
        assertEquals(0xFFFFFF00L, PiCodec.toLong(m.mask(), "mask"));
        assertEquals(app, ternary.fromTableEntry(entry));
        assertEquals("the committed P4Info's match kind", committed,
                     ((PiTableEntry) translator.toPi(app).get(0)).matchKey().fieldMatches().stream()
                             .filter(f -> f.fieldId().id().equals("app_ipv4_addr")).findFirst().orElseThrow().type());

        PiMatchKey.Builder key = PiMatchKey.builder();
        entry.matchKey().fieldMatches().forEach(f -> key.addFieldMatch(f.fieldId().equals(m.fieldId())
                ? new PiTernaryFieldMatch(m.fieldId(), m.value(), ImmutableByteSequence.copyFrom(0xFF00FF00)) : f));
        PiTableEntry holes = PiTableEntry.builder().forTable(entry.table()).withAction(entry.action())
                .withPriority(entry.priority().orElseThrow()).withMatchKey(key.build()).build();
        try {
            ternary.fromTableEntry(holes);
            fail("a mask with holes read back as a prefix");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("not an IPv4 prefix mask"));
        }
    }

    @Test
    public void countersJoinIngressAndEgressCells() throws Exception {
        PiCounterCell ig = new PiCounterCell(PiCounterCellId.ofIndirect(HUPF_INGRESS_UPF_PRE_QOS_COUNTER, 12), 3, 300);
        PiCounterCell eg = new PiCounterCell(PiCounterCellId.ofIndirect(HUPF_EGRESS_UPF_POST_QOS_COUNTER, 12), 2, 200);
        UpfCounter c = translator.counter(ig, eg);
        assertEquals(UpfCounter.builder().withCellId(12).setIngress(3, 300).setEgress(2, 200).build(), c);
        try {
            translator.counter(ig, new PiCounterCell(PiCounterCellId.ofIndirect(HUPF_EGRESS_UPF_POST_QOS_COUNTER, 13),
                                                     0, 0));
            fail("cells of different indexes joined");
        } catch (PiCodecException e) {
            assertTrue(e.getMessage().contains("one index"));
        }
    }

    /** Capacities are the P4Info's, read here with an independent (protobuf) parser. */
    @Test
    public void capacitiesComeFromTheP4Info() throws Exception {
        P4InfoOuterClass.P4Info.Builder b = P4InfoOuterClass.P4Info.newBuilder();
        try (Reader r = new InputStreamReader(p4info.openStream(), StandardCharsets.UTF_8)) {
            TextFormat.getParser().merge(r, b);
        }
        P4InfoOuterClass.P4Info info = b.build();
        for (UpfEntityType type : UpfEntityType.values()) {
            Object id = UpfTranslator.piIds(type).get(0);
            if (!translator.holds(type)) {
                assertTrue(pipeline + " lacks " + id + " but its P4Info has it", info.getTablesList().stream()
                        .noneMatch(t -> t.getPreamble().getName().equals(((PiTableId) id).id())));
                continue;
            }
            long expected;
            if (id instanceof PiTableId) {
                expected = info.getTablesList().stream()
                        .filter(t -> t.getPreamble().getName().equals(((PiTableId) id).id()))
                        .findFirst().orElseThrow().getSize();
            } else if (id instanceof PiMeterId) {
                expected = info.getMetersList().stream()
                        .filter(m -> m.getPreamble().getName().equals(((PiMeterId) id).id()))
                        .findFirst().orElseThrow().getSize();
            } else {
                expected = info.getCountersList().stream()
                        .filter(c -> c.getPreamble().getName().equals(((PiCounterId) id).id()))
                        .findFirst().orElseThrow().getSize();
            }
            assertTrue(type + " has no capacity", expected > 0);
            assertEquals(pipeline + " " + type, expected, translator.capacity(type));
        }
    }

    @Test
    public void counterIndexBeyondTheCounterIsRefused() throws Exception {
        long size = translator.capacity(UpfEntityType.COUNTER);
        expectRefusal(UpfTerminationUplink.builder().withUeSessionId(UpfEntities.UE)
                              .withCounterId((int) size).build(), "size " + size);
    }

    @Test
    public void sessionMeterBeyondTheMeterIsRefused() throws Exception {
        long size = translator.capacity(UpfEntityType.SESSION_METER);
        expectRefusal(UpfSessionDownlink.builder().withUeAddress(UpfEntities.UE).withGtpTunnelPeerId(1)
                              .withSessionMeterIdx((int) size).build(), "sessionMeterIdx");
    }

    @Test
    public void forwardingUplinkSessionNeedsTheUeAddress() throws Exception {
        expectRefusal(UpfSessionUplink.builder().setTunDstAddr(UpfEntities.N3).setTeid(5).build(),
                      "anti-spoofing");
    }

    @Test
    public void droppingSessionsCarryNoMeter() throws Exception {
        expectRefusal(UpfSessionUplink.builder().setTunDstAddr(UpfEntities.N3).setTeid(5).needsDropping(true)
                              .setSessionMeterIdx(3).build(), "no session meter");
        expectRefusal(UpfTerminationDownlink.builder().withUeSessionId(UpfEntities.UE).withCounterId(1)
                              .withTeid(9).needsDropping(true).build(), "no teid");
    }

    @Test
    public void meterCellZeroIsTheUnmeteredCell() throws Exception {
        expectRefusal(UpfMeter.builder().setSession().setCellId(0).setPeakBand(1000, 1500).build(), "not metered");
    }

    @Test
    public void wildcardApplicationFieldsMustBeLeftUnset() throws Exception {
        expectRefusal(UpfApplication.builder().withIp4Prefix(Ip4Prefix.valueOf("0.0.0.0/0")).withAppId(1).build(),
                      "leave ipPrefix unset");
        expectRefusal(UpfApplication.builder().withL4PortRange(0, 65535).withAppId(1).build(),
                      "leave l4PortRange unset");
        expectRefusal(UpfApplication.builder().withIpProto(6).withAppId(1).withPriority(Integer.MAX_VALUE).build(),
                      "priority");
    }

    /** Writing a counter sets both of its cells (how a newly allocated cell is reset), and reads back as written. */
    @Test
    public void aCounterIsWrittenAsItsTwoCellsAndReadsBack() throws Exception {
        UpfCounter c = UpfCounter.builder().withCellId(12).setIngress(3, 300).setEgress(2, 200).build();
        List<PiEntity> cells = translator.toPi(c);
        assertEquals(2, cells.size());
        assertTrue(cells.stream().allMatch(PiWrites::isModifyOnly));
        assertEquals(c, translator.counter((PiCounterCell) cells.get(0), (PiCounterCell) cells.get(1)));
        expectRefusal(UpfCounter.builder().withCellId((int) translator.capacity(UpfEntityType.COUNTER)).build(),
                      "beyond");
    }

    private void expectRefusal(UpfEntity e, String why) {
        try {
            translator.toPi(e);
            fail(pipeline + ": accepted " + e);
        } catch (PiCodecException ex) {
            assertTrue(ex.getMessage(), ex.getMessage().contains(why));
        }
    }
}
