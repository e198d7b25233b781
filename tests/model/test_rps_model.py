"""The RPS reference model (tools/hupf_tools/model/rps.py) against hand-worked cases of the contract
(docs/PIPELINE_CONTRACT.md, "Retroactive Packet Sampling (RPS)")."""
import random
import struct
import zlib

import pytest

import hupf_p4const as C
import targets
from hupf_tools.model import rps
from p4rt import P4Info
from hupf_tools.model.rps import (Config, FifoPoint, Receipt, ReferencePoint, MODE_DATA_PLANE, MODE_HYBRID,
                                  MODE_OFF, KIND_DIRECT, KIND_DELAYED, KIND_LATE, KIND_RECEIPT, MASK32)

ALWAYS = MASK32   # select_threshold: every pair whose CRC is not 0xFFFFFFFF is selected
DISC = 100        # disc_threshold: digests below it are direct disclosures


def fifo_run(point, cfg, packets, flow=1, disc=DISC):
    """Feeds (digest, ts) packets of one flow; the receipts emitted, in order."""
    out = []
    for digest, ts in packets:
        r = point.observe(cfg, flow, disc, digest, ts)
        if r is not None:
            out.append(r)
    return out


def test_model_constants_are_the_p4_programs():
    assert (rps.POINT_IN, rps.POINT_OUT) == (C.RPS_POINT_IN, C.RPS_POINT_OUT)
    assert (rps.MODE_OFF, rps.MODE_DATA_PLANE, rps.MODE_HYBRID) == (
        C.RPS_MODE_OFF, C.RPS_MODE_DATA_PLANE, C.RPS_MODE_HYBRID)
    assert (KIND_DIRECT, KIND_DELAYED, KIND_RECEIPT, KIND_LATE) == (
        C.RPS_KIND_DIRECT, C.RPS_KIND_DELAYED, C.RPS_KIND_RECEIPT, C.RPS_KIND_LATE)
    assert [rps.EV_OBSERVED, rps.EV_DIRECT, rps.EV_DELAYED, rps.EV_LATE, rps.EV_TRACK_OVERRUN, rps.EV_EXPORTED,
            rps.EV_LATE_REPEATED, rps.EV_INVALID] == [
        C.RPS_EV_OBSERVED, C.RPS_EV_DIRECT, C.RPS_EV_DELAYED, C.RPS_EV_LATE, C.RPS_EV_TRACK_OVERRUN,
        C.RPS_EV_EXPORTED, C.RPS_EV_LATE_REPEATED, C.RPS_EV_INVALID]
    assert rps.RECEIPT_LEN + 3 == C.RPS_RECEIPT_TRUNC_LEN


def test_model_sizes_are_the_hw_p4infos():
    """The model's sizes are the committed hw P4Info's registers (size_hw.p4): receipts and flows per point, and
    the tracker's depth, its cells over the flows' (what the backend and the control plane read)."""
    info = P4Info.from_text_file(targets.artifacts("hw")[0])
    size = {name: info.get("registers", name).size for name in (C.RPS_BUF_FLOW, C.RPS_NEXT_DNUM, C.RPS_TRACK_DNUM)}
    assert size[C.RPS_BUF_FLOW] == C.RPS_POINTS * rps.BUFFER_SIZE
    assert size[C.RPS_NEXT_DNUM] == C.RPS_POINTS * rps.FLOWS
    assert size[C.RPS_TRACK_DNUM] == C.RPS_POINTS * rps.FLOWS * rps.TRACK_DEPTH


def test_the_trackers_depth_is_a_power_of_two_below_2_16():
    for depth in (0, 3, 48, 1 << 16):
        with pytest.raises(ValueError, match="power of two below 2\\^16, got %d" % depth):
            FifoPoint(rps.POINT_IN, track_depth=depth)


