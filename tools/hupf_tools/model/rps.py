"""Reference model of hupf's Retroactive Packet Sampling (docs/PIPELINE_CONTRACT.md, "Retroactive
Packet Sampling (RPS)"; seed 003: Algorithm 2, the reference RPS, and Algorithm 3, FIFO RPS with
disclosure numbers).

`FifoPoint` is one observation point of the data plane (mode 1) with the P4's state and arithmetic:
its decisions and receipts are what bmv2's `p4src/include/rps.p4` and the backend emit. `ReferencePoint`
is Algorithm 2 over a host-memory buffer (mode 2: the controller runs it over the kind-3 receipts),
emitting the same kinds. `user_digest` is the packet's fingerprint from its user IPv4 bytes.
"""
from dataclasses import dataclass
import struct
import zlib

MASK32 = 0xFFFFFFFF
MASK16 = 0xFFFF

# The P4's constants (define.p4; tests/model/test_rps_model.py checks them against the generated ones).
POINT_IN, POINT_OUT = 0, 1
MODE_OFF, MODE_DATA_PLANE, MODE_HYBRID = 0, 1, 2
KIND_DIRECT, KIND_DELAYED, KIND_RECEIPT, KIND_LATE = 1, 2, 3, 4
EV_OBSERVED, EV_DIRECT, EV_DELAYED, EV_LATE, EV_TRACK_OVERRUN, EV_EXPORTED, EV_LATE_REPEATED, EV_INVALID = range(8)
# size_hw.p4 (bmv2's hw profile; the backend and the control plane read them from the P4Info's register sizes)
FLOWS = 256
BUFFER_SIZE = 4096
TRACK_DEPTH = 64  # direct disclosures remembered per (point, flow), a power of two

RECEIPT_FORMAT = "!BBHIIHH"   # rps_receipt_t: point, kind, flow_id, digest, ts, dnum, _pad
RECEIPT_LEN = struct.calcsize(RECEIPT_FORMAT)

PROTO_ICMP, PROTO_TCP, PROTO_UDP = 1, 6, 17


@dataclass(frozen=True)
class Receipt:
    point: int
    kind: int
    flow_id: int
    digest: int
    ts: int
    dnum: int = 0

    def pack(self):
        return struct.pack(RECEIPT_FORMAT, self.point, self.kind, self.flow_id, self.digest, self.ts,
                           self.dnum, 0)

    @classmethod
    def unpack(cls, data):
        """The receipt in the first RECEIPT_LEN bytes of data; ValueError if shorter or padded with
        something other than zeros."""
        if len(data) < RECEIPT_LEN:
            raise ValueError("rps_receipt_t needs %d bytes, got %d" % (RECEIPT_LEN, len(data)))
        point, kind, flow_id, digest, ts, dnum, pad = struct.unpack_from(RECEIPT_FORMAT, data)
        if pad != 0:
            raise ValueError("rps_receipt_t padding is %#x, not 0" % pad)
        return cls(point, kind, flow_id, digest, ts, dnum)

    def without_ts(self):
        """Everything but the timestamp: what a target with a free-running clock is compared on."""
        return (self.point, self.kind, self.flow_id, self.digest, self.dnum)


@dataclass(frozen=True)
class Config:
    """set_config's parameters: quiet_us = kappa - mu, select_threshold = sigma * 2^32."""
    mode: int = MODE_OFF
    quiet_us: int = 0
    select_threshold: int = 0
    buffer_len: int = BUFFER_SIZE


def digest_bytes(src, dst, ident, total_len, proto, l4=b""):
    """The 21 bytes the digest covers: addresses, identification, total length, protocol, then the
    8 L4 bytes the contract names (l4, zero-padded)."""
    if len(l4) > 8:
        raise ValueError("at most 8 L4 bytes, got %d" % len(l4))
    return struct.pack("!IIHHB", src, dst, ident, total_len, proto) + l4.ljust(8, b"\0")


def user_digest(ip):
    """CRC-32 digest of a user IPv4 packet given as bytes (from its IPv4 header on)."""
    if len(ip) < 20 or ip[0] >> 4 != 4:
        raise ValueError("not an IPv4 header")
    ihl, total_len, ident, proto = ip[0] & 0xF, *struct.unpack_from("!HH", ip, 2), ip[9]
    src, dst = struct.unpack_from("!II", ip, 12)
    l4 = b""
    if ihl == 5:   # the parser reads L4 only behind a 20-octet header
        lengths = {PROTO_UDP: 8, PROTO_TCP: 8, PROTO_ICMP: 4}
        if proto in lengths:
            l4 = ip[20:20 + lengths[proto]]
            if len(l4) < lengths[proto]:
                raise ValueError("L4 header of protocol %d cut short" % proto)
    return zlib.crc32(digest_bytes(src, dst, ident, total_len, proto, l4)) & MASK32


def selected(receipt_digest, disclosure_digest, select_threshold):
    """Delayed-disclosure selection: crc32 over the two digests, big-endian, below the threshold."""
    return zlib.crc32(struct.pack("!II", receipt_digest, disclosure_digest)) < select_threshold


def config_is_valid(cfg, flow_id, buffer_size=BUFFER_SIZE):
    """What a data plane of buffer_size receipts per point observes at all (the backend refuses the rest, bmv2
    counts it INVALID)."""
    if flow_id >= FLOWS or cfg.mode not in (MODE_DATA_PLANE, MODE_HYBRID):
        return False
    return cfg.mode != MODE_DATA_PLANE or 1 <= cfg.buffer_len <= buffer_size


