"""Multi-tenant backhaul over VXLAN (issue #16 part 2), target-agnostic: bmv2 (hw, sw) and the backend.

A frame in VXLAN (outer UDP 4789) belongs to the tenant of its (VNI, local VTEP address): the tenant
frame is decapsulated and processed as any frame (GTP-U sessions on the inner packet), its packets
leave with the tenant's DSCP and traffic class, are counted and metered per tenant; an unknown VNI and a
truncated or malformed VXLAN frame are dropped and counted. A tenant's slice (its packets of one QFI: the uplink
PDU Session Container's, the downlink termination's) overrides its DSCP and class, counted and metered per slice."""
import time

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.layers.vxlan import VXLAN
from scapy.packet import Raw

import hupf_p4const as C
import hw_setup as H
import tenant_setup as TS
import upf_setup as U
from packets import encapsulated, gpdu_header, raw_gtpu, user_packet
from ptfutil import drops, expect_frame, expect_no_frame
from tenant_setup import (EDGE_VTEP, LOCAL_VTEP, OVERLAY_GNB, OVERLAY_GNB_MAC, OVERLAY_UPF_MAC, UNDERLAY_MAC,
                          overlay_peer)
from test_upf import (ALL_PORTS, APP, UE1, decapped, downlink_frame, encapped, uplink_frame)

GOLD = dict(vni=5001, tenant_id=1, tc=3, dscp=46)     # EF
BRONZE = dict(vni=5002, tenant_id=2, tc=1, dscp=10)   # AF11
UE2 = U.Ue("172.16.0.2", teid_ul=0x101, teid_dl=0x3abc, ctr=20)   # behind tunnel peer 2, in GOLD's overlay
PEER2 = 2


def tenant(c, t):
    TS.tenant(c, t["vni"], t["tenant_id"], t["tc"], t["dscp"])


def vxlan(frame, vni, dst=LOCAL_VTEP, flags=0x08):
    """frame (an Ether) in VXLAN from the edge VTEP to dst."""
    return Ether(src=UNDERLAY_MAC, dst=U.SWITCH_MAC) / IP(src=EDGE_VTEP, dst=dst, id=0) / UDP(
        sport=49152, dport=4789) / VXLAN(vni=vni, flags=flags) / frame


def vxlan_raw(tail, vni=GOLD["vni"]):
    """A correct outer Ether/IPv4/UDP:4789 followed by `tail` (the VXLAN header and what follows)."""
    return Ether(src=UNDERLAY_MAC, dst=U.SWITCH_MAC) / IP(src=EDGE_VTEP, dst=LOCAL_VTEP, id=0) / UDP(
        sport=49152, dport=4789) / Raw(tail)


def marked(frame, dscp):
    """frame with the (first) IPv4 header's DSCP set and its checksum recomputed."""
    pkt = Ether(bytes(frame))
    pkt[IP].tos = dscp << 2
    del pkt[IP].chksum
    return Ether(bytes(pkt))


def reencapped(ue, vni, dscp=0):
    """ue's downlink packet as the UPF sends it to the overlay gNB: GTP-U in VXLAN."""
    inner = user_packet(APP, ue.addr, sport=80, dport=4000, ttl=63)
    gtp = encapsulated(inner, ue.teid_dl, U.N3_ADDR, OVERLAY_GNB, U.TUN_SPORT, eth_src=OVERLAY_UPF_MAC,
                       eth_dst=OVERLAY_GNB_MAC)
    gtp = marked(gtp, dscp)
    return Ether(src=U.SWITCH_MAC, dst=UNDERLAY_MAC) / IP(src=LOCAL_VTEP, dst=EDGE_VTEP, ttl=64, id=0, flags=0,
                                                          tos=dscp << 2) / UDP(
        sport=0xC000 | (ue.teid_dl & 0x3FFF), dport=4789, chksum=0) / VXLAN(vni=vni, flags=0x08) / gtp


