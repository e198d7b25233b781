"""Differential test of the hw profile: the same P4Runtime writes and the same frames through bmv2 running
hupf_hw.p4 (the reference) and through hupf-backend --profile hw (the switch's stand-in), on one veth test
bed. Compared: every frame each port emits (UPF on the switch, steering to two backends, routing of what
comes back from a backend, QoS marking by the classifier's class), the HH_REPORT packet-ins byte for byte,
the HK-IPG and MATADOR registers (read with the state-read packet-out), and RPS's receipts at both
observation points and its events counters (docs/PIPELINE_CONTRACT.md, "RPS").

bmv2 stamps packets with its own clock and the backend runs on its test clock, moved on as bmv2's time is
slept away (hw_setup.pause). What depends on the clock's exact value is compared by class, not by value: a
report's EWMA IPG (bytes 4-8) and an HK-IPG slot's EWMA must fall in the same tau range on both; the slot's
timestamp, its tau after the report (it counts timeslots, and bmv2's slept gaps are longer) and MATADOR's
gap and window registers are left out; so is an RPS receipt's timestamp (its decisions, which depend on
the gaps, are compared: every gap is longer than the quiet time on both). Timing margins are those of tests/ptf/test_hw.py, which says why.

Needs root, simple_switch_grpc (BMV2 or PATH), hupf-backend (HUPF_BACKEND or PATH) and the hw artifacts;
otherwise the module skips with one line saying what is missing."""
import os

import pytest

import targets as T

TIMING = "(margins of tests/ptf/test_hw.py)"


MISSING = T.differential_missing("hw")
if MISSING:
    pytest.skip("differential bmv2-hw vs backend-hw: " + MISSING, allow_module_level=True)

from scapy.layers.inet import IP, UDP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.layers.vxlan import VXLAN  # noqa: E402

import hupf_p4const as C  # noqa: E402
import hw_setup as H  # noqa: E402
import upf_setup as U  # noqa: E402
import dataplane  # noqa: E402
from hupf_tools.model import hkipg  # noqa: E402
from hupf_tools.model.features import CodeTables, Packet, slot_index  # noqa: E402
from hupf_tools.model.selector import selector_hash  # noqa: E402
from packets import gtpu, ip2int, user_packet  # noqa: E402
from tenant_setup import EDGE_VTEP, LOCAL_VTEP, OVERLAY_GNB, OVERLAY_GNB_MAC, OVERLAY_UPF_MAC  # noqa: E402
from test_differential import APP, TENANTS, UE1, UE3, _ul, _vx, capture, mix, tenants  # noqa: E402

GAME = U.Ue("172.16.7.1", teid_ul=0x301, teid_dl=0x302, ctr=90, tc=0)
WEB = U.Ue("172.16.7.2", teid_ul=0x303, teid_dl=0x304, ctr=92, tc=0)
HEAVY = "172.16.5.1"
STEERED_UES = ["172.16.1.%d" % i for i in range(1, 17)]
TAU_RANGE = (0, 15000, 10)        # EWMA IPG up to 15 ms: +10 per timeslot; tau_th 30
HEAVY_PACKETS, HEAVY_GAP_S = 300, 0.0003
CLS_WINDOW_US = 2_000_000         # one window spans a case's frames however slowly bmv2 runs
DEVICE_TIMEOUT_S = 5.0
# RPS: a sampled UE with a switch session (IN and OUT on the switch) and one without (IN as it is steered to
# a backend, OUT as the backend's output comes back), both directions of 172.16.9.0/24 sampled; a few
# buffer slots so that receipts leave the buffer within the phase; about an eighth of the packets direct
# disclosures (late warnings come too); gaps longer than the tau ranges' EWMA, so that no HH report rides a
# receipt.
RPS_UE = U.Ue("172.16.9.1", teid_ul=0x401, teid_dl=0x402, ctr=94, tc=0)
RPS_STEERED = "172.16.9.200"
RPS_NET = ("172.16.9.0", 24)
RPS_FLOW_IDS = (21, 22)          # uplink, downlink
RPS_DISC_THRESHOLD = 0x20000000
RPS_BUFFER_LEN = 4
RPS_PACKETS = 32
RPS_GAP_S = 0.02
RECEIPT_TS = slice(8, 12)        # rps_receipt_t.ts