def test_receipt_bytes_round_trip_and_padding_is_checked():
    r = Receipt(1, KIND_DELAYED, 0x1234, 0xdeadbeef, 0x01020304, 7)
    data = r.pack()
    assert data == bytes([1, 2, 0x12, 0x34, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 0, 7, 0, 0])
    assert Receipt.unpack(data + b"trailing") == r
    with pytest.raises(ValueError, match="padding"):
        Receipt.unpack(data[:-1] + b"\1")
    with pytest.raises(ValueError, match="16 bytes"):
        Receipt.unpack(data[:15])


def ipv4(proto, l4, ttl=64, dscp=0, ihl=5, ident=0x1234, src=0x0a000001, dst=0xc0a80002, checksum=0):
    options = b"\1" * 4 * (ihl - 5)
    total = 4 * ihl + len(l4)
    hdr = struct.pack("!BBHHHBBHII", 0x40 | ihl, dscp << 2, total, ident, 0, ttl, proto, checksum, src, dst)
    return hdr + options + l4


def test_digest_covers_the_contracts_21_bytes():
    udp = struct.pack("!HHHH", 1000, 2000, 12, 0xabcd) + b"data"
    pkt = ipv4(17, udp)
    head = struct.pack("!IIHHB", 0x0a000001, 0xc0a80002, 0x1234, len(pkt), 17)
    assert rps.user_digest(pkt) == zlib.crc32(head + udp[:8])
    tcp = struct.pack("!HHII", 80, 443, 0x11223344, 0x55667788) + bytes(12)
    pkt = ipv4(6, tcp)
    assert rps.user_digest(pkt) == zlib.crc32(struct.pack("!IIHHB", 0x0a000001, 0xc0a80002, 0x1234, len(pkt), 6)
                                              + tcp[:8])
    icmp = struct.pack("!BBHHH", 8, 0, 0x7777, 1, 2)
    pkt = ipv4(1, icmp)
    assert rps.user_digest(pkt) == zlib.crc32(struct.pack("!IIHHB", 0x0a000001, 0xc0a80002, 0x1234, len(pkt), 1)
                                              + icmp[:4] + bytes(4))
    for proto, l4, ihl in ((47, b"\1" * 8, 5), (17, udp, 6)):   # other protocol; L4 behind options
        pkt = ipv4(proto, l4, ihl=ihl)
        assert rps.user_digest(pkt) == zlib.crc32(
            struct.pack("!IIHHB", 0x0a000001, 0xc0a80002, 0x1234, len(pkt), proto) + bytes(8))


def test_digest_ignores_what_hupf_changes_and_sees_the_rest():
    udp = struct.pack("!HHHH", 1000, 2000, 8, 0)
    base = rps.user_digest(ipv4(17, udp))
    assert rps.user_digest(ipv4(17, udp, ttl=3, dscp=46, checksum=0x5555)) == base
    assert rps.user_digest(ipv4(17, udp, ident=0x1235)) != base
    assert rps.user_digest(ipv4(17, struct.pack("!HHHH", 1000, 2001, 8, 0))) != base


def test_digest_refuses_what_the_parser_refuses():
    with pytest.raises(ValueError, match="IPv4"):
        rps.user_digest(b"\x60" + bytes(39))
    with pytest.raises(ValueError, match="cut short"):
        rps.user_digest(ipv4(17, b"\0\1\0\2"))


