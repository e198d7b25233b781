"""Reference model of HK-IPG (thesis ch.4, Algorithm 1) as p4src/include/hh.p4 computes it.

All arithmetic is the P4's: unsigned 32-bit registers, 16-bit tau with saturating add,
EWMA with alpha = 1 - 2^-s in shifts, gaps measured on full 48-bit timestamps in
microseconds (saturated to 32 bits), a timeslot T (a power of two) ending when
ts >> log2(T) changes between two packets of the flow. `step` is the per-packet
transition of one slot. `configure` derives the parameters from the heavy-hitter
threshold as the app does (org.hupf.pipeconf.dataplane.HhConfig).
"""
from dataclasses import dataclass, replace
import zlib

MASK48 = (1 << 48) - 1
MASK32 = 0xFFFFFFFF
MASK16 = 0xFFFF

KEY_UE_ADDR = 0
KEY_5TUPLE = 1


@dataclass(frozen=True)
class HHParams:
    """The hh_config action's parameters; the defaults are the P4's default action (configure's
    for 10 Mbit/s of 1000-byte packets)."""
    tau_th: int = 1850
    ipg_init: int = 800
    ipg_th: int = 800
    decay_k: int = 1
    timeslot_us: int = 16384
    alpha_shift: int = 7
    key_mode: int = KEY_UE_ADDR

    def __post_init__(self):
        ts = self.timeslot_us
        if ts <= 0 or ts & (ts - 1) or ts > MASK32:
            raise ValueError("timeslot_us must be a power of two below 2^32, got %r" % ts)
        if not 0 < self.tau_th <= MASK16:
            raise ValueError("tau_th must be in 1..65535, got %r" % self.tau_th)
        if not 0 <= self.alpha_shift < 32:
            raise ValueError("alpha_shift must be in 0..31, got %r" % self.alpha_shift)
        if self.key_mode not in (KEY_UE_ADDR, KEY_5TUPLE):
            raise ValueError("key_mode must be 0 (UE address) or 1 (5-tuple), got %r" % self.key_mode)


@dataclass(frozen=True)
class Slot:
    flow_id: int = 0
    ipg_ewma: int = 0
    last_ts: int = 0
    tau: int = 0
    reported: int = 0


@dataclass(frozen=True)
class Report:
    flow_key: int
    ipg_ewma: int
    tau: int


class TauTable:
    """The `tau_table` range table: first matching [lo, hi] range gives tau, else 0."""

    def __init__(self, entries=()):
        self.entries = []
        for lo, hi, tau in entries:
            if not (0 <= lo <= hi <= MASK32 and 0 <= tau <= MASK16):
                raise ValueError("bad tau table entry (%r, %r, %r)" % (lo, hi, tau))
            self.entries.append((lo, hi, tau))

    def lookup(self, ipg_ewma):
        for lo, hi, tau in self.entries:
            if lo <= ipg_ewma <= hi:
                return tau
        return 0


