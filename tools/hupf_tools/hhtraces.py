"""Heavy-tailed synthetic traces with known heavy hitters, for the HK-IPG benchmark.

Background flows have Pareto sizes (packets) and log-normal rates, drawn independently, and
last size / rate: many mice, including short fast bursts (a low IPG without volume, thesis
§4.4.3). On top, `elephants` flows with log-uniform rates spanning the thresholds and uniform
durations, so every threshold has heavy hitters, short-lived ones included. Start times are
uniform (elephants': over `elephant_start_s` when given), flows are cut at the end of the trace;
packets of a flow form a Poisson process. `PERSISTENT` is the CAIDA-like variant whose heavy
flows persist (thesis §4.5: CAIDA16's heavy hitters are mostly long-lived, Fig. 30): mice stay
below the lowest threshold's rate and elephants start early and last seconds. All
packets are `pkt_bytes` long, the packet size the thesis' HH definition assumes (§4.3.2),
so a rate threshold in Mbit/s is a packet-count threshold per window.
Ground truth (thesis §4.5.2.1): a flow is a heavy hitter at threshold T if some sliding
window of length `tw_us` holds at least T * tw / (8 * pkt_bytes) of its packets.
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class HHTraceSpec:
    flows: int = 30000           # background flows
    duration_s: float = 4.0
    size_alpha: float = 1.0      # Pareto shape of flow sizes (packets)
    size_min: float = 2.0        # Pareto scale: the smallest flows have 2 packets
    size_max: int = 400_000
    rate_median_mbps: float = 0.5
    rate_sigma: float = 1.5
    rate_max_mbps: float = 400.0
    elephants: int = 150
    elephant_mbps: tuple = (0.5, 60.0)
    elephant_s: tuple = (0.2, 4.0)
    elephant_start_s: tuple = None   # None: uniform over the trace, like the mice
    pkt_bytes: int = 1000


# Heavy flows persist: mice stay at or below 0.5 Mbit/s (half the lowest benchmark threshold), so
# every heavy hitter is one of 120 elephants (log-uniform 0.5-60 Mbit/s) that start in the first 2 s
# of an 8 s trace and last 3-8 s (cut at the end).
PERSISTENT = HHTraceSpec(duration_s=8.0, rate_max_mbps=0.5, elephants=120, elephant_s=(3.0, 8.0),
                         elephant_start_s=(0.0, 2.0))


class HHTrace:
    """Packets in time order: ts_us and flow index; keys[flow] is the flow's 32-bit key."""

    def __init__(self, ts_us, flow, keys, spec):
        self.ts_us, self.flow, self.keys, self.spec = ts_us, flow, keys, spec

    def __len__(self):
        return len(self.ts_us)

    def max_window_packets(self, tw_us):
        """Per flow, the most packets it has in any sliding window of tw_us."""
        order = np.lexsort((self.ts_us, self.flow))
        f, t = self.flow[order], self.ts_us[order]
        # Flows laid end to end on one axis, far enough apart that no window spans two.
        span = int(t.max() - t.min()) + tw_us + 1 if len(t) else 1
        axis = f * span + (t - t.min())
        inside = np.searchsorted(axis, axis + tw_us, side="left") - np.arange(len(axis))
        best = np.zeros(len(self.keys), dtype=np.int64)
        np.maximum.at(best, f, inside)
        return best

    def lifetimes_us(self):
        """Per flow, time from its first to its last packet."""
        first = np.full(len(self.keys), np.iinfo(np.int64).max)
        last = np.zeros(len(self.keys), dtype=np.int64)
        np.minimum.at(first, self.flow, self.ts_us)
        np.maximum.at(last, self.flow, self.ts_us)
        return np.maximum(last - first, 0)

    def heavy_hitters(self, hh_bps, tw_us):
        """Indices of the flows that exceed hh_bps in some window of tw_us."""
        need = packets_for(hh_bps, tw_us, self.spec.pkt_bytes)
        return np.flatnonzero(self.max_window_packets(tw_us) >= need)


def packets_for(hh_bps, tw_us, pkt_bytes):
    """Thesis eq. 4.7: packets of pkt_bytes a flow needs in tw_us to reach hh_bps."""
    return int(np.ceil(hh_bps * tw_us / 1e6 / (8 * pkt_bytes)))


def generate(seed, spec=HHTraceSpec()):
    rng = np.random.default_rng(seed)
    mice, n = spec.flows, spec.flows + spec.elephants
    dur_us = spec.duration_s * 1e6
    mbps = np.concatenate([
        np.minimum(rng.lognormal(np.log(spec.rate_median_mbps), spec.rate_sigma, mice), spec.rate_max_mbps),
        np.exp(rng.uniform(*np.log(spec.elephant_mbps), spec.elephants))])
    rate_pps = mbps * 1e6 / (8 * spec.pkt_bytes)
    sizes = np.minimum(np.floor(spec.size_min * (1 + rng.pareto(spec.size_alpha, mice))), spec.size_max)
    length = np.concatenate([sizes / rate_pps[:mice] * 1e6, rng.uniform(*spec.elephant_s, spec.elephants) * 1e6])
    start = rng.uniform(0, dur_us, n)
    if spec.elephant_start_s is not None:
        start[mice:] = rng.uniform(*(np.array(spec.elephant_start_s) * 1e6), spec.elephants)
    length = np.minimum(length, dur_us - start)
    sizes = np.maximum(1, np.round(length * rate_pps / 1e6)).astype(np.int64)
    flow = np.repeat(np.arange(n), sizes)
    # Poisson process conditioned on its count: sorted uniform arrival times over the flow's span.
    ts = start[flow] + rng.uniform(0, 1, len(flow)) * length[flow]
    order = np.argsort(ts, kind="stable")
    # Distinct nonzero 32-bit keys (0 marks an empty HK-IPG slot).
    draw = rng.integers(1, 2**32, size=2 * n + 16, dtype=np.int64)
    _, first = np.unique(draw, return_index=True)
    keys = draw[np.sort(first)[:n]]
    return HHTrace((ts[order] + 1_000_000).astype(np.int64), flow[order], keys, spec)
