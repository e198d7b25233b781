"""Traces to and from pcap files, as the UPF sees them.

Reading takes pcap or pcapng captures (Ethernet with VLAN tags, Linux cooked, raw IPv4),
with or without GTP-U (TS 29.281 G-PDU on UDP 2152, extension headers skipped): the user
packet is the inner IPv4 packet when there is one. Which side is the UE is decided by
`ue_net`: a packet whose user source is in it is uplink, whose user destination is in it
is downlink. Packets that are not a UE's IPv4 traffic are skipped and counted by reason.
Records are parsed from raw bytes (scapy only frames the file), so captures of millions
of packets stay practical.

`python -m hupf_tools.pcapio` writes a synthetic trace (`traces.generate`) as pcap with its labels: here, not in
`traces`, which this module imports.
"""
from collections import Counter
import argparse
import csv
import ipaddress
import struct

from scapy.error import Scapy_Exception
from scapy.utils import RawPcapNgReader, RawPcapReader

from hupf_tools import traces
from hupf_tools.traces import PROTO_TCP, PROTO_UDP, T0_US, FlowKey, Trace

GTPU_PORT = 2152
GTPU_GPDU = 0xFF
UE_MAC, GW_MAC = bytes.fromhex("020000000001"), bytes.fromhex("020000000002")
LINK_ETHERNET, LINK_RAW, LINK_SLL, LINK_IPV4 = 1, 101, 113, 228
ETH_IPV4, ETH_VLAN, ETH_QINQ = 0x0800, 0x8100, 0x88A8


def _u16(data, off):
    return int.from_bytes(data[off:off + 2], "big")


def _l3(linktype, data):
    """Offset of the IPv4 header in a frame, or a skip reason."""
    if linktype in (LINK_RAW, LINK_IPV4):
        return (0, None) if data[:1] and data[0] >> 4 == 4 else (None, "not IPv4")
    if linktype == LINK_SLL:
        off, etype = 16, _u16(data, 14)
    elif linktype == LINK_ETHERNET:
        off, etype = 14, _u16(data, 12)
        while etype in (ETH_VLAN, ETH_QINQ) and len(data) >= off + 4:
            etype, off = _u16(data, off + 2), off + 4
    else:
        return None, "link type %d not supported" % linktype
    if etype != ETH_IPV4:
        return None, "not IPv4"
    return off, None


def _parse_ipv4(data, off):
    """(header length, total length, proto, src, dst) of an IPv4 header at off, or None."""
    if len(data) < off + 20 or data[off] >> 4 != 4:
        return None
    ihl = (data[off] & 0x0F) * 4
    total = _u16(data, off + 2)
    if ihl < 20 or total < ihl:
        return None
    return (ihl, total, data[off + 9], int.from_bytes(data[off + 12:off + 16], "big"),
            int.from_bytes(data[off + 16:off + 20], "big"))


def _gtpu_payload(data, off):
    """Offset of a G-PDU's T-PDU (TS 29.281 §5.1; extension headers §5.2), or a reason."""
    if len(data) < off + 8 or data[off] >> 5 != 1 or not data[off] & 0x10:
        return None, "malformed GTP-U"
    if data[off + 1] != GTPU_GPDU:
        return None, "GTP-U signalling (not a G-PDU)"
    end = off + 8 + _u16(data, off + 2)
    p = off + 8
    if data[off] & 0x07:
        if len(data) < p + 4:
            return None, "malformed GTP-U"
        nxt, p = data[p + 3], p + 4
        while nxt:
            # Each extension header: length in 4-octet units, next type in its last octet.
            if len(data) < p + 1 or data[p] == 0 or len(data) < p + 4 * data[p]:
                return None, "malformed GTP-U"
            p += 4 * data[p]
            nxt = data[p - 1]
    if p > end:
        return None, "malformed GTP-U"
    return p, None


def _user_packet(linktype, data):
    """(src, dst, proto, sport, dport, IPv4 total length) of the user packet, or a reason."""
    off, reason = _l3(linktype, data)
    if reason:
        return None, reason
    ip, reason = _parse_ipv4(data, off), "malformed IPv4"
    if ip is not None and ip[2] == PROTO_UDP and len(data) >= off + ip[0] + 8 \
            and GTPU_PORT in (_u16(data, off + ip[0]), _u16(data, off + ip[0] + 2)):
        off, reason = _gtpu_payload(data, off + ip[0] + 8)
        ip = None if reason else _parse_ipv4(data, off)
        reason = reason or "G-PDU without inner IPv4"
    if ip is None:
        return None, reason
    ihl, total, proto, src, dst = ip
    l4 = off + ihl
    ports = (0, 0)
    if proto in (PROTO_TCP, PROTO_UDP) and len(data) >= l4 + 4:
        ports = (_u16(data, l4), _u16(data, l4 + 2))
    return (src, dst, proto, *ports, total), None


def _records(path):
    """(linktype, bytes, timestamp in us) of every packet record of a pcap or pcapng file."""
    try:
        reader = RawPcapReader(str(path))
    except (OSError, Scapy_Exception) as e:
        raise ValueError("%s: not a readable pcap/pcapng capture (%s)" % (path, e)) from None
    with reader:
        ng = isinstance(reader, RawPcapNgReader)
        for data, meta in reader:
            if not ng:
                usec = meta.usec // 1000 if reader.nano else meta.usec
                yield reader.linktype, data, meta.sec * 1_000_000 + usec
            elif meta.tshigh is not None:
                yield meta.linktype, data, ((meta.tshigh << 32) + meta.tslow) * 1_000_000 // meta.tsresol


