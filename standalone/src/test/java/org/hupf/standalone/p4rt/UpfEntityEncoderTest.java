package org.hupf.standalone.p4rt;

import com.google.protobuf.TextFormat;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfEntities;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.model.PiPipelineModel;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The direct encoding against the PI path (translator + PiEncoder), for every committed P4Info: generated
 * entities of every type, with fields at 0, at their maximum, beyond what the pipeline holds and at random,
 * give byte-identical updates both ways, for installs and deletes, and the entities the PI path refuses are
 * declined (and refused through the PI path with its reason).
 */
@RunWith(Parameterized.class)
public class UpfEntityEncoderTest {

    private static final int PER_TYPE = 400;
    /** An update already in the write, which a declined entity leaves as it was. */
    private static final Update BEFORE = Update.newBuilder().setType(Update.Type.MODIFY).build();

    @Parameterized.Parameters(name = "{0}/{1}")
    public static List<String[]> pipelines() {
        return Pipelines.upfPipelines();
    }

    private final String pipeline;
    private final UpfTranslator translator;
    private final UpfEntityEncoder encoder;
    private final Random random = new Random(32);

    public UpfEntityEncoderTest(String profile, String target) throws Exception {
        this.pipeline = profile + "/" + target;
        PiPipelineModel model = Pipelines.model(profile, target);
        this.translator = new UpfTranslator(model);
        this.encoder = new UpfEntityEncoder(translator,
                                            new PiEncoder(P4InfoIndex.parse(Pipelines.p4infoUrl(profile, target))));
    }

    @Test
    public void directEncodingIsThePiPathsBytes() throws Exception {
        Set<UpfEntityType> direct = EnumSet.noneOf(UpfEntityType.class);
        Set<UpfEntityType> refused = EnumSet.noneOf(UpfEntityType.class);
        List<UpfEntity> entities = new ArrayList<>(UpfEntities.all());
        for (int i = 0; i < PER_TYPE; i++) {
            entities.addAll(randomOfEveryType());
        }
        for (UpfEntity e : entities) {
            for (boolean delete : new boolean[]{false, true}) {
                List<Update> viaPi = viaPi(e, delete);
                EncodedUpdates out = new EncodedUpdates(0);
                out.add(BEFORE);
                boolean expressed = encoder.direct(e, delete, out);
                String what = pipeline + (delete ? " delete " : " apply ") + e;
                if (viaPi == null) {
                    assertFalse(what + ": the PI path refuses it, the direct encoding does not", expressed);
                    assertEquals(what + ": declined, yet written", 1, out.size());
                    assertEquals(what + ": declined, yet written", BEFORE.getSerializedSize() + 4, out.length());
                    refused.add(e.type());
                    continue;
                }
                assertTrue(what + ": declined", expressed);
                assertEquals(what, viaPi.size() + 1, out.size());
                for (int k = 0; k < viaPi.size(); k++) {
                    Update expected = viaPi.get(k);
                    if (!Arrays.equals(expected.toByteArray(), out.bytes(k + 1))) {
                        fail(what + "\nPI path:\n" + TextFormat.printer().printToString(expected)
                                     + "direct:\n" + TextFormat.printer().printToString(Update.parseFrom(out.bytes(k + 1))));
                    }
                    assertEquals(what, expected.getType(), out.type(k + 1));
                    assertEquals(what, expected.getEntity().hasTableEntry(), out.tableEntry(k + 1));
                    Update.Type other = expected.getType() == Update.Type.INSERT ? Update.Type.MODIFY : Update.Type.INSERT;
                    EncodedUpdates retyped = new EncodedUpdates(0);
                    retyped.addRetyped(out, k + 1, other);
                    assertArrayEquals(what, expected.toBuilder().setType(other).build().toByteArray(), retyped.bytes(0));
                }
                assertEquals(what, viaPi, out.toUpdates().subList(1, out.size()));
                direct.add(e.type());
            }
        }
        // Interfaces, tunnel peers and overlays: every value the builders take fits every pipeline.
        Set<UpfEntityType> refusable = EnumSet.complementOf(EnumSet.of(
                UpfEntityType.INTERFACE, UpfEntityType.TUNNEL_PEER, UpfEntityType.PEER_VXLAN));
        Set<UpfEntityType> all = EnumSet.allOf(UpfEntityType.class);
        if (!translator.holds(UpfEntityType.PEER_VXLAN)) {
            all.remove(UpfEntityType.PEER_VXLAN);
            refusable.add(UpfEntityType.PEER_VXLAN);
        }
        assertEquals(pipeline + ": types encoded directly", all, direct);
        assertEquals(pipeline + ": types with refused entities", refusable, refused);
    }

