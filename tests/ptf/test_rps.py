"""Retroactive Packet Sampling (issue #16 part 4), target-agnostic over the hw profile: bmv2-hw and the
backend playing the switch (backend-hw).

Every receipt the device sends (packet-in PKTIN_RPS, or riding an HH report) is checked against the
reference model (hupf_tools.model.rps) fed with the same packets: point, kind, flow, digest and dnum
exactly; timestamps exactly on a target with a test clock, and on bmv2 (its own clock) by the contract's
condition between a delayed disclosure and its direct disclosure. A small effective buffer
(set_config's buffer_len) makes eviction happen with a few packets."""
import struct
import time

import pytest
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

import hupf_p4const as C
import hw_setup as H
import upf_setup as U
from hupf_tools.model import rps
from hupf_tools.model.rps import Config, FifoPoint, Receipt
from p4rt import P4RuntimeError
from packets import encapsulated, ip2int, user_packet
from ptfutil import drops, expect_frame, expect_no_frame
from test_upf import ALL_PORTS, APP, UE1, decapped, downlink_frame, encapped, uplink_frame

pytestmark = pytest.mark.targets("bmv2-hw", "backend-hw")

UPLINK, DOWNLINK = 0, 1
UE2 = U.Ue("172.16.0.2", teid_ul=0x101, teid_dl=0x201, ctr=20)
SELECT_ALL = rps.MASK32          # every receipt outside the quiet time whose CRC pair is not all ones
HH_REPORT_LEN = 12               # hh_report_t
GAP_S = 0.001                    # between packets: distinct timestamps on both targets
OBSERVED_TIMEOUT_S = 5.0


@pytest.fixture
def rps_dut(dut):
    """The UPF of test_upf with UE1's session, the CPU clone session, and RPS off."""
    U.base(dut.client)
    H.start_clock(dut)
    dut.cpu_clone_session()
    configure(dut.client, Config(rps.MODE_OFF))
    U.session(dut.client, UE1)
    return dut


def configure(c, cfg):
    c.set_default(C.HUPF_INGRESS_RPS_CONFIG, C.HUPF_INGRESS_RPS_SET_CONFIG,
                  **{C.MODE: cfg.mode, C.QUIET_US: cfg.quiet_us, C.SELECT_THRESHOLD: cfg.select_threshold,
                     C.BUFFER_LEN: cfg.buffer_len})


def sample(c, ue, direction, flow_id, disc_threshold, plen=32):
    c.insert(C.HUPF_INGRESS_RPS_FLOWS, {C.HDR_UE_ADDR: (ip2int(ue.addr), plen), C.HDR_DIRECTION: direction},
             C.HUPF_INGRESS_RPS_SET_FLOW, **{C.FLOW_ID: flow_id, C.DISC_THRESHOLD: disc_threshold})


def digest_of(ip_packet):
    return rps.user_digest(bytes(ip_packet))


def uplink_user(ue, sport):
    return user_packet(ue.addr, APP, sport=sport)


def downlink_user(ue, dport):
    return user_packet(APP, ue.addr, sport=80, dport=dport)