def _dl(ue, size=100):
    return Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / user_packet(APP, ue, sport=80, dport=4000, size=size)


def _with_dscp(ip, dscp):
    out = IP(bytes(ip))
    out.tos = dscp << 2
    del out.chksum
    return IP(bytes(out))


def _backend_vx(user_dscp, dst=EDGE_VTEP):
    """UE3's downlink as a backend sends it back to the switch (UE3's gNB is in the first tenant's overlay):
    GTP-U in VXLAN from the local VTEP to dst, the user packet with the marking it was steered with, the outer UDP
    checksum computed."""
    gpdu = gtpu(_with_dscp(user_packet(APP, UE3.addr, sport=80, dport=4000, ttl=63), user_dscp), UE3.teid_dl,
                U.N3_ADDR, OVERLAY_GNB, eth_src=OVERLAY_UPF_MAC, eth_dst=OVERLAY_GNB_MAC)
    return Ether(src=H.BACKEND_MACS[U.PORT_BACKEND1], dst=U.SWITCH_MAC) / IP(src=LOCAL_VTEP, dst=dst, id=0) / UDP(
        sport=0xC000 | (UE3.teid_dl & 0x3FFF), dport=4789) / VXLAN(vni=TENANTS[0][0]) / gpdu


def configure(dev):
    c = dev.client
    U.base(c)
    H.start_clock(dev)
    dev.cpu_clone_session()
    H.backend_group(c, [U.PORT_BACKEND1, U.PORT_BACKEND2])
    c.insert(C.HUPF_INGRESS_STEERING_BACKEND_PORTS, {C.HDR_IG_PORT: U.PORT_BACKEND1},
             C.HUPF_INGRESS_STEERING_FROM_BACKEND)
    U.route(c, "172.16.0.0", 16, U.PORT_ACCESS, U.GNB_MAC)
    tenants(c)
    for _, _, tc, dscp in TENANTS:   # what comes back from a backend with a tenant's DSCP takes its class
        c.insert(C.HUPF_INGRESS_STEERING_BACKEND_CLASSES, {C.HDR_DSCP: dscp},
                 C.HUPF_INGRESS_STEERING_SET_BACKEND_CLASS, **{C.TC: tc})
    for ue in (UE1, GAME, WEB):
        U.session(c, ue)
    for p in dev.bed.ports:
        U.route(c, "192.0.2.%d" % p, 32, p, U.DN_MAC)
    H.hh_params(c, tau_th=30, ipg_init=20000, ipg_th=20000, decay_k=100, timeslot_us=16384, alpha_shift=6,
                key_mode=hkipg.KEY_UE_ADDR)
    H.tau_entries(c, [TAU_RANGE])
    H.cls_params(c, window_us=CLS_WINDOW_US, alpha_shift=2)
    H.install_tree(c, CodeTables({"ps_dn": [(1000, 1500, 1), (1, 999, 2)]},
                                 {(0, 0, 0, 1, 0, 0): 7, (0, 0, 0, 2, 0, 0): 3}))
    for cls, tc in ((7, 3), (3, 1)):
        c.insert(C.HUPF_INGRESS_CLASSIFIER_CLASS_TO_TC, {C.HDR_CLASS_ID: cls},
                 C.HUPF_INGRESS_CLASSIFIER_SET_TC, **{C.TC: tc})
    for tc, q in ((3, 5), (1, 2)):
        c.insert(C.HUPF_INGRESS_QOS_QUEUES, {C.HDR_TC: tc}, C.HUPF_INGRESS_QOS_SET_QUEUE, **{C.QID: q})


