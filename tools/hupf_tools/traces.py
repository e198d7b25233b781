"""Synthetic, labelled per-class traffic for labs and tests (SYNTHETIC: see docs/IDENTIFICATION.md).

Each class profile draws its per-flow parameters from ranges reported in published
measurements (sources in docs/IDENTIFICATION.md) and emits packets as the UPF sees them:
timestamp in microseconds, user IPv4 total length, direction, and the flow's 5-tuple
oriented UE side / application side. Everything derives from one seed.
"""
from dataclasses import dataclass
import ipaddress
import math

import numpy as np

from hupf_tools.model.features import Packet

# Headers inside the user IPv4 packet: IPv4 20 + TCP 20 + timestamps 12 (a pure ACK is 52).
TCP_ACK = 52
MTU = 1500
PROTO_TCP = 6
PROTO_UDP = 17
# Traces start one second into the switch clock: the P4 treats timestamp 0 as "never seen".
T0_US = 1_000_000


@dataclass(frozen=True)
class FlowKey:
    ue_addr: int
    app_addr: int
    ue_port: int
    app_port: int
    proto: int

    def __str__(self):
        return "%s:%d-%s:%d/%d" % (ipaddress.IPv4Address(self.ue_addr), self.ue_port,
                                   ipaddress.IPv4Address(self.app_addr), self.app_port, self.proto)


class Trace:
    """Packets in time order as parallel arrays; flows[i] and labels[i] describe flow i."""

    def __init__(self, ts_us, size, uplink, flow, flows, labels):
        order = np.argsort(ts_us, kind="stable")
        self.ts_us = np.asarray(ts_us, dtype=np.int64)[order]
        self.size = np.asarray(size, dtype=np.int64)[order]
        self.uplink = np.asarray(uplink, dtype=bool)[order]
        self.flow = np.asarray(flow, dtype=np.int64)[order]
        self.flows = list(flows)
        self.labels = list(labels)
        if len(self.flows) != len(self.labels):
            raise ValueError("one label per flow: %d flows, %d labels" % (len(flows), len(labels)))
        if len(self.flow) and not 0 <= self.flow.min() <= self.flow.max() < len(self.flows):
            raise ValueError("packet flow index out of range")
        if len(self.size) and not 20 <= self.size.min() <= self.size.max() <= 65535:
            raise ValueError("IPv4 total length must be in 20..65535")

    def __len__(self):
        return len(self.ts_us)

    def packet(self, i):
        """Packet i as the reference models take it (features.Packet)."""
        k = self.flows[self.flow[i]]
        return Packet(int(self.ts_us[i]), bool(self.uplink[i]), k.ue_addr, k.app_addr,
                      k.ue_port, k.app_port, k.proto, int(self.size[i]))

    def packets(self):
        """Every packet in time order as features.Packet."""
        return (self.packet(i) for i in range(len(self)))

    @staticmethod
    def merge(parts):
        """One trace from several, flow indices renumbered."""
        arrays, flows, labels = [[], [], [], []], [], []
        for t in parts:
            for a, v in zip(arrays, (t.ts_us, t.size, t.uplink, t.flow + len(flows))):
                a.append(v)
            flows += t.flows
            labels += t.labels
        cat = [np.concatenate(a) if a else np.zeros(0) for a in arrays]
        return Trace(*cat, flows, labels)


def _jitter(rng, n, sd_us):
    return rng.normal(0.0, sd_us, n) if sd_us else np.zeros(n)


def _paced(start_us, n, gap_us):
    return start_us + gap_us * np.arange(n)


def _split(total_bytes, pkt_bytes):
    """IPv4 lengths of a message cut into packets of pkt_bytes (last one shorter, >= 40)."""
    full, rest = divmod(int(total_bytes), int(pkt_bytes))
    sizes = [pkt_bytes] * full + ([max(rest, 40)] if rest else [])
    return np.array(sizes or [40], dtype=np.int64)


def _acks(rng, ts_dn, every=2, rtt_half_us=(2000, 15000)):
    """Uplink TCP ACKs, one per `every` downlink segments, after half an RTT."""
    delay = rng.uniform(*rtt_half_us)
    ts = ts_dn[every - 1::every] + delay
    return ts, np.full(len(ts), TCP_ACK)


