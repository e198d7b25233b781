package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.junit.Assume;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.model.PiPipelineModel;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.hupf.pipeconf.HupfConstants.HUPF_EGRESS_TENANT_PEER_VXLAN;
import static org.hupf.pipeconf.HupfConstants.HUPF_EGRESS_UPF_POST_QOS_COUNTER;
import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_UPF_PRE_QOS_COUNTER;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * {@link PiUpfDevice} on an in-memory P4Runtime-like target, for both profiles on bmv2 and the hw profile on
 * Tofino 2.
 */
@RunWith(Parameterized.class)
public class PiUpfDeviceTest {

    @Parameterized.Parameters(name = "{0}/{1}")
    public static List<String[]> pipelines() {
        return Pipelines.upfPipelines();
    }

    private final PiPipelineModel model;
    private final MemoryPiTarget target;
    private final UpfTranslator translator;
    private final PiUpfDevice device;

    public PiUpfDeviceTest(String profile, String p4Target) {
        model = Pipelines.model(profile, p4Target);
        target = new MemoryPiTarget(model);
        translator = new UpfTranslator(model);
        device = new PiUpfDevice(translator, target);
    }

    @Test
    public void appliedEntitiesReadBackPerType() throws Exception {
        List<UpfEntity> held = UpfEntities.heldBy(translator);
        for (UpfEntity e : held) {
            device.apply(e);
        }
        UpfEntities.assertHoldsAll(device, "memory", held);
    }