class Run:
    """Sends user packets through the device and the model alike and collects the receipts."""

    def __init__(self, dut, cfg):
        self.dut, self.cfg = dut, cfg
        self.model = {rps.POINT_IN: FifoPoint(rps.POINT_IN), rps.POINT_OUT: FifoPoint(rps.POINT_OUT)}
        self.expected = []
        self.sent = 0

    def now_us(self):
        """The model's timestamp: the device's on a test clock, else one that grows with every packet
        sent (bmv2 stamps with its own clock; receipts are then compared without timestamps)."""
        return self.dut.clock_ns // 1000 if self.dut.has_test_clock else self.sent

    def observe(self, point, flow_id, disc_threshold, digest):
        r = self.model[point].observe(self.cfg, flow_id, disc_threshold, digest, self.now_us())
        if r is not None:
            self.expected.append(r)

    def send(self, port, frame, flow_id, disc_threshold, digest, out=None):
        """frame in on port, observed at IN; out = (port, frame) it leaves as, observed at OUT. Without a
        frame to wait for, the IN observation (its counter) says the device took the packet: on a test
        clock, the clock must not move before."""
        observed = None if out else events(self.dut.client, rps.POINT_IN)[rps.EV_OBSERVED]
        self.dut.bed.send(port, frame)
        self.sent += 1
        self.observe(rps.POINT_IN, flow_id, disc_threshold, digest)
        if out is not None:
            expect_frame(self.dut.bed, *out)
            self.observe(rps.POINT_OUT, flow_id, disc_threshold, digest)
        else:
            deadline = time.monotonic() + OBSERVED_TIMEOUT_S
            while events(self.dut.client, rps.POINT_IN)[rps.EV_OBSERVED] == observed:
                assert time.monotonic() < deadline, "%s: the packet was not observed at IN" % self.dut.target
                time.sleep(0.01)
        H.pause(self.dut, GAP_S)

    def uplink(self, ue, sport, flow_id, disc_threshold):
        user = uplink_user(ue, sport)
        self.send(U.PORT_ACCESS, uplink_frame(ue, sport=sport), flow_id, disc_threshold, digest_of(user),
                  (U.PORT_CORE, decapped(ue, sport=sport)))

    def downlink(self, ue, dport, flow_id, disc_threshold):
        user = downlink_user(ue, dport)
        self.send(U.PORT_CORE, downlink_frame(ue, dport=dport), flow_id, disc_threshold, digest_of(user),
                  (U.PORT_ACCESS, encapped(ue, dport=dport)))

    def check(self):
        """The device's receipts are the model's; returns them (their packet-ins' ingress ports in
        self.ingress_ports)."""
        pairs = receipts(self.dut.client)
        got = [r for r, _ in pairs]
        self.ingress_ports = [port for _, port in pairs]
        assert_same_receipts(self.dut, got, self.expected, self.cfg)
        return got


def receipts(c, timeout=1.0):
    """[(Receipt, packet_in.ingress_port)] of the RPS packet-ins until none comes for `timeout`; any other
    packet-in fails the test."""
    out = []
    for payload, md in c.packet_ins_until_quiet(timeout):
        assert md[C.PKT_META_REASON] == C.PKTIN_RPS, "unexpected packet-in %s: %s" % (md, payload.hex())
        assert len(payload) == rps.RECEIPT_LEN, "an RPS packet-in is the receipt alone: %s" % payload.hex()
        out.append((Receipt.unpack(payload), md[C.PKT_META_INGRESS_PORT]))
    return out


def assert_same_receipts(dut, got, expected, cfg):
    # Each point keeps its order; the two points' copies come from different pipeline stages.
    for point in (rps.POINT_IN, rps.POINT_OUT):
        g = [r for r in got if r.point == point]
        e = [r for r in expected if r.point == point]
        if dut.has_test_clock:
            assert g == e, "point %d" % point
        else:
            assert [r.without_ts() for r in g] == [r.without_ts() for r in e], "point %d" % point
    # The contract's quiet-time condition, on the device's own timestamps.
    direct = {(r.point, r.flow_id, r.dnum): r for r in got if r.kind == rps.KIND_DIRECT}
    for r in got:
        if r.kind == rps.KIND_DELAYED:
            d = direct[(r.point, r.flow_id, r.dnum)]
            assert (d.ts - r.ts) & rps.MASK32 > cfg.quiet_us, (r, d)


def events(c, point):
    """The point's rps.events counter cells (packets), in the model's order."""
    name = C.HUPF_INGRESS_RPS_EVENTS if point == rps.POINT_IN else C.HUPF_EGRESS_RPS_EVENTS
    return [c.counter(name, point * C.RPS_EVENTS + k)[0] for k in range(C.RPS_EVENTS)]


def ports_with(digest_of_port, threshold, direct, count, start=5000):
    """`count` L4 ports, in order, whose packet is a direct disclosure (digest below threshold) exactly
    where `direct` says: the model's digests choose them."""
    ports, port = [], start
    for i in range(count):
        while (digest_of_port(port) < threshold) != (i in direct):
            port += 1
        ports.append(port)
        port += 1
    return ports


@pytest.mark.parametrize("quiet_us,select_threshold", [(0, SELECT_ALL), (0, 1 << 31), (10_000_000, SELECT_ALL)],
                         ids=["all_selected", "half_selected", "all_in_quiet_time"])
