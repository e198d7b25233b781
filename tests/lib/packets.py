"""Packet builders (scapy) for the hupf tests: GTP-U per TS 29.281, PDU Session Container
per TS 38.415, and the raw malformations the pipeline must drop."""
import struct

from scapy.contrib.gtp import GTP_U_Header, GTPPDUSessionContainer
from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

GTPU_PORT = 2152


def ip2int(addr):
    return struct.unpack("!I", bytes(int(x) for x in addr.split(".")))[0]


def int2ip(value):
    return ".".join(str(b) for b in struct.pack("!I", value))


def mac2int(mac):
    return int(mac.replace(":", ""), 16)


def user_packet(src, dst, proto="udp", sport=4000, dport=80, size=100, ttl=64):
    """An IPv4 user packet of `size` IPv4 octets."""
    if proto == "udp":
        l4 = UDP(sport=sport, dport=dport)
    elif proto == "tcp":
        l4 = TCP(sport=sport, dport=dport, flags="A")
    else:
        l4 = ICMP(type=8, id=1, seq=1)
    pkt = IP(src=src, dst=dst, ttl=ttl, id=1) / l4
    pad = size - len(pkt)
    if pad > 0:
        pkt = pkt / Raw(b"\x5a" * pad)
    return IP(bytes(pkt))


def gtpu(inner, teid, src, dst, qfi=None, pdu_type=1, sport=GTPU_PORT, eth_src="00:00:00:00:00:01",
         eth_dst="00:00:00:00:00:02", ttl=64):
    """A G-PDU; with qfi a PDU Session Container (UL by default) follows the header."""
    hdr = GTP_U_Header(teid=teid, gtp_type=255)
    if qfi is not None:
        hdr = GTP_U_Header(teid=teid, gtp_type=255, E=1, next_ex=0x85) / GTPPDUSessionContainer(
            type=pdu_type, QFI=qfi)
    return Ether(src=eth_src, dst=eth_dst) / IP(src=src, dst=dst, ttl=ttl, id=0) / UDP(
        sport=sport, dport=GTPU_PORT) / hdr / inner


def encapsulated(inner, teid, src, dst, sport, qfi=None, eth_src=None, eth_dst=None):
    """What the UPF emits downlink: outer TTL 64, id 0, UDP checksum 0 (TS 29.281 §4.4.2.3)."""
    if qfi is None:
        hdr = GTP_U_Header(teid=teid, gtp_type=255)
    else:
        hdr = GTP_U_Header(teid=teid, gtp_type=255, E=1, next_ex=0x85, seq=0, npdu=0) / \
            GTPPDUSessionContainer(type=0, QFI=qfi)
    outer = IP(src=src, dst=dst, ttl=64, id=0, flags=0) / UDP(sport=sport, dport=GTPU_PORT, chksum=0)
    return Ether(src=eth_src, dst=eth_dst) / outer / hdr / inner


def echo_request(src, dst, seq, sport=GTPU_PORT, eth_src="00:00:00:00:00:01",
                 eth_dst="00:00:00:00:00:02"):
    """GTP-U Echo Request (TS 29.281 §7.2.1): S=1, TEID 0, no IEs."""
    gtp = struct.pack("!BBHIHBB", 0x32, 1, 4, 0, seq, 0, 0)
    return Ether(src=eth_src, dst=eth_dst) / IP(src=src, dst=dst, id=0) / UDP(
        sport=sport, dport=GTPU_PORT) / Raw(gtp)


def raw_gtpu(gtp_bytes, src, dst, eth_src="00:00:00:00:00:01", eth_dst="00:00:00:00:00:02"):
    """Arbitrary bytes behind a correct outer Ether/IPv4/UDP:2152 (for malformed GTP-U)."""
    return Ether(src=eth_src, dst=eth_dst) / IP(src=src, dst=dst, id=0) / UDP(
        sport=GTPU_PORT, dport=GTPU_PORT) / Raw(gtp_bytes)


def gpdu_header(teid, length, flags=0x30, ext=b""):
    """Mandatory GTP-U header (+ optional fields) for a G-PDU of `length` octets after it."""
    return struct.pack("!BBHI", flags, 255, length, teid) + ext