def cloud_gaming(rng, dur_us):
    """Video frames at a fixed frame rate, each a paced burst of near-MTU packets; small
    periodic controller input upstream."""
    fps = rng.choice([30, 60], p=[0.2, 0.8])
    rate = rng.uniform(10e6, 45e6)
    pkt = int(rng.integers(1100, 1401))
    pace_us = rng.uniform(1000, 4000)
    ts, sz = [], []
    for t in np.arange(0, dur_us, 1e6 / fps):
        frame = rate / 8 / fps * rng.lognormal(0.0, 0.2)
        s = _split(frame, pkt)
        ts.append(t + rng.normal(0, 300) + np.linspace(0, pace_us, len(s), endpoint=False))
        sz.append(s)
    ts_dn, sz_dn = np.concatenate(ts), np.concatenate(sz)
    period = 1e6 / rng.uniform(60, 250)
    n_up = int(dur_us / period)
    ts_up = np.arange(n_up) * period + _jitter(rng, n_up, period * 0.05)
    sz_up = rng.integers(60, 181, n_up)
    return ts_dn, sz_dn, ts_up, sz_up


def video_streaming(rng, dur_us):
    """HTTP adaptive streaming: after an initial buffering burst, ON-OFF cycles, one chunk of
    `chunk_s` seconds of video per cycle, downloaded at the path rate."""
    bitrate = rng.uniform(2e6, 20e6)
    chunk_s = rng.choice([2, 4, 5, 10])
    burst_rate = rng.uniform(30e6, 150e6)
    gap = MTU * 8 / burst_rate * 1e6
    chunk_pkts = int(bitrate * chunk_s / 8 / MTU)
    t, ts = rng.uniform(0, min(1e6, dur_us / 4)), []
    buffering = int(rng.integers(0, 4))
    while t < dur_us:
        ts.append(_paced(t, chunk_pkts, gap) + _jitter(rng, chunk_pkts, gap * 0.1))
        t += chunk_pkts * gap if buffering else chunk_s * 1e6
        buffering = max(0, buffering - 1)
    ts_dn = np.concatenate(ts)
    ts_dn = ts_dn[ts_dn < dur_us]
    ts_up, sz_up = _acks(rng, ts_dn)
    return ts_dn, np.full(len(ts_dn), MTU), ts_up, sz_up


def web_browsing(rng, dur_us):
    """One persistent HTTPS connection: requests, object downloads (log-normal sizes, heavy
    tail) in short bursts, and think times with no traffic."""
    rate = rng.uniform(5e6, 50e6)
    gap = MTU * 8 / rate * 1e6
    t = rng.uniform(0, min(5e5, dur_us / 4))
    ts_dn, sz_dn, ts_up, sz_up = [], [], [], []
    while t < dur_us:
        ts_up.append([t])
        sz_up.append([int(rng.integers(300, 801))])
        obj = min(rng.lognormal(math.log(20e3), 1.5), 2e6)
        s = _split(obj, MTU)
        d = t + rng.uniform(10e3, 60e3) + _paced(0, len(s), gap) + _jitter(rng, len(s), gap * 0.1)
        ts_dn.append(d)
        sz_dn.append(s)
        a_ts, a_sz = _acks(rng, d)
        ts_up.append(a_ts)
        sz_up.append(a_sz)
        think = rng.exponential(0.3e6) if rng.random() < 0.7 else rng.uniform(1e6, 5e6)
        t = d[-1] + think
    return (np.concatenate(ts_dn), np.concatenate(sz_dn),
            np.concatenate(ts_up), np.concatenate(sz_up))


def _conf_direction(rng, dur_us):
    rate = rng.uniform(0.5e6, 2.5e6)
    fps = rng.choice([15, 30])
    pkt = int(rng.integers(900, 1201))
    ts, sz = [], []
    for t in np.arange(0, dur_us, 1e6 / fps):
        s = _split(rate / 8 / fps * rng.lognormal(0.0, 0.3), pkt)
        ts.append(t + rng.normal(0, 2000) + np.arange(len(s)) * 200.0)
        sz.append(s)
    audio = np.arange(0, dur_us, 20e3)
    ts.append(audio + _jitter(rng, len(audio), 1000))
    sz.append(rng.integers(80, 201, len(audio)))
    return np.concatenate(ts), np.concatenate(sz)