@pytest.mark.parametrize("direction", [UPLINK, DOWNLINK], ids=["uplink", "downlink"])
def test_fifo_rps_at_in_and_out_follows_the_model(rps_dut, direction, quiet_us, select_threshold):
    """A buffer of 4 receipts, 16 packets, disclosures at packets 3 and 9: packets 0-2 wait for disclosure
    0 and are disclosed when 5-7 evict them; 4 is evicted (by 8) before disclosure 1 came: a late warning;
    5-8 are disclosed by it when 10-13 evict them; 10 (dnum 2) leaves undisclosed: a warning; 11 (dnum 2
    too) only counts. The same at OUT, each point on its own. Which evicted receipts are disclosed is the
    selection's (sigma) and the quiet time's: 10 s keeps every one of these packets inside it."""
    c = rps_dut.client
    cfg = Config(rps.MODE_DATA_PLANE, quiet_us=quiet_us, select_threshold=select_threshold, buffer_len=4)
    configure(c, cfg)
    threshold = 1 << 29   # one packet in 8 is direct
    sample(c, UE1, direction, 7, threshold)
    if direction == UPLINK:
        digest, send = (lambda p: digest_of(uplink_user(UE1, p))), Run.uplink
    else:
        digest, send = (lambda p: digest_of(downlink_user(UE1, p))), Run.downlink
    run = Run(rps_dut, cfg)
    for port in ports_with(digest, threshold, {3, 9}, 16):
        send(run, UE1, port, 7, threshold)
    got = run.check()
    kinds = [r.kind for r in got if r.point == rps.POINT_IN]
    assert kinds.count(rps.KIND_DIRECT) == 2 and kinds.count(rps.KIND_LATE) == 2
    for point in (rps.POINT_IN, rps.POINT_OUT):
        assert events(c, point) == run.model[point].events
    assert run.model[rps.POINT_IN].events[rps.EV_LATE_REPEATED] == 1
    delayed = kinds.count(rps.KIND_DELAYED)
    if quiet_us:
        assert delayed == 0
    elif select_threshold == SELECT_ALL:
        assert delayed == 7


def test_late_warning_once_per_disclosure_number(rps_dut):
    c = rps_dut.client
    cfg = Config(rps.MODE_DATA_PLANE, quiet_us=0, select_threshold=SELECT_ALL, buffer_len=1)
    configure(c, cfg)
    threshold = 1 << 29
    sample(c, UE1, UPLINK, 3, threshold)
    run = Run(rps_dut, cfg)
    # r0 r1 r2 d0 r3 r4 r5: r0 warned (dnum 0), r1 only counted, r2 disclosed by d0, r3 warned (dnum 1).
    for port in ports_with(lambda p: digest_of(uplink_user(UE1, p)), threshold, {3}, 7):
        run.uplink(UE1, port, 3, threshold)
    got = run.check()
    assert [(r.kind, r.dnum) for r in got if r.point == rps.POINT_IN] == [
        (rps.KIND_LATE, 0), (rps.KIND_DIRECT, 0), (rps.KIND_DELAYED, 0), (rps.KIND_LATE, 1)]
    assert events(c, rps.POINT_IN)[rps.EV_LATE_REPEATED] == 2


def test_the_tracker_judges_after_rps_track_depth_disclosures_and_counts_an_overrun_after_one_more(rps_dut):
    """The pipeline's tracker keeps RPS_TRACK_DEPTH disclosures per flow (its P4Info: rps_track_dnum over
    rps_next_dnum): a receipt evicted after that many of its flow's disclosures is still disclosed, one evicted
    after one more is a tracker overrun, counted and never disclosed or warned of."""
    c = rps_dut.client
    depth = c.p4info.get("registers", C.RPS_TRACK_DNUM).size // c.p4info.get("registers", C.RPS_NEXT_DNUM).size
    assert depth == rps.TRACK_DEPTH
    cfg = Config(rps.MODE_DATA_PLANE, quiet_us=0, select_threshold=SELECT_ALL, buffer_len=1)
    configure(c, cfg)
    threshold = 1 << 31
    sample(c, UE1, UPLINK, 5, threshold)
    run = Run(rps_dut, cfg)
    # r0, depth disclosures (dnums 0..depth-1), r1 evicts r0 (dnum 0: judged); depth + 1 more disclosures
    # (dnum 2 depth took dnum depth's slot), r2 evicts r1 (dnum depth: overrun).
    direct = set(range(1, depth + 1)) | set(range(depth + 2, 2 * depth + 3))
    for port in ports_with(lambda p: digest_of(uplink_user(UE1, p)), threshold, direct, 2 * depth + 4):
        run.uplink(UE1, port, 5, threshold)
    got = run.check()
    assert [(r.kind, r.dnum) for r in got if r.point == rps.POINT_IN and r.kind != rps.KIND_DIRECT] == [
        (rps.KIND_DELAYED, 0)]
    assert events(c, rps.POINT_IN)[rps.EV_TRACK_OVERRUN] == 1
    assert events(c, rps.POINT_OUT) == run.model[rps.POINT_OUT].events