def test_buffer_of_4_disclosure_then_delayed_quiet_time_and_late_warning():
    cfg = Config(MODE_DATA_PLANE, quiet_us=10, select_threshold=ALWAYS, buffer_len=4)
    p = FifoPoint(rps.POINT_IN)
    # r1..r3 wait in the buffer for disclosure 0; d0 discloses directly.
    out = fifo_run(p, cfg, [(1000, 0), (1001, 5), (1002, 20), (50, 30)])
    assert out == [Receipt(0, KIND_DIRECT, 1, 50, 30, 0)]
    # r4 takes the 4th slot (judged by disclosure 1); r5, r6, r7 evict r1, r2, r3: r1 and r2 are
    # more than quiet_us older than d0, r3 is exactly quiet_us older (inside the quiet time).
    out = fifo_run(p, cfg, [(1003, 31), (1004, 32), (1005, 33), (1006, 34)])
    assert out == [Receipt(0, KIND_DELAYED, 1, 1000, 0, 0), Receipt(0, KIND_DELAYED, 1, 1001, 5, 0)]
    # r8 evicts r4, whose disclosure 1 has not come: one late warning for dnum 1; r9 evicts r5
    # (also dnum 1): counted only.
    out = fifo_run(p, cfg, [(1007, 35), (1008, 36)])
    assert out == [Receipt(0, KIND_LATE, 1, 1003, 31, 1)]
    assert p.events == [10, 1, 2, 1, 0, 0, 1, 0]


def test_unselected_receipt_is_not_disclosed():
    cfg = Config(MODE_DATA_PLANE, quiet_us=0, select_threshold=0, buffer_len=1)
    p = FifoPoint(rps.POINT_OUT)
    out = fifo_run(p, cfg, [(1000, 1), (7, 2), (1001, 3)])
    assert out == [Receipt(1, KIND_DIRECT, 1, 7, 2, 0)]
    assert p.events[rps.EV_DELAYED] == 0


def test_selection_is_crc32_of_both_digests_below_sigma():
    pair = struct.pack("!II", 1000, 7)
    threshold = zlib.crc32(pair)
    for sel, disclosed in ((threshold, False), (threshold + 1, True)):
        p = FifoPoint(rps.POINT_IN)
        out = fifo_run(p, Config(MODE_DATA_PLANE, 0, sel, 1), [(1000, 1), (7, 2), (1001, 3)])
        assert (Receipt(0, KIND_DELAYED, 1, 1000, 1, 0) in out) == disclosed


def test_quiet_time_wraps_with_the_32_bit_clock():
    cfg = Config(MODE_DATA_PLANE, quiet_us=10, select_threshold=ALWAYS, buffer_len=1)
    p = FifoPoint(rps.POINT_IN)
    out = fifo_run(p, cfg, [(1000, MASK32 - 5), (7, 20), (1001, 21)])
    assert Receipt(0, KIND_DELAYED, 1, 1000, MASK32 - 5, 0) in out


def test_flows_are_judged_by_their_own_disclosures():
    cfg = Config(MODE_DATA_PLANE, quiet_us=0, select_threshold=ALWAYS, buffer_len=2)
    p = FifoPoint(rps.POINT_IN)
    assert p.observe(cfg, 1, DISC, 1000, 1) is None
    assert p.observe(cfg, 2, DISC, 2000, 2) is None
    assert p.observe(cfg, 1, DISC, 5, 3) == Receipt(0, KIND_DIRECT, 1, 5, 3, 0)
    # flow 1's receipt was disclosed by flow 1's disclosure 0; flow 2 never disclosed: late.
    assert p.observe(cfg, 3, DISC, 3000, 4) == Receipt(0, KIND_DELAYED, 1, 1000, 1, 0)
    assert p.observe(cfg, 3, DISC, 3001, 5) == Receipt(0, KIND_LATE, 2, 2000, 2, 0)


def test_tracker_overrun_when_the_disclosure_is_older_than_the_tracker():
    cfg = Config(MODE_DATA_PLANE, quiet_us=0, select_threshold=ALWAYS, buffer_len=2)
    p = FifoPoint(rps.POINT_IN)
    fifo_run(p, cfg, [(1000, 1)] + [(d, 1 + d) for d in range(1, rps.TRACK_DEPTH + 2)])
    # disclosures 0..4: dnum 4 took dnum 0's tracker slot before the receipt of dnum 0 left.
    assert fifo_run(p, cfg, [(1001, 10), (1002, 11)]) == []
    assert p.events[rps.EV_TRACK_OVERRUN] == 1