def until(cond, timeout=5.0):
    """cond() became true within timeout seconds (a loaded machine may run the device late)."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def tenant_counter(c, t):
    return c.counter(C.HUPF_INGRESS_TENANT_TENANT_COUNTER, t["tenant_id"])


@pytest.fixture
def upf(dut):
    c = dut.client
    U.base(c)
    U.session(c, UE1)
    tenant(c, GOLD)
    tenant(c, BRONZE)
    return dut


def test_known_vni_uplink_is_decapsulated_with_tenant_priority(upf):
    bed = upf.bed
    for t in (GOLD, BRONZE):
        bed.send(U.PORT_ACCESS, vxlan(uplink_frame(UE1), t["vni"]))
        expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), t["dscp"]))
    # Without VXLAN nothing changes: no tenant, no marking.
    bed.send(U.PORT_ACCESS, uplink_frame(UE1))
    expect_frame(bed, U.PORT_CORE, decapped(UE1))


def test_known_vni_downlink_is_encapsulated_with_tenant_priority(upf):
    bed = upf.bed
    bed.send(U.PORT_CORE, vxlan(downlink_frame(UE1), GOLD["vni"]))
    expect_frame(bed, U.PORT_ACCESS, marked(encapped(UE1), GOLD["dscp"]))
    bed.send(U.PORT_CORE, downlink_frame(UE1))
    expect_frame(bed, U.PORT_ACCESS, encapped(UE1))


def test_unknown_vni_dropped_and_counted(upf):
    c, bed = upf.client, upf.bed
    before = (tenant_counter(c, GOLD), tenant_counter(c, BRONZE))
    unknown = drops(c, C.DROP_UNKNOWN_VNI)
    bed.send(U.PORT_ACCESS, vxlan(uplink_frame(UE1), 7777))                         # no such VNI
    bed.send(U.PORT_ACCESS, vxlan(uplink_frame(UE1), GOLD["vni"], dst="192.168.50.2"))  # other VTEP
    bed.send(U.PORT_CORE, vxlan(downlink_frame(UE1), 0))
    expect_no_frame(bed, ALL_PORTS)
    assert until(lambda: drops(c, C.DROP_UNKNOWN_VNI) - unknown == 3)
    assert (tenant_counter(c, GOLD), tenant_counter(c, BRONZE)) == before


def test_truncated_or_malformed_vxlan_dropped_and_counted(upf):
    c, bed = upf.client, upf.bed
    inner = bytes(uplink_frame(UE1))
    hdr = bytes(VXLAN(vni=GOLD["vni"]))
    cases = {
        "vxlan_cut": hdr[:4],
        "no_tenant_frame": hdr,
        "ethernet_cut": hdr + inner[:10],
        "ipv4_cut": hdr + inner[:14 + 12],
        "udp_cut": hdr + inner[:14 + 20 + 4],
        "i_flag_clear": bytes(VXLAN(vni=GOLD["vni"], flags=0)) + inner,
    }
    before = tenant_counter(c, GOLD)
    vx, gtp = drops(c, C.DROP_MALFORMED_VXLAN), drops(c, C.DROP_MALFORMED_GTPU)
    for tail in cases.values():
        bed.send(U.PORT_ACCESS, vxlan_raw(tail))
    # Well-formed VXLAN around a malformed G-PDU: the GTP-U is judged as anywhere.
    bad_gtpu = raw_gtpu(gpdu_header(UE1.teid_ul, 50)[:5], U.GNB_ADDR, U.N3_ADDR,
                        eth_src=U.GNB_MAC, eth_dst=U.SWITCH_MAC)
    bed.send(U.PORT_ACCESS, vxlan(bad_gtpu, GOLD["vni"]))
    expect_no_frame(bed, ALL_PORTS)
    assert until(lambda: (drops(c, C.DROP_MALFORMED_VXLAN) - vx, drops(c, C.DROP_MALFORMED_GTPU) - gtp)
                 == (len(cases), 1))
    assert tenant_counter(c, GOLD) == before
    # The tenant still forwards well-formed traffic.
    bed.send(U.PORT_ACCESS, vxlan(uplink_frame(UE1), GOLD["vni"]))
    expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), GOLD["dscp"]))


def test_per_tenant_counters(upf):
    c, bed = upf.client, upf.bed
    gold, bronze = vxlan(uplink_frame(UE1), GOLD["vni"]), vxlan(downlink_frame(UE1), BRONZE["vni"])
    for _ in range(3):
        bed.send(U.PORT_ACCESS, gold)
        expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), GOLD["dscp"]))
    for _ in range(2):
        bed.send(U.PORT_CORE, bronze)
        expect_frame(bed, U.PORT_ACCESS, marked(encapped(UE1), BRONZE["dscp"]))
    bed.send(U.PORT_ACCESS, uplink_frame(UE1))   # not VXLAN: no tenant's
    expect_frame(bed, U.PORT_CORE, decapped(UE1))
    # Bytes of the frame as received (the whole VXLAN frame), as the UPF counters count.
    assert tenant_counter(c, GOLD) == (3, 3 * len(gold))
    assert tenant_counter(c, BRONZE) == (2, 2 * len(bronze))
    assert c.counter(C.HUPF_INGRESS_UPF_PRE_QOS_COUNTER, UE1.ctr) == (4, 3 * len(gold) + len(uplink_frame(UE1)))


def meter_red_drops_and_counts(dut, meter, cell, frame, dscp, counted, other, other_dscp):
    """As the session meter test: exact on the backend's test clock, a margin on bmv2's wall clock. Ten `frame`s
    through the meter's `cell`, set to two of them: those let through leave with `dscp`, every frame is counted
    (`counted()`, before the meter) and the others are red; then `other` frames are not limited by it."""
    c, bed = dut.client, dut.bed
    burst = int(2.5 * len(frame))
    rate = 1000 if dut.has_test_clock else len(frame) // 4
    c.set_meter(meter, cell, cir=rate, cburst=burst, pir=rate, pburst=burst)
    red_before = drops(c, C.DROP_METER_RED)
    for _ in range(10):
        bed.send(U.PORT_ACCESS, frame)
    if dut.has_test_clock:
        for _ in range(2):
            expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), dscp))
        out = 2
    else:
        out = len(bed.recv_all(U.PORT_CORE, 0.5))
        assert 1 <= out <= 3
    assert until(lambda: counted() == 10 and drops(c, C.DROP_METER_RED) - red_before == 10 - out)
    expect_no_frame(bed, [U.PORT_CORE])
    for _ in range(5):
        bed.send(U.PORT_ACCESS, other)
    for _ in range(5):
        expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), other_dscp))


def test_tenant_meter_red_drops_and_counts(upf):
    meter_red_drops_and_counts(upf, C.HUPF_INGRESS_TENANT_TENANT_METER, BRONZE["tenant_id"],
                               vxlan(uplink_frame(UE1), BRONZE["vni"]), BRONZE["dscp"],
                               lambda: tenant_counter(upf.client, BRONZE)[0],
                               vxlan(uplink_frame(UE1), GOLD["vni"]), GOLD["dscp"])


def test_downlink_reencapsulated_in_vxlan_towards_an_overlay_peer(upf):
    c, bed = upf.client, upf.bed
    overlay_peer(c, PEER2, GOLD["vni"], UE2)
    # Plain from the data network: GTP-U for the overlay gNB, in GOLD's VXLAN, routed to the edge VTEP.
    bed.send(U.PORT_CORE, downlink_frame(UE2))
    expect_frame(bed, U.PORT_ACCESS, reencapped(UE2, GOLD["vni"]))
    # Arrived in a tenant's VXLAN: marked by that tenant, the outer header copies the DSCP.
    bed.send(U.PORT_CORE, vxlan(downlink_frame(UE2), BRONZE["vni"]))
    expect_frame(bed, U.PORT_ACCESS, reencapped(UE2, GOLD["vni"], dscp=BRONZE["dscp"]))
    # A peer without VXLAN is sent as before; the overlay gNB's uplink in VXLAN is decapsulated.
    bed.send(U.PORT_CORE, downlink_frame(UE1))
    expect_frame(bed, U.PORT_ACCESS, encapped(UE1))
    bed.send(U.PORT_ACCESS, vxlan(uplink_frame(UE2), GOLD["vni"]))
    expect_frame(bed, U.PORT_CORE, marked(decapped(UE2), GOLD["dscp"]))


SLICE = dict(qfi=5, tc=2, dscp=26)    # GOLD's packets of QFI 5: AF31


def slice_counter(c, t, qfi):
    return c.counter(C.HUPF_INGRESS_TENANT_SLICE_COUNTER, TS.slice_cell(t["tenant_id"], qfi))


@pytest.fixture
def sliced(upf):
    c = upf.client
    TS.tenant_slice(c, GOLD["tenant_id"], SLICE["qfi"], SLICE["tc"], SLICE["dscp"])
    TS.tenant_slice(c, BRONZE["tenant_id"], UE1.qfi, 0, 0)   # BRONZE's downlink slice (the termination's QFI)
    return upf


def test_slice_of_the_uplink_qfi_overrides_the_tenant(sliced):
    c, bed = sliced.client, sliced.bed
    frame = vxlan(uplink_frame(UE1, qfi=SLICE["qfi"]), GOLD["vni"])
    for _ in range(2):
        bed.send(U.PORT_ACCESS, frame)
        expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), SLICE["dscp"]))
    # Another QFI, no PDU Session Container, or the QFI of another tenant's slice: the tenant's own.
    for other in (vxlan(uplink_frame(UE1, qfi=6), GOLD["vni"]), vxlan(uplink_frame(UE1), GOLD["vni"])):
        bed.send(U.PORT_ACCESS, other)
        expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), GOLD["dscp"]))
    bed.send(U.PORT_ACCESS, vxlan(uplink_frame(UE1, qfi=SLICE["qfi"]), BRONZE["vni"]))
    expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), BRONZE["dscp"]))
    # Not in VXLAN: no tenant, no slice.
    bed.send(U.PORT_ACCESS, uplink_frame(UE1, qfi=SLICE["qfi"]))
    expect_frame(bed, U.PORT_CORE, decapped(UE1))
    # Counted per slice as received (the whole VXLAN frame), within the tenant's count.
    assert slice_counter(c, GOLD, SLICE["qfi"]) == (2, 2 * len(frame))
    assert slice_counter(c, GOLD, 6) == (0, 0)
    assert slice_counter(c, BRONZE, SLICE["qfi"]) == (0, 0)
    assert tenant_counter(c, GOLD)[0] == 4


def test_slice_of_the_downlink_terminations_qfi(sliced):
    c, bed = sliced.client, sliced.bed
    frame = vxlan(downlink_frame(UE1), BRONZE["vni"])
    bed.send(U.PORT_CORE, frame)
    expect_frame(bed, U.PORT_ACCESS, marked(encapped(UE1), 0))
    assert slice_counter(c, BRONZE, UE1.qfi) == (1, len(frame))
    # GOLD has no slice of that QFI: its own marking.
    bed.send(U.PORT_CORE, vxlan(downlink_frame(UE1), GOLD["vni"]))
    expect_frame(bed, U.PORT_ACCESS, marked(encapped(UE1), GOLD["dscp"]))
    assert slice_counter(c, GOLD, UE1.qfi) == (0, 0)


def test_slice_meter_red_drops_and_counts(sliced):
    """The slice's meter cell drops its QFI's packets; the tenant's other packets are not limited by it."""
    meter_red_drops_and_counts(sliced, C.HUPF_INGRESS_TENANT_SLICE_METER,
                               TS.slice_cell(GOLD["tenant_id"], SLICE["qfi"]),
                               vxlan(uplink_frame(UE1, qfi=SLICE["qfi"]), GOLD["vni"]), SLICE["dscp"],
                               lambda: slice_counter(sliced.client, GOLD, SLICE["qfi"])[0],
                               vxlan(uplink_frame(UE1), GOLD["vni"]), GOLD["dscp"])