def test_mode_2_sends_one_receipt_per_packet_at_each_point(rps_dut):
    c = rps_dut.client
    cfg = Config(rps.MODE_HYBRID)
    configure(c, cfg)
    sample(c, UE1, UPLINK, 1, 0)
    sample(c, UE1, DOWNLINK, 2, rps.MASK32)   # thresholds play no part in mode 2
    run = Run(rps_dut, cfg)
    for i in range(3):
        run.uplink(UE1, 6000 + i, 1, 0)
        run.downlink(UE1, 7000 + i, 2, rps.MASK32)
    got = run.check()
    assert len(got) == 12 and {r.kind for r in got} == {rps.KIND_RECEIPT}
    by_point = {p: {r.digest: r for r in got if r.point == p} for p in (rps.POINT_IN, rps.POINT_OUT)}
    assert by_point[rps.POINT_IN].keys() == by_point[rps.POINT_OUT].keys()
    for digest, r_in in by_point[rps.POINT_IN].items():   # one clock: a packet leaves after it arrived
        assert (by_point[rps.POINT_OUT][digest].ts - r_in.ts) & rps.MASK32 < 1_000_000
    for point in (rps.POINT_IN, rps.POINT_OUT):
        assert events(c, point)[rps.EV_EXPORTED] == 6


def test_mode_0_and_unsampled_flows_emit_nothing(rps_dut):
    c = rps_dut.client
    U.session(c, UE2)
    sample(c, UE1, UPLINK, 1, rps.MASK32)                        # every packet would be direct
    configure(c, Config(rps.MODE_HYBRID))
    rps_dut.bed.send(U.PORT_ACCESS, uplink_frame(UE2))          # UE2: no flow
    expect_frame(rps_dut.bed, U.PORT_CORE, decapped(UE2))
    rps_dut.bed.send(U.PORT_CORE, downlink_frame(UE1))         # UE1 downlink: no flow
    expect_frame(rps_dut.bed, U.PORT_ACCESS, encapped(UE1))
    configure(c, Config(rps.MODE_OFF))
    rps_dut.bed.send(U.PORT_ACCESS, uplink_frame(UE1))          # sampled, but RPS is off
    expect_frame(rps_dut.bed, U.PORT_CORE, decapped(UE1))
    assert receipts(c) == []
    assert events(c, rps.POINT_IN) == [0] * C.RPS_EVENTS
    assert events(c, rps.POINT_OUT) == [0] * C.RPS_EVENTS


@pytest.mark.parametrize("cause", ["termination_miss", "no_backend", "egress_tunnel_peer_miss"])
def test_packet_dropped_after_in_is_disclosed_at_in_only(rps_dut, cause):
    """Dropped in ingress (counted by reason) or in egress (a tunnel peer without egress parameters):
    disclosed at IN, never at OUT."""
    c = rps_dut.client
    ue = U.Ue("172.16.0.9", teid_ul=0x109, teid_dl=0x209, ctr=40)
    direction, reason = UPLINK, None
    if cause == "termination_miss":
        U.uplink_session(c, ue)
        reason = C.DROP_TERMINATION_MISS
    elif cause == "no_backend":
        reason = C.DROP_NO_BACKEND     # no session, no backend group: the miss cannot be steered
    else:
        peer = U.TUN_PEER + 1
        c.insert(C.HUPF_INGRESS_UPF_IG_TUNNEL_PEERS, {C.HDR_TUN_PEER_ID: peer},
                 C.HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST, **{C.TUN_DST_ADDR: ip2int(U.GNB_ADDR)})
        U.downlink_session(c, ue, peer=peer)
        U.terminations(c, ue)
        direction = DOWNLINK
    cfg = Config(rps.MODE_DATA_PLANE, buffer_len=4)
    configure(c, cfg)
    sample(c, ue, direction, 9, rps.MASK32)
    run = Run(rps_dut, cfg)
    if direction == UPLINK:
        port, frame, user = U.PORT_ACCESS, uplink_frame(ue), uplink_user(ue, 4000)
    else:
        port, frame, user = U.PORT_CORE, downlink_frame(ue), downlink_user(ue, 4000)
    before = drops(c, reason) if reason else None
    run.send(port, frame, 9, rps.MASK32, digest_of(user))
    expect_no_frame(rps_dut.bed, ALL_PORTS)
    got = run.check()
    assert [(r.point, r.kind) for r in got] == [(rps.POINT_IN, rps.KIND_DIRECT)]
    if reason:
        assert drops(c, reason) == before + 1
    assert events(c, rps.POINT_OUT)[rps.EV_OBSERVED] == 0


