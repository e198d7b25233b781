"""A small UPF deployment written through P4Runtime by name: one N3 address on port 1
(gNB side), a UE pool routed from port 2 (data network), sessions and terminations."""
from dataclasses import dataclass

import hupf_p4const as C
from packets import ip2int, mac2int

PORT_ACCESS, PORT_CORE, PORT_BACKEND1, PORT_BACKEND2 = 1, 2, 3, 4
SWITCH_MAC = "00:aa:00:00:00:01"
GNB_MAC = "00:00:00:00:0a:01"
DN_MAC = "00:00:00:00:0b:01"
N3_ADDR = "10.0.0.1"
GNB_ADDR = "10.0.0.100"
UE_POOL = ("172.16.0.0", 16)
APP_NET = ("8.0.0.0", 8)
SLICE = 1
TUN_PEER = 1
TUN_SPORT = 2152


@dataclass(frozen=True)
class Ue:
    addr: str
    teid_ul: int
    teid_dl: int
    ctr: int
    qfi: int = 9
    tc: int = 0


def interfaces(c):
    c.insert(C.HUPF_INGRESS_UPF_INTERFACES,
             {C.HDR_IPV4_DST_ADDR: (ip2int(N3_ADDR), 32), C.HDR_GTPU_IS_VALID: 1},
             C.HUPF_INGRESS_UPF_IFACE_ACCESS, **{C.SLICE_ID: SLICE})
    c.insert(C.HUPF_INGRESS_UPF_INTERFACES,
             {C.HDR_IPV4_DST_ADDR: (ip2int(UE_POOL[0]), UE_POOL[1]), C.HDR_GTPU_IS_VALID: 0},
             C.HUPF_INGRESS_UPF_IFACE_CORE, **{C.SLICE_ID: SLICE})


def route(c, prefix, plen, port, dst_mac):
    c.insert(C.HUPF_INGRESS_ROUTING_ROUTES_V4, {C.HDR_IPV4_DST: (ip2int(prefix), plen)},
             C.HUPF_INGRESS_ROUTING_ROUTE,
             **{C.SRC_MAC: mac2int(SWITCH_MAC), C.DST_MAC: mac2int(dst_mac), C.PORT: port})


def routes(c):
    route(c, GNB_ADDR, 32, PORT_ACCESS, GNB_MAC)
    route(c, APP_NET[0], APP_NET[1], PORT_CORE, DN_MAC)


def tunnel_peer(c, peer=TUN_PEER, src=N3_ADDR, dst=GNB_ADDR, sport=TUN_SPORT):
    c.insert(C.HUPF_INGRESS_UPF_IG_TUNNEL_PEERS, {C.HDR_TUN_PEER_ID: peer},
             C.HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST, **{C.TUN_DST_ADDR: ip2int(dst)})
    c.insert(C.HUPF_EGRESS_UPF_EG_TUNNEL_PEERS, {C.HDR_TUN_PEER_ID: peer},
             C.HUPF_EGRESS_UPF_LOAD_TUNNEL_PARAMS,
             **{C.TUNNEL_SRC_ADDR: ip2int(src), C.TUNNEL_DST_ADDR: ip2int(dst), C.TUNNEL_SRC_PORT: sport})


def uplink_session(c, ue, meter=0, session_ue=None):
    c.insert(C.HUPF_INGRESS_UPF_UPLINK_SESSIONS,
             {C.HDR_TUNNEL_IPV4_DST: ip2int(N3_ADDR), C.HDR_TEID: ue.teid_ul},
             C.HUPF_INGRESS_UPF_SET_UPLINK_SESSION,
             **{C.UE_ADDR: ip2int(session_ue or ue.addr), C.SESSION_METER_IDX: meter})


def downlink_session(c, ue, meter=0, peer=TUN_PEER):
    c.insert(C.HUPF_INGRESS_UPF_DOWNLINK_SESSIONS, {C.HDR_UE_ADDR: ip2int(ue.addr)},
             C.HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION,
             **{C.TUN_PEER_ID: peer, C.SESSION_METER_IDX: meter})


def terminations(c, ue, app_id=0, app_meter=0):
    c.insert(C.HUPF_INGRESS_UPF_UPLINK_TERMINATIONS,
             {C.HDR_UE_SESSION_ID: ip2int(ue.addr), C.HDR_APP_ID: app_id},
             C.HUPF_INGRESS_UPF_UPLINK_TERM_FWD,
             **{C.CTR_IDX: ue.ctr, C.TC: ue.tc, C.APP_METER_IDX: app_meter})
    c.insert(C.HUPF_INGRESS_UPF_DOWNLINK_TERMINATIONS,
             {C.HDR_UE_SESSION_ID: ip2int(ue.addr), C.HDR_APP_ID: app_id},
             C.HUPF_INGRESS_UPF_DOWNLINK_TERM_FWD,
             **{C.CTR_IDX: ue.ctr + 1, C.TEID: ue.teid_dl, C.QFI: ue.qfi, C.TC: ue.tc,
                C.APP_METER_IDX: app_meter})


def application(c, app_id, prefix, plen, ports, proto=None, priority=10):
    match = {C.HDR_SLICE_ID: SLICE, C.HDR_APP_IPV4_ADDR: (ip2int(prefix), plen),
             C.HDR_APP_L4_PORT: ports}
    if proto is not None:
        match[C.HDR_APP_IP_PROTO] = (proto, 0xFF)
    c.insert(C.HUPF_INGRESS_UPF_APPLICATIONS, match, C.HUPF_INGRESS_UPF_SET_APP_ID, priority=priority,
             **{C.APP_ID: app_id})


def base(c):
    """Interfaces, routes and the tunnel peer: no sessions yet."""
    interfaces(c)
    routes(c)
    tunnel_peer(c)


def session(c, ue, app_id=0):
    uplink_session(c, ue)
    downlink_session(c, ue)
    terminations(c, ue, app_id)
