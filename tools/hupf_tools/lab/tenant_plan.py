"""The tenants lab's scenario: three VXLAN tenants (gold, silver, bronze) and their slices, their streams' rates
and windows from the congested port's rate, and the tenants and slices as the runner writes them.
"""
from hupf_tools.lab import frames, scenario, tenant_traffic

VTEP = "192.0.2.254"        # the switch's VTEP: the VXLAN frames' outer IPv4 destination
DN_PORT = 2                 # the switch's port towards the data network: the congested one
QUEUES = {str(tc): tc for tc in range(4)}   # qos.queues: class tc -> v1model priority tc
TENANTS = ({"name": "gold", "vni": 100, "tenant_id": 1, "tc": 3, "dscp": 46},
           {"name": "silver", "vni": 200, "tenant_id": 2, "tc": 2, "dscp": 26},
           {"name": "bronze", "vni": 300, "tenant_id": 3, "tc": 0, "dscp": 0})
TENANT_IDS = {t["name"]: t["tenant_id"] for t in TENANTS}
# The streams with slices: (name, tenant, QFI of its PDU Session Container or None). "gold" is gold's QFI 1.
SLICED_STREAMS = (("gold", "gold", 1), ("gold-bulk", "gold", 9), ("silver", "silver", None),
                  ("silver-video", "silver", 5), ("bronze", "bronze", None))
# The tenants' slices, by tenant (the video slice's meter comes from the port rate: Plan.slices).
SLICES = {"gold": ({"qfi": 1, "tc": 3, "dscp": 46}, {"qfi": 9, "tc": 0, "dscp": 8}),
          "silver": ({"qfi": 5, "tc": 2, "dscp": 34},)}
VIDEO_METER_SHARE = 0.1   # the video slice's meter: this share of the port's rate, in VXLAN frame bytes
METER_BURST_FRAMES = 10   # its burst, in video frames
QUEUE_PKTS = 64           # packets a priority's queue holds on the switch (backend/dp/egress.h)
RUNS = ("priority", "no priority", "no slices")
WIRE_OVERHEAD = 14 + 24   # Ethernet header, and the framing the scheduler counts (preamble, FCS, gap)


class Plan:
    """The scenario's streams, rates and windows, from the port rate (Mbit/s), the duration (s) and whether the
    tenants have slices."""

    # Shares of the port's rate (user packets) and user packet bytes: gold light, silver medium, bronze from
    # BRONZE_LOW before the ramp to BRONZE_HIGH at its end (above the rate with the others: congested). With
    # slices, gold's bulk QFI likewise from BULK_LOW to BULK_HIGH (above the rate alone), silver's video constant.
    GOLD, SILVER, VIDEO = (0.05, 200), (0.25, 500), (0.15, 1000)
    BRONZE_SIZE, BULK_SIZE = 1000, 1400
    BRONZE_LOW, BRONZE_HIGH = 0.2, 1.5
    BULK_LOW, BULK_HIGH = 0.1, 1.2

    def __init__(self, port_mbps=5.0, duration_s=30.0, ues_per_tenant=2, slices=True):
        if not 0.5 <= port_mbps <= 50:
            raise ValueError("port rate must be in 0.5..50 Mbit/s (a Python sender), got %g" % port_mbps)
        if duration_s < 12:
            raise ValueError("duration must be at least 12 s (baseline, ramp, congestion), got %g" % duration_s)
        self.port_mbps, self.duration_s, self.ues_per_tenant = port_mbps, duration_s, ues_per_tenant
        self.sliced = slices
        self.ramp = (duration_s / 3, duration_s / 2)
        self.windows = {"baseline": (1.0, self.ramp[0]), "congested": (self.ramp[1] + 1.0, duration_s)}
        self.slack_ms = QUEUE_PKTS * (self.BRONZE_SIZE + WIRE_OVERHEAD) * 8 / (port_mbps * 1e3) / 10
        self.runs = RUNS if slices else RUNS[:2]
        self.streams = [{"name": n, "tenant": t, "qfi": q} for n, t, q in SLICED_STREAMS] if slices else \
            [{"name": t["name"], "tenant": t["name"], "qfi": None} for t in TENANTS]

    def pps(self, share, size):
        return round(share * self.port_mbps * 1e6 / (8 * size), 1)

    def ramping(self, low, high, size):
        d, (r0, r1) = self.duration_s, self.ramp
        lo, hi = self.pps(low, size), self.pps(high, size)
        return [[0.0, r0, lo, lo, size], [r0, r1, lo, hi, size], [r1, d, hi, hi, size]]

    def phases(self, name):
        if name == "bronze":
            return self.ramping(self.BRONZE_LOW, self.BRONZE_HIGH, self.BRONZE_SIZE)
        if name == "gold-bulk":
            return self.ramping(self.BULK_LOW, self.BULK_HIGH, self.BULK_SIZE)
        share, size = {"gold": self.GOLD, "silver": self.SILVER, "silver-video": self.VIDEO}[name]
        pps = self.pps(share, size)
        return [[0.0, self.duration_s, pps, pps, size]]

    def slices(self, tenant):
        """A tenant's slices as the runner writes them (the video slice metered at VIDEO_METER_SHARE of the port
        in VXLAN frame bytes, a burst of METER_BURST_FRAMES of its frames)."""
        out = []
        for x in SLICES.get(tenant, ()):
            x = dict(x)
            if tenant == "silver" and x["qfi"] == 5:
                x["rate_bps"] = int(VIDEO_METER_SHARE * self.port_mbps * 1e6)
                x["burst_bytes"] = METER_BURST_FRAMES * frame_len(self.VIDEO[1], x["qfi"])
            out.append(x)
        return out

    def tenants(self, run):
        """The tenants as the runner writes them for a run: their classes, or all (slices too) in class 0 without
        priority; their slices unless the plan has none or the run is "no slices"."""
        with_priority = run != "no priority"
        out = []
        for t in TENANTS:
            e = {"vni": t["vni"], "vtep": VTEP, "tenant_id": t["tenant_id"], "tc": t["tc"] if with_priority else 0,
                 "dscp": t["dscp"]}
            if self.sliced and run != "no slices":
                e["slices"] = [dict(x, tc=x["tc"] if with_priority else 0) for x in self.slices(t["name"])]
            out.append(e)
        return out

    def make(self, net, start):
        ues, i = [], 0
        for t in TENANTS:
            for _ in range(self.ues_per_tenant):
                i += 1
                ues.append({"idx": i, "addr": scenario.ue_addr(i), "ul_teid": None,
                            "dl_teid": scenario.DL_TEID_BASE + i, "tenant": t["name"]})
        vni = {t["name"]: t["vni"] for t in TENANTS}
        streams = [dict(s, vni=vni[s["tenant"]], sport=49152 + vni[s["tenant"]], phases=self.phases(s["name"]))
                   for s in self.streams]
        return dict(net, vtep=VTEP, start=start, duration=self.duration_s, ues=ues, streams=streams,
                    windows=self.windows)


def frame_len(size, qfi):
    """Bytes of a stream's VXLAN frame as the switch receives it (what its tenant and slice counters and meters
    count) for a user packet of `size` bytes."""
    return (tenant_traffic.OUTER_LEN + frames.ETH_LEN + frames.IP_LEN + frames.UDP_LEN + frames.GTP_LEN
            + (0 if qfi is None else 8) + size)