@pytest.mark.parametrize("direction", [UPLINK, DOWNLINK], ids=["uplink", "downlink"])
def test_hybrid_path_observed_in_on_arrival_and_out_on_return_from_the_backend(rps_dut, direction):
    """A session miss goes to a backend (IN, no OUT: it does not leave hupf); the backend's result comes
    back on its port (no IN) and leaves hupf (OUT): the same digest at both points."""
    c = rps_dut.client
    ue = U.Ue("172.16.0.8", teid_ul=0x108, teid_dl=0x208, ctr=50)
    H.backend_group(c, [U.PORT_BACKEND1])
    c.insert(C.HUPF_INGRESS_STEERING_BACKEND_PORTS, {C.HDR_IG_PORT: U.PORT_BACKEND1},
             C.HUPF_INGRESS_STEERING_FROM_BACKEND)
    cfg = Config(rps.MODE_DATA_PLANE, buffer_len=4)
    configure(c, cfg)
    sample(c, ue, direction, 11, rps.MASK32)
    run = Run(rps_dut, cfg)
    if direction == UPLINK:
        user, frame, in_port = uplink_user(ue, 4000), uplink_frame(ue), U.PORT_ACCESS
        # The backend's output: the decapsulated packet, routed on to the data network.
        back = Ether(src=H.BACKEND_MACS[U.PORT_BACKEND1], dst=U.SWITCH_MAC) / user_packet(
            ue.addr, APP, ttl=63)
        out = (U.PORT_CORE, Ether(src=U.SWITCH_MAC, dst=U.DN_MAC) / user_packet(ue.addr, APP, ttl=62))
    else:
        user, frame, in_port = downlink_user(ue, 4000), downlink_frame(ue), U.PORT_CORE
        inner = user_packet(APP, ue.addr, sport=80, dport=4000, ttl=63)
        back = encapsulated(inner, ue.teid_dl, U.N3_ADDR, U.GNB_ADDR, U.TUN_SPORT,
                            eth_src=H.BACKEND_MACS[U.PORT_BACKEND1], eth_dst=U.SWITCH_MAC)
        routed = Ether(bytes(back))
        routed.src, routed.dst = U.SWITCH_MAC, U.GNB_MAC
        routed[IP].ttl = 63
        del routed[IP].chksum
        out = (U.PORT_ACCESS, Ether(bytes(routed)))
    digest = digest_of(user)
    run.send(in_port, frame, 11, rps.MASK32, digest)
    steered = Ether(bytes(frame))
    steered.dst = H.BACKEND_MACS[U.PORT_BACKEND1]
    expect_frame(rps_dut.bed, U.PORT_BACKEND1, steered)
    rps_dut.bed.send(U.PORT_BACKEND1, back)
    expect_frame(rps_dut.bed, *out)
    run.observe(rps.POINT_OUT, 11, rps.MASK32, digest)
    got = run.check()
    assert [(r.point, r.kind, r.digest) for r in got] == [
        (rps.POINT_IN, rps.KIND_DIRECT, digest), (rps.POINT_OUT, rps.KIND_DIRECT, digest)]
    assert run.ingress_ports == [in_port, U.PORT_BACKEND1]   # the packet's ingress port at each point