def video_conferencing(rng, dur_us):
    """Symmetric moderate rate: video frames and 50 pkt/s audio in both directions."""
    ts_dn, sz_dn = _conf_direction(rng, dur_us)
    ts_up, sz_up = _conf_direction(rng, dur_us)
    return ts_dn, sz_dn, ts_up, sz_up


def bulk_download(rng, dur_us):
    """A TCP transfer at the bottleneck rate: back-to-back MTU segments, ACK every second one."""
    rate = rng.uniform(20e6, 100e6)
    gap = MTU * 8 / rate * 1e6
    n = int(dur_us / gap)
    ts_dn = _paced(0, n, gap) + _jitter(rng, n, gap * 0.1)
    ts_up, sz_up = _acks(rng, ts_dn)
    return ts_dn, np.full(n, MTU), ts_up, sz_up


@dataclass(frozen=True)
class ClassProfile:
    name: str
    proto: int
    app_port: int
    make: object
    # Documented envelopes that a generated flow of this class stays within (tests check them).
    dn_mbps: tuple
    up_mbps: tuple
    dn_size: tuple


PROFILES = {p.name: p for p in (
    ClassProfile("cloud_gaming", PROTO_UDP, 49003, cloud_gaming, (8, 60), (0.02, 0.5), (1000, 1400)),
    ClassProfile("video_streaming", PROTO_TCP, 443, video_streaming, (0.5, 150), (0.01, 4), (1500, 1500)),
    ClassProfile("web_browsing", PROTO_TCP, 443, web_browsing, (0, 50), (0, 4), (40, 1500)),
    ClassProfile("video_conferencing", PROTO_UDP, 3478, video_conferencing, (0.4, 4), (0.4, 4), (80, 1200)),
    ClassProfile("bulk_download", PROTO_TCP, 443, bulk_download, (18, 105), (0.2, 3), (1500, 1500)),
)}
CLASSES = tuple(PROFILES)


def generate_flow(rng, cls, key, dur_s, start_us):
    """One flow of class `cls` lasting dur_s seconds from start_us."""
    profile = PROFILES[cls]
    dur_us = dur_s * 1e6
    ts_dn, sz_dn, ts_up, sz_up = profile.make(rng, dur_us)
    ts = np.concatenate([ts_dn, ts_up])
    keep = (ts >= 0) & (ts < dur_us)
    size = np.concatenate([sz_dn, sz_up])[keep]
    uplink = np.concatenate([np.zeros(len(ts_dn), bool), np.ones(len(ts_up), bool)])[keep]
    ts = (np.round(ts[keep]) + start_us).astype(np.int64)
    return Trace(ts, size, uplink, np.zeros(len(ts), np.int64), [key], [cls])


def generate(seed, flows_per_class=20, duration_s=8.0, classes=CLASSES,
             ue_net="10.0.0.0/8", app_net="198.51.100.0/24"):
    """A labelled trace: flows_per_class flows of each class, all overlapping in time."""
    unknown = set(classes) - set(PROFILES)
    if unknown:
        raise ValueError("unknown classes %s (known: %s)" % (sorted(unknown), ", ".join(PROFILES)))
    rng = np.random.default_rng(seed)
    ue_base = int(ipaddress.IPv4Network(ue_net).network_address)
    app_base = int(ipaddress.IPv4Network(app_net).network_address)
    parts = []
    for i, (cls, n) in enumerate((c, n) for c in classes for n in range(flows_per_class)):
        p = PROFILES[cls]
        key = FlowKey(ue_base + 1 + i, app_base + 1 + i % 250, int(rng.integers(32768, 61000)),
                      p.app_port, p.proto)
        parts.append(generate_flow(rng, cls, key, duration_s, T0_US + int(rng.integers(0, 1e6))))
    return Trace.merge(parts)


def flow_stats(trace, flow):
    """Rates (Mbit/s) and downlink size range of one flow, over its active span."""
    m = trace.flow == flow
    ts, size, up = trace.ts_us[m], trace.size[m], trace.uplink[m]
    span_s = max((ts.max() - ts.min()) / 1e6, 1e-6)
    return {"dn_mbps": size[~up].sum() * 8 / span_s / 1e6, "up_mbps": size[up].sum() * 8 / span_s / 1e6,
            "dn_size": (int(size[~up].min()), int(size[~up].max())) if (~up).any() else None,
            "packets": int(m.sum())}