def test_a_deleted_slice_gives_the_tenant_back(sliced):
    c, bed = sliced.client, sliced.bed
    key = {C.HDR_TENANT_ID: GOLD["tenant_id"], C.HDR_QFI: SLICE["qfi"]}
    c.write(c.update("DELETE", "table_entry", c.table_entry(C.HUPF_INGRESS_TENANT_SLICES, key, None, None)))
    bed.send(U.PORT_ACCESS, vxlan(uplink_frame(UE1, qfi=SLICE["qfi"]), GOLD["vni"]))
    expect_frame(bed, U.PORT_CORE, marked(decapped(UE1), GOLD["dscp"]))
    assert slice_counter(c, GOLD, SLICE["qfi"]) == (0, 0)


def backend_with_gold_class(c):
    """hw: misses steered to the backend on PORT_BACKEND1, what comes back from it routed (backend_ports), and GOLD's
    DSCP standing for its class there (backend_classes)."""
    H.backend_group(c, [U.PORT_BACKEND1])
    c.insert(C.HUPF_INGRESS_STEERING_BACKEND_PORTS, {C.HDR_IG_PORT: U.PORT_BACKEND1},
             C.HUPF_INGRESS_STEERING_FROM_BACKEND)
    c.insert(C.HUPF_INGRESS_STEERING_BACKEND_CLASSES, {C.HDR_DSCP: GOLD["dscp"]},
             C.HUPF_INGRESS_STEERING_SET_BACKEND_CLASS, **{C.TC: GOLD["tc"]})