def test_a_deeper_tracker_still_judges_what_the_data_planes_overruns():
    """The bench's what-if: the same packets with twice the data plane's tracker disclose the receipt."""
    cfg = Config(MODE_DATA_PLANE, quiet_us=0, select_threshold=ALWAYS, buffer_len=2)
    p = FifoPoint(rps.POINT_IN, track_depth=2 * rps.TRACK_DEPTH)
    fifo_run(p, cfg, [(1000, 1)] + [(d, 1 + d) for d in range(1, rps.TRACK_DEPTH + 2)])
    assert [(r.kind, r.digest, r.dnum) for r in fifo_run(p, cfg, [(1001, 10), (1002, 11)])] == [
        (KIND_DELAYED, 1000, 0)]
    assert p.events[rps.EV_TRACK_OVERRUN] == 0


def test_late_warning_once_per_dnum_and_again_for_the_next():
    cfg = Config(MODE_DATA_PLANE, quiet_us=0, select_threshold=ALWAYS, buffer_len=1)
    p = FifoPoint(rps.POINT_IN)
    out = fifo_run(p, cfg, [(1000, 1), (1001, 2), (1002, 3), (5, 4), (1003, 5), (1004, 6), (1005, 7)])
    assert [(r.kind, r.digest, r.dnum) for r in out] == [
        (KIND_LATE, 1000, 0), (KIND_DIRECT, 5, 0), (KIND_DELAYED, 1002, 0), (KIND_LATE, 1003, 1)]
    assert p.events[rps.EV_LATE_REPEATED] == 2   # 1001 (dnum 0) and 1004 (dnum 1)


def test_shrinking_the_buffer_restarts_the_head_and_leaves_slots_behind():
    p = FifoPoint(rps.POINT_IN, buffer_size=8)
    cfg4 = Config(MODE_DATA_PLANE, quiet_us=0, select_threshold=ALWAYS, buffer_len=4)
    fifo_run(p, cfg4, [(1000 + i, i) for i in range(3)])
    cfg2 = Config(MODE_DATA_PLANE, quiet_us=0, select_threshold=ALWAYS, buffer_len=2)
    assert p.observe(cfg2, 1, DISC, 2000, 10) == Receipt(0, KIND_LATE, 1, 1000, 0, 0)
    assert p.head == 1
    fifo_run(p, cfg2, [(2001, 11), (2002, 12)])
    assert p.buffer[2].digest == 1002   # past the new length: never evicted again


def test_mode_2_exports_every_receipt_and_mode_0_nothing():
    p = FifoPoint(rps.POINT_OUT)
    hybrid = Config(MODE_HYBRID, buffer_len=0)   # no buffer in mode 2: its length does not matter
    assert fifo_run(p, hybrid, [(5, 1), (1000, 2)]) == [
        Receipt(1, KIND_RECEIPT, 1, 5, 1, 0), Receipt(1, KIND_RECEIPT, 1, 1000, 2, 0)]
    assert fifo_run(p, Config(MODE_OFF), [(5, 3), (1000, 4)]) == []
    assert p.events == [2, 0, 0, 0, 0, 2, 0, 0]


@pytest.mark.parametrize("cfg,flow", [
    (Config(MODE_DATA_PLANE, buffer_len=0), 1),
    (Config(MODE_DATA_PLANE, buffer_len=rps.BUFFER_SIZE + 1), 1),
    (Config(3), 1),
    (Config(MODE_HYBRID), rps.FLOWS),
])
def test_invalid_config_or_flow_is_counted_not_observed(cfg, flow):
    p = FifoPoint(rps.POINT_IN)
    assert p.observe(cfg, flow, DISC, 5, 1) is None
    assert p.events == [0, 0, 0, 0, 0, 0, 0, 1]


