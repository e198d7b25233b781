package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.List;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Translates GTP tunnel peers (an {@code ig_tunnel_peers} and an {@code eg_tunnel_peers} entry each) and their
 * VXLAN overlays ({@code peer_vxlan}) to PI entries and back.
 */
final class TunnelPeerTranslation extends EntityTranslation {

    TunnelPeerTranslation(PiCodec codec) {
        super(codec);
    }

    List<PiEntity> tunnelPeerEntries(UpfGtpTunnelPeer p) throws PiCodecException {
        PiTableId ig = HUPF_INGRESS_UPF_IG_TUNNEL_PEERS;
        PiTableId eg = HUPF_EGRESS_UPF_EG_TUNNEL_PEERS;
        PiTableEntry igEntry = entry(ig, PiMatchKey.builder().addFieldMatch(exact(ig, HDR_TUN_PEER_ID, p.tunPeerId()))
                                             .build(),
                                     codec.action(HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST,
                                                  TUN_DST_ADDR, Ip4Bits.of(p.routingDst()) & 0xFFFFFFFFL));
        PiTableEntry egEntry = entry(eg, PiMatchKey.builder().addFieldMatch(exact(eg, HDR_TUN_PEER_ID, p.tunPeerId()))
                                             .build(),
                                     codec.action(HUPF_EGRESS_UPF_LOAD_TUNNEL_PARAMS,
                                                  TUNNEL_SRC_ADDR, Ip4Bits.of(p.src()) & 0xFFFFFFFFL,
                                                  TUNNEL_DST_ADDR, Ip4Bits.of(p.dst()) & 0xFFFFFFFFL,
                                                  TUNNEL_SRC_PORT, p.srcPort()));
        return List.of(igEntry, egEntry);
    }

    /**
     * Rebuilds a tunnel peer from its two entries: {@code eg_tunnel_peers} (the encapsulation) and
     * {@code ig_tunnel_peers} (the routing address).
     *
     * @param egress  entry of the egress tunnel peer table
     * @param ingress entry of the ingress tunnel peer table with the same id
     * @return tunnel peer
     * @throws PiCodecException if the entries are not the two halves of one tunnel peer
     */
    UpfGtpTunnelPeer tunnelPeer(PiTableEntry egress, PiTableEntry ingress) throws PiCodecException {
        if (!egress.table().equals(HUPF_EGRESS_UPF_EG_TUNNEL_PEERS)
                || !ingress.table().equals(HUPF_INGRESS_UPF_IG_TUNNEL_PEERS)) {
            throw new PiCodecException("a tunnel peer is an " + HUPF_EGRESS_UPF_EG_TUNNEL_PEERS + " and an "
                                               + HUPF_INGRESS_UPF_IG_TUNNEL_PEERS + " entry, not " + egress.table()
                                               + " and " + ingress.table());
        }
        PiAction a = action(egress);
        PiAction routing = action(ingress);
        if (!a.id().equals(HUPF_EGRESS_UPF_LOAD_TUNNEL_PARAMS)) {
            throw unknownAction(egress);
        }
        if (!routing.id().equals(HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST)) {
            throw unknownAction(ingress);
        }
        long id = PiCodec.exact(egress, HDR_TUN_PEER_ID);
        if (PiCodec.exact(ingress, HDR_TUN_PEER_ID) != id) {
            throw new PiCodecException("tunnel peer entries of two ids: " + id + " and "
                                               + PiCodec.exact(ingress, HDR_TUN_PEER_ID));
        }
        return build(UpfGtpTunnelPeer.builder()
                             .withTunnelPeerId((int) id)
                             .withSrcAddr(Ip4Address.valueOf((int) PiCodec.param(a, TUNNEL_SRC_ADDR)))
                             .withDstAddr(Ip4Address.valueOf((int) PiCodec.param(a, TUNNEL_DST_ADDR)))
                             .withSrcPort((int) PiCodec.param(a, TUNNEL_SRC_PORT))
                             .withRoutingDst(Ip4Address.valueOf((int) PiCodec.param(routing, TUN_DST_ADDR)))::build);
    }

    // ---- VXLAN overlays of tunnel peers

    PiTableEntry peerVxlanEntry(UpfPeerVxlan v) throws PiCodecException {
        PiTableId t = HUPF_EGRESS_TENANT_PEER_VXLAN;
        if (!codec.hasTable(t)) {
            throw new PiCodecException("this pipeline has no " + t + ": a tunnel peer cannot sit in a VXLAN overlay");
        }
        return entry(t, PiMatchKey.builder().addFieldMatch(exact(t, HDR_TUN_PEER_ID, v.tunPeerId())).build(),
                     codec.action(HUPF_EGRESS_TENANT_VXLAN_ENCAP, VNI, v.vni(),
                                  VTEP_SRC_ADDR, Ip4Bits.of(v.vtepSrc()) & 0xFFFFFFFFL,
                                  VTEP_DST_ADDR, Ip4Bits.of(v.vtepDst()) & 0xFFFFFFFFL,
                                  INNER_SRC_MAC, v.innerSrcMac().toLong(), INNER_DST_MAC, v.innerDstMac().toLong()));
    }

    UpfPeerVxlan toPeerVxlan(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        if (!a.id().equals(HUPF_EGRESS_TENANT_VXLAN_ENCAP)) {
            throw unknownAction(e);
        }
        return build(UpfPeerVxlan.builder().withTunnelPeerId((int) PiCodec.exact(e, HDR_TUN_PEER_ID))
                             .withVni((int) PiCodec.param(a, VNI))
                             .withVteps(Ip4Address.valueOf((int) PiCodec.param(a, VTEP_SRC_ADDR)),
                                        Ip4Address.valueOf((int) PiCodec.param(a, VTEP_DST_ADDR)))
                             .withInnerMacs(MacAddress.valueOf(PiCodec.param(a, INNER_SRC_MAC)),
                                            MacAddress.valueOf(PiCodec.param(a, INNER_DST_MAC)))::build);
    }
}
