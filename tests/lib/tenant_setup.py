"""VXLAN tenants written through P4Runtime by name (p4src/include/tenant.p4): the tenants table, and a
tunnel peer in a tenant's overlay whose downlink GTP-U is re-encapsulated in VXLAN."""
import hupf_p4const as C
import upf_setup as U
from packets import ip2int, mac2int

LOCAL_VTEP = "192.168.50.1"
EDGE_VTEP = "192.168.50.100"
UNDERLAY_MAC = "00:00:00:00:0c:01"
OVERLAY_GNB, OVERLAY_GNB_MAC, OVERLAY_UPF_MAC = "10.77.0.2", "00:00:00:00:0d:02", "00:aa:00:00:0d:01"


def tenant(c, vni, tenant_id, tc, dscp, vtep=LOCAL_VTEP):
    c.insert(C.HUPF_INGRESS_TENANT_TENANTS, {C.HDR_VNI: vni, C.HDR_VTEP_IPV4_DST: ip2int(vtep)},
             C.HUPF_INGRESS_TENANT_SET_TENANT, **{C.TENANT_ID: tenant_id, C.TC: tc, C.DSCP: dscp})


def overlay_peer(c, peer, vni, ue):
    """Tunnel peer `peer` (OVERLAY_GNB) behind the edge VTEP: routed by the VTEP's address (the
    underlay's route), its GTP-U in VXLAN `vni`; ue's session goes to it."""
    c.insert(C.HUPF_INGRESS_UPF_IG_TUNNEL_PEERS, {C.HDR_TUN_PEER_ID: peer},
             C.HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST, **{C.TUN_DST_ADDR: ip2int(EDGE_VTEP)})
    c.insert(C.HUPF_EGRESS_UPF_EG_TUNNEL_PEERS, {C.HDR_TUN_PEER_ID: peer}, C.HUPF_EGRESS_UPF_LOAD_TUNNEL_PARAMS,
             **{C.TUNNEL_SRC_ADDR: ip2int(U.N3_ADDR), C.TUNNEL_DST_ADDR: ip2int(OVERLAY_GNB),
                C.TUNNEL_SRC_PORT: U.TUN_SPORT})
    c.insert(C.HUPF_EGRESS_TENANT_PEER_VXLAN, {C.HDR_TUN_PEER_ID: peer}, C.HUPF_EGRESS_TENANT_VXLAN_ENCAP,
             **{C.VNI: vni, C.VTEP_SRC_ADDR: ip2int(LOCAL_VTEP), C.VTEP_DST_ADDR: ip2int(EDGE_VTEP),
                C.INNER_SRC_MAC: mac2int(OVERLAY_UPF_MAC), C.INNER_DST_MAC: mac2int(OVERLAY_GNB_MAC)})
    U.route(c, EDGE_VTEP, 32, U.PORT_ACCESS, UNDERLAY_MAC)
    U.uplink_session(c, ue)
    U.downlink_session(c, ue, peer=peer)
    U.terminations(c, ue)


def tenant_slice(c, tenant_id, qfi, tc, dscp):
    """The tenant's packets of QFI qfi take class tc and DSCP dscp (counter and meter cell tenant_id * 64 + qfi)."""
    c.insert(C.HUPF_INGRESS_TENANT_SLICES, {C.HDR_TENANT_ID: tenant_id, C.HDR_QFI: qfi},
             C.HUPF_INGRESS_TENANT_SET_SLICE, **{C.TC: tc, C.DSCP: dscp})


def slice_cell(tenant_id, qfi):
    return tenant_id * 64 + qfi
