"""Differential test: one packet mix through bmv2 running the sw profile (the reference
model) and through the x86 backend, on the same veth test bed with the same P4Runtime
writes. Every emitted frame, its port and every drop-reason counter must be identical.

Needs root, simple_switch_grpc (BMV2 or PATH), hupf-backend (HUPF_BACKEND or PATH) and the
committed P4 artifacts; otherwise the module skips with one line saying what is missing.
IPv4 options are left out of the mix on purpose: the P4 parser does not parse them
(backend/README.md lists where the backend is stricter).

A case's outputs are collected up to a barrier, not for a fixed time: after the case frame,
a marker frame per port is sent on the same ingress port, routed to that port. Both devices
keep the order of one ingress port through the pipeline to one egress queue (bmv2: one
ingress thread, one FIFO per egress port and priority, tc 0 for all; the backend: one lcore,
bursts transmitted in order), so a port's outputs for the case are exactly the frames before
its marker, however slowly a loaded machine runs the device."""
import os
import struct
import time

import pytest

import targets as T

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


MISSING = T.differential_missing("sw")
if MISSING:
    pytest.skip("differential bmv2-sw vs backend: " + MISSING, allow_module_level=True)

from scapy.layers.inet import IP, UDP  # noqa: E402
from scapy.layers.l2 import ARP, Dot1Q, Ether  # noqa: E402
from scapy.layers.vxlan import VXLAN  # noqa: E402
from scapy.packet import Raw  # noqa: E402

import hupf_p4const as C  # noqa: E402
import tenant_setup as TS  # noqa: E402
import upf_setup as U  # noqa: E402
import dataplane  # noqa: E402  (a module: pytest would try to collect a TestBed name)
from packets import echo_request, gpdu_header, gtpu, ip2int, raw_gtpu, user_packet  # noqa: E402

UE1 = U.Ue("172.16.0.1", teid_ul=0x100, teid_dl=0x200, ctr=10)
UE2 = U.Ue("172.16.0.2", teid_ul=0x101, teid_dl=0x201, ctr=20)
UE3 = U.Ue("172.16.0.3", teid_ul=0x102, teid_dl=0x3abc, ctr=30)   # behind tunnel peer 2, in an overlay
APP = "8.8.8.8"
MARKER_NET = "192.0.2.%d"   # TEST-NET-1: 192.0.2.<port>/32 is routed to <port>
MARKER_SRC = "192.0.2.250"
MARKER_TIMEOUT = 10.0        # seconds; a marker is forwarded by every device, even slow ones
LOCAL_VTEP, EDGE_VTEP = TS.LOCAL_VTEP, TS.EDGE_VTEP
TENANTS = ((5001, 1, 3, 46), (5002, 2, 1, 10))   # (VNI, tenant id, tc, dscp)
SLICES = ((1, 5, 2, 26), (2, UE1.qfi, 0, 20))      # (tenant id, QFI, tc, dscp): uplink PSC, downlink termination


def _ul(inner, teid=UE1.teid_ul, qfi=None):
    return gtpu(inner, teid, U.GNB_ADDR, U.N3_ADDR, qfi=qfi, eth_src=U.GNB_MAC, eth_dst=U.SWITCH_MAC)


def _dl(ue, **kw):
    return Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / user_packet(APP, ue, sport=80, dport=4000, **kw)


def tenants(c):
    """The two tenants and their slices, and UE3's tunnel peer 2 in the first one's overlay (re-encapsulation)."""
    for t in TENANTS:
        TS.tenant(c, *t)
    for s in SLICES:
        TS.tenant_slice(c, *s)
    TS.overlay_peer(c, 2, TENANTS[0][0], UE3)


def _vx(frame, vni=5001, dst=LOCAL_VTEP, flags=0x08):
    return Ether(src=U.GNB_MAC, dst=U.SWITCH_MAC) / IP(src=EDGE_VTEP, dst=dst, id=0) / UDP(
        sport=49152, dport=4789) / VXLAN(vni=vni, flags=flags) / frame


def _vx_raw(tail):
    return Ether(src=U.GNB_MAC, dst=U.SWITCH_MAC) / IP(src=EDGE_VTEP, dst=LOCAL_VTEP, id=0) / UDP(
        sport=49152, dport=4789) / Raw(tail)