def cases():
    """(name, ingress port, frame): the sw mix (on the switch it meets hw tables: misses are steered),
    then what only hw does."""
    out = list(mix())
    out += [("steered to the hash's backend: %s" % ue, U.PORT_CORE, _dl(ue)) for ue in STEERED_UES]
    out += [("vxlan steered to a backend (marked)", U.PORT_CORE, _vx(_dl(STEERED_UES[3]), vni=5002)),
            ("vxlan from a backend to the local VTEP: no tenant's, routed by its outer headers (no route)",
             U.PORT_BACKEND1, _vx(_dl(UE1.addr)))]
    out += [("vxlan from a backend towards an overlay gNB: routed by its outer headers, in its class (marked)",
             U.PORT_BACKEND1, _backend_vx(TENANTS[0][3])),
            ("vxlan from a backend towards an overlay gNB, a DSCP of no class: unmarked", U.PORT_BACKEND1,
             _backend_vx(12))]
    out += [("vxlan uplink steered to a backend (user packet marked)", U.PORT_ACCESS,
             _vx(_ul(user_packet(STEERED_UES[0], APP), teid=0xbeef))),
            ("from a backend: a G-PDU with a tenant's DSCP (outer marked)", U.PORT_BACKEND1,
             _ul(_with_dscp(user_packet(UE1.addr, APP), TENANTS[0][3])))]
    out += [("from a backend: routed", U.PORT_BACKEND1, _dl(UE1.addr)),
            ("from a non-backend port: steered", U.PORT_BACKEND2, _dl(UE1.addr))]
    return out


def heavy_flow(dev):
    """A heavy UE without a switch session, one packet per 0.3 ms: each steered frame, then the
    HH_REPORT packet-ins (with the other packet-ins met, in arrival order)."""
    frame = _dl(HEAVY)
    port = (U.PORT_BACKEND1, U.PORT_BACKEND2)[selector_hash(ip2int(HEAVY)) % 2]
    outputs = []
    for _ in range(HEAVY_PACKETS):
        dev.bed.send(U.PORT_CORE, frame)
        got = dev.bed.recv(port, DEVICE_TIMEOUT_S)   # the frame took its timestamp: the clock may move
        assert got is not None, "%s: heavy packet not steered to port %d" % (dev.target, port)
        outputs.append(bytes(got))
        H.pause(dev, HEAVY_GAP_S)
    packet_ins = []
    while True:
        got = dev.client.packet_in(0.5)
        if got is None:
            return outputs, packet_ins
        packet_ins.append(got)


def classify(dev):
    """Five large downlink packets of GAME and small ones of WEB in one window; after it, one more
    each, which the classes mark. Returns the frames the access port emitted."""
    out = []
    for n in (5, 1):
        for ue, size in ((GAME, 1400), (WEB, 200)):
            for _ in range(n):
                dev.bed.send(U.PORT_CORE, _dl(ue.addr, size))
                got = dev.bed.recv(U.PORT_ACCESS, DEVICE_TIMEOUT_S)
                assert got is not None, "%s: %s's downlink packet not forwarded" % (dev.target, ue.addr)
                out.append(bytes(got))
        if n == 5:
            H.pause(dev, CLS_WINDOW_US / 1e6 + 0.1)
    return out


def registers(dev, packet_ins):
    c = dev.client
    hh_slot = ip2int(HEAVY) % H.slots(c, C.HUPF_INGRESS_HH_FLOW_ID)
    hh, _ = H.read_state(c, hh_slot, packet_ins)
    flows = {}
    for ue in (GAME, WEB):
        idx = slot_index(Packet(0, False, ip2int(ue.addr), ip2int(APP), 4000, 80, 17, 0),
                         H.slots(c, C.HUPF_INGRESS_CLASSIFIER_FLOW_CLASS))
        flows[ue.addr] = H.read_state(c, idx, packet_ins)[1]
    return hh, flows


def _rps_user(src, dst, ident, **kw):
    pkt = user_packet(src, dst, **kw)
    pkt.id = ident
    del pkt.chksum
    return IP(bytes(pkt))


def _backend_return(inner):
    """What a backend sends back for a steered downlink packet: it in GTP-U towards the gNB, TTL - 1."""
    inner = IP(bytes(inner))
    inner.ttl -= 1
    del inner.chksum
    return gtpu(IP(bytes(inner)), 0x999, U.N3_ADDR, U.GNB_ADDR, eth_src=U.DN_MAC, eth_dst=U.SWITCH_MAC)