@pytest.mark.targets("bmv2-hw", "backend-hw")
def test_a_steered_tenants_class_comes_back_from_the_backend_as_its_dscp(upf):
    """hw: a tenant's G-PDU whose session is not on the switch goes to a backend with its user packet marked
    too (the backend strips the header above it); what comes back from the backend takes the class its user
    packet's DSCP stands for (steering.backend_classes) and leaves marked with it: the backend's downlink
    G-PDU (outer DSCP 0) leaves as the switch's own path would have sent it. A DSCP without a class stays."""
    c, bed = upf.client, upf.bed
    backend_with_gold_class(c)
    bed.send(U.PORT_ACCESS, vxlan(uplink_frame(UE2), GOLD["vni"]))   # UE2 has no session on the switch
    to_backend = Ether(bytes(marked(uplink_frame(UE2), GOLD["dscp"])))
    to_backend.dst = H.BACKEND_MACS[U.PORT_BACKEND1]
    to_backend.getlayer(IP, 2).tos = GOLD["dscp"] << 2
    del to_backend.getlayer(IP, 2).chksum
    expect_frame(bed, U.PORT_BACKEND1, Ether(bytes(to_backend)))
    for dscp, leaves in ((GOLD["dscp"], GOLD["dscp"]), (BRONZE["dscp"], 0)):
        back = Ether(bytes(encapped(UE1)))
        back.getlayer(IP, 2).tos = dscp << 2
        del back.getlayer(IP, 2).chksum
        back = Ether(bytes(back))
        bed.send(U.PORT_BACKEND1, back)
        out = Ether(bytes(back))
        out[IP].ttl -= 1
        expect_frame(bed, U.PORT_ACCESS, marked(out, leaves))


