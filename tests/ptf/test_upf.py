"""UPF behaviour, target-agnostic: runs on bmv2 (hw and sw profiles) and the backend."""
import struct

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

import hupf_p4const as C
import upf_setup as U
from packets import (echo_request, encapsulated, gpdu_header, gtpu, ip2int, raw_gtpu, user_packet)
from ptfutil import DropDelta, expect_frame, expect_no_frame

UE1 = U.Ue("172.16.0.1", teid_ul=0x100, teid_dl=0x200, ctr=10, qfi=9)
APP = "8.8.8.8"
ALL_PORTS = (U.PORT_ACCESS, U.PORT_CORE, U.PORT_BACKEND1, U.PORT_BACKEND2)
SW_TARGETS = ("bmv2-sw", "backend")
BMV2_TARGETS = ("bmv2-sw", "bmv2-hw")


def uplink_frame(ue, inner_src=None, dst=APP, qfi=None, teid=None, **kw):
    inner = user_packet(inner_src or ue.addr, dst, **kw)
    return gtpu(inner, ue.teid_ul if teid is None else teid, U.GNB_ADDR, U.N3_ADDR, qfi=qfi,
                eth_src=U.GNB_MAC, eth_dst=U.SWITCH_MAC)


def decapped(ue, dst=APP, **kw):
    return Ether(src=U.SWITCH_MAC, dst=U.DN_MAC) / user_packet(ue.addr, dst, ttl=63, **kw)


def downlink_frame(ue, src=APP, sport=80, dport=4000, **kw):
    return Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / user_packet(src, ue.addr, sport=sport, dport=dport,
                                                                  **kw)


def encapped(ue, qfi=None, src=APP, sport=80, dport=4000, **kw):
    inner = user_packet(src, ue.addr, sport=sport, dport=dport, ttl=63, **kw)
    return encapsulated(inner, ue.teid_dl, U.N3_ADDR, U.GNB_ADDR, U.TUN_SPORT, qfi=qfi,
                        eth_src=U.SWITCH_MAC, eth_dst=U.GNB_MAC)


@pytest.fixture
def upf(dut):
    U.base(dut.client)
    return dut


@pytest.mark.parametrize("qfi", [None, 5], ids=["plain", "psc"])
def test_uplink_decap(upf, qfi):
    U.session(upf.client, UE1)
    upf.bed.send(U.PORT_ACCESS, uplink_frame(UE1, qfi=qfi))
    expect_frame(upf.bed, U.PORT_CORE, decapped(UE1))


@pytest.mark.parametrize("psc", [False, True], ids=["without_qfi", "with_qfi"])
def test_downlink_encap(upf, psc):
    c = upf.client
    U.session(c, UE1)
    if psc:
        c.set_default(C.HUPF_EGRESS_UPF_GTPU_ENCAP, C.HUPF_EGRESS_UPF_GTPU_WITH_PSC)
    upf.bed.send(U.PORT_CORE, downlink_frame(UE1))
    expect_frame(upf.bed, U.PORT_ACCESS, encapped(UE1, qfi=UE1.qfi if psc else None))


def test_sdf_application_filtering(upf):
    c = upf.client
    U.uplink_session(c, UE1)
    U.downlink_session(c, UE1)
    U.application(c, 5, "8.8.8.0", 24, (53, 53), proto=17)
    U.terminations(c, UE1, app_id=5)
    c.insert(C.HUPF_INGRESS_UPF_UPLINK_TERMINATIONS,
             {C.HDR_UE_SESSION_ID: ip2int(UE1.addr), C.HDR_APP_ID: 0},
             C.HUPF_INGRESS_UPF_UPLINK_TERM_DROP, **{C.CTR_IDX: 30})
    bed = upf.bed
    bed.send(U.PORT_ACCESS, uplink_frame(UE1, dport=53))
    expect_frame(bed, U.PORT_CORE, decapped(UE1, dport=53))
    bed.send(U.PORT_CORE, downlink_frame(UE1, sport=53))
    expect_frame(bed, U.PORT_ACCESS, encapped(UE1, sport=53))
    with DropDelta(c, C.DROP_RULE) as rule, DropDelta(c, C.DROP_TERMINATION_MISS) as miss:
        bed.send(U.PORT_ACCESS, uplink_frame(UE1, dport=80))             # app 0: drop rule
        bed.send(U.PORT_ACCESS, uplink_frame(UE1, dport=53, proto="tcp"))  # wrong protocol
        bed.send(U.PORT_ACCESS, uplink_frame(UE1, dst="9.9.9.9", dport=53))  # outside the prefix
        bed.send(U.PORT_CORE, downlink_frame(UE1, sport=80))             # app 0 downlink: no term
        expect_no_frame(bed, ALL_PORTS)
    assert (rule.delta, miss.delta) == (3, 1)