def read_pcap(path, ue_net, label=None):
    """Trace of the UE flows in a capture; every flow gets `label`. Returns (trace, skipped)."""
    net = ipaddress.IPv4Network(ue_net)
    lo, hi = int(net.network_address), int(net.broadcast_address)
    flows, index = [], {}
    ts, size, uplink, flow = [], [], [], []
    skipped = Counter()
    first = None
    for linktype, data, t in _records(path):
        user, reason = _user_packet(linktype, data)
        if reason:
            skipped[reason] += 1
            continue
        src, dst, proto, sport, dport, length = user
        src_ue, dst_ue = lo <= src <= hi, lo <= dst <= hi
        if src_ue == dst_ue:
            skipped["no single UE side in %s" % ue_net] += 1
            continue
        key = FlowKey(src, dst, sport, dport, proto) if src_ue else FlowKey(dst, src, dport, sport, proto)
        if key not in index:
            index[key] = len(flows)
            flows.append(key)
        first = t if first is None else first
        # Rebased onto the switch clock's origin: the 32-bit microsecond clock lasts ~70 min.
        ts.append(t - first + T0_US)
        size.append(length)
        uplink.append(src_ue)
        flow.append(index[key])
    return Trace(ts, size, uplink, flow, flows, [label] * len(flows)), dict(skipped)


def _csum(data):
    """Internet checksum (RFC 1071)."""
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def _ipv4_header(src, dst, proto, payload_len):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + payload_len, 0, 0x4000, 64, proto, 0, src, dst)
    return hdr[:10] + struct.pack("!H", _csum(hdr)) + hdr[12:]


def _user(src, dst, sport, dport, proto, length):
    """User IPv4 packet of total length `length`, zero payload, valid checksums."""
    if proto == PROTO_TCP:
        l4, at = struct.pack("!HHIIBBHHH", sport, dport, 0, 0, 0x50, 0x10, 65535, 0, 0), 16
    else:
        l4, at = struct.pack("!HHHH", sport, dport, length - 20, 0), 6
    if length < 20 + len(l4):
        raise ValueError("IPv4 length %d below its headers (%d)" % (length, 20 + len(l4)))
    # The payload is zeros, so it adds nothing to the checksum. UDP sends 0 as 0xFFFF.
    c = _csum(src + dst + struct.pack("!BBH", 0, proto, length - 20) + l4)
    l4 = l4[:at] + struct.pack("!H", c or (0xFFFF if proto == PROTO_UDP else 0)) + l4[at + 2:]
    return _ipv4_header(src, dst, proto, length - 20) + l4 + bytes(length - 20 - len(l4))


def write_pcap(trace, path, gtpu=False, gnb="192.0.2.2", n3="192.0.2.1", teid_base=0x100):
    """Ethernet frames of the trace (libpcap, microsecond timestamps); with gtpu, uplink user
    packets ride in G-PDUs (TS 29.281) from gnb to n3, TEID teid_base + low 24 UE bits."""
    gnb_b, n3_b = ipaddress.IPv4Address(gnb).packed, ipaddress.IPv4Address(n3).packed
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, LINK_ETHERNET))
        for i in range(len(trace)):
            k = trace.flows[trace.flow[i]]
            up = bool(trace.uplink[i])
            ue, app = k.ue_addr.to_bytes(4, "big"), k.app_addr.to_bytes(4, "big")
            if up:
                pkt = _user(ue, app, k.ue_port, k.app_port, k.proto, int(trace.size[i]))
            else:
                pkt = _user(app, ue, k.app_port, k.ue_port, k.proto, int(trace.size[i]))
            if gtpu and up:
                gtp = struct.pack("!BBHI", 0x30, GTPU_GPDU, len(pkt), teid_base + (k.ue_addr & 0xFFFFFF))
                udp = struct.pack("!HHHH", GTPU_PORT, GTPU_PORT, 8 + len(gtp) + len(pkt), 0)
                pkt = _ipv4_header(gnb_b, n3_b, PROTO_UDP, len(udp) + len(gtp) + len(pkt)) + udp + gtp + pkt
            frame = (GW_MAC if up else UE_MAC) + (UE_MAC if up else GW_MAC) + b"\x08\x00" + pkt
            sec, usec = divmod(int(trace.ts_us[i]), 1_000_000)
            f.write(struct.pack("<IIII", sec, usec, len(frame), len(frame)) + frame)


def write_labels(trace, path):
    """flow,label CSV (flow as ue_addr:port-app_addr:port/proto) next to a written pcap."""
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["flow", "label"])
        for k, label in zip(trace.flows, trace.labels):
            out.writerow([str(k), label])


def read_labels(path):
    """{flow string: label} from a write_labels CSV."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if rows and set(rows[0]) != {"flow", "label"}:
        raise ValueError("%s: expected columns flow,label" % path)
    return {r["flow"]: r["label"] for r in rows}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m hupf_tools.pcapio",
                                 description="Write a synthetic labelled trace as pcap.")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flows-per-class", type=int, default=4)
    ap.add_argument("--duration", type=float, default=5.0, help="seconds per flow")
    ap.add_argument("--classes", default=",".join(traces.CLASSES))
    ap.add_argument("--gtpu", action="store_true", help="uplink as GTP-U on N3 (TS 29.281)")
    ap.add_argument("--out", required=True, help="pcap file; labels go to <out>.labels.csv")
    a = ap.parse_args(argv)
    trace = traces.generate(a.seed, a.flows_per_class, a.duration, tuple(a.classes.split(",")))
    write_pcap(trace, a.out, gtpu=a.gtpu)
    write_labels(trace, a.out + ".labels.csv")
    print("wrote %d packets of %d flows to %s" % (len(trace), len(trace.flows), a.out))


if __name__ == "__main__":
    main()