def tau_per_timeslot(ipg_us, tau_th, timeslot_us, tw_us, hh_bps, pkt_bytes):
    """Thesis eq. 4.9, capped at tau_th / 2 (a flow needs >= 2 timeslots, §4.3.2)."""
    value = (tau_th * timeslot_us * pkt_bytes * 8 * 1_000_000) // (tw_us * hh_bps * ipg_us)
    return min(value, tau_th // 2)


def tau_table_entries(tau_th, timeslot_us, tw_us, hh_bps, ipg_max, pkt_bytes=1000, max_entries=256):
    """Range entries (lo, hi, tau) over IPG 1..ipg_max for the controller to install.

    One range per distinct tau value; when there are more than max_entries, the
    narrowest neighbours are merged keeping the smaller tau (never over-reports).
    """
    ranges = []
    for ipg in range(1, ipg_max + 1):
        tau = tau_per_timeslot(ipg, tau_th, timeslot_us, tw_us, hh_bps, pkt_bytes)
        if tau == 0:
            break
        if ranges and ranges[-1][2] == tau:
            ranges[-1][1] = ipg
        else:
            ranges.append([ipg, ipg, tau])
    while len(ranges) > max_entries:
        i = min(range(len(ranges) - 1), key=lambda j: ranges[j + 1][1] - ranges[j][0])
        lo, _, _ = ranges[i]
        _, hi, tau = ranges[i + 1]
        ranges[i:i + 2] = [[lo, hi, tau]]
    return [tuple(r) for r in ranges]


MIN_TIMESLOT_US = 16384


def ipg_threshold(hh_bps, pkt_bytes):
    """IPG_init = IPG_th (thesis §4.4.2.1): the gap between pkt_bytes packets at hh_bps, in us."""
    return pkt_bytes * 8 * 1_000_000 // hh_bps


def _pow2_at_least(n):
    return 1 << max(0, (n - 1).bit_length())


def default_timeslot(ipg_th):
    """The smallest power of two >= 4 x IPG_th and >= 16.384 ms: a flow at the threshold then
    sends >= 4 packets per timeslot, and tau per timeslot at the threshold (tau_th * T / TW,
    eq. 4.9) is >= 30 at tau_th 1850 and TW 1 s, so its rounding down costs <= 3 %."""
    return _pow2_at_least(max(4 * ipg_th, MIN_TIMESLOT_US))


def default_decay(ipg_th):
    """k = IPG_th / 1000, at least 1: the thesis's example ratio (k = 10 at IPG_th = 10 ms, §4.4.2.2),
    so that a collision ages a resident flow by the same share of the threshold gap at any threshold."""
    return max(1, ipg_th // 1000)


def configure(hh_bps, pkt_bytes=1000, timeslot_us=None, tau_th=1850, decay_k=None, alpha_shift=7,
              key_mode=KEY_UE_ADDR, tw_us=1_000_000, tau_entries=256):
    """(HHParams, TauTable) for a heavy-hitter threshold, as HhConfig builds them: IPG_init = IPG_th
    from the threshold, timeslot >= 4 x IPG_th (default: default_timeslot), k (default: default_decay),
    tau table from eq. 4.9."""
    if hh_bps <= 0 or pkt_bytes <= 0 or tw_us <= 0:
        raise ValueError("time window, HH threshold and packet size must be > 0")
    ipg = ipg_threshold(hh_bps, pkt_bytes)
    if not 1 <= ipg <= MASK32:
        raise ValueError("IPG_th of a %d-byte packet at %d bit/s is %d us, outside 1..2^32-1"
                         % (pkt_bytes, hh_bps, ipg))
    if timeslot_us is None:
        timeslot_us = default_timeslot(ipg)
    elif timeslot_us < 4 * ipg:
        raise ValueError("timeslot_us %d is shorter than 4 x IPG_th = %d us (IPG_th %d us: one %d-byte packet "
                         "at %d bit/s); use %d or more" % (timeslot_us, 4 * ipg, ipg, pkt_bytes, hh_bps,
                                                           _pow2_at_least(4 * ipg)))
    params = HHParams(tau_th=tau_th, ipg_init=ipg, ipg_th=ipg,
                      decay_k=default_decay(ipg) if decay_k is None else decay_k, timeslot_us=timeslot_us,
                      alpha_shift=alpha_shift, key_mode=key_mode)
    return params, TauTable(tau_table_entries(tau_th, timeslot_us, tw_us, hh_bps, ipg, pkt_bytes, tau_entries))


def flow_key(params, ue_addr, app_addr=0, ue_port=0, app_port=0, proto=0):
    """The slot key: the UE address, or CRC-32 over the 13-byte 5-tuple (bmv2 crc32)."""
    if params.key_mode == KEY_UE_ADDR:
        return ue_addr & MASK32
    data = (ue_addr.to_bytes(4, "big") + app_addr.to_bytes(4, "big") + ue_port.to_bytes(2, "big")
            + app_port.to_bytes(2, "big") + proto.to_bytes(1, "big"))
    return zlib.crc32(data) & MASK32


def step(slot, key, now_us, params, tau_table):
    """One packet of flow `key` at time now_us on `slot`: returns (new slot, Report or None)."""
    ts = now_us & MASK48
    s = params.alpha_shift
    if slot.flow_id == 0 or (slot.flow_id != key and slot.ipg_ewma > params.ipg_th):
        return Slot(key, params.ipg_init, ts, 0, 0), None
    if slot.flow_id != key:
        return replace(slot, ipg_ewma=(slot.ipg_ewma + params.decay_k) & MASK32), None
    # ts >> log2(T) is the timeslot's number: the P4 compares ts & ~(T - 1), the same bits.
    new_timeslot = (ts & ~(params.timeslot_us - 1)) != (slot.last_ts & ~(params.timeslot_us - 1))
    ipg = min((ts - slot.last_ts) & MASK48, MASK32)
    ewma = (slot.ipg_ewma - (slot.ipg_ewma >> s) + (ipg >> s)) & MASK32
    tau, reported, report = slot.tau, slot.reported, None
    if new_timeslot:
        inc = tau_table.lookup(ewma)
        if inc == 0:
            # Slower than every tau range: the HH episode is over; tau stays (thesis Alg. 1 resets
            # it only when it reaches tau_th), so noise around the threshold does not undo it.
            reported = 0
        else:
            tau = min(tau + inc, MASK16)
            if tau >= params.tau_th:
                if reported == 0:
                    report = Report(key, ewma, tau)
                tau, reported = 0, 1
    return Slot(key, ewma, ts, tau, reported), report


class HKIPG:
    """m slots indexed by key mod m (the P4's identity hash)."""

    def __init__(self, params=HHParams(), tau_table=TauTable(), slots=4096):
        self.params = params
        self.tau_table = tau_table
        self.slots = [Slot()] * slots

    def index(self, key):
        return key % len(self.slots)

    def packet(self, key, now_us):
        i = self.index(key)
        self.slots[i], report = step(self.slots[i], key, now_us, self.params, self.tau_table)
        return report
