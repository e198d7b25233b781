"""Lab frames built and checked from raw bytes (scapy is too slow for the lab's rates).

Uplink: a G-PDU (TS 29.281) from the gNB to the UPF's N3 address carrying a UDP packet from
the UE to the application server, with a QoS flow's PDU Session Container when given its QFI.
Downlink: a plain UDP packet from the server to the UE.
Every user payload starts with a lab header (magic, UE index, direction, sequence number),
so a receiver can tell which UE a packet belongs to, whether it arrived intact and in order; the send time
(CLOCK_REALTIME, ns) follows it where the payload has room, for the receiver's one-way latency.
The inner UDP checksum is 0 (allowed over IPv4), so a sender rewrites the sequence number in
a prebuilt frame without recomputing anything.
"""
import array
import ipaddress
import struct

GTPU_PORT = 2152
GTPU_GPDU = 0xFF
GTPU_EXT_PSC = 0x85   # next extension header type: PDU Session Container
PSC_UPLINK = 1        # its PDU type for UL PDU SESSION INFORMATION
ETH_IPV4 = 0x0800
PROTO_UDP = 17
APP_PORT = 5001
UE_PORT = 4001
MAGIC = b"HUPF"
UPLINK, DOWNLINK = 1, 2
LAB = struct.Struct("!4sIBxxxQ")  # magic, UE index, direction, pad, sequence number
ETH_LEN, IP_LEN, UDP_LEN, GTP_LEN = 14, 20, 8, 8
MIN_USER = IP_LEN + UDP_LEN + LAB.size
SEND_TIME = struct.Struct("!Q")


class BadFrame(ValueError):
    """A lab frame that arrived wrong; `reason` names what was wrong."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def ip(addr):
    return ipaddress.IPv4Address(addr).packed


def mac(addr):
    return bytes.fromhex(addr.replace(":", ""))


def checksum(data):
    """Internet checksum (RFC 1071) of an even-length header."""
    total = sum(array.array("H", data)) if len(data) % 2 == 0 else sum(array.array("H", data + b"\0"))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    # array("H") reads host order: swap back to network order on little-endian hosts.
    return struct.unpack("!H", struct.pack("=H", ~total & 0xFFFF))[0]


def ipv4(src, dst, payload_len, ttl=64):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, IP_LEN + payload_len, 0, 0x4000, ttl, PROTO_UDP, 0, src, dst)
    return hdr[:10] + struct.pack("!H", checksum(hdr)) + hdr[12:]


def user_packet(src, dst, sport, dport, ue_idx, direction, size):
    """UDP/IPv4 packet of total length `size` carrying the lab header."""
    if size < MIN_USER:
        raise ValueError("user packet of %d bytes is below the %d of its headers" % (size, MIN_USER))
    payload = LAB.pack(MAGIC, ue_idx, direction, 0) + bytes(size - MIN_USER)
    udp = struct.pack("!HHHH", sport, dport, UDP_LEN + len(payload), 0)
    return ipv4(src, dst, UDP_LEN + len(payload)) + udp + payload


class Frame:
    """A prebuilt frame whose sequence number is rewritten in place for every send, and with it the user
    packet's IPv4 identification (seq mod 2^16, its checksum updated: RFC 1624), so that each packet has its own
    RPS digest (the user IPv4 addresses, identification, length, protocol and L4 header)."""

    def __init__(self, buf, seq_off, user_ip_off):
        self.buf = bytearray(buf)
        self.seq_off = seq_off
        self.time_off = seq_off + 8 if len(buf) >= seq_off + 8 + SEND_TIME.size else None
        self.id_off = user_ip_off + 4
        self.csum_off = user_ip_off + 10
        self.csum_of_id0 = struct.unpack_from("!H", self.buf, self.csum_off)[0]

    def stamp(self, seq, sent_ns=None):
        """The frame with its sequence number and, given one and with room for it, its send time."""
        struct.pack_into("!Q", self.buf, self.seq_off, seq)
        if sent_ns is not None and self.time_off is not None:
            SEND_TIME.pack_into(self.buf, self.time_off, sent_ns)
        ident = seq & 0xFFFF
        total = (~self.csum_of_id0 & 0xFFFF) + ident
        total = (total & 0xFFFF) + (total >> 16)
        struct.pack_into("!H", self.buf, self.id_off, ident)
        struct.pack_into("!H", self.buf, self.csum_off, ~total & 0xFFFF)
        return self.buf


def gtpu_header(teid, inner_len, qfi=None):
    """A G-PDU's GTP-U header (TS 29.281 §5.1); with a QFI, E set and an uplink PDU Session Container
    (TS 38.415 §5.5.2.2, PDU type 1, length 1: the QFI in the low six bits of its second octet) follows the
    optional fields (sequence number 0, N-PDU number 0, next extension 0x85)."""
    if qfi is None:
        return struct.pack("!BBHI", 0x30, GTPU_GPDU, inner_len, teid)
    if not 0 <= qfi <= 63:
        raise ValueError("QFI is six bits, got %r" % (qfi,))
    ext = struct.pack("!HBB", 0, 0, GTPU_EXT_PSC) + struct.pack("!BBBB", 1, PSC_UPLINK << 4, qfi, 0)
    return struct.pack("!BBHI", 0x34, GTPU_GPDU, len(ext) + inner_len, teid) + ext


def uplink_frame(eth_dst, eth_src, gnb, n3, teid, ue, app, ue_idx, size, qfi=None):
    inner = user_packet(ip(ue), ip(app), UE_PORT, APP_PORT, ue_idx, UPLINK, size)
    gtp = gtpu_header(teid, len(inner), qfi)
    udp = struct.pack("!HHHH", GTPU_PORT, GTPU_PORT, UDP_LEN + len(gtp) + len(inner), 0)
    pkt = ipv4(ip(gnb), ip(n3), UDP_LEN + len(gtp) + len(inner)) + udp + gtp + inner
    user_ip = ETH_LEN + IP_LEN + UDP_LEN + len(gtp)
    off = user_ip + IP_LEN + UDP_LEN + LAB.size - 8
    return Frame(mac(eth_dst) + mac(eth_src) + struct.pack("!H", ETH_IPV4) + pkt, off, user_ip)


def downlink_frame(eth_dst, eth_src, app, ue, ue_idx, size):
    pkt = user_packet(ip(app), ip(ue), APP_PORT, UE_PORT, ue_idx, DOWNLINK, size)
    off = ETH_LEN + IP_LEN + UDP_LEN + LAB.size - 8
    return Frame(mac(eth_dst) + mac(eth_src) + struct.pack("!H", ETH_IPV4) + pkt, off, ETH_LEN)


def _ipv4_at(frame, off, what):
    if len(frame) < off + IP_LEN:
        raise BadFrame(what + " truncated")
    vihl, _, total = struct.unpack_from("!BBH", frame, off)
    if vihl != 0x45:
        raise BadFrame(what + " not IPv4 without options")
    if checksum(bytes(frame[off:off + IP_LEN])) != 0:
        raise BadFrame(what + " IPv4 checksum")
    if len(frame) < off + total:
        raise BadFrame(what + " shorter than its IPv4 length")
    proto = frame[off + 9]
    return proto, bytes(frame[off + 12:off + 16]), bytes(frame[off + 16:off + 20]), total


def _lab_header(frame, off, direction, user_len):
    """(UE index, seq, send time in ns or None) of the lab header after the UDP header at off; user_len: the user
    packet's IPv4 length (a packet too short for a send time, or one sent without, has none)."""
    if len(frame) < off + UDP_LEN + LAB.size:
        raise BadFrame("user packet truncated")
    magic, ue_idx, d, seq = LAB.unpack_from(frame, off + UDP_LEN)
    if magic != MAGIC:
        return None
    if d != direction:
        raise BadFrame("wrong direction")
    sent_ns = SEND_TIME.unpack_from(frame, off + UDP_LEN + LAB.size)[0] \
        if user_len >= MIN_USER + SEND_TIME.size else 0
    return ue_idx, seq, sent_ns or None