def from_backend(ue, vni, user_dscp):
    """ue's downlink as a backend sends it back to the switch when ue's gNB is in a tenant's overlay: GTP-U in
    VXLAN from the local to the edge VTEP (the backend's peer_vxlan), its outer header and G-PDU built with DSCP 0,
    the user packet with the marking the steered packet had; the outer UDP checksum computed (not 0)."""
    pkt = Ether(bytes(reencapped(ue, vni)))
    pkt[Ether].src, pkt[Ether].dst = H.BACKEND_MACS[U.PORT_BACKEND1], U.SWITCH_MAC
    user = pkt.getlayer(IP, 3)
    user.tos = user_dscp << 2
    del user.chksum
    del pkt[UDP].chksum
    return Ether(bytes(pkt))


@pytest.mark.targets("bmv2-hw", "backend-hw")
def test_a_backends_vxlan_towards_an_overlay_gnb_is_routed_by_its_outer_headers(upf):
    """hw: a session steered to a backend whose gNB is in a tenant's overlay. The backend re-encapsulates its
    downlink in VXLAN towards the edge VTEP and sends it back through the switch, which gets it on a backend port:
    there it is no tenant's ingress (no tenant lookup, so no drop 14 for a VNI no tenant has at the edge VTEP, no
    tenant count) but a routed packet, routed by its outer headers (TTL, MACs, port). Its class is its user
    packet's DSCP's (steering.backend_classes), and both its outer header and its G-PDU's leave marked with it, as
    the switch's own path sends a downlink to an overlay gNB; the outer UDP checksum, which covered the unmarked
    G-PDU, leaves 0. A DSCP without a class leaves unmarked, checksum kept."""
    c, bed = upf.client, upf.bed
    backend_with_gold_class(c)
    U.route(c, EDGE_VTEP, 32, U.PORT_ACCESS, UNDERLAY_MAC)
    # UE2 has no session on the switch: its downlink in GOLD's VXLAN goes to the backend, marked.
    bed.send(U.PORT_CORE, vxlan(downlink_frame(UE2), GOLD["vni"]))
    to_backend = Ether(bytes(marked(downlink_frame(UE2), GOLD["dscp"])))
    to_backend.dst = H.BACKEND_MACS[U.PORT_BACKEND1]
    expect_frame(bed, U.PORT_BACKEND1, Ether(bytes(to_backend)))
    counted, unknown = tenant_counter(c, GOLD), drops(c, C.DROP_UNKNOWN_VNI)
    for dscp, leaves in ((GOLD["dscp"], GOLD["dscp"]), (BRONZE["dscp"], None)):
        back = from_backend(UE2, GOLD["vni"], dscp)
        bed.send(U.PORT_BACKEND1, back)
        out = Ether(bytes(back))
        out[Ether].src, out[Ether].dst = U.SWITCH_MAC, UNDERLAY_MAC
        out[IP].ttl -= 1
        del out[IP].chksum
        if leaves is not None:
            out[IP].tos = leaves << 2
            out[UDP].chksum = 0
            gpdu = out.getlayer(IP, 2)
            gpdu.tos = leaves << 2
            del gpdu.chksum
        expect_frame(bed, U.PORT_ACCESS, Ether(bytes(out)))
    assert tenant_counter(c, GOLD) == counted
    assert drops(c, C.DROP_UNKNOWN_VNI) == unknown
    # From a port that is no backend's, the same frame is a tenant frame of no tenant.
    bed.send(U.PORT_ACCESS, from_backend(UE2, GOLD["vni"], GOLD["dscp"]))
    expect_no_frame(bed, ALL_PORTS)
    assert until(lambda: drops(c, C.DROP_UNKNOWN_VNI) == unknown + 1)