    @Test
    public void refusalsKeepThePiPathsReason() throws Exception {
        UpfEntity beyond = UpfTerminationUplink.builder().withUeSessionId(UpfEntities.UE)
                .withCounterId((int) translator.capacity(UpfEntityType.COUNTER)).build();
        try {
            encoder.encode(beyond, false, new EncodedUpdates(0));
            throw new AssertionError("encoded " + beyond);
        } catch (UpfProgrammableException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("counterId " + translator.capacity(UpfEntityType.COUNTER)
                                                                       + " is beyond"));
            assertEquals(UpfProgrammableException.Type.UNSUPPORTED_OPERATION, e.getType());
        }
    }

    /** Through the device: one WriteRequest of every update, a refused entity failing alone. */
    @Test
    public void deviceWritesEachUpdateAndFailsTheRefusedOnly() throws Exception {
        P4rtClientTest.FakeServer fake = new P4rtClientTest.FakeServer();
        Server server = ServerBuilder.forPort(0).addService(fake).build().start();
        String[] parts = pipeline.split("/");
        try (P4RuntimeUpfDevice device = new P4RuntimeUpfDevice(
                P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1),
                P4InfoIndex.parse(Pipelines.p4infoUrl(parts[0], parts[1])), Pipelines.model(parts[0], parts[1]))) {
            UpfEntity peer = UpfGtpTunnelPeer.builder().withTunnelPeerId(1).withSrcAddr(UpfEntities.N3)
                    .withDstAddr(UpfEntities.GNB).build();
            UpfEntity refused = UpfSessionUplink.builder().setTunDstAddr(UpfEntities.N3).setTeid(1)
                    .setSessionMeterIdx(1).needsDropping(true).build();
            UpfEntity session = UpfSessionDownlink.builder().withUeAddress(UpfEntities.UE).withGtpTunnelPeerId(1)
                    .build();
            WriteResult r = device.write(List.of(DeviceUpdate.apply(peer), DeviceUpdate.apply(refused),
                                                 DeviceUpdate.remove(session))).join();
            assertNull(r.failure(0));
            assertNotNull(r.failure(1));
            assertTrue(r.failure(1).getMessage(), r.failure(1).getMessage().contains("no session meter"));
            assertNull(r.failure(2));
            List<Update> expected = new ArrayList<>(viaPi(peer, false));
            expected.addAll(viaPi(session, true));
            assertEquals(expected, fake.writes);
        } finally {
            server.shutdownNow();
        }
    }

    /** The PI path's updates, null if it refuses the entity. */
    private List<Update> viaPi(UpfEntity e, boolean delete) {
        try {
            return encoder.viaPi(e, delete);
        } catch (UpfProgrammableException ex) {
            return null;
        }
    }

    // ---- generated entities: each field at 0, its maximum, beyond the pipeline (indices) or at random

    private List<UpfEntity> randomOfEveryType() {
        List<UpfEntity> out = new ArrayList<>();
        for (Supplier<UpfEntity> s : List.<Supplier<UpfEntity>>of(
                this::randomInterface, this::randomUplinkSession, this::randomDownlinkSession,
                this::randomUplinkTermination, this::randomDownlinkTermination, this::randomTunnelPeer,
                this::randomPeerVxlan, this::randomApplication, this::randomMeter, this::randomCounter)) {
            try {
                out.add(s.get());
            } catch (IllegalArgumentException invalid) {
                // Not an entity (the builders check the contract's ranges): nothing to encode.
            }
        }
        return out;
    }

    private long pick(long max) {
        switch (random.nextInt(4)) {
            case 0:
                return 0;
            case 1:
                return max;
            default:
                return (random.nextLong() & Long.MAX_VALUE) % (max == Long.MAX_VALUE ? max : max + 1);
        }
    }

    private int index(UpfEntityType array) {
        try {
            long capacity = translator.capacity(array);
            long[] edges = {0, 1, capacity - 1, capacity, Integer.MAX_VALUE};
            return (int) (random.nextBoolean() ? edges[random.nextInt(edges.length)] : pick(capacity - 1));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean rarely() {
        return random.nextInt(8) == 0;
    }

    private Ip4Address address() {
        return Ip4Address.valueOf((int) pick(0xFFFFFFFFL));
    }

    private Ip4Prefix prefix() {
        return Ip4Prefix.valueOf(address(), (int) pick(32));
    }

    private UpfEntity randomInterface() {
        UpfInterface.Builder b = UpfInterface.builder().setPrefix(prefix()).setSliceId((int) pick(15));
        return (random.nextBoolean() ? b.setAccess() : b.setCore()).build();
    }

    private UpfEntity randomUplinkSession() {
        boolean drop = random.nextBoolean();
        UpfSessionUplink.Builder b = UpfSessionUplink.builder().setTunDstAddr(address()).setTeid(pick(0xFFFFFFFFL))
                .needsDropping(drop).setSessionMeterIdx(drop && !rarely() ? 0 : index(UpfEntityType.SESSION_METER));
        if (!drop || rarely()) {
            b.withUeAddress(address());
        }
        return b.build();
    }

    private UpfEntity randomDownlinkSession() {
        int kind = random.nextInt(3);
        UpfSessionDownlink.Builder b = UpfSessionDownlink.builder().withUeAddress(address())
                .needsDropping(kind == 0).needsBuffering(kind == 1)
                .withSessionMeterIdx(kind == 0 && !rarely() ? 0 : index(UpfEntityType.SESSION_METER));
        if (kind == 2) {
            b.withGtpTunnelPeerId((int) pick(255));
        }
        return b.build();
    }

    private UpfEntity randomUplinkTermination() {
        boolean drop = random.nextBoolean();
        boolean dirty = !drop || rarely();
        return UpfTerminationUplink.builder().withUeSessionId(address()).withApplicationId((int) pick(255))
                .withCounterId(index(UpfEntityType.COUNTER)).needsDropping(drop)
                .withTrafficClass(dirty ? (int) pick(3) : 0)
                .withAppMeterIdx(dirty ? index(UpfEntityType.APPLICATION_METER) : 0).build();
    }

    private UpfEntity randomDownlinkTermination() {
        boolean drop = random.nextBoolean();
        boolean dirty = !drop || rarely();
        return UpfTerminationDownlink.builder().withUeSessionId(address()).withApplicationId((int) pick(255))
                .withCounterId(index(UpfEntityType.COUNTER)).needsDropping(drop)
                .withTeid(dirty ? pick(0xFFFFFFFFL) : 0).withQfi(dirty ? (int) pick(63) : 0)
                .withTrafficClass(dirty ? (int) pick(3) : 0)
                .withAppMeterIdx(dirty ? index(UpfEntityType.APPLICATION_METER) : 0).build();
    }

    private UpfEntity randomTunnelPeer() {
        UpfGtpTunnelPeer.Builder b = UpfGtpTunnelPeer.builder().withTunnelPeerId((int) pick(255))
                .withSrcAddr(address()).withDstAddr(address()).withSrcPort((int) pick(65535));
        if (random.nextBoolean()) {
            b.withRoutingDst(address());
        }
        return b.build();
    }

    private UpfEntity randomPeerVxlan() {
        return UpfPeerVxlan.builder().withTunnelPeerId((int) pick(255)).withVni((int) pick(UpfPeerVxlan.MAX_VNI))
                .withVteps(address(), address())
                .withInnerMacs(MacAddress.valueOf(pick(0xFFFFFFFFFFFFL)), MacAddress.valueOf(pick(0xFFFFFFFFFFFFL)))
                .build();
    }

    private UpfEntity randomApplication() {
        UpfApplication.Builder b = UpfApplication.builder().withSliceId((int) pick(15)).withAppId((int) pick(255))
                .withPriority((int) pick(Integer.MAX_VALUE));
        if (random.nextBoolean()) {
            b.withIp4Prefix(prefix());
        }
        if (random.nextBoolean()) {
            int low = (int) pick(65535);
            b.withL4PortRange(low, low + (int) pick(65535 - low));
        }
        if (random.nextBoolean()) {
            b.withIpProto((int) pick(255));
        }
        return b.build();
    }

    private UpfEntity randomMeter() {
        boolean session = random.nextBoolean();
        int cell = index(session ? UpfEntityType.SESSION_METER : UpfEntityType.APPLICATION_METER);
        if (rarely()) {
            return UpfMeter.resetMeter(session ? UpfMeter.Type.SESSION : UpfMeter.Type.APPLICATION, cell);
        }
        long cir = pick(Long.MAX_VALUE);
        UpfMeter.Builder b = UpfMeter.builder().setCellId(cell).setCommittedBand(cir, pick(Long.MAX_VALUE))
                .setPeakBand(cir + pick(Long.MAX_VALUE - cir), 1 + pick(Long.MAX_VALUE - 1));
        return (session ? b.setSession() : b.setApplication()).build();
    }

    private UpfEntity randomCounter() {
        return UpfCounter.builder().withCellId(index(UpfEntityType.COUNTER))
                .setIngress(pick(Long.MAX_VALUE), pick(Long.MAX_VALUE))
                .setEgress(pick(Long.MAX_VALUE), pick(Long.MAX_VALUE)).build();
    }
}