def test_hh_report_and_receipt_ride_one_packet_in(rps_dut):
    """HK-IPG with tiny thresholds: UE1's second packet (a new 1 us timeslot) is heavy and reported; its
    IN receipt rides the report (HH_FLAG_RPS), the first packet's goes alone."""
    c = rps_dut.client
    H.hh_params(c, tau_th=1, ipg_init=1000, ipg_th=1000, decay_k=1, timeslot_us=1, alpha_shift=7)
    H.tau_entries(c, [(1, rps.MASK32, 1)])   # every EWMA the flow can have (0..max is no range to P4Runtime)
    cfg = Config(rps.MODE_DATA_PLANE, buffer_len=4)
    configure(c, cfg)
    sample(c, UE1, UPLINK, 5, rps.MASK32)
    run = Run(rps_dut, cfg)
    frames = [uplink_frame(UE1, sport=8000 + i) for i in range(2)]
    for i, frame in enumerate(frames):
        run.send(U.PORT_ACCESS, frame, 5, rps.MASK32, digest_of(uplink_user(UE1, 8000 + i)),
                 (U.PORT_CORE, decapped(UE1, sport=8000 + i)))
    alone, riding = [], []
    for payload, md in c.packet_ins_until_quiet(1.0):
        if md[C.PKT_META_REASON] == C.PKTIN_HH_REPORT:
            riding.append(payload)
        else:
            assert md[C.PKT_META_REASON] == C.PKTIN_RPS, md
            alone.append(Receipt.unpack(payload))
    assert len(riding) == 1, "expected one HH report, got %d" % len(riding)
    report = riding[0]
    flow_key, _, _, flags = struct.unpack_from("!IIHB", report)
    assert flow_key == ip2int(UE1.addr)
    assert flags == C.HH_FLAG_RPS                    # a hw session (no backend), a receipt
    rider = Receipt.unpack(report[HH_REPORT_LEN:])
    assert report[HH_REPORT_LEN + rps.RECEIPT_LEN:] == bytes(frames[1])[:64]
    assert_same_receipts(rps_dut, alone + [rider], run.expected, cfg)
    assert (rider.point, rider.kind, rider.dnum) == (rps.POINT_IN, rps.KIND_DIRECT, 1)


def test_flow_id_outside_the_state_is_refused_or_counted(rps_dut):
    """flow_id >= RPS_FLOWS: the backend refuses the entry; bmv2, which cannot refuse an action's
    parameters, observes nothing and counts the packet invalid."""
    c = rps_dut.client
    configure(c, Config(rps.MODE_HYBRID))
    flows = c.p4info.get("registers", C.RPS_NEXT_DNUM).size // C.RPS_POINTS
    if not rps_dut.target.startswith("bmv2"):
        with pytest.raises(P4RuntimeError, match="INVALID_ARGUMENT"):
            sample(c, UE1, UPLINK, flows, 0)
        return
    sample(c, UE1, UPLINK, flows, 0)
    rps_dut.bed.send(U.PORT_ACCESS, uplink_frame(UE1))
    expect_frame(rps_dut.bed, U.PORT_CORE, decapped(UE1))
    assert receipts(c) == []
    assert events(c, rps.POINT_IN) == [0] * rps.EV_INVALID + [1]
    assert events(c, rps.POINT_OUT)[rps.EV_INVALID] == 1


def test_receipt_replaces_an_acl_copy_of_the_same_packet(rps_dut):
    """One CPU copy per packet at ingress: a packet the ACL copies and IN discloses gives the receipt; a
    packet of an unsampled flow gives the ACL copy."""
    c = rps_dut.client
    U.session(c, UE2)
    c.insert(C.HUPF_INGRESS_ACL_ACL, {C.HDR_IPV4_SRC: (ip2int(APP), rps.MASK32)}, C.HUPF_INGRESS_ACL_COPY_TO_CPU,
             priority=10)
    cfg = Config(rps.MODE_DATA_PLANE, buffer_len=4)
    configure(c, cfg)
    sample(c, UE1, DOWNLINK, 4, rps.MASK32)
    run = Run(rps_dut, cfg)
    run.downlink(UE1, 4000, 4, rps.MASK32)
    got = run.check()
    assert [(r.point, r.kind) for r in got] == [(rps.POINT_IN, rps.KIND_DIRECT), (rps.POINT_OUT, rps.KIND_DIRECT)]
    rps_dut.bed.send(U.PORT_CORE, downlink_frame(UE2))
    expect_frame(rps_dut.bed, U.PORT_ACCESS, encapped(UE2))
    assert [md[C.PKT_META_REASON] for _, md in c.packet_ins_until_quiet(1.0)] == [C.PKTIN_ACL_COPY]