@dataclass
class _Slot:
    flow_id: int = 0
    digest: int = 0
    ts: int = 0
    dnum: int = 0
    valid: bool = False


class FifoPoint:
    """One observation point of the data plane: FIFO RPS (mode 1) or receipts (mode 2), with the
    registers of rps.p4 (buffer with head, next_dnum, late_warned, tracker) and its counters."""

    def __init__(self, point, buffer_size=BUFFER_SIZE, track_depth=TRACK_DEPTH):
        self.point = point
        self.buffer = [_Slot() for _ in range(buffer_size)]
        if not 1 <= track_depth < 1 << 16 or track_depth & (track_depth - 1):
            raise ValueError("the tracker's depth must be a power of two below 2^16, got %d" % track_depth)
        self.track_depth = track_depth
        self.head = 0
        self.next_dnum = {}
        self.late_warned = {}
        self.tracker = {}        # (flow_id, dnum % track_depth) -> (dnum, digest, ts)
        self.events = [0] * 8

    def observe(self, cfg, flow_id, disc_threshold, digest, ts):
        """One packet of a sampled flow at this point; the receipt for the controller or None.
        Mode 0 observes nothing (the data plane does not even look the flow up)."""
        if cfg.mode == MODE_OFF:
            return None
        receipt, outcome = self._observe(cfg, flow_id, disc_threshold, digest, ts & MASK32)
        if outcome != EV_INVALID:
            self.events[EV_OBSERVED] += 1
        if outcome is not None:
            self.events[outcome] += 1
        return receipt

    def _emit(self, kind, flow_id, digest, ts, dnum):
        return Receipt(self.point, kind, flow_id, digest, ts, dnum)

    def _observe(self, cfg, flow_id, disc_threshold, digest, ts):
        if not config_is_valid(cfg, flow_id, len(self.buffer)):
            return None, EV_INVALID
        if cfg.mode == MODE_HYBRID:
            return self._emit(KIND_RECEIPT, flow_id, digest, ts, 0), EV_EXPORTED
        d = self.next_dnum.get(flow_id, 0)
        if digest < disc_threshold:
            self.tracker[(flow_id, d % self.track_depth)] = (d, digest, ts)
            self.next_dnum[flow_id] = (d + 1) & MASK16
            return self._emit(KIND_DIRECT, flow_id, digest, ts, d), EV_DIRECT
        if self.head >= cfg.buffer_len:
            self.head = 0   # buffer_len shrank
        old = self.buffer[self.head]
        self.buffer[self.head] = _Slot(flow_id, digest, ts, d, True)
        self.head = 0 if self.head + 1 == cfg.buffer_len else self.head + 1
        if not old.valid:
            return None, None
        track = self.tracker.get((old.flow_id, old.dnum % self.track_depth))
        if track is not None and track[0] == old.dnum:
            _, t_digest, t_ts = track
            if (t_ts - old.ts) & MASK32 > cfg.quiet_us and selected(old.digest, t_digest, cfg.select_threshold):
                return self._emit(KIND_DELAYED, old.flow_id, old.digest, old.ts, old.dnum), EV_DELAYED
            return None, None
        if old.dnum != self.next_dnum.get(old.flow_id, 0):
            return None, EV_TRACK_OVERRUN
        if self.late_warned.get(old.flow_id) == old.dnum:
            return None, EV_LATE_REPEATED
        self.late_warned[old.flow_id] = old.dnum
        return self._emit(KIND_LATE, old.flow_id, old.digest, old.ts, old.dnum), EV_LATE


class ReferencePoint:
    """Algorithm 2 (reference RPS) at one point over a host buffer of `capacity` receipts, fed with
    the point's kind-3 receipts (mode 2). A direct disclosure removes every buffered receipt of its
    flow and discloses those outside the quiet time that are selected (kind 2, with the disclosure's
    dnum); a receipt overwritten before its flow's next disclosure gives a late-disclosure warning,
    once per (flow, dnum) as in the data plane, so that the monitor reads both modes alike."""

    def __init__(self, point, capacity):
        if capacity < 1:
            raise ValueError("capacity must be at least 1, got %d" % capacity)
        self.point = point
        self.capacity = capacity
        self.buffer = []          # oldest first: (flow_id, digest, ts)
        self.next_dnum = {}
        self.warned = set()       # (flow_id, dnum) warned of

    def observe(self, cfg, flow_id, disc_threshold, digest, ts):
        """The receipts one observation gives the monitor, in the order they are emitted."""
        ts &= MASK32
        d = self.next_dnum.get(flow_id, 0)
        if digest >= disc_threshold:
            self.buffer.append((flow_id, digest, ts))
            if len(self.buffer) <= self.capacity:
                return []
            old_flow, old_digest, old_ts = self.buffer.pop(0)
            old_dnum = self.next_dnum.get(old_flow, 0)
            if (old_flow, old_dnum) in self.warned:
                return []
            self.warned.add((old_flow, old_dnum))
            return [Receipt(self.point, KIND_LATE, old_flow, old_digest, old_ts, old_dnum)]
        out = [Receipt(self.point, KIND_DIRECT, flow_id, digest, ts, d)]
        self.next_dnum[flow_id] = (d + 1) & MASK16
        kept = []
        for r_flow, r_digest, r_ts in self.buffer:
            if r_flow != flow_id:
                kept.append((r_flow, r_digest, r_ts))
            elif (ts - r_ts) & MASK32 > cfg.quiet_us and selected(r_digest, digest, cfg.select_threshold):
                out.append(Receipt(self.point, KIND_DELAYED, r_flow, r_digest, r_ts, d))
        self.buffer = kept
        return out