def rps_phase(dev):
    """RPS in mode 1 on a few buffer slots: the sampled UE's packets both ways (one at a time, each awaited),
    then a steered packet and its return from a backend. Returns the frames, the RPS packet-ins in arrival
    order per point, and the events counters."""
    c = dev.client
    U.session(c, RPS_UE)
    for direction, flow_id in enumerate(RPS_FLOW_IDS):
        c.insert(C.HUPF_INGRESS_RPS_FLOWS, {C.HDR_UE_ADDR: (ip2int(RPS_NET[0]), RPS_NET[1]), C.HDR_DIRECTION: direction},
                 C.HUPF_INGRESS_RPS_SET_FLOW, **{C.FLOW_ID: flow_id, C.DISC_THRESHOLD: RPS_DISC_THRESHOLD})
    c.set_default(C.HUPF_INGRESS_RPS_CONFIG, C.HUPF_INGRESS_RPS_SET_CONFIG,
                  **{C.MODE: C.RPS_MODE_DATA_PLANE, C.QUIET_US: 0, C.SELECT_THRESHOLD: 0xFFFFFFFF,
                     C.BUFFER_LEN: RPS_BUFFER_LEN})
    c.drain_packet_ins()
    sends = []
    for i in range(RPS_PACKETS):
        if i % 2:
            sends.append((U.PORT_ACCESS, _ul(_rps_user(RPS_UE.addr, APP, 1000 + i), teid=RPS_UE.teid_ul), U.PORT_CORE))
        else:
            sends.append((U.PORT_CORE, Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / _rps_user(
                APP, RPS_UE.addr, 1000 + i, sport=80, dport=4000), U.PORT_ACCESS))
    steered = _rps_user(APP, RPS_STEERED, 2000, sport=80, dport=4000)
    backend = (U.PORT_BACKEND1, U.PORT_BACKEND2)[selector_hash(ip2int(RPS_STEERED)) % 2]
    sends += [(U.PORT_CORE, Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / steered, backend),
              (U.PORT_BACKEND1, _backend_return(steered), U.PORT_ACCESS)]
    frames = []
    for port, frame, out in sends:
        dev.bed.send(port, frame)
        got = dev.bed.recv(out, DEVICE_TIMEOUT_S)
        assert got is not None, "%s: RPS packet from port %d not forwarded to port %d" % (dev.target, port, out)
        frames.append(bytes(got))
        H.pause(dev, RPS_GAP_S)
    receipts = ([], [])
    while True:
        got = c.packet_in(0.5)
        if got is None:
            break
        payload, md = got
        assert md[C.PKT_META_REASON] == C.PKTIN_RPS, "%s: packet-in %s besides the receipts" % (dev.target, md)
        receipts[payload[0]].append((payload[:RECEIPT_TS.start] + payload[RECEIPT_TS.stop:], md))
    events = [c.counter(C.HUPF_INGRESS_RPS_EVENTS, k)[0] for k in range(C.RPS_EVENTS)]
    events += [c.counter(C.HUPF_EGRESS_RPS_EVENTS, C.RPS_EVENTS + k)[0] for k in range(C.RPS_EVENTS)]
    return frames, receipts, events


def observe(target, bed):
    dev = T.Device(target, bed)
    try:
        dev.reset()
        configure(dev)
        frames = [capture(bed, port, frame, seq) for seq, (_, port, frame) in enumerate(cases(), 1)]
        dev.client.drain_packet_ins()   # the sw mix's packet-ins (echo, ACL) are compared as frames only
        heavy_out, packet_ins = heavy_flow(dev)
        classified = classify(dev)
        hh, flows = registers(dev, packet_ins)
        reports = [(p, md) for p, md in packet_ins if md[C.PKT_META_REASON] == C.PKTIN_HH_REPORT]
        drops = [dev.client.counter(C.HUPF_INGRESS_UPF_DROP_REASONS, r)[0] for r in range(C.DROP_REASONS_SIZE)]
        rps_frames, receipts, events = rps_phase(dev)
        return dict(frames=frames, heavy_out=heavy_out, reports=reports, classified=classified, hh=hh,
                    flows=flows, drops=drops, rps_frames=rps_frames, receipts=receipts, events=events)
    finally:
        dev.stop()