def test_session_drop_rules(upf):
    c = upf.client
    ue2 = U.Ue("172.16.0.2", teid_ul=0x101, teid_dl=0x201, ctr=20)
    c.insert(C.HUPF_INGRESS_UPF_UPLINK_SESSIONS,
             {C.HDR_TUNNEL_IPV4_DST: ip2int(U.N3_ADDR), C.HDR_TEID: ue2.teid_ul},
             C.HUPF_INGRESS_UPF_SET_UPLINK_SESSION_DROP)
    c.insert(C.HUPF_INGRESS_UPF_DOWNLINK_SESSIONS, {C.HDR_UE_ADDR: ip2int(ue2.addr)},
             C.HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_DROP)
    U.terminations(c, ue2)
    with DropDelta(c, C.DROP_RULE) as d:
        upf.bed.send(U.PORT_ACCESS, uplink_frame(ue2))
        upf.bed.send(U.PORT_CORE, downlink_frame(ue2))
        expect_no_frame(upf.bed, ALL_PORTS)
    assert d.delta == 2


def test_pre_and_post_qos_counters(upf):
    c = upf.client
    U.session(c, UE1)
    up, down = uplink_frame(UE1), downlink_frame(UE1)
    for _ in range(3):
        upf.bed.send(U.PORT_ACCESS, up)
        expect_frame(upf.bed, U.PORT_CORE, decapped(UE1))
    for _ in range(2):
        upf.bed.send(U.PORT_CORE, down)
        expect_frame(upf.bed, U.PORT_ACCESS, encapped(UE1))
    # Byte counts are of the frame as received (contract: counters).
    for name in (C.HUPF_INGRESS_UPF_PRE_QOS_COUNTER, C.HUPF_EGRESS_UPF_POST_QOS_COUNTER):
        assert c.counter(name, UE1.ctr) == (3, 3 * len(up))
        assert c.counter(name, UE1.ctr + 1) == (2, 2 * len(down))


def test_meter_red_drop_keeps_post_qos_counter_exact(upf):
    """A red packet is counted before QoS and dropped before the post-QoS counter.

    On the backend the data plane's time is the test clock: at 1 kB/s, 10 frames at one instant get
    exactly the 2 frames the buckets hold through, and 1 s later (1,000 bytes of tokens, capped at the
    2.5-frame burst) exactly 2 of 3 frames again; the counts are exact.
    bmv2 meters on the wall clock, which runs while the test sends the frames one by one: there the
    rate is one frame per 4 s (margin widened from one frame per ~0.1 s), so the burst of 2.5 frames
    decides the outcome (1..3 of 10 through) unless sending ten frames takes longer than 4 s; the
    counters stay exact against the frames that came out."""
    c = upf.client
    U.uplink_session(c, UE1, meter=3)
    U.downlink_session(c, UE1)
    U.terminations(c, UE1)
    frame = uplink_frame(UE1)
    # trTCM with 2.5-frame bursts: the third frame of a back-to-back burst is red.
    burst = int(2.5 * len(frame))
    rate = 1000 if upf.has_test_clock else len(frame) // 4
    c.set_meter(C.HUPF_INGRESS_UPF_SESSION_METER, 3, cir=rate, cburst=burst, pir=rate, pburst=burst)
    rounds = [10, 3] if upf.has_test_clock else [10]
    forwarded = 0
    with DropDelta(c, C.DROP_METER_RED) as red:
        for i, frames in enumerate(rounds):
            if i:
                upf.advance_clock(1_000_000_000)
            for _ in range(frames):
                upf.bed.send(U.PORT_ACCESS, frame)
            out = len(upf.bed.recv_all(U.PORT_CORE, 0.5))
            if upf.has_test_clock:
                assert out == 2
            else:
                assert 1 <= out <= 3
            forwarded += out
    sent = sum(rounds)
    assert red.delta == sent - forwarded
    assert c.counter(C.HUPF_INGRESS_UPF_PRE_QOS_COUNTER, UE1.ctr)[0] == sent
    assert c.counter(C.HUPF_EGRESS_UPF_POST_QOS_COUNTER, UE1.ctr)[0] == forwarded