def parse_uplink(frame):
    """An uplink frame as the DN host receives it: decapsulated. Returns (ue_idx, seq, src, dst, length, send time
    in ns or None), None for a frame that is not lab traffic; raises BadFrame for lab traffic that arrived wrong."""
    if len(frame) < ETH_LEN or struct.unpack_from("!H", frame, 12)[0] != ETH_IPV4:
        return None
    proto, src, dst, total = _ipv4_at(frame, ETH_LEN, "uplink")
    if proto != PROTO_UDP:
        return None
    dport = struct.unpack_from("!H", frame, ETH_LEN + IP_LEN + 2)[0]
    if dport == GTPU_PORT:
        raise BadFrame("uplink still GTP-U encapsulated")
    lab = _lab_header(frame, ETH_LEN + IP_LEN, UPLINK, total)
    return None if lab is None else (lab[0], lab[1], src, dst, total, lab[2])


def parse_downlink(frame):
    """A downlink frame as the gNB receives it: a G-PDU. Returns (ue_idx, seq, outer_src,
    outer_dst, teid, inner_dst, inner_length, send time in ns or None), None for non-lab traffic; raises BadFrame
    for lab traffic that arrived wrong (not encapsulated, bad header or checksum)."""
    if len(frame) < ETH_LEN or struct.unpack_from("!H", frame, 12)[0] != ETH_IPV4:
        return None
    proto, osrc, odst, outer_len = _ipv4_at(frame, ETH_LEN, "outer")
    if proto != PROTO_UDP:
        return None
    off = ETH_LEN + IP_LEN
    dport = struct.unpack_from("!H", frame, off + 2)[0]
    if dport != GTPU_PORT:
        lab = _lab_header(frame, off, DOWNLINK, outer_len)
        if lab is not None:
            raise BadFrame("downlink not GTP-U encapsulated")
        return None
    off += UDP_LEN
    flags, mtype, _, teid = struct.unpack_from("!BBHI", frame, off)
    if flags >> 5 != 1 or mtype != GTPU_GPDU:
        raise BadFrame("not a GTP-U v1 G-PDU")
    off += GTP_LEN
    if flags & 0x07:
        off += 4  # sequence number, N-PDU number, next extension type
        nxt = frame[off - 1]
        while nxt:  # extension headers (e.g. the PDU Session Container): length in 4-octet units
            ext_len = frame[off] * 4
            if ext_len == 0:
                raise BadFrame("GTP-U extension header of length 0")
            nxt = frame[off + ext_len - 1]
            off += ext_len
    proto, _, idst, total = _ipv4_at(frame, off, "inner")
    lab = _lab_header(frame, off + IP_LEN, DOWNLINK, total) if proto == PROTO_UDP else None
    if lab is None:
        raise BadFrame("G-PDU without a lab packet")
    return lab[0], lab[1], osrc, odst, teid, idst, total, lab[2]
