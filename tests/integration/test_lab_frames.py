"""The lab's raw frame builder and checker, cross-checked with scapy (an independent GTP-U/IPv4 codec)."""
import struct

import pytest
from scapy.contrib.gtp import GTP_U_Header, GTPPDUSessionContainer
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from hupf_tools.lab import frames

GNB, N3, UE, APP = "192.0.2.2", "192.0.2.1", "10.250.0.7", "198.51.100.10"
M1, M2 = "02:00:00:00:00:01", "02:00:00:00:00:02"


def test_uplink_frame_is_a_valid_gpdu_scapy_agrees():
    f = frames.uplink_frame(M2, M1, GNB, N3, 0x1007, UE, APP, 7, 300)
    pkt = Ether(bytes(f.stamp(42)))
    assert pkt[IP].src == GNB and pkt[IP].dst == N3 and pkt[UDP].dport == 2152
    assert pkt[GTP_U_Header].teid == 0x1007 and pkt[GTP_U_Header].gtp_type == 255
    inner = pkt[GTP_U_Header].payload
    assert inner.src == UE and inner.dst == APP and inner.len == 300
    chk = IP(bytes(pkt[IP]))
    del chk.chksum
    assert IP(bytes(chk)).chksum == pkt[IP].chksum


def test_decapsulated_uplink_parses_with_index_and_sequence():
    f = frames.uplink_frame(M2, M1, GNB, N3, 0x1007, UE, APP, 7, 300)
    raw = bytes(f.stamp(42))
    decap = raw[:14] + raw[14 + 36:]
    idx, seq, src, dst, length, sent_ns = frames.parse_uplink(decap)
    assert (idx, seq, length, sent_ns) == (7, 42, 300, None)
    assert src == frames.ip(UE) and dst == frames.ip(APP)


def test_the_send_time_follows_the_lab_header_where_the_packet_has_room():
    """A receiver reads the send time the sender stamped after the lab header (its one-way latency); a packet too
    short to hold it, and one stamped without it, carry none."""
    sent_ns = 1_765_000_000_123_456_789
    up = frames.uplink_frame(M2, M1, GNB, N3, 0x1007, UE, APP, 7, 300)
    raw = bytes(up.stamp(42, sent_ns))
    assert frames.parse_uplink(raw[:14] + raw[14 + 36:])[5] == sent_ns
    down = bytes(frames.downlink_frame(M2, M1, APP, UE, 7, 250).stamp(9, sent_ns))[14:]
    pkt = Ether(src=M1, dst=M2) / IP(src=N3, dst=GNB) / UDP(sport=2152, dport=2152) / GTP_U_Header(
        teid=0x2007, gtp_type=255) / IP(down)
    assert frames.parse_downlink(bytes(pkt))[7] == sent_ns
    short = frames.downlink_frame(M2, M1, APP, UE, 7, frames.MIN_USER + 7)
    assert short.time_off is None
    pkt = Ether(src=M1, dst=M2) / IP(src=N3, dst=GNB) / UDP(sport=2152, dport=2152) / GTP_U_Header(
        teid=0x2007, gtp_type=255) / IP(bytes(short.stamp(3, sent_ns))[14:])
    assert frames.parse_downlink(bytes(pkt))[7] is None


def test_uplink_left_encapsulated_is_flagged():
    f = frames.uplink_frame(M2, M1, GNB, N3, 0x1007, UE, APP, 7, 300)
    with pytest.raises(frames.BadFrame, match="still GTP-U"):
        frames.parse_uplink(bytes(f.stamp(1)))


@pytest.mark.parametrize("psc", [False, True])
def test_downlink_encapsulated_by_scapy_parses(psc):
    inner = bytes(frames.downlink_frame(M2, M1, APP, UE, 7, 250).stamp(9))[14:]
    gtp = GTP_U_Header(teid=0x2007, gtp_type=255)
    if psc:
        gtp = GTP_U_Header(teid=0x2007, gtp_type=255, E=1, next_ex=0x85) / GTPPDUSessionContainer(type=0, QFI=9)
    pkt = Ether(src=M1, dst=M2) / IP(src=N3, dst=GNB) / UDP(sport=2152, dport=2152) / gtp / IP(inner)
    got = frames.parse_downlink(bytes(pkt))
    assert got == (7, 9, frames.ip(N3), frames.ip(GNB), 0x2007, frames.ip(UE), 250, None)


def test_plain_downlink_at_the_gnb_and_a_bad_checksum_are_flagged():
    raw = bytearray(frames.downlink_frame(M2, M1, APP, UE, 7, 250).stamp(9))
    with pytest.raises(frames.BadFrame, match="not GTP-U"):
        frames.parse_downlink(bytes(raw))
    raw[14 + 8] ^= 1  # TTL changed, checksum not
    with pytest.raises(frames.BadFrame, match="checksum"):
        frames.parse_uplink(bytes(raw))


def test_foreign_traffic_is_ignored_and_tiny_packets_refused():
    arp = bytes(Ether(src=M1, dst="ff:ff:ff:ff:ff:ff", type=0x0806) / (b"\0" * 28))
    assert frames.parse_uplink(arp) is None and frames.parse_downlink(arp) is None
    with pytest.raises(ValueError, match="below"):
        frames.user_packet(frames.ip(APP), frames.ip(UE), 1, 2, 0, frames.DOWNLINK, 40)


def test_each_send_gives_the_user_packet_its_own_identification_with_a_valid_checksum():
    # RPS's digest covers the user IPv4 identification: without it every packet of a UE would look alike.
    for f, user_ip in ((frames.downlink_frame(M2, M1, APP, UE, 7, 250), 14),
                       (frames.uplink_frame(M2, M1, GNB, N3, 0x1234, UE, APP, 7, 250), 14 + 20 + 8 + 8)):
        for seq in (1, 2, 0x1FFFF):
            hdr = bytes(f.stamp(seq))[user_ip:user_ip + 20]
            assert struct.unpack_from("!H", hdr, 4)[0] == seq & 0xFFFF
            assert struct.unpack_from("!H", hdr, 6)[0] == 0x4000, "DF kept"
            assert frames.checksum(hdr) == 0
