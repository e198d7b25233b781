"""Reference model of the MATADOR feature pipeline (thesis ch.5) as
p4src/include/classifier.p4 computes it, and of its run-time tables.

Per flow slot: packets per window, EWMA of packet size (user IPv4 total length) and
EWMA of inter-packet gap, each for uplink and downlink. When a packet arrives at
least window_us after the window started, the finished window's features are
classified (range table per feature -> code, decision table on the six codes ->
class), the packet counters restart and the class sticks to the flow.
`window_features` turns a packet trace into the per-window feature rows the switch
sees, which is what a classifier is trained on.
"""
from dataclasses import dataclass, replace
from typing import NamedTuple
import itertools
import zlib

MASK32 = 0xFFFFFFFF
FEATURES = ("pkts_up", "pkts_dn", "ps_up", "ps_dn", "ipg_up", "ipg_dn")


@dataclass(frozen=True)
class ClsParams:
    window_us: int = 1_000_000
    alpha_shift: int = 3

    def __post_init__(self):
        if not 0 < self.window_us <= MASK32:
            raise ValueError("window_us must be in 1..2^32-1, got %r" % self.window_us)
        if not 0 <= self.alpha_shift < 32:
            raise ValueError("alpha_shift must be in 0..31, got %r" % self.alpha_shift)


class Packet(NamedTuple):
    """One user packet as the UPF sees it (UE side / application side, direction)."""
    ts_us: int
    uplink: bool
    ue_addr: int
    app_addr: int
    ue_port: int
    app_port: int
    proto: int
    ip_len: int


class Features(NamedTuple):
    pkts_up: int
    pkts_dn: int
    ps_up: int
    ps_dn: int
    ipg_up: int
    ipg_dn: int


@dataclass(frozen=True)
class FlowState:
    pkts_up: int = 0
    pkts_dn: int = 0
    ps_up: int = 0
    ps_dn: int = 0
    ipg_up: int = 0
    ipg_dn: int = 0
    last_up: int = 0
    last_dn: int = 0
    win_start: int = 0
    cls: int = 0


def ewma(avg, sample, shift):
    """alpha = 1 - 2^-shift; the first sample (avg == 0) initialises it."""
    if avg == 0:
        return sample & MASK32
    return (avg - (avg >> shift) + (sample >> shift)) & MASK32


class CodeTables:
    """The run-time tables: per feature ranges (lo, hi, code), decision codes -> class."""

    def __init__(self, ranges=None, decisions=None):
        self.ranges = {name: [] for name in FEATURES}
        for name, entries in (ranges or {}).items():
            if name not in self.ranges:
                raise ValueError("unknown feature %r (known: %s)" % (name, ", ".join(FEATURES)))
            for lo, hi, code in entries:
                if not (0 <= lo <= hi <= MASK32 and 0 <= code <= 0xFF):
                    raise ValueError("bad range entry for %s: (%r, %r, %r)" % (name, lo, hi, code))
                self.ranges[name].append((lo, hi, code))
        self.decisions = dict(decisions or {})
        for codes, cls in self.decisions.items():
            if len(codes) != len(FEATURES) or not 0 <= cls <= 0xFF:
                raise ValueError("bad decision entry %r -> %r" % (codes, cls))

    @classmethod
    def from_thresholds(cls, thresholds, classify, max_decisions=4096):
        """Tables for a tree-like model (thesis §5.4.2): each feature's split values cut its
        range into intervals, coded 1..n (value <= t goes to the lower interval, as in a
        decision tree); the decision table maps every combination of codes to
        classify(Features) at a point of those intervals. Features without splits keep
        code 0 (their table stays empty)."""
        intervals = {}
        for name in FEATURES:
            cuts = sorted(set(thresholds.get(name, ())))
            if any(not 0 <= t < MASK32 for t in cuts):
                raise ValueError("thresholds of %s must be in 0..2^32-2" % name)
            bounds = [-1] + cuts + [MASK32]
            intervals[name] = [(lo + 1, hi) for lo, hi in zip(bounds, bounds[1:])] if cuts else []
        total = 1
        for name in FEATURES:
            total *= max(1, len(intervals[name]))
        if total > max_decisions:
            raise ValueError("%d code combinations exceed %d decision entries" % (total, max_decisions))
        ranges = {name: [(lo, hi, i + 1) for i, (lo, hi) in enumerate(iv)] for name, iv in intervals.items()}
        decisions = {}
        for combo in itertools.product(*[[(0, 0)] if not intervals[n] else
                                         [(i + 1, lo) for i, (lo, _) in enumerate(intervals[n])]
                                         for n in FEATURES]):
            codes = tuple(code for code, _ in combo)
            decisions[codes] = classify(Features(*(value for _, value in combo)))
        return cls(ranges, decisions)

    def code(self, name, value):
        for lo, hi, code in self.ranges[name]:
            if lo <= value <= hi:
                return code
        return 0

    def classify(self, features):
        codes = tuple(self.code(name, value) for name, value in zip(FEATURES, features))
        return self.decisions.get(codes, 0)


