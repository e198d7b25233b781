"""The lab scenario: UE sessions and a heavy-tailed traffic plan (a few heavy UEs, many mice).

Heavy UEs send like mice, turn heavy at `heavy_on`, and fall back at `heavy_off`, so the lab
shows them moving to the switch and back. Mouse rates are Pareto distributed (shape 1.5),
capped well below the heavy-hitter threshold: mice must never be offloaded.
"""
from dataclasses import dataclass
import ipaddress
import random

UE_POOL = ipaddress.IPv4Network("10.250.0.0/16")
UL_TEID_BASE = 0x1000
DL_TEID_BASE = 0x2000
MOUSE_SIZE = 200
HEAVY_SIZE = 1000


@dataclass(frozen=True)
class Scenario:
    ues: int = 20
    heavy: int = 2
    duration_s: float = 30.0
    heavy_on_s: float = 4.0
    heavy_off_s: float = 16.0
    # Each heavy UE's rate per direction, Mbit/s, taken in turn. The default suits bmv2, which forwards a few
    # hundred packets per second here: 150 pps of 1000 B each way; the thesis's rates are 2-20 Mbit/s.
    heavy_mbps: tuple = (1.2,)
    mouse_mean_pps: float = 4.0
    mouse_max_pps: float = 25.0
    threshold_bps: int = 2_000_000
    seed: int = 1

    def __post_init__(self):
        if not 1 <= self.ues <= 65_000:
            raise ValueError("ues must be in 1..65000, got %d" % self.ues)
        if not 0 <= self.heavy <= self.ues:
            raise ValueError("heavy must be in 0..ues, got %d" % self.heavy)
        if not 0 <= self.heavy_on_s < self.heavy_off_s <= self.duration_s:
            raise ValueError("need 0 <= heavy_on < heavy_off <= duration")
        # A session's rate is measured over both directions (its uplink and downlink counters).
        if not self.heavy_mbps or 2 * min(self.heavy_mbps) * 1e6 <= self.threshold_bps:
            raise ValueError("heavy UEs at 2 x %s Mbit/s stay below the %d bit/s threshold"
                             % (self.heavy_mbps, self.threshold_bps))
        if self.mouse_max_pps * MOUSE_SIZE * 8 * 2 >= self.threshold_bps:
            raise ValueError("mice could reach the heavy-hitter threshold")


def ue_addr(i):
    return str(UE_POOL.network_address + i)


def mouse_rates(sc):
    rng = random.Random(sc.seed)
    scale = sc.mouse_mean_pps / 3.0  # Pareto(1.5) has mean 3 x scale
    return [min(sc.mouse_max_pps, scale * rng.paretovariate(1.5)) for _ in range(sc.ues)]


def heavy_pps(sc, i):
    """Packets per second each way of heavy UE i (1-based)."""
    return round(sc.heavy_mbps[(i - 1) % len(sc.heavy_mbps)] * 1e6 / (8 * HEAVY_SIZE), 2)


def make_plan(sc, net, start):
    """The traffic plan both traffic generators and the checks read. `net` carries the
    topology's addresses and MACs; UE i (1-based) is heavy when i <= sc.heavy."""
    ues = []
    for i, pps in enumerate(mouse_rates(sc), start=1):
        mouse = [0.0, sc.duration_s, round(pps, 2), round(pps, 2), MOUSE_SIZE]
        if i <= sc.heavy:
            pps = heavy_pps(sc, i)
            phases = [[0.0, sc.heavy_on_s] + mouse[2:],
                      [sc.heavy_on_s, sc.heavy_off_s, pps, pps, HEAVY_SIZE],
                      [sc.heavy_off_s, sc.duration_s] + mouse[2:]]
        else:
            phases = [mouse]
        ues.append({"idx": i, "addr": ue_addr(i), "ul_teid": UL_TEID_BASE + i, "dl_teid": DL_TEID_BASE + i,
                    "heavy": i <= sc.heavy, "phases": phases})
    return dict(net, start=start, duration=sc.duration_s, heavy_on=sc.heavy_on_s, heavy_off=sc.heavy_off_s,
                threshold_bps=sc.threshold_bps, ues=ues)