@pytest.fixture(scope="module")
def observed():
    bed = dataplane.TestBed(4, tag="hw%d" % (os.getpid() % 10000))
    try:
        yield observe("bmv2-hw", bed), observe("backend-hw", bed)
    finally:
        bed.close()


def tau_range(ewma):
    lo, hi, _ = TAU_RANGE
    return lo <= ewma <= hi


def test_frames_match(observed):
    ref, got = observed
    names = [name for name, _, _ in cases()]
    diffs = [name for name, r, g in zip(names, ref["frames"], got["frames"]) if r != g]
    assert not diffs, "outputs differ for: %s" % ", ".join(diffs)
    assert got["heavy_out"] == ref["heavy_out"], "the heavy flow's steered frames differ"
    assert got["classified"] == ref["classified"], "the classified flows' frames differ (marking, queue)"
    assert got["drops"] == ref["drops"], "drop reasons: backend %s, bmv2 %s" % (got["drops"], ref["drops"])


def test_hh_reports_match(observed):
    ref, got = observed
    assert len(ref["reports"]) == 1, "bmv2: %d HH reports %s" % (len(ref["reports"]), TIMING)
    assert len(got["reports"]) == len(ref["reports"]), "HH reports: backend %d, bmv2 %d" % (
        len(got["reports"]), len(ref["reports"]))
    (rp, rmd), (gp, gmd) = ref["reports"][0], got["reports"][0]
    assert gmd == rmd, "report metadata: backend %s, bmv2 %s" % (gmd, rmd)
    assert gp[:4] + gp[8:] == rp[:4] + rp[8:], "report bytes (EWMA aside) differ:\n%s\n%s" % (gp.hex(), rp.hex())
    ewmas = [int.from_bytes(p[4:8], "big") for p in (gp, rp)]
    assert all(tau_range(e) for e in ewmas), "report EWMAs outside the tau range %s %s" % (ewmas, TIMING)


def test_registers_match(observed):
    ref, got = observed
    r, g = ref["hh"], got["hh"]
    assert (g.flow_id, g.reported) == (r.flow_id, r.reported) == (ip2int(HEAVY), 1), (g, r)
    assert tau_range(g.ipg_ewma) and tau_range(r.ipg_ewma), "HK-IPG EWMAs %s %s" % ((g, r), TIMING)
    for ue in (GAME, WEB):
        a, b = got["flows"][ue.addr], ref["flows"][ue.addr]
        same = ("pkts_up", "pkts_dn", "ps_up", "ps_dn", "cls")
        assert [getattr(a, f) for f in same] == [getattr(b, f) for f in same], "%s: backend %s, bmv2 %s" % (
            ue.addr, a, b)
    assert got["flows"][GAME.addr].cls == 7 and got["flows"][WEB.addr].cls == 3


def test_rps_receipts_match(observed):
    """The same receipts at each point, in the same order (timestamps aside), the same events; on bmv2 the
    phase yields receipts at both points and every kind of FIFO RPS's output, so that the comparison covers
    them."""
    ref, got = observed
    assert got["rps_frames"] == ref["rps_frames"], "the RPS phase's frames differ"
    for point, name in ((C.RPS_POINT_IN, "IN"), (C.RPS_POINT_OUT, "OUT")):
        r, g = ref["receipts"][point], got["receipts"][point]
        assert g == r, "%s receipts (ts aside) differ:\nbackend %s\nbmv2    %s" % (
            name, [(p.hex(), md) for p, md in g], [(p.hex(), md) for p, md in r])
    assert got["events"] == ref["events"], "RPS events: backend %s, bmv2 %s" % (got["events"], ref["events"])
    assert all(ref["receipts"]), "bmv2: receipts at IN %d, at OUT %d" % tuple(map(len, ref["receipts"]))
    kinds = {p[1] for point in ref["receipts"] for p, _ in point}
    want = {C.RPS_KIND_DIRECT, C.RPS_KIND_DELAYED, C.RPS_KIND_LATE}
    assert want <= kinds, "bmv2's RPS phase yielded kinds %s, not all of %s" % (kinds, want)
