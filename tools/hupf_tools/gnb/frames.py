"""The gNB's frames as bytes (docs/GNB.md): N3 G-PDUs, the air's MAC subPDUs, the service frames between
switch and x86 services, PDCP data PDUs and status reports (TS 38.323 §6.2). Used by the vectors, the RAN
control stand-in's checks and the lab's UE hosts."""
import ipaddress
import struct

from . import p4const as C

GTPU_PORT = 2152


def mac_bytes(mac):
    return bytes(int(b, 16) for b in mac.split(":"))


def ether(dst, src, ether_type):
    return mac_bytes(dst) + mac_bytes(src) + struct.pack("!H", ether_type)


def ipv4_checksum(header):
    total = sum(struct.unpack("!10H", header))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ipv4(src, dst, proto, payload, ttl=64):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0, ttl, proto, 0,
                      ipaddress.IPv4Address(src).packed, ipaddress.IPv4Address(dst).packed)
    return hdr[:10] + struct.pack("!H", ipv4_checksum(hdr)) + hdr[12:] + payload


def udp(sport, dport, payload):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def gtpu(teid, payload, qfi=None, pdu_type=0):
    """A G-PDU; with qfi, a PDU Session Container (TS 38.415) of pdu_type (0 downlink, 1 uplink)."""
    if qfi is None:
        return struct.pack("!BBHI", 0x30, 0xFF, len(payload), teid) + payload
    ext = struct.pack("!HBB", 0, 0, 0x85) + struct.pack("!BBBB", 1, pdu_type << 4, qfi, 0)
    return struct.pack("!BBHI", 0x34, 0xFF, len(ext) + len(payload), teid) + ext + payload


def n3_frame(dst_mac, src_mac, src, dst, teid, payload, qfi=None, pdu_type=0):
    return ether(dst_mac, src_mac, 0x0800) + ipv4(src, dst, 17, udp(GTPU_PORT, GTPU_PORT,
                                                                      gtpu(teid, payload, qfi, pdu_type)))


def user_packet(src, dst, payload, sport=5000, dport=6000):
    """The UE's IPv4/UDP packet (what the tunnels carry)."""
    return ipv4(src, dst, 17, udp(sport, dport, payload))


def pdcp_data(sn, sdu, sn_bits=12):
    if sn_bits == 12:
        return struct.pack("!H", 0x8000 | (sn & 0xFFF)) + sdu
    return struct.pack("!BH", 0x80 | ((sn >> 16) & 0x3), sn & 0xFFFF) + sdu


def pdcp_sn(pdu, sn_bits=12):
    """The SN of a data PDU (None for a control PDU)."""
    if not pdu[0] & 0x80:
        return None
    if sn_bits == 12:
        return struct.unpack("!H", pdu[:2])[0] & 0xFFF
    return ((pdu[0] & 0x3) << 16) | struct.unpack("!H", pdu[1:3])[0]


def pdcp_status(fmc, bitmap=b""):
    """A status report: D/C 0, PDU type 0, FMC, then the bitmap (bit i, MSB first: COUNT fmc + 1 + i received)."""
    return struct.pack("!BI", 0, fmc) + bitmap


def air_frame(dst_mac, src_mac, lcid, pdu):
    """A MAC subPDU with a 16-bit L (R = 0, F = 1, TS 38.321 §6.1.2) over the lab's air ethertype."""
    return ether(dst_mac, src_mac, C.ETHERTYPE_GNB_AIR) + struct.pack("!BH", 0x40 | lcid, len(pdu)) + pdu


def parse_air(frame):
    """(dst MAC bytes, src MAC bytes, lcid, PDCP PDU) of an air frame; ValueError for anything else."""
    if len(frame) < 17 or struct.unpack("!H", frame[12:14])[0] != C.ETHERTYPE_GNB_AIR:
        raise ValueError("not an air frame")
    sub, length = struct.unpack("!BH", frame[14:17])
    if len(frame) < 17 + length:
        raise ValueError("air frame shorter than its L field")
    return frame[:6], frame[6:12], sub & 0x3F, frame[17:17 + length]


def svc_frame(dst_mac, src_mac, ue, count, op, pdu):
    return ether(dst_mac, src_mac, C.ETHERTYPE_GNB_SVC) + struct.pack("!IIB3x", ue, count, op) + pdu