def test_anti_spoofing_drop(upf):
    c = upf.client
    U.session(c, UE1)
    U.terminations(c, U.Ue("172.16.0.99", 0x999, 0x998, 40))
    with DropDelta(c, C.DROP_ANTI_SPOOFING) as d:
        upf.bed.send(U.PORT_ACCESS, uplink_frame(UE1, inner_src="172.16.0.99"))
        expect_no_frame(upf.bed, ALL_PORTS)
    assert d.delta == 1


def test_termination_miss_is_dropped_and_counted(upf):
    c = upf.client
    U.uplink_session(c, UE1)
    with DropDelta(c, C.DROP_TERMINATION_MISS) as d:
        upf.bed.send(U.PORT_ACCESS, uplink_frame(UE1))
        expect_no_frame(upf.bed, ALL_PORTS)
    assert d.delta == 1


@pytest.mark.targets(*SW_TARGETS)
def test_unknown_teid_and_ue_dropped_and_counted(upf):
    c = upf.client
    U.session(c, UE1)
    with DropDelta(c, C.DROP_UPLINK_SESSION_MISS) as ul, DropDelta(c, C.DROP_DOWNLINK_SESSION_MISS) as dl:
        upf.bed.send(U.PORT_ACCESS, uplink_frame(UE1, teid=0xdead))
        upf.bed.send(U.PORT_CORE, downlink_frame(U.Ue("172.16.9.9", 1, 2, 50)))
        expect_no_frame(upf.bed, ALL_PORTS)
    assert (ul.delta, dl.delta) == (1, 1)


def test_downlink_buffer_sends_packet_in(upf):
    c = upf.client
    c.insert(C.HUPF_INGRESS_UPF_DOWNLINK_SESSIONS, {C.HDR_UE_ADDR: ip2int(UE1.addr)},
             C.HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_BUF, **{C.SESSION_METER_IDX: 0})
    frame = downlink_frame(UE1)
    upf.bed.send(U.PORT_CORE, frame)
    got = c.packet_in()
    assert got is not None, "no packet-in for a buffering session"
    payload, md = got
    assert md[C.PKT_META_REASON] == C.PKTIN_DOWNLINK_BUFFER
    assert md[C.PKT_META_INGRESS_PORT] == U.PORT_CORE
    assert payload == bytes(frame)
    expect_no_frame(upf.bed, ALL_PORTS)


def _pfcp_frame():
    return Ether(src=U.GNB_MAC, dst=U.SWITCH_MAC) / IP(src=U.GNB_ADDR, dst=U.N3_ADDR) / UDP(
        sport=8805, dport=8805) / Raw(b"\x20\x01\x00\x04\x00\x00\x01\x00")


def test_acl_punt(upf):
    c = upf.client
    c.insert(C.HUPF_INGRESS_ACL_ACL, {C.HDR_IP_PROTO: (17, 0xFF), C.HDR_L4_DPORT: (8805, 0xFFFF)},
             C.HUPF_INGRESS_ACL_PUNT_TO_CPU, priority=10)
    frame = _pfcp_frame()
    upf.bed.send(U.PORT_ACCESS, frame)
    payload, md = c.packet_in() or (None, None)
    assert payload == bytes(frame)
    assert (md[C.PKT_META_REASON], md[C.PKT_META_INGRESS_PORT]) == (C.PKTIN_ACL_PUNT, U.PORT_ACCESS)
    expect_no_frame(upf.bed, ALL_PORTS)