def vxlan_mix():
    """VXLAN (tenant.p4): known tenants both ways, every drop of a VXLAN frame."""
    inner = bytes(user_packet(UE1.addr, APP))
    ul = bytes(_ul(user_packet(UE1.addr, APP)))
    hdr = bytes(VXLAN(vni=5001))
    return [
        ("vxlan uplink", U.PORT_ACCESS, _vx(_ul(user_packet(UE1.addr, APP)))),
        ("vxlan uplink tcp, other tenant", U.PORT_ACCESS,
         _vx(_ul(user_packet(UE1.addr, APP, proto="tcp", size=300)), vni=5002)),
        ("vxlan downlink, slice of the termination's qfi", U.PORT_CORE, _vx(_dl(UE1.addr), vni=5002)),
        ("vxlan uplink psc, slice", U.PORT_ACCESS, _vx(_ul(user_packet(UE1.addr, APP), qfi=5))),
        ("vxlan uplink psc, no slice of that qfi", U.PORT_ACCESS, _vx(_ul(user_packet(UE1.addr, APP), qfi=6))),
        ("vxlan uplink psc, the other tenant's slice qfi", U.PORT_ACCESS,
         _vx(_ul(user_packet(UE1.addr, APP), qfi=5), vni=5002)),
        ("vxlan unknown session, slice", U.PORT_ACCESS,
         _vx(_ul(user_packet(UE1.addr, APP), teid=0xdead, qfi=5))),
        ("downlink re-encapsulated in vxlan", U.PORT_CORE, _dl(UE3.addr)),
        ("vxlan downlink re-encapsulated (marked)", U.PORT_CORE, _vx(_dl(UE3.addr, proto="tcp"), vni=5002)),
        ("downlink vlan re-encapsulated", U.PORT_CORE,
         Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / Dot1Q(vlan=10) / user_packet(APP, UE3.addr)),
        ("vxlan downlink vlan", U.PORT_CORE,
         _vx(Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / Dot1Q(vlan=10) / user_packet(APP, UE1.addr))),
        ("vxlan echo request", U.PORT_ACCESS, _vx(echo_request(U.GNB_ADDR, U.N3_ADDR, seq=9, sport=40000,
                                                               eth_src=U.GNB_MAC, eth_dst=U.SWITCH_MAC))),
        ("vxlan routed, not UPF", U.PORT_ACCESS,
         _vx(Ether(src=U.GNB_MAC, dst=U.SWITCH_MAC) / user_packet(U.GNB_ADDR, APP))),
        ("vxlan in vxlan (plain UDP inside)", U.PORT_ACCESS,
         _vx(Ether(src=U.GNB_MAC, dst=U.SWITCH_MAC) / IP(src=U.GNB_ADDR, dst=APP) / UDP(dport=4789) / Raw(hdr))),
        ("vxlan arp", U.PORT_ACCESS, _vx(Ether(src=U.GNB_MAC, dst="ff:ff:ff:ff:ff:ff") / ARP(pdst=U.N3_ADDR))),
        ("vxlan unknown session", U.PORT_ACCESS, _vx(_ul(user_packet(UE1.addr, APP), teid=0xdead))),
        ("vxlan unknown vni", U.PORT_ACCESS, _vx(_ul(user_packet(UE1.addr, APP)), vni=7777)),
        ("vxlan other vtep", U.PORT_ACCESS, _vx(_ul(user_packet(UE1.addr, APP)), dst="192.168.50.2")),
        ("vxlan header cut", U.PORT_ACCESS, _vx_raw(hdr[:4])),
        ("vxlan without tenant frame", U.PORT_ACCESS, _vx_raw(hdr)),
        ("vxlan tenant ethernet cut", U.PORT_ACCESS, _vx_raw(hdr + ul[:10])),
        ("vxlan tenant ipv4 cut", U.PORT_ACCESS, _vx_raw(hdr + ul[:26])),
        ("vxlan I flag clear", U.PORT_ACCESS, _vx(_ul(user_packet(UE1.addr, APP)), flags=0)),
        ("vxlan gtpu bad length", U.PORT_ACCESS,
         _vx(raw_gtpu(gpdu_header(UE1.teid_ul, len(inner) + 4) + inner, U.GNB_ADDR, U.N3_ADDR))),
    ]