def test_reference_discloses_at_the_direct_disclosure_and_empties_the_flow():
    cfg = Config(MODE_HYBRID, quiet_us=10, select_threshold=ALWAYS)
    ref = ReferencePoint(rps.POINT_IN, capacity=4)
    out = []
    for digest, ts in [(1000, 0), (1001, 5), (1002, 20), (50, 30), (1003, 31)]:
        out += ref.observe(cfg, 1, DISC, digest, ts)
    assert out == [Receipt(0, KIND_DIRECT, 1, 50, 30, 0), Receipt(0, KIND_DELAYED, 1, 1000, 0, 0),
                   Receipt(0, KIND_DELAYED, 1, 1001, 5, 0)]
    assert ref.buffer == [(1, 1003, 31)]


def test_reference_late_warning_once_per_flow_and_dnum():
    cfg = Config(MODE_HYBRID, quiet_us=0, select_threshold=ALWAYS)
    ref = ReferencePoint(rps.POINT_IN, capacity=2)
    out = []
    for digest, ts in [(1000, 1), (1001, 2), (1002, 3), (1003, 4), (5, 5), (1004, 6), (1005, 7), (1006, 8)]:
        out += ref.observe(cfg, 1, DISC, digest, ts)
    assert [(r.kind, r.digest, r.dnum) for r in out] == [
        (KIND_LATE, 1000, 0), (KIND_DIRECT, 5, 0), (KIND_DELAYED, 1002, 0), (KIND_DELAYED, 1003, 0),
        (KIND_LATE, 1004, 1)]
    with pytest.raises(ValueError, match="capacity"):
        ReferencePoint(rps.POINT_IN, capacity=0)


def test_fifo_and_reference_disclose_the_same_receipts_when_the_buffer_suffices():
    """Every 5th packet is direct, the FIFO holds 8 receipts (two disclosures' worth, within the
    tracker's depth): both algorithms disclose the same delayed receipts, the FIFO later."""
    rng = random.Random(16)
    cfg_fifo = Config(MODE_DATA_PLANE, quiet_us=2, select_threshold=1 << 31, buffer_len=8)
    cfg_ref = Config(MODE_HYBRID, quiet_us=2, select_threshold=1 << 31)
    fifo, ref = FifoPoint(rps.POINT_IN), ReferencePoint(rps.POINT_IN, capacity=8)
    fifo_out, ref_out = [], []
    for i in range(1, 201):
        digest = rng.randrange(DISC) if i % 5 == 0 else rng.randrange(DISC, 1 << 32)
        fifo_out += fifo_run(fifo, cfg_fifo, [(digest, i)])
        ref_out += ref.observe(cfg_ref, 1, DISC, digest, i)
    # A filler flow pushes the last receipts out of the FIFO (all of them judged already).
    fifo_out += fifo_run(fifo, cfg_fifo, [(DISC + j, 1000 + j) for j in range(8)], flow=2)
    delayed = [r for r in ref_out if r.kind == KIND_DELAYED]
    assert 0 < len(delayed) < 160
    fifo_delayed = [r for r in fifo_out if r.kind == KIND_DELAYED]
    assert sorted(fifo_delayed, key=Receipt.pack) == sorted(delayed, key=Receipt.pack)
    assert [r for r in fifo_out if r.kind == KIND_DIRECT] == [r for r in ref_out if r.kind == KIND_DIRECT]
    assert fifo.events[rps.EV_TRACK_OVERRUN] == fifo.events[rps.EV_LATE] == 0


def test_a_point_takes_buffer_lengths_up_to_its_own_size():
    """A data plane with a larger buffer (the backend's from its P4Info) observes buffer_len up to its size."""
    p = FifoPoint(rps.POINT_IN, buffer_size=2 * rps.BUFFER_SIZE)
    assert p.observe(Config(MODE_DATA_PLANE, buffer_len=2 * rps.BUFFER_SIZE), 1, 0, 5, 1) is None
    assert p.observe(Config(MODE_DATA_PLANE, buffer_len=2 * rps.BUFFER_SIZE + 1), 1, 0, 5, 2) is None
    assert p.events[rps.EV_OBSERVED] == 1 and p.events[rps.EV_INVALID] == 1
