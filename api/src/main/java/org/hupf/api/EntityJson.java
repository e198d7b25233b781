package org.hupf.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;

/**
 * JSON form of UPF entities for the REST API (both hosts) and the CLI: one object per
 * entity with its type and fields named as in the pipeline contract.
 */
public final class EntityJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private EntityJson() {
    }

    /**
     * Encodes an entity.
     *
     * @param e entity
     * @return JSON object
     */
    public static ObjectNode encode(UpfEntity e) {
        ObjectNode o = MAPPER.createObjectNode().put("type", e.type().humanReadableName());
        if (e instanceof UpfInterface) {
            UpfInterface i = (UpfInterface) e;
            o.put("prefix", i.prefix().toString()).put("iface", i.ifaceType().name()).put("sliceId", i.sliceId());
        } else if (e instanceof UpfSessionUplink) {
            UpfSessionUplink s = (UpfSessionUplink) e;
            s.ueAddress().ifPresent(ue -> o.put("ueAddress", ue.toString()));
            o.put("tunDstAddr", s.tunDstAddr().toString()).put("teid", s.teid())
                    .put("needsDropping", s.needsDropping()).put("sessionMeterIdx", s.sessionMeterIdx());
        } else if (e instanceof UpfSessionDownlink) {
            UpfSessionDownlink s = (UpfSessionDownlink) e;
            o.put("ueAddress", s.ueAddress().toString()).put("tunPeerId", s.tunPeerId())
                    .put("sessionMeterIdx", s.sessionMeterIdx()).put("needsBuffering", s.needsBuffering())
                    .put("needsDropping", s.needsDropping());
        } else if (e instanceof UpfTerminationUplink) {
            UpfTerminationUplink t = (UpfTerminationUplink) e;
            o.put("ueSessionId", t.ueSessionId().toString()).put("applicationId", t.applicationId())
                    .put("counterId", t.counterId()).put("trafficClass", t.trafficClass())
                    .put("appMeterIdx", t.appMeterIdx()).put("needsDropping", t.needsDropping());
        } else if (e instanceof UpfTerminationDownlink) {
            UpfTerminationDownlink t = (UpfTerminationDownlink) e;
            o.put("ueSessionId", t.ueSessionId().toString()).put("applicationId", t.applicationId())
                    .put("counterId", t.counterId()).put("teid", t.teid()).put("qfi", t.qfi())
                    .put("trafficClass", t.trafficClass()).put("appMeterIdx", t.appMeterIdx())
                    .put("needsDropping", t.needsDropping());
        } else if (e instanceof UpfGtpTunnelPeer) {
            UpfGtpTunnelPeer p = (UpfGtpTunnelPeer) e;
            o.put("tunPeerId", p.tunPeerId()).put("src", p.src().toString()).put("dst", p.dst().toString())
                    .put("srcPort", p.srcPort()).put("routingDst", p.routingDst().toString());
        } else if (e instanceof UpfPeerVxlan) {
            UpfPeerVxlan v = (UpfPeerVxlan) e;
            o.put("tunPeerId", v.tunPeerId()).put("vni", v.vni()).put("vtepSrc", v.vtepSrc().toString())
                    .put("vtepDst", v.vtepDst().toString()).put("innerSrcMac", v.innerSrcMac().toString())
                    .put("innerDstMac", v.innerDstMac().toString());
        } else if (e instanceof UpfApplication) {
            UpfApplication a = (UpfApplication) e;
            a.ip4Prefix().ifPresent(x -> o.put("ipPrefix", x.toString()));
            a.l4PortRange().ifPresent(r -> o.put("l4PortLow", r.lowerEndpoint()).put("l4PortHigh", r.upperEndpoint()));
            a.ipProto().ifPresent(x -> o.put("ipProto", x));
            o.put("sliceId", a.sliceId()).put("appId", a.appId()).put("priority", a.priority());
        } else if (e instanceof UpfMeter) {
            UpfMeter m = (UpfMeter) e;
            o.put("cellId", m.cellId()).put("reset", m.isReset()).put("committedRate", m.committedRate())
                    .put("committedBurst", m.committedBurst()).put("peakRate", m.peakRate())
                    .put("peakBurst", m.peakBurst());
        } else if (e instanceof UpfCounter) {
            UpfCounter c = (UpfCounter) e;
            o.put("cellId", c.cellId()).put("ingressPkts", c.ingressPkts()).put("ingressBytes", c.ingressBytes())
                    .put("egressPkts", c.egressPkts()).put("egressBytes", c.egressBytes());
        }
        return o;
    }
}
