package org.hupf.standalone.p4rt;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.upf.HupfDataplane;
import org.hupf.pipeconf.upf.MemoryPiTarget;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfEntities;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;
import org.onosproject.net.pi.runtime.PiTableEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketOut;

import java.util.ArrayList;
import java.util.List;

import static org.hupf.pipeconf.HupfConstants.*;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * PI ↔ P4Runtime protobuf against the real P4Info of both profiles: every entity the translator and the
 * dataplane configuration produce survives encode → decode unchanged, and ids are the P4Info's.
 */
@RunWith(Parameterized.class)
public class PiEncoderTest {

    @Parameterized.Parameters(name = "{0}")
    public static List<String> profiles() {
        return List.of("hw", "sw");
    }

    private final String profile;
    private final PiPipelineModel model;
    private final PiEncoder encoder;

    public PiEncoderTest(String profile) throws Exception {
        this.profile = profile;
        this.model = Pipelines.model(profile);
        this.encoder = new PiEncoder(P4InfoIndex.parse(Pipelines.p4infoUrl(profile)));
    }

    private List<PiEntity> samples() throws Exception {
        List<PiEntity> out = new ArrayList<>();
        UpfTranslator t = new UpfTranslator(model);
        for (UpfEntity e : UpfEntities.all()) {
            out.addAll(t.toPi(e));
        }
        out.addAll(t.toPi(UpfCounter.builder().withCellId(5).setIngress(1, 1500).setEgress(1, 1400).build()));
        if ("hw".equals(profile)) {
            HupfDataplane d = new HupfDataplane(model, new MemoryPiTarget(model));
            out.addAll(d.hhEntries(HhConfig.builder().build()));
            out.add(HupfDataplane.cpuCloneSession(V1MODEL_CPU_PORT));
            out.addAll(d.steeringEntities(1, List.of(new Backend(7, MacAddress.valueOf("02:00:00:00:00:07")),
                                                     new Backend(8, MacAddress.valueOf("02:00:00:00:00:08")))));
        }
        return out;
    }

    @Test
    public void everyEntityRoundTrips() throws Exception {
        for (PiEntity e : samples()) {
            Entity wire = encoder.encode(e);
            assertEquals(profile + ": " + e, e, encoder.decode(wire));
        }
    }

    @Test
    public void idsAreThoseOfTheP4Info() throws Exception {
        P4InfoIndex idx = encoder.p4info();
        PiTableEntry e = (PiTableEntry) new UpfTranslator(model).toPi(UpfEntities.all().get(0)).get(0);
        Entity wire = encoder.encode(e);
        int tableId = wire.getTableEntry().getTableId();
        assertEquals(idx.id(HUPF_INGRESS_UPF_INTERFACES.id()), tableId);
        assertEquals(idx.p4info().getTablesList().stream()
                             .filter(t -> t.getPreamble().getName().equals(HUPF_INGRESS_UPF_INTERFACES.id()))
                             .findFirst().orElseThrow().getPreamble().getId(), tableId);
        assertEquals(tableId, encoder.readTable(HUPF_INGRESS_UPF_INTERFACES).getTableEntry().getTableId());
    }

    @Test
    public void valuesAreSentPaddedToTheirWidth() throws Exception {
        PiTableEntry e = (PiTableEntry) new UpfTranslator(model).toPi(UpfEntities.all().get(0)).get(0);
        Entity wire = encoder.encode(e);
        wire.getTableEntry().getMatchList().forEach(m -> {
            if (m.hasLpm()) {
                assertEquals(4, m.getLpm().getValue().size());
            } else {
                assertEquals("gtpu_is_valid is bit<1>", 1, m.getExact().getValue().size());
            }
        });
    }

    @Test
    public void unknownNamesAndWideValuesAreRefused() {
        PiTableEntry unknown = PiTableEntry.builder().forTable(PiTableId.of("HupfIngress.no_such_table"))
                .withAction(PiAction.builder().withId(HUPF_INGRESS_UPF_IFACE_CORE).build()).build();
        expectRefusal(unknown, "no_such_table");
        PiTableEntry wide = PiTableEntry.builder().forTable(HUPF_INGRESS_UPF_INTERFACES)
                .withAction(PiAction.builder().withId(HUPF_INGRESS_UPF_IFACE_CORE)
                                    .withParameter(new PiActionParam(SLICE_ID, ImmutableByteSequence.copyFrom(16)))
                                    .build()).build();
        expectRefusal(wide, "does not fit");
    }

    private void expectRefusal(PiEntity e, String why) {
        try {
            encoder.encode(e);
            fail("encoded " + e);
        } catch (P4RuntimeException ex) {
            assertTrue(ex.getMessage(), ex.getMessage().contains(why));
        }
    }

    @Test
    public void packetIoUsesTheControllerHeaders() throws Exception {
        PiPacketOperation out = PiPacketOperation.builder().withType(PiPacketOperationType.PACKET_OUT)
                .withData(ImmutableByteSequence.copyFrom(new byte[]{1, 2, 3}))
                .withMetadata(PiPacketMetadata.builder().withId(PKT_META_EGRESS_PORT)
                                      .withValue(ImmutableByteSequence.copyFrom((short) 300)).build()).build();
        PacketOut wire = encoder.packetOut(out);
        assertEquals(3, wire.getPayload().size());
        assertEquals("egress_port is bit<9>: two bytes", 2, wire.getMetadata(0).getValue().size());

        PacketIn in = PacketIn.newBuilder().setPayload(wire.getPayload())
                .addMetadata(p4.v1.P4RuntimeOuterClass.PacketMetadata.newBuilder()
                                     .setMetadataId(encoder.p4info().memberId(encoder.p4info().id("packet_in"),
                                                                              PKT_META_REASON.id()))
                                     .setValue(com.google.protobuf.ByteString.copyFrom(new byte[]{4})))
                .build();
        PiPacketOperation op = encoder.packetIn(in);
        assertEquals(PKT_META_REASON, op.metadatas().iterator().next().id());
        assertEquals(3, op.data().size());
    }
}