def test_acl_drop_is_counted(upf):
    c = upf.client
    c.insert(C.HUPF_INGRESS_ACL_ACL, {C.HDR_IPV4_SRC: (ip2int("6.6.6.6"), 0xFFFFFFFF)},
             C.HUPF_INGRESS_ACL_DROP, priority=10)
    with DropDelta(c, C.DROP_ACL) as d:
        upf.bed.send(U.PORT_CORE, Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / user_packet("6.6.6.6", APP))
        expect_no_frame(upf.bed, ALL_PORTS)
    assert d.delta == 1


@pytest.mark.targets(*BMV2_TARGETS)
def test_acl_copy_to_cpu_and_forward(upf):
    c = upf.client
    upf.cpu_clone_session()
    c.insert(C.HUPF_INGRESS_ACL_ACL, {C.HDR_IP_PROTO: (1, 0xFF)}, C.HUPF_INGRESS_ACL_COPY_TO_CPU,
             priority=10)
    frame = Ether(src=U.GNB_MAC, dst=U.SWITCH_MAC) / user_packet("10.0.0.100", APP, proto="icmp")
    upf.bed.send(U.PORT_ACCESS, frame)
    expect_frame(upf.bed, U.PORT_CORE,
                 Ether(src=U.SWITCH_MAC, dst=U.DN_MAC) / user_packet("10.0.0.100", APP, proto="icmp",
                                                                      ttl=63))
    payload, md = c.packet_in() or (None, None)
    assert payload == bytes(frame) and md[C.PKT_META_REASON] == C.PKTIN_ACL_COPY


def test_packet_out(upf):
    frame = Ether(src=U.SWITCH_MAC, dst=U.GNB_MAC) / user_packet(U.N3_ADDR, U.GNB_ADDR, size=80)
    upf.client.packet_out(frame, **{C.PKT_META_EGRESS_PORT: U.PORT_ACCESS})
    expect_frame(upf.bed, U.PORT_ACCESS, frame)
    expect_no_frame(upf.bed, (U.PORT_CORE,))


def test_gtpu_echo_request_gets_response_with_recovery_ie(upf):
    upf.bed.send(U.PORT_ACCESS, echo_request(U.GNB_ADDR, U.N3_ADDR, seq=0x1234, sport=40000,
                                             eth_src=U.GNB_MAC, eth_dst=U.SWITCH_MAC))
    # TS 29.281 §7.2.2: type 2, same sequence number, Recovery IE (14) with counter 0.
    gtp = struct.pack("!BBHIHBB", 0x32, 2, 6, 0, 0x1234, 0, 0) + bytes([14, 0])
    expected = Ether(src=U.SWITCH_MAC, dst=U.GNB_MAC) / IP(src=U.N3_ADDR, dst=U.GNB_ADDR, id=0) / UDP(
        sport=2152, dport=40000, chksum=0) / Raw(gtp)
    expect_frame(upf.bed, U.PORT_ACCESS, expected)


def test_malformed_gtpu_dropped_and_counted(upf):
    c = upf.client
    U.session(c, UE1)
    inner = bytes(user_packet(UE1.addr, APP))
    teid = UE1.teid_ul
    unknown_ext = struct.pack("!HBB", 0, 0, 0xC0) + bytes([1, 0xAB, 0xCD, 0])
    cases = {
        "truncated": gpdu_header(teid, len(inner))[:5],
        "length": gpdu_header(teid, len(inner) + 10) + inner,
        "unknown_ext": gpdu_header(teid, len(inner) + 8, flags=0x34, ext=unknown_ext) + inner,
        "version": gpdu_header(teid, len(inner), flags=0x50) + inner,
    }
    with DropDelta(c, C.DROP_MALFORMED_GTPU) as d:
        for gtp in cases.values():
            upf.bed.send(U.PORT_ACCESS, raw_gtpu(gtp, U.GNB_ADDR, U.N3_ADDR, eth_src=U.GNB_MAC,
                                                 eth_dst=U.SWITCH_MAC))
        expect_no_frame(upf.bed, ALL_PORTS)
    assert d.delta == len(cases)
    # The same session still forwards well-formed traffic.
    upf.bed.send(U.PORT_ACCESS, uplink_frame(UE1))
    expect_frame(upf.bed, U.PORT_CORE, decapped(UE1))