def mix():
    """(name, ingress port, frame): every path of the sw pipeline."""
    inner = bytes(user_packet(UE1.addr, APP))
    return vxlan_mix() + [
        ("uplink udp", U.PORT_ACCESS, _ul(user_packet(UE1.addr, APP))),
        ("uplink psc", U.PORT_ACCESS, _ul(user_packet(UE1.addr, APP), qfi=5)),
        ("uplink tcp", U.PORT_ACCESS, _ul(user_packet(UE1.addr, APP, proto="tcp", size=400))),
        ("uplink icmp", U.PORT_ACCESS, _ul(user_packet(UE1.addr, APP, proto="icmp"))),
        ("uplink ttl 1", U.PORT_ACCESS, _ul(user_packet(UE1.addr, APP, ttl=1))),
        ("uplink unknown teid", U.PORT_ACCESS, _ul(user_packet(UE1.addr, APP), teid=0xdead)),
        ("uplink spoofed", U.PORT_ACCESS, _ul(user_packet("172.16.0.99", APP))),
        ("uplink session drop", U.PORT_ACCESS, _ul(user_packet(UE2.addr, APP), teid=UE2.teid_ul)),
        ("gtpu bad version", U.PORT_ACCESS,
         raw_gtpu(gpdu_header(UE1.teid_ul, len(inner), flags=0x50) + inner, U.GNB_ADDR, U.N3_ADDR)),
        ("gtpu bad length", U.PORT_ACCESS,
         raw_gtpu(gpdu_header(UE1.teid_ul, len(inner) + 4) + inner, U.GNB_ADDR, U.N3_ADDR)),
        ("gtpu truncated", U.PORT_ACCESS, raw_gtpu(gpdu_header(UE1.teid_ul, 0)[:5], U.GNB_ADDR, U.N3_ADDR)),
        ("gtpu error indication", U.PORT_ACCESS,
         raw_gtpu(struct.pack("!BBHI", 0x30, 26, 0, 0), U.GNB_ADDR, U.N3_ADDR)),
        ("echo request", U.PORT_ACCESS, echo_request(U.GNB_ADDR, U.N3_ADDR, seq=7, sport=40000,
                                                     eth_src=U.GNB_MAC, eth_dst=U.SWITCH_MAC)),
        ("echo without sequence", U.PORT_ACCESS,
         raw_gtpu(struct.pack("!BBHI", 0x30, 1, 0, 0), U.GNB_ADDR, U.N3_ADDR)),
        ("downlink udp", U.PORT_CORE, _dl(UE1.addr)),
        ("downlink tcp", U.PORT_CORE, _dl(UE1.addr, proto="tcp", size=1000)),
        ("downlink vlan", U.PORT_CORE,
         Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / Dot1Q(vlan=10) / user_packet(APP, UE1.addr)),
        ("downlink unknown ue", U.PORT_CORE, _dl("172.16.9.9")),
        ("downlink session drop", U.PORT_CORE, _dl(UE2.addr)),
        ("routed, not UPF", U.PORT_ACCESS,
         Ether(src=U.GNB_MAC, dst=U.SWITCH_MAC) / user_packet(U.GNB_ADDR, APP)),
        ("routing miss", U.PORT_CORE, Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / user_packet(APP, "99.9.9.9")),
        ("gtpu to a non-N3 address", U.PORT_ACCESS,
         gtpu(user_packet(UE1.addr, APP), UE1.teid_ul, U.GNB_ADDR, APP, eth_dst=U.SWITCH_MAC)),
        ("arp", U.PORT_CORE, Ether(src=U.DN_MAC, dst="ff:ff:ff:ff:ff:ff") / ARP(pdst=UE1.addr)),
        ("ip checksum wrong", U.PORT_CORE,
         Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / IP(src=APP, dst=UE1.addr, chksum=0x1234) / UDP(dport=9)),
    ]


def _marker(port, seq):
    return bytes(Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) /
                 IP(src=MARKER_SRC, dst=MARKER_NET % port, id=seq & 0xFFFF, ttl=64) /
                 UDP(sport=9, dport=9) / (b"hupf-diff-marker %d" % seq))


