package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.packet.HhReport;
import org.hupf.pipeconf.packet.HupfPacketIn;
import org.hupf.pipeconf.packet.RpsReceipt;
import org.hupf.pipeconf.upf.PiCodec;
import org.hupf.pipeconf.upf.Pipelines;
import org.junit.Test;
import org.onlab.packet.ARP;
import org.onlab.packet.Ethernet;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiPipelineInterpreter.PiInterpreterException;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.*;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class HupfInterpreterTest {

    private static final DeviceId DEV = DeviceId.deviceId("device:hupf1");
    private final HupfInterpreter interpreter = new HupfInterpreter(Pipelines.model("hw"));

    static byte[] arpFrame() {
        ARP arp = new ARP();
        arp.setHardwareType(ARP.HW_TYPE_ETHERNET).setProtocolType(ARP.PROTO_TYPE_IP).setHardwareAddressLength((byte) 6)
                .setProtocolAddressLength((byte) 4).setOpCode(ARP.OP_REQUEST)
                .setSenderHardwareAddress(MacAddress.valueOf("02:00:00:00:00:01").toBytes())
                .setSenderProtocolAddress(new byte[]{10, 0, 0, 1})
                .setTargetHardwareAddress(MacAddress.ZERO.toBytes()).setTargetProtocolAddress(new byte[]{10, 0, 0, 2});
        Ethernet eth = new Ethernet();
        eth.setSourceMACAddress("02:00:00:00:00:01").setDestinationMACAddress(MacAddress.BROADCAST)
                .setEtherType(Ethernet.TYPE_ARP).setPayload(arp);
        return eth.serialize();
    }

    @Test
    public void criteriaMapToAclFields() {
        assertEquals(Optional.of(HDR_ETH_TYPE), interpreter.mapCriterionType(Criterion.Type.ETH_TYPE));
        assertEquals(Optional.of(HDR_L4_DPORT), interpreter.mapCriterionType(Criterion.Type.UDP_DST));
        assertEquals(Optional.empty(), interpreter.mapCriterionType(Criterion.Type.VLAN_VID));
        assertEquals(Optional.of(HUPF_INGRESS_ACL_ACL), interpreter.mapFlowRuleTableId(0));
    }

    @Test
    public void controllerIsTheBmv2CpuPort() {
        assertEquals(Optional.of(V1MODEL_CPU_PORT), interpreter.mapLogicalPortNumber(PortNumber.CONTROLLER));
        assertEquals(Optional.empty(), interpreter.mapLogicalPortNumber(PortNumber.FLOOD));
    }

    @Test
    public void aclTreatments() throws Exception {
        assertEquals(HUPF_INGRESS_ACL_PUNT_TO_CPU, interpreter.mapTreatment(
                DefaultTrafficTreatment.builder().punt().wipeDeferred().build(), HUPF_INGRESS_ACL_ACL).id());
        assertEquals(HUPF_INGRESS_ACL_COPY_TO_CPU, interpreter.mapTreatment(
                DefaultTrafficTreatment.builder().punt().build(), HUPF_INGRESS_ACL_ACL).id());
        assertEquals(HUPF_INGRESS_ACL_DROP, interpreter.mapTreatment(
                DefaultTrafficTreatment.builder().drop().build(), HUPF_INGRESS_ACL_ACL).id());
        // ONOS's empty treatment is NOACTION, i.e. drop; only a treatment with no instruction at all is a no-op.
        assertEquals(HUPF_INGRESS_ACL_DROP, interpreter.mapTreatment(
                DefaultTrafficTreatment.emptyTreatment(), HUPF_INGRESS_ACL_ACL).id());
        assertEquals(HUPF_INGRESS_ACL_NOP_ACL, interpreter.mapTreatment(
                DefaultTrafficTreatment.builder().wipeDeferred().build(), HUPF_INGRESS_ACL_ACL).id());
        expectRefusal(DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(3)).build(), "ACL supports");
    }

    @Test
    public void routeTreatmentBecomesTheRouteAction() throws Exception {
        TrafficTreatment t = DefaultTrafficTreatment.builder().setEthSrc(MacAddress.valueOf("02:00:00:00:00:aa"))
                .setEthDst(MacAddress.valueOf("02:00:00:00:00:bb")).setOutput(PortNumber.portNumber(4)).build();
        PiAction a = interpreter.mapTreatment(t, HUPF_INGRESS_ROUTING_ROUTES_V4);
        assertEquals(HUPF_INGRESS_ROUTING_ROUTE, a.id());
        assertEquals(4, PiCodec.param(a, PORT));
        assertEquals(MacAddress.valueOf("02:00:00:00:00:bb").toLong(), PiCodec.param(a, DST_MAC));
        try {
            interpreter.mapTreatment(DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(4)).build(),
                                     HUPF_INGRESS_ROUTING_ROUTES_V4);
            fail("route without MACs accepted");
        } catch (PiInterpreterException e) {
            assertTrue(e.getMessage().contains("ETH_SRC"));
        }
        try {
            interpreter.mapTreatment(DefaultTrafficTreatment.builder().setEthSrc(MacAddress.ZERO)
                                             .setEthDst(MacAddress.ZERO).setOutput(PortNumber.portNumber(600)).build(),
                                     HUPF_INGRESS_ROUTING_ROUTES_V4);
            fail("port 600 accepted for a bit<9> port");
        } catch (PiInterpreterException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("9 bits"));
        }
    }

    @Test
    public void packetOutCarriesTheEgressPort() throws Exception {
        byte[] frame = arpFrame();
        Collection<PiPacketOperation> ops = interpreter.mapOutboundPacket(new DefaultOutboundPacket(
                DEV, DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(5)).build(),
                ByteBuffer.wrap(frame)));
        assertEquals(1, ops.size());
        PiPacketOperation op = ops.iterator().next();
        assertEquals(PiPacketOperationType.PACKET_OUT, op.type());
        assertArrayEquals(frame, op.data().asArray());
        assertEquals("egress port and padding", 2, op.metadatas().size());
        PiPacketMetadata md = op.metadatas().stream().filter(m -> m.id().equals(PKT_META_EGRESS_PORT))
                .findFirst().orElseThrow();
        assertEquals(5, PiCodec.toLong(md.value(), "port"));
        assertEquals("bit<9> in two bytes", 2, md.value().size());
    }

    static PiPacketOperation packetIn(long port, long reason, byte[] payload) {
        return PiPacketOperation.builder().withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(payload))
                .withMetadata(PiPacketMetadata.builder().withId(PKT_META_INGRESS_PORT)
                                      .withValue(ImmutableByteSequence.copyFrom((short) port)).build())
                .withMetadata(PiPacketMetadata.builder().withId(PKT_META_REASON)
                                      .withValue(ImmutableByteSequence.copyFrom((byte) reason)).build())
                .build();
    }

    @Test
    public void packetInGivesPortFrameAndReason() throws Exception {
        InboundPacket in = interpreter.mapInboundPacket(packetIn(3, PKTIN_ACL_PUNT, arpFrame()), DEV);
        assertEquals(PortNumber.portNumber(3), in.receivedFrom().port());
        assertEquals(DEV, in.receivedFrom().deviceId());
        assertEquals(Ethernet.TYPE_ARP, in.parsed().getEtherType());
        assertEquals(HupfPacketIn.Reason.ACL_PUNT, HupfPacketIn.of(in).orElseThrow().reason());
    }

    @Test
    public void hhReportPacketInExposesTheReport() throws Exception {
        byte[] frame = arpFrame();
        byte[] payload = ByteBuffer.allocate(HhReport.LENGTH + frame.length).putInt(0x0A2D0007).putInt(812)
                .putShort((short) 1850).put((byte) 0).put((byte) 0).put(frame).array();
        InboundPacket in = interpreter.mapInboundPacket(packetIn(2, PKTIN_HH_REPORT, payload), DEV);
        assertEquals("the frame after the report is parsed", Ethernet.TYPE_ARP, in.parsed().getEtherType());
        HhReport r = HupfPacketIn.of(in).orElseThrow().hhReport().orElseThrow();
        assertEquals(0x0A2D0007L, r.flowKey());
        assertEquals(812, r.ipgEwma());
        assertEquals(1850, r.tau());
    }

    @Test
    public void anRpsPacketInCarriesItsReceiptAndNoPacket() throws Exception {
        byte[] receipt = ByteBuffer.allocate(RpsReceipt.LENGTH).put((byte) 0).put((byte) 3).putShort((short) 2)
                .putInt(0x01020304).putInt(99).putShort((short) 0).putShort((short) 0).array();
        InboundPacket in = interpreter.mapInboundPacket(packetIn(1, PKTIN_RPS, receipt), DEV);
        assertEquals("no packet: a frame that is nobody's", (short) ETHERTYPE_HUPF_STATE, in.parsed().getEtherType());
        assertEquals(MacAddress.ZERO, in.parsed().getSourceMAC());
        RpsReceipt r = HupfPacketIn.of(in).orElseThrow().rpsReceipt().orElseThrow();
        assertEquals(RpsReceipt.KIND_RECEIPT, r.kind());
        assertEquals(0x01020304L, r.digest());
        // Cut short: the interpreter hands it on, the app counts it (HupfPacketIn refuses to read it).
        InboundPacket cut = interpreter.mapInboundPacket(packetIn(1, PKTIN_RPS, new byte[5]), DEV);
        assertTrue(HupfPacketIn.announcesRps(cut.cookie().orElseThrow(), cut.unparsed()));
    }

    @Test
    public void theFrameOfAnHhReportWithAReceiptIsAfterBoth() throws Exception {
        byte[] frame = arpFrame();
        byte[] payload = ByteBuffer.allocate(HhReport.LENGTH + RpsReceipt.LENGTH + frame.length).putInt(0x0A2D0007)
                .putInt(812).putShort((short) 1850).put((byte) HH_FLAG_RPS).put((byte) 0)
                .put((byte) 0).put((byte) 1).putShort((short) 2).putInt(5).putInt(6).putShort((short) 7)
                .putShort((short) 0).put(frame).array();
        InboundPacket in = interpreter.mapInboundPacket(packetIn(2, PKTIN_HH_REPORT, payload), DEV);
        assertEquals(Ethernet.TYPE_ARP, in.parsed().getEtherType());
        HupfPacketIn hin = HupfPacketIn.of(in).orElseThrow();
        assertEquals(0x0A2D0007L, hin.hhReport().orElseThrow().flowKey());
        assertEquals(7, hin.rpsReceipt().orElseThrow().dnum());
    }

    @Test
    public void malformedPacketInsAreRefused() {
        try {
            interpreter.mapInboundPacket(packetIn(2, 77, arpFrame()), DEV);
            fail("unknown reason accepted");
        } catch (PiInterpreterException e) {
            assertTrue(e.getMessage().contains("77"));
        }
        try {
            interpreter.mapInboundPacket(packetIn(2, PKTIN_HH_REPORT, new byte[5]), DEV);
            fail("truncated report accepted");
        } catch (PiInterpreterException e) {
            assertTrue(e.getMessage().contains("truncated"));
        }
    }

    private void expectRefusal(TrafficTreatment t, String why) {
        try {
            interpreter.mapTreatment(t, HUPF_INGRESS_ACL_ACL);
            fail("accepted " + t);
        } catch (PiInterpreterException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(why));
        }
    }
}