    @Test
    public void applyOverwritesByKeyAndDeleteRemoves() throws Exception {
        UpfInterface a = UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("10.0.0.0/8")).setCore().build();
        UpfInterface b = UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("10.0.0.0/8")).setCore().setSliceId(4)
                .build();
        device.apply(a);
        device.apply(b);
        assertEquals(List.of(b), new ArrayList<>(device.readAll(UpfEntityType.INTERFACE)));
        device.delete(a);
        assertTrue(device.readAll(UpfEntityType.INTERFACE).isEmpty());
    }

    @Test
    public void tunnelPeerDeletionRemovesBothHalves() throws Exception {
        UpfGtpTunnelPeer p = UpfGtpTunnelPeer.builder().withTunnelPeerId(9).withSrcAddr(UpfEntities.N3)
                .withDstAddr(UpfEntities.GNB).build();
        device.apply(p);
        assertEquals(2, target.entries.size());
        device.delete(p);
        assertTrue(target.entries.isEmpty());
    }

    /**
     * A tunnel peer in a VXLAN overlay is routed to the edge VTEP (ig_tunnel_peers) while GTP-U still goes to the
     * gNB (eg_tunnel_peers); its overlay is the peer_vxlan entry of the same id.
     */
    @Test
    public void aTunnelPeerInAnOverlayReadsBackWithItsRoutingAddressAndOverlay() throws Exception {
        Assume.assumeTrue("the pipeline has peer_vxlan", translator.holds(UpfEntityType.PEER_VXLAN));
        UpfGtpTunnelPeer p = UpfGtpTunnelPeer.builder().withTunnelPeerId(9).withSrcAddr(UpfEntities.N3)
                .withDstAddr(UpfEntities.GNB).withRoutingDst(UpfEntities.EDGE_VTEP).build();
        UpfPeerVxlan v = UpfPeerVxlan.builder().withTunnelPeerId(9).withVni(5001)
                .withVteps(UpfEntities.N3, UpfEntities.EDGE_VTEP)
                .withInnerMacs(MacAddress.valueOf("02:00:00:00:0a:01"), MacAddress.valueOf("02:00:00:00:0a:02"))
                .build();
        device.apply(p);
        device.apply(v);
        assertEquals(List.of(p), new ArrayList<>(device.readAll(UpfEntityType.TUNNEL_PEER)));
        assertEquals(List.of(v), new ArrayList<>(device.readAll(UpfEntityType.PEER_VXLAN)));
        device.delete(v);
        assertTrue(device.readAll(UpfEntityType.PEER_VXLAN).isEmpty());
        assertEquals(2, target.entries.size());
    }

    /** A pipeline without peer_vxlan (the TNA program) holds no overlay and refuses to write one. */
    @Test
    public void aPipelineWithoutOverlaysReadsNoneAndRefusesOne() throws Exception {
        PiPipelineModel noOverlay = (PiPipelineModel) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{PiPipelineModel.class}, (proxy, method, args) ->
                        args != null && args.length == 1 && HUPF_EGRESS_TENANT_PEER_VXLAN.equals(args[0])
                                ? Optional.empty() : method.invoke(model, args));
        PiUpfDevice tna = new PiUpfDevice(new UpfTranslator(noOverlay), new MemoryPiTarget(noOverlay));
        assertTrue(tna.readAll(UpfEntityType.PEER_VXLAN).isEmpty());
        try {
            tna.apply(UpfPeerVxlan.builder().withTunnelPeerId(9).withVni(1).withVteps(UpfEntities.N3, UpfEntities.GNB)
                              .withInnerMacs(MacAddress.ZERO, MacAddress.ZERO).build());
            fail("wrote an overlay where the pipeline has none");
        } catch (UpfProgrammableException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("no HupfEgress.tenant.peer_vxlan"));
        }
    }

    @Test
    public void deletingAMeterResetsIt() throws Exception {
        UpfMeter m = UpfMeter.builder().setApplication().setCellId(2).setPeakBand(1000, 1500).build();
        device.apply(m);
        device.delete(m);
        assertTrue(device.readAll(UpfEntityType.APPLICATION_METER).contains(
                UpfMeter.resetMeter(UpfMeter.Type.APPLICATION, 2)));
    }

    @Test
    public void deleteAllEmptiesOneType() throws Exception {
        for (UpfEntity e : UpfEntities.heldBy(translator)) {
            device.apply(e);
        }
        device.deleteAll(UpfEntityType.TERMINATION_UPLINK);
        device.deleteAll(UpfEntityType.TUNNEL_PEER);
        assertTrue(device.readAll(UpfEntityType.TERMINATION_UPLINK).isEmpty());
        assertTrue(device.readAll(UpfEntityType.TUNNEL_PEER).isEmpty());
        assertEquals(2, device.readAll(UpfEntityType.TERMINATION_DOWNLINK).size());
    }

    @Test
    public void countersReadByIndexAndInBulk() throws Exception {
        target.setCounter(HUPF_INGRESS_UPF_PRE_QOS_COUNTER, 5, 10, 1000);
        target.setCounter(HUPF_EGRESS_UPF_POST_QOS_COUNTER, 5, 9, 900);
        assertEquals(UpfCounter.builder().withCellId(5).setIngress(10, 1000).setEgress(9, 900).build(),
                     device.readCounter(5));
        assertEquals(8, device.readCounters(8).size());
        assertEquals(device.tableSize(UpfEntityType.COUNTER), device.readCounters(-1).size());
    }

    @Test
    public void theCellsInUseAreReadByIndexInBoundedRequestsNotTheWholeArrays() throws Exception {
        int size = (int) device.tableSize(UpfEntityType.COUNTER);
        int inUse = PiUpfDevice.CELLS_PER_READ + 3;
        Assume.assumeTrue("arrays large enough to hold two requests' cells twice", 2 * inUse <= size);
        target.setCounter(HUPF_EGRESS_UPF_POST_QOS_COUNTER, inUse - 1, 3, 300);
        target.counterRequests = 0;
        List<UpfCounter> read = new ArrayList<>(device.readCounters(inUse));
        assertEquals(inUse, read.size());
        assertEquals(IntStream.range(0, inUse).boxed().collect(Collectors.toSet()),
                     read.stream().map(UpfCounter::cellId).collect(Collectors.toSet()));
        assertTrue(read.contains(UpfCounter.builder().withCellId(inUse - 1).setIngress(0, 0).setEgress(3, 300).build()));
        assertEquals("two requests of at most CELLS_PER_READ cells each", 2, target.counterRequests);
    }

    @Test
    public void theCellsOfManySessionsAreReadInOneRequest() throws Exception {
        target.setCounter(HUPF_INGRESS_UPF_PRE_QOS_COUNTER, 5, 10, 1000);
        target.setCounter(HUPF_EGRESS_UPF_POST_QOS_COUNTER, 5, 9, 900);
        target.setCounter(HUPF_EGRESS_UPF_POST_QOS_COUNTER, 7, 3, 300);
        java.util.Map<Integer, UpfCounter> cells = device.readCounterCells(java.util.List.of(5, 7, 9));
        assertEquals(java.util.Map.of(
                5, UpfCounter.builder().withCellId(5).setIngress(10, 1000).setEgress(9, 900).build(),
                7, UpfCounter.builder().withCellId(7).setIngress(0, 0).setEgress(3, 300).build(),
                9, UpfCounter.builder().withCellId(9).setIngress(0, 0).setEgress(0, 0).build()), cells);
        assertEquals("ingress and egress cells of all three in one request", 1, target.counterRequests);
        try {
            device.readCounterCells(java.util.List.of(5, (int) device.tableSize(UpfEntityType.COUNTER)));
            fail("accepted");
        } catch (UpfProgrammableException e) {
            assertEquals(UpfProgrammableException.Type.COUNTER_INDEX_OUT_OF_RANGE, e.getType());
        }
    }

    @Test
    public void counterIndexOutOfRangeSaysSo() throws Exception {
        long size = device.tableSize(UpfEntityType.COUNTER);
        try {
            device.readCounter((int) size);
            fail("accepted");
        } catch (UpfProgrammableException e) {
            assertEquals(UpfProgrammableException.Type.COUNTER_INDEX_OUT_OF_RANGE, e.getType());
        }
    }

    @Test
    public void fullTableIsReportedWithTheTable() throws Exception {
        long size = device.tableSize(UpfEntityType.INTERFACE);
        for (int i = 0; i < size; i++) {
            device.apply(UpfInterface.builder().setPrefix(Ip4Prefix.valueOf(Ip4Address.valueOf(0x0A000000 + (i << 8)), 24))
                                 .setCore().build());
        }
        try {
            device.apply(UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("172.16.0.0/12")).setCore().build());
            fail("accepted beyond capacity");
        } catch (UpfProgrammableException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("RESOURCE_EXHAUSTED"));
            assertEquals(UpfProgrammableException.Type.TABLE_EXHAUSTED, e.getType());
        }
    }

    @Test
    public void inexpressibleEntityIsUnsupported() {
        try {
            device.apply(UpfMeter.builder().setSession().setCellId(0).setPeakBand(1, 1).build());
            fail("accepted");
        } catch (UpfProgrammableException e) {
            assertEquals(UpfProgrammableException.Type.UNSUPPORTED_OPERATION, e.getType());
            assertTrue(e.getMessage(), e.getMessage().contains("not metered"));
        }
    }
}