def _is_marker(frame, port, seq):
    """The marker to `port` as the device forwards it (MACs rewritten, TTL decremented)."""
    try:
        pkt = Ether(frame)
    except Exception:
        return False
    return (IP in pkt and pkt[IP].src == MARKER_SRC and pkt[IP].dst == MARKER_NET % port
            and pkt[IP].id == seq & 0xFFFF and bytes(pkt[UDP].payload) == b"hupf-diff-marker %d" % seq)


def capture(bed, ingress, frame, seq):
    """Send one case frame, then the markers; per port, the frames emitted before its marker."""
    bed.flush()
    bed.send(ingress, frame)
    for p in bed.ports:
        bed.send(ingress, _marker(p, seq))
    out = {}
    for p in bed.ports:
        frames, deadline = [], time.monotonic() + MARKER_TIMEOUT
        while True:
            f = bed.recv(p, max(0.0, deadline - time.monotonic()))
            assert f is not None, "marker %d to port %d not forwarded within %.0f s" % (
                seq, p, MARKER_TIMEOUT)
            if _is_marker(f, p, seq):
                break
            frames.append(bytes(f))
        out[p] = frames
    return out


def observe(target, bed):
    """Per case, the frames each port emitted; then the drop-reason counters."""
    dev = T.Device(target, bed)
    try:
        dev.reset()
        c = dev.client
        U.base(c)
        U.session(c, UE1)
        c.insert(C.HUPF_INGRESS_UPF_UPLINK_SESSIONS,
                 {C.HDR_TUNNEL_IPV4_DST: ip2int(U.N3_ADDR), C.HDR_TEID: UE2.teid_ul},
                 C.HUPF_INGRESS_UPF_SET_UPLINK_SESSION_DROP)
        c.insert(C.HUPF_INGRESS_UPF_DOWNLINK_SESSIONS, {C.HDR_UE_ADDR: ip2int(UE2.addr)},
                 C.HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_DROP)
        tenants(c)
        for p in bed.ports:
            U.route(c, MARKER_NET % p, 32, p, U.DN_MAC)
        outputs = [capture(bed, port, frame, seq) for seq, (_, port, frame) in enumerate(mix(), 1)]
        drops = [c.counter(C.HUPF_INGRESS_UPF_DROP_REASONS, r)[0] for r in range(C.DROP_REASONS_SIZE)]
        counters = [c.counter(name, idx) for name in (C.HUPF_INGRESS_UPF_PRE_QOS_COUNTER,
                                                      C.HUPF_EGRESS_UPF_POST_QOS_COUNTER)
                    for idx in (UE1.ctr, UE1.ctr + 1)]
        counters += [c.counter(C.HUPF_INGRESS_TENANT_TENANT_COUNTER, tid) for _, tid, _, _ in TENANTS]
        counters += [c.counter(C.HUPF_INGRESS_TENANT_SLICE_COUNTER, TS.slice_cell(tid, qfi))
                     for tid, qfi, _, _ in SLICES]
        return outputs, drops, counters
    finally:
        dev.stop()


def test_backend_matches_bmv2_sw():
    bed = dataplane.TestBed(4, tag="hd%d" % (os.getpid() % 10000))
    try:
        ref = observe("bmv2-sw", bed)
        got = observe("backend", bed)
    finally:
        bed.close()
    names = [name for name, _, _ in mix()]
    diffs = [name for name, r, g in zip(names, ref[0], got[0]) if r != g]
    assert not diffs, "outputs differ for: %s" % ", ".join(diffs)
    assert got[1] == ref[1], "drop reasons: backend %s, bmv2 %s" % (got[1], ref[1])
    assert got[2] == ref[2], "UE1 pre/post-QoS, tenant, slice counters: backend %s, bmv2 %s" % (got[2], ref[2])
    # The VXLAN drops happened (so that agreeing is not agreeing on nothing).
    assert ref[1][C.DROP_UNKNOWN_VNI] == 2 and ref[1][C.DROP_MALFORMED_VXLAN] == 5
    assert all(n[0] > 0 for n in ref[2][-4:]), "every tenant and slice counted: %s" % ref[2][-4:]
    for name, r in zip(names, ref[0]):
        if "re-encapsulated" in name:
            assert len(r[U.PORT_ACCESS]) == 1 and b"\x12\xb5" in r[U.PORT_ACCESS][0][34:38], name  # UDP 4789