def step(state, pkt, params, tables):
    """One packet on its flow slot: returns (new state, finished window's Features or None)."""
    ts = pkt.ts_us & MASK32
    finished = None
    st = state
    if st.win_start == 0:
        st = replace(st, win_start=ts)
    elif (ts - st.win_start) & MASK32 >= params.window_us:
        finished = Features(st.pkts_up, st.pkts_dn, st.ps_up, st.ps_dn, st.ipg_up, st.ipg_dn)
        st = replace(st, cls=tables.classify(finished), pkts_up=0, pkts_dn=0, win_start=ts)
    s = params.alpha_shift
    if pkt.uplink:
        ipg = st.ipg_up if st.last_up == 0 else ewma(st.ipg_up, (ts - st.last_up) & MASK32, s)
        st = replace(st, pkts_up=(st.pkts_up + 1) & MASK32, ps_up=ewma(st.ps_up, pkt.ip_len, s),
                     ipg_up=ipg, last_up=ts)
    else:
        ipg = st.ipg_dn if st.last_dn == 0 else ewma(st.ipg_dn, (ts - st.last_dn) & MASK32, s)
        st = replace(st, pkts_dn=(st.pkts_dn + 1) & MASK32, ps_dn=ewma(st.ps_dn, pkt.ip_len, s),
                     ipg_dn=ipg, last_dn=ts)
    return st, finished


def slot_index(pkt, slots):
    """bmv2 crc32 over (ue_addr, app_addr, ue_port, app_port, proto), mod slots."""
    data = (pkt.ue_addr.to_bytes(4, "big") + pkt.app_addr.to_bytes(4, "big")
            + pkt.ue_port.to_bytes(2, "big") + pkt.app_port.to_bytes(2, "big")
            + pkt.proto.to_bytes(1, "big"))
    return zlib.crc32(data) % slots


class FeaturePipeline:
    """The switch's slot array (colliding flows share a slot, as in the P4)."""

    def __init__(self, params=ClsParams(), tables=CodeTables(), slots=4096):
        self.params = params
        self.tables = tables
        self.state = [FlowState()] * slots

    def packet(self, pkt):
        """Returns (class after this packet, finished window's Features or None)."""
        i = slot_index(pkt, len(self.state))
        self.state[i], finished = step(self.state[i], pkt, self.params, self.tables)
        return self.state[i].cls, finished


def window_features(trace, params=ClsParams(), slots=4096):
    """Yield (slot index, Features) for every window a packet trace closes."""
    pipe = FeaturePipeline(params, CodeTables(), slots)
    for pkt in trace:
        _, finished = pipe.packet(pkt)
        if finished is not None:
            yield slot_index(pkt, slots), finished
