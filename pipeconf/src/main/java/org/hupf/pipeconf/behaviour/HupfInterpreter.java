package org.hupf.pipeconf.behaviour;

import com.google.common.collect.ImmutableMap;
import org.hupf.pipeconf.packet.HhReport;
import org.hupf.pipeconf.packet.HupfPacketIn;
import org.hupf.pipeconf.packet.RpsReceipt;
import org.hupf.pipeconf.upf.PiCodec;
import org.hupf.pipeconf.upf.PiCodecException;
import org.onlab.packet.DeserializationException;
import org.onlab.packet.Ethernet;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.flow.instructions.L2ModificationInstruction;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.packet.OutboundPacket;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPacketMetadataId;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;
import org.onosproject.net.pi.service.PiPipeconfService;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Interpreter of the hupf pipeline: ONOS criteria/treatments for the ACL and routing tables, packet-out
 * through the {@code packet_out} header and packet-in with its reason and, for HH reports, the report
 * header and the RPS receipt that may follow it; an RPS packet-in carries a receipt and no packet (see
 * {@link HupfPacketIn}).
 */
public class HupfInterpreter extends AbstractHandlerBehaviour implements PiPipelineInterpreter {

    private static final Map<Criterion.Type, PiMatchFieldId> CRITERIA = ImmutableMap.<Criterion.Type, PiMatchFieldId>builder()
            .put(Criterion.Type.IN_PORT, HDR_IG_PORT)
            .put(Criterion.Type.ETH_SRC, HDR_ETH_SRC)
            .put(Criterion.Type.ETH_DST, HDR_ETH_DST)
            .put(Criterion.Type.ETH_TYPE, HDR_ETH_TYPE)
            .put(Criterion.Type.IPV4_SRC, HDR_IPV4_SRC)
            .put(Criterion.Type.IPV4_DST, HDR_IPV4_DST)
            .put(Criterion.Type.IP_PROTO, HDR_IP_PROTO)
            .put(Criterion.Type.TCP_SRC, HDR_L4_SPORT)
            .put(Criterion.Type.UDP_SRC, HDR_L4_SPORT)
            .put(Criterion.Type.TCP_DST, HDR_L4_DPORT)
            .put(Criterion.Type.UDP_DST, HDR_L4_DPORT)
            .build();

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HupfInterpreter.class);

    private PiPipelineModel model;

    public HupfInterpreter() {
    }

    /**
     * For use outside a driver handler (tests, the standalone path).
     *
     * @param model pipeline model
     */
    public HupfInterpreter(PiPipelineModel model) {
        this.model = model;
    }

    private PiPipelineModel model() throws PiInterpreterException {
        if (model == null) {
            DeviceId id = handler().data().deviceId();
            model = handler().get(PiPipeconfService.class).getPipeconf(id)
                    .orElseThrow(() -> new PiInterpreterException("no pipeconf bound to " + id))
                    .pipelineModel();
        }
        return model;
    }

    /**
     * CONTROLLER is the target's CPU port: the pipeconf's {@code cpu_port.txt} (Stratum, Tofino) if it has
     * one, else bmv2's ({@code V1MODEL_CPU_PORT}). ONOS uses this for the CPU clone session.
     */
    @Override
    public Optional<Integer> mapLogicalPortNumber(PortNumber port) {
        if (!port.equals(PortNumber.CONTROLLER)) {
            return Optional.empty();
        }
        if (handler() != null) {
            DeviceId id = handler().data().deviceId();
            Optional<java.io.InputStream> txt = handler().get(PiPipeconfService.class).getPipeconf(id)
                    .flatMap(p -> p.extension(PiPipeconf.ExtensionType.CPU_PORT_TXT));
            if (txt.isPresent()) {
                try (java.io.InputStream in = txt.get()) {
                    return Optional.of(Integer.parseInt(new String(in.readAllBytes(),
                                                                   java.nio.charset.StandardCharsets.US_ASCII).trim()));
                } catch (java.io.IOException | NumberFormatException e) {
                    log.error("Bad cpu_port.txt of {}: {}", id, e.getMessage());
                    return Optional.empty();
                }
            }
        }
        return Optional.of(V1MODEL_CPU_PORT);
    }

    @Override
    public Optional<PiMatchFieldId> mapCriterionType(Criterion.Type type) {
        return Optional.ofNullable(CRITERIA.get(type));
    }

    /** Flow rules of ONOS apps that name table 0 land in the ACL, the first table packets meet. */
    @Override
    public Optional<PiTableId> mapFlowRuleTableId(int flowRuleTableId) {
        return flowRuleTableId == 0 ? Optional.of(HUPF_INGRESS_ACL_ACL) : Optional.empty();
    }

    @Override
    public PiAction mapTreatment(TrafficTreatment treatment, PiTableId piTableId) throws PiInterpreterException {
        if (piTableId.equals(HUPF_INGRESS_ACL_ACL)) {
            return aclAction(treatment);
        }
        if (piTableId.equals(HUPF_INGRESS_ROUTING_ROUTES_V4)) {
            return routeAction(treatment);
        }
        throw new PiInterpreterException("table " + piTableId + " takes PI actions only (use the UPF behaviours)");
    }

    /**
     * Output to CONTROLLER with the deferred actions cleared punts (the packet goes only to the CPU);
     * without clearing it copies. No instructions = no ACL action; a drop treatment drops.
     */
    static PiAction aclAction(TrafficTreatment t) throws PiInterpreterException {
        if (t.allInstructions().isEmpty()) {
            return PiAction.builder().withId(HUPF_INGRESS_ACL_NOP_ACL).build();
        }
        if (t.allInstructions().stream().anyMatch(i -> i.type() == Instruction.Type.NOACTION)) {
            return PiAction.builder().withId(HUPF_INGRESS_ACL_DROP).build();
        }
        boolean toController = t.allInstructions().stream().anyMatch(
                i -> i.type() == Instruction.Type.OUTPUT
                        && ((Instructions.OutputInstruction) i).port().equals(PortNumber.CONTROLLER));
        if (toController && t.allInstructions().size() == 1) {
            return PiAction.builder()
                    .withId(t.clearedDeferred() ? HUPF_INGRESS_ACL_PUNT_TO_CPU : HUPF_INGRESS_ACL_COPY_TO_CPU)
                    .build();
        }
        throw new PiInterpreterException("ACL supports punt, copy or drop only, not " + t);
    }

    private PiAction routeAction(TrafficTreatment t) throws PiInterpreterException {
        L2ModificationInstruction.ModEtherInstruction src = null;
        L2ModificationInstruction.ModEtherInstruction dst = null;
        PortNumber port = null;
        for (Instruction i : t.allInstructions()) {
            if (i.type() == Instruction.Type.L2MODIFICATION) {
                L2ModificationInstruction l2 = (L2ModificationInstruction) i;
                if (l2.subtype() == L2ModificationInstruction.L2SubType.ETH_SRC) {
                    src = (L2ModificationInstruction.ModEtherInstruction) l2;
                    continue;
                } else if (l2.subtype() == L2ModificationInstruction.L2SubType.ETH_DST) {
                    dst = (L2ModificationInstruction.ModEtherInstruction) l2;
                    continue;
                }
            } else if (i.type() == Instruction.Type.OUTPUT) {
                port = ((Instructions.OutputInstruction) i).port();
                continue;
            }
            throw new PiInterpreterException("routes_v4 does not support " + i);
        }
        if (src == null || dst == null || port == null || port.isLogical()) {
            throw new PiInterpreterException("a route needs set ETH_SRC, set ETH_DST and a physical output: " + t);
        }
        try {
            return new PiCodec(model()).action(HUPF_INGRESS_ROUTING_ROUTE, SRC_MAC, src.mac().toLong(),
                                  DST_MAC, dst.mac().toLong(), PORT, port.toLong());
        } catch (PiCodecException e) {
            throw new PiInterpreterException(e.getMessage());
        }
    }

    @Override
    public Collection<PiPacketOperation> mapOutboundPacket(OutboundPacket packet) throws PiInterpreterException {
        TrafficTreatment t = packet.treatment();
        List<PiPacketOperation> ops = new ArrayList<>();
        for (Instruction i : t.allInstructions()) {
            if (i.type() != Instruction.Type.OUTPUT) {
                continue;
            }
            Instructions.OutputInstruction out = (Instructions.OutputInstruction) i;
            if (out.port().equals(PortNumber.FLOOD) || out.port().equals(PortNumber.ALL)) {
                for (Port p : handler().get(DeviceService.class).getPorts(packet.sendThrough())) {
                    if (p.isEnabled() && !p.number().isLogical()) {
                        ops.add(packetOut(packet.data(), p.number().toLong()));
                    }
                }
            } else if (out.port().isLogical()) {
                throw new PiInterpreterException("packet-out to logical port " + out.port() + " is not supported");
            } else {
                ops.add(packetOut(packet.data(), out.port().toLong()));
            }
        }
        if (ops.isEmpty()) {
            throw new PiInterpreterException("packet-out treatment has no output port: " + t);
        }
        return ops;
    }

    /** Every field of the header is given, padding included: Stratum refuses a packet-out missing one. */
    private PiPacketOperation packetOut(ByteBuffer data, long port) throws PiInterpreterException {
        return PiPacketOperation.builder().withType(PiPacketOperationType.PACKET_OUT)
                .withData(ImmutableByteSequence.copyFrom(data.duplicate()))
                .withMetadata(outMetadata(PKT_META_EGRESS_PORT, port))
                .withMetadata(outMetadata(PKT_META_PAD0, 0))
                .build();
    }

    private PiPacketMetadata outMetadata(PiPacketMetadataId id, long value) throws PiInterpreterException {
        return PiPacketMetadata.builder().withId(id)
                .withValue(fit(value, metadataWidth(PiPacketOperationType.PACKET_OUT, id))).build();
    }

    private int metadataWidth(PiPacketOperationType type, PiPacketMetadataId id) throws PiInterpreterException {
        return model().packetOperationModel(type)
                .flatMap(m -> m.metadatas().stream().filter(md -> md.id().equals(id)).findFirst())
                .orElseThrow(() -> new PiInterpreterException("pipeline has no " + type + " metadata " + id))
                .bitWidth();
    }

    private static ImmutableByteSequence fit(long value, int width) throws PiInterpreterException {
        try {
            return PiCodec.fit(value, width, "packet metadata");
        } catch (PiCodecException e) {
            throw new PiInterpreterException(e.getMessage());
        }
    }

    @Override
    public InboundPacket mapInboundPacket(PiPacketOperation op, DeviceId deviceId) throws PiInterpreterException {
        Long port = null;
        Long reason = null;
        for (PiPacketMetadata md : op.metadatas()) {
            try {
                if (md.id().equals(PKT_META_INGRESS_PORT)) {
                    port = PiCodec.toLong(md.value(), "ingress_port");
                } else if (md.id().equals(PKT_META_REASON)) {
                    reason = PiCodec.toLong(md.value(), "reason");
                }
            } catch (PiCodecException e) {
                throw new PiInterpreterException(e.getMessage());
            }
        }
        if (port == null || reason == null) {
            throw new PiInterpreterException("packet-in lacks ingress_port or reason metadata: " + op.metadatas());
        }
        HupfPacketIn.Reason r;
        try {
            r = HupfPacketIn.reason(reason);
        } catch (IllegalArgumentException e) {
            throw new PiInterpreterException(e.getMessage());
        }
        byte[] payload = op.data().asArray();
        ConnectPoint from = new ConnectPoint(deviceId, PortNumber.portNumber(port));
        if (r == HupfPacketIn.Reason.RPS) {
            // A receipt, no packet: the app reads it from unparsed() (and counts one cut short). ONOS's other
            // packet processors get a frame that is nobody's (zero addresses, hupf's local experimental ethertype)
            // rather than one whose fields they would find missing.
            Ethernet none = new Ethernet().setSourceMACAddress(MacAddress.ZERO)
                    .setDestinationMACAddress(MacAddress.ZERO).setEtherType((short) ETHERTYPE_HUPF_STATE);
            return new DefaultInboundPacket(from, none, ByteBuffer.wrap(payload), Optional.of(reason));
        }
        int offset = 0;
        if (r == HupfPacketIn.Reason.HH_REPORT) {
            offset = HhReport.LENGTH
                    + (HupfPacketIn.announcesRps(reason, ByteBuffer.wrap(payload)) ? RpsReceipt.LENGTH : 0);
        }
        if (payload.length < offset) {
            throw new PiInterpreterException("HH report packet-in of " + payload.length + " bytes is truncated (its "
                                                     + "headers take " + offset + ")");
        }
        Ethernet eth;
        try {
            eth = Ethernet.deserializer().deserialize(payload, offset, payload.length - offset);
        } catch (DeserializationException e) {
            throw new PiInterpreterException("packet-in is not an Ethernet frame: " + e.getMessage());
        }
        return new DefaultInboundPacket(from, eth, ByteBuffer.wrap(payload), Optional.of(reason));
    }
}
