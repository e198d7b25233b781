"""`tools/lab.sh tenants`: three VXLAN tenants through a congested egress port, with and without priority.

hupf-backend plays the switch (hw profile) with an egress scheduler on its DN port (`--port-rate 2=MBIT`,
rte_sched, strict priority by v1model priority); the lab runner writes the tenants (`HupfDataplane.setTenants`,
as hupf writes the netcfg's `tenants`) and `qos.queues` (class tc -> priority tc) with the routes, and pins
the UEs' sessions to the switch (offload policy), so that the switch does the UPF and the tenants' classes
decide the queues. The gNB sends each tenant's GTP-U uplink inside the tenant's VXLAN: gold (tc 3, DSCP 46)
a constant light load, silver (tc 2, DSCP 26) a medium one, bronze (tc 0) a load that starts low, then ramps
above the port's rate. Each packet carries its send time; the DN side's receive socket timestamps it in the
kernel, so the latency is generator -> veth -> switch (parse, VXLAN and GTP-U decapsulation, UPF, queue,
rate) -> veth -> receiver. Per tenant and window (baseline: bronze low; congested: bronze above the rate):
p50/p90/p99/p99.9/max and loss.

Slices (the default; --no-slices leaves them out): gold's and silver's traffic is two QoS flows each, their
QFIs in the G-PDUs' PDU Session Containers, and the tenants have slices (netcfg `slices`: QFI -> class, DSCP,
meter): gold's QFI 1 keeps gold's class 3, its QFI 9 is a bulk slice in class 0 (DSCP 8, CS1) that ramps from a
tenth of the port to 1.2 times it with bronze; silver's plain traffic (no PSC) keeps silver's class, its QFI 5 is a
video slice (class 2, DSCP 34) metered at a tenth of the port (VXLAN frames as received) while it sends 15 % of
it. Each stream is measured apart ("gold" is gold's QFI 1).

A/B: the run happens twice, once with the tenants' classes as configured ("priority") and once with every
tenant and slice in class 0 ("no priority": one queue); with slices a third time without the slices ("no
slices": the same traffic, gold's bulk QFI in gold's class). The checks (exit 1 when one fails): every session
established; gold and silver lose nothing with priority; gold's congested p99 with priority stays within a bound
derived from its own uncongested p99 (GOLD_P99_FACTOR x baseline + a tenth of a full bronze queue at the port
rate) and rises above that bound without priority (and without the slices); bronze (and gold's bulk slice),
congested, loses packets and waits longer than in its baseline; the switch's queue drops are all priority 0 with
priority; the video slice's meter passes its rate and drops the excess; the switch's tenant and slice counters
count each tenant's and slice's packets and bytes as sent; every packet arrives decapsulated, well formed,
with its tenant's or slice's DSCP.

    sudo tools/lab.sh tenants [--port-mbps 5] [--duration 30] [--repeat 3] [--no-slices] [--json FILE]
"""
import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time

from hupf_tools.lab import run as lab
from hupf_tools.lab import accounting, frames, scenario, tenant_traffic, topo
from hupf_tools.lab.smf import Smf

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
# How far the video slice's delivered packets may stray from what its meter passes (share of those sent).
METER_TOLERANCE = 0.05
PERCENTILES = (50, 90, 99, 99.9)
# Gold's congested p99 with priority may be this many times its baseline p99, plus a tenth of what a full queue
# of bronze frames takes at the port's rate (what gold waits in one queue shared with bronze): a bronze frame
# the scheduler released is not preempted, and the shared machine's scheduling noise grows with the congested
# phase's packets to send, forward and receive, not in proportion to the baseline's.
GOLD_P99_FACTOR = 2.0
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


def expected_dscp(tenants, stream):
    """The DSCP a stream's packets leave with under a run's tenants (as written): its slice's, else its
    tenant's."""
    t = next(t for t in tenants if t["tenant_id"] == TENANT_IDS[stream["tenant"]])
    for x in t.get("slices", ()):
        if x["qfi"] == stream["qfi"]:
            return x["dscp"]
    return t["dscp"]


def percentile(values, p):
    """Nearest-rank percentile of a list (None when empty)."""
    if not values:
        return None
    s = sorted(values)
    # Rounded first: 99.9 / 100 x 1000 is 999.0000000000001 in floating point, and its rank 999.
    return s[max(0, math.ceil(round(p / 100.0 * len(s), 9)) - 1)]


def tenant_figures(tx, rx):
    """{stream: {window: {"sent", "received", "loss", "p50", ..., "max" (ms)}}} from the sender's and receiver's
    stats (a stream is a tenant's packets of one QFI; without slices, a tenant's)."""
    out = {}
    for n, windows in tx["sent"].items():
        out[n] = {}
        for w, sent in windows.items():
            got = rx["received"][n].get(w, 0)
            lat = [v / 1000.0 for v in rx["latency_us"][n].get(w, [])]
            f = {"sent": sent, "received": got, "loss": (1 - got / sent) if sent else 0.0,
                 "max": max(lat) if lat else None}
            for p in PERCENTILES:
                f["p%g" % p] = percentile(lat, p)
            out[n][w] = f
    return out


def gold_bound_ms(figures, slack_ms):
    """The congested p99 gold may reach with priority: derived from its uncongested (baseline) p99."""
    base = figures["gold"]["baseline"]["p99"]
    return None if base is None else GOLD_P99_FACTOR * base + slack_ms


def class_of(tenants, stream):
    """The class a stream's packets take under a run's tenants (as written): its slice's, else its tenant's."""
    t = next(t for t in tenants if t["tenant_id"] == TENANT_IDS[stream["tenant"]])
    for x in t.get("slices", ()):
        if x["qfi"] == stream["qfi"]:
            return x["tc"]
    return t["tc"]


def low_check(fig, name, what):
    """(name, passed, detail): a low-priority stream, congested, loses packets and waits longer than in its
    baseline."""
    f = fig[name]
    return ("with priority, %s (congested) loses packets and waits longer than in its baseline" % what,
            f["congested"]["loss"] > 0 and None not in (f["congested"]["p50"], f["baseline"]["p99"])
            and f["congested"]["p50"] > f["baseline"]["p99"],
            "loss %.2f%%, p50 %s ms against a baseline p99 of %s ms" % (
                100 * f["congested"]["loss"], ms(f["congested"]["p50"]), ms(f["baseline"]["p99"])))


def meter_check(r, name):
    """(name, passed, detail): a metered slice's stream delivers, in each window, what its meter passes (the
    meter's rate over the window, in its frames, at most what was sent) within METER_TOLERANCE of what was sent
    plus the burst; the run's queues drop none of its priority (the queue drop check), so the rest is the meter's."""
    stream = next(s for s in r["streams"] if s["name"] == name)
    t = next(t for t in r["tenants"] if t["tenant_id"] == TENANT_IDS[stream["tenant"]])
    x = next(x for x in t["slices"] if x["qfi"] == stream["qfi"])
    flen = r["sent_bytes"][name] / r["sent_total"][name] if r["sent_total"].get(name) else 0
    ok, parts = flen > 0, []
    for w, (t0, t1) in sorted(r["windows"].items(), key=lambda kv: kv[1]):
        f = r["figures"][name][w]
        passed = min(f["sent"], x["rate_bps"] * (t1 - t0) / 8 / flen) if flen else 0
        slack = METER_TOLERANCE * f["sent"] + x["burst_bytes"] / flen if flen else 0
        ok = ok and f["sent"] > passed and abs(f["received"] - passed) <= slack
        parts.append("%s %d of %d delivered, the meter passes %.0f" % (w, f["received"], f["sent"], passed))
    return ("with priority, %s's slice meter (QFI %d, %d bit/s) delivers its rate and drops the excess"
            % (name, stream["qfi"], x["rate_bps"]), ok, "; ".join(parts))


def counter_check(runs):
    """(name, passed, detail): in every run the switch's tenant counter of each tenant and slice counter of each
    of its slices hold the packets and bytes sent to it (less at most what the switch's gNB port missed)."""
    ok, parts = True, []
    for run, r in runs.items():
        c = r.get("counters")
        if not c or "error" in c:
            ok = False
            parts.append("%s: not read (%s)" % (run, (c or {}).get("error", "no counters")))
            continue
        missed = r.get("rx_missed") or 0
        bad = []
        want = {}
        for s in r["streams"]:
            tid = TENANT_IDS[s["tenant"]]
            sent = (r["sent_total"].get(s["name"], 0), r["sent_bytes"].get(s["name"], 0))
            key = ("tenant", str(tid))
            want[key] = tuple(a + b for a, b in zip(want.get(key, (0, 0)), sent))
            t = next(t for t in r["tenants"] if t["tenant_id"] == tid)
            if any(x["qfi"] == s["qfi"] for x in t.get("slices", ())):
                want[("slice", "%d/%d" % (tid, s["qfi"]))] = sent
        for t in r["tenants"]:
            for x in t.get("slices", ()):
                want.setdefault(("slice", "%d/%d" % (t["tenant_id"], x["qfi"])), (0, 0))
        for (kind, key), (pkts, nbytes) in want.items():
            got = (c["tenants"] if kind == "tenant" else c["slices"]).get(key)
            if got is None or not (pkts - missed <= got[0] <= pkts) or (got[0] == pkts and got[1] != nbytes):
                bad.append("%s %s %s of %d/%d" % (kind, key, got, pkts, nbytes))
        slices = sum(1 for k in want if k[0] == "slice")
        parts.append("%s: %d tenants, %d slices%s%s" % (run, len(want) - slices, slices,
                                                       ", port missed %d" % missed if missed else "",
                                                       ": " + ", ".join(bad) if bad else " as sent"))
        ok = ok and not bad
    return ("the switch's tenant and slice counters hold each tenant's and slice's packets and bytes as sent",
            ok, "; ".join(parts))


def accounting_check(runs):
    """(name, passed, detail): in every run each packet sent arrived (or arrived malformed, which another check
    fails) or was counted dropped; the pipelines dropped only for a meter's red (the metered slice)."""
    wrong, parts = [], []
    for run, r in runs.items():
        b = r["accounting"]
        verdicts = {reason for by in r["drops"]["verdicts"].values() for reason in by}
        if b["uncounted"] != 0 or verdicts - {"meter red"}:
            wrong.append(run)
        parts.append("%s: sent %d = delivered %d + dropped for want of room %d + by the pipelines %d (%s) + "
                     "uncounted %d" % (run, b["sent"], b["delivered"], b["dropped"], b["verdicts"],
                                       accounting.describe(r["drops"]["verdicts"]), b["uncounted"]))
    return ("every packet is delivered or counted dropped, in every run", not wrong, "; ".join(parts))


def checks(runs, slack_ms):
    """[(name, passed, detail)] over the A/B. runs: {"priority": result, "no priority": result[, "no slices":
    result]}, each with "established" [accepted, planned], "figures" (tenant_figures, by stream), "queue_dropped"
    (the switch's drops on the congested port by priority, or None when not read), "dscp" ({stream: {dscp:
    packets}}), "bad" (malformed frames the receiver saw, by reason), "streams" (the plan's), "tenants" (as the
    runner wrote them), "windows", "sent_total" and "sent_bytes" (by stream), "counters" (the runner's
    tenant_counters, after the traffic) and "rx_missed" (the switch's gNB port); slack_ms: what gold's bound adds to
    GOLD_P99_FACTOR x its baseline p99 (Plan.slack_ms). With a "no slices" run, the slices' checks too."""
    a, b = runs["priority"], runs["no priority"]
    c = runs.get("no slices")
    fa, fb = a["figures"], b["figures"]
    out = []
    est = [r["established"] for r in runs.values()]
    out.append(("all sessions established over PFCP, %s runs" % ("both" if len(runs) == 2 else "all"),
                all(e[0] == e[1] > 0 for e in est), ", ".join("%d/%d" % tuple(e) for e in est)))
    out.append(accounting_check(runs))
    lost = {n: fa[n]["congested"]["sent"] - fa[n]["congested"]["received"] + fa[n]["baseline"]["sent"]
            - fa[n]["baseline"]["received"] for n in ("gold", "silver")}
    outside = sum(n for by in a["drops"]["room"].values() for reason, n in by.items() if "queue" not in reason)
    out.append(("with priority, gold and silver lose nothing in hupf's queues: what they did not receive was "
                "dropped for want of room elsewhere", lost["gold"] + lost["silver"] <= outside,
                "lost: gold %d, silver %d; counted outside the queues %d (%s)"
                % (lost["gold"], lost["silver"], outside, accounting.describe(a["drops"]["room"]))))
    bound = gold_bound_ms(fa, slack_ms)
    p99a, p99b = fa["gold"]["congested"]["p99"], fb["gold"]["congested"]["p99"]
    out.append(("with priority, gold's congested p99 stays within %g x its baseline p99 + %.2f ms"
                % (GOLD_P99_FACTOR, slack_ms),
                None not in (bound, p99a) and p99a <= bound,
                "baseline p99 %s ms, congested p99 %s ms, bound %s ms" % (ms(fa["gold"]["baseline"]["p99"]),
                                                                         ms(p99a), ms(bound))))
    out.append(("without priority, gold's congested p99 rises above that bound",
                None not in (bound, p99b) and p99b > bound,
                "congested p99 %s ms (bound %s ms), loss %.2f%%" % (ms(p99b), ms(bound),
                                                                    100 * fb["gold"]["congested"]["loss"])))
    if c is not None:
        p99c = c["figures"]["gold"]["congested"]["p99"]
        out.append(("without the slices, gold's congested p99 rises above that bound (its bulk QFI in its class)",
                    None not in (bound, p99c) and p99c > bound,
                    "congested p99 %s ms (bound %s ms), loss %.2f%%" % (
                        ms(p99c), ms(bound), 100 * c["figures"]["gold"]["congested"]["loss"])))
    out.append(low_check(fa, "bronze", "bronze"))
    if c is not None:
        out.append(low_check(fa, "gold-bulk", "gold's bulk slice (QFI 9)"))
    low = [s["name"] for s in a["streams"] if class_of(a["tenants"], s) == 0]
    qd = a.get("queue_dropped")
    out.append(("with priority, the switch's queue drops on port %d are all priority 0 (%s)"
                % (DN_PORT, ", ".join(low)),
                qd is not None and qd[0] > 0 and not any(qd[1:]),
                "by priority 0..7: %s" % (qd if qd is not None else "not read")))
    if c is not None:
        out.append(meter_check(a, "silver-video"))
    if all("counters" in r for r in runs.values()):
        out.append(counter_check(runs))
    wrong, bad = [], {}
    for run, r in runs.items():
        for s in r["streams"]:
            want = str(expected_dscp(r["tenants"], s))
            seen = set(r["dscp"].get(s["name"], {}))
            if seen != {want}:
                wrong.append("%s %s %s (want %s)" % (run, s["name"], "/".join(sorted(seen)) or "-", want))
        for reason, n in r["bad"].items():
            bad[reason] = bad.get(reason, 0) + n
    out.append(("every packet arrives decapsulated and well formed, with its tenant's or slice's DSCP",
                not wrong and not bad, "DSCP %s; malformed %s" % (", ".join(wrong) or "as expected",
                                                                   bad or "none")))
    return out


def ms(v):
    return "-" if v is None else "%.2f" % v


def label(stream):
    return stream["name"] if stream["qfi"] is None else "%s (QFI %d)" % (stream["name"], stream["qfi"])


def render(runs, results, sc, load):
    lines = ["== hupf tenants lab summary ==",
             "switch: %s, egress port %d at %g Mbit/s (rte_sched, strict priority); %d UEs per tenant, %g s; %s; "
             "load average at the start %s" % (lab.SWITCH_NAMES["backend"], DN_PORT, sc.port_mbps, sc.ues_per_tenant,
                                               sc.duration_s, "slices" if sc.sliced else "no slices", load),
             "latency: generator -> veth -> switch -> veth -> receiver's kernel timestamp, ms",
             "| run | tenant | window | sent | loss | p50 | p90 | p99 | p99.9 | max |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for run in sc.runs:
        for s in sc.streams:
            for w in ("baseline", "congested"):
                f = runs[run]["figures"][s["name"]][w]
                lines.append("| %s | %s | %s | %d | %.2f%% | %s | %s | %s | %s | %s |" % (
                    run, label(s), w, f["sent"], 100 * f["loss"], ms(f["p50"]), ms(f["p90"]), ms(f["p99"]),
                    ms(f["p99.9"]), ms(f["max"])))
    for name, ok, detail in results:
        lines.append("%s  %s (%s)" % ("PASS" if ok else "FAIL", name, detail))
    return lines


def spread(reps):
    """{run: {stream: {window: {figure: [min, median, max]}}}} over repetitions of the A/B (the runs and streams
    of the first)."""
    out = {}
    for run in [r for r in RUNS if r in reps[0]]:
        out[run] = {}
        for n in reps[0][run]["figures"]:
            out[run][n] = {}
            for w in ("baseline", "congested"):
                figs = {}
                for k in ["loss", "max"] + ["p%g" % p for p in PERCENTILES]:
                    vals = [r[run]["figures"][n][w][k] for r in reps]
                    vals = [v for v in vals if v is not None]
                    figs[k] = [min(vals), statistics.median(vals), max(vals)] if vals else None
                out[run][n][w] = figs
    return out


def render_spread(sp, n):
    def mmm(v, scale=1.0, fmt="%.2f"):
        return "-" if v is None else " / ".join(fmt % (x * scale) for x in v)
    lines = ["", "min / median / max over %d repetitions (ms; loss %%)" % n,
             "| run | tenant | window | loss | p50 | p90 | p99 | p99.9 | max |",
             "|---|---|---|---|---|---|---|---|---|"]
    for run, streams in sp.items():
        for name, windows in streams.items():
            for w in ("baseline", "congested"):
                f = windows[w]
                lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    run, name, w, mmm(f["loss"], 100), mmm(f["p50"]), mmm(f["p90"]), mmm(f["p99"]),
                    mmm(f["p99.9"]), mmm(f["max"])))
    return lines


def port_stats(log_path, port):
    """A port's figures in the last stats line the switch's SIGUSR1 logged ({} when none)."""
    found = {}
    with open(log_path) as f:
        for line in f:
            if '"msg":"stats"' not in line:
                continue
            for p in json.loads(line).get("ports") or []:
                if p.get("P4Port") == port:
                    found = p
    return found


def queue_drops(log_path, port):
    """The switch's queue drops by priority on a port, from the last stats line its SIGUSR1 logged."""
    return port_stats(log_path, port).get("QueueDropped")


def final_counters(status_path, since, timeout=10.0):
    """The runner's tenant_counters once read after `since` (epoch s); after `timeout`, the latest (or None)."""
    deadline = time.time() + timeout
    while True:
        c = lab.read_json(status_path).get("tenant_counters")
        if (c and c.get("read_ms", 0) / 1000.0 >= since) or time.time() >= deadline:
            return c
        time.sleep(0.2)


def run_once(sc, run, say):
    """One lab run: the topology, backend, switch with the egress rate, runner, sessions, traffic; returns
    its result (see checks)."""
    t = topo.Topology(True, lab.lab_tag())
    workdir = tempfile.mkdtemp(prefix="hupf-tenants-")
    procs = lab.Procs(workdir)
    try:
        t.up()
        net = dict(t.addresses(), n3=lab.N3, gnb=lab.GNB, app=lab.APP)
        ports = {"backends": [lab.free_port()], "switch": lab.free_port(), "pfcp": lab.free_port()}
        backend_cmd = [lab.BACKEND, "--grpc-addr", "127.0.0.1:%d" % ports["backends"][0], "--device-id", "1",
                       "--sessions", "65536", "--mem", "1024", "--port", "1=%s" % t.backends[0][1]]
        procs.start("backend", lab.supervised(backend_cmd, os.path.join(workdir, "backend-supervisor.json")))
        procs.start("switch", lab.switch_command("backend", ports, t)
                             + ["--port-rate", "%d=%g" % (DN_PORT, sc.port_mbps)])
        cfg = lab.runner_config(True, net, workdir, scenario.Scenario(), ports)
        cfg["tenants"] = sc.tenants(run)
        cfg["queues"] = QUEUES
        # The switch carries every session (UPF, tenants, queues): none waits for an HH report.
        cfg["policy"]["pins"] = {"slices": {str(cfg["slice"]): "HARDWARE"}}
        cfg_path = os.path.join(workdir, "runner.json")
        with open(cfg_path, "w") as f:
            json.dump(cfg, f, indent=1)
        with open(lab.CLASSPATH) as f:
            cp = f.read().strip()
        lab.start_runner(procs, cp, cfg_path)
        lab.wait_ready(procs, cfg["status"])
        plan = sc.make(net, time.time() + 2.0)
        planned = len(plan["ues"])
        smf = Smf("127.0.0.1", ports["pfcp"], node_id=lab.SMF_NODE)
        established = smf.establish(plan)
        smf.close()
        say("%s: %d/%d sessions established over PFCP" % (run, established, planned))
        if not established:
            raise lab.LabError("no PFCP session established; runner log: %s" % procs.log_tail("runner"))
        plan["ues"] = [u for u in plan["ues"] if u["ul_teid"] is not None]
        wait_offloaded(cfg["status"], len(plan["ues"]))
        drops_before = accounting.collect(accounting.lab_devices(procs, cfg, "backend"), t)
        plan["start"] = time.time() + 1.0
        plan_path = os.path.join(workdir, "plan.json")
        with open(plan_path, "w") as f:
            json.dump(plan, f)
        stats = {k: os.path.join(workdir, k + ".json") for k in ("tx", "rx")}
        py = [sys.executable, "-m", "hupf_tools.lab.tenant_traffic"]
        procs.start("recv-dn", py + ["recv", "--plan", plan_path, "--iface", topo.HOST_IF["dn"], "--stats",
                                  stats["rx"]], t.ns("dn"))
        procs.start("send-gnb", py + ["send", "--plan", plan_path, "--iface", topo.HOST_IF["gnb"], "--stats",
                                  stats["tx"]], t.ns("gnb"))
        while time.time() < plan["start"] + sc.duration_s + 0.5:
            procs.check_alive()
            time.sleep(0.5)
        procs.stop("send-gnb")
        time.sleep(1.0)   # what the queues still hold leaves at the port's rate
        procs.stop("recv-dn")
        counters = final_counters(cfg["status"], time.time())
        tx, rx = lab.read_json(stats["tx"]), lab.read_json(stats["rx"])
        if not tx.get("done") or not rx.get("done"):
            raise lab.LabError("the traffic's stats are missing (%s)" % workdir)
        drops = accounting.since(accounting.collect(accounting.lab_devices(procs, cfg, "backend"), t,
                                                    [("receiver dn", rx["socket_drops"])]), drops_before)
        log = os.path.join(workdir, "switch.log")
        return {"established": [established, planned], "figures": tenant_figures(tx, rx),
                "queue_dropped": queue_drops(log, DN_PORT), "dscp": rx["dscp"], "bad": rx["bad"],
                "socket_drops": rx["socket_drops"], "workdir": workdir, "streams": sc.streams,
                "tenants": cfg["tenants"], "windows": sc.windows, "sent_total": tx["total"],
                "sent_bytes": tx["bytes"], "counters": counters, "rx_missed": port_stats(log, 1).get("RXMissed"),
                "drops": drops, "accounting": accounting.balance(
                    sum(tx["total"].values()),
                    sum(rx["total"].values()) + rx["no_kernel_timestamp"] + sum(rx["bad"].values()), drops)}
    finally:
        procs.stop()
        t.down()


def wait_offloaded(status_path, n, timeout=30.0):
    """Until the runner's status lists n UEs on the switch (pinned there: promoted at establishment)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if len(lab.read_json(status_path).get("targets", {}).get("switch", [])) >= n:
            return
        time.sleep(0.3)
    raise lab.LabError("the UEs' sessions were not on the switch after %.0f s" % timeout)


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def ab(args):
    """The A/B, args.repeat times: the summary of each, then the spread; exit status 0 when every check passed."""
    try:
        sc = Plan(args.port_mbps, args.duration, args.ues_per_tenant, slices=not args.no_slices)
    except ValueError as e:
        raise lab.LabError(str(e))
    if lab.preflight("backend") != "backend":
        raise lab.LabError("the tenants lab runs with hupf-backend as the switch")
    reps, ok = [], True
    for k in range(args.repeat):
        load = load_average()
        runs = {}
        for run in sc.runs:
            lab.say("tenants: repetition %d/%d, %s (load average %s)" % (k + 1, args.repeat, run, load_average()))
            runs[run] = run_once(sc, run, lab.say)
        results = checks(runs, sc.slack_ms)
        ok = ok and all(r[1] for r in results)
        print("\n".join(render(runs, results, sc, load)), flush=True)
        reps.append(dict(runs, checks=[{"name": n, "passed": p, "detail": d} for n, p, d in results], load=load))
    sp = spread(reps) if args.repeat > 1 else None
    if sp:
        print("\n".join(render_spread(sp, args.repeat)), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"port_mbps": sc.port_mbps, "duration_s": sc.duration_s, "windows": sc.windows,
                       "tenants": TENANTS, "slices": sc.sliced, "streams": sc.streams, "repetitions": reps,
                       "spread": sp}, f, indent=1)
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port-mbps", type=float, default=5.0, help="the switch's DN port rate, Mbit/s (default 5)")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of traffic per run (default 30)")
    ap.add_argument("--ues-per-tenant", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="A/B repetitions; more than one adds min/median/max")
    ap.add_argument("--no-slices", action="store_true",
                    help="the tenants without slices, their traffic without QFIs (the scenario before the slices)")
    ap.add_argument("--json", help="write every run's figures and the checks here")
    args = ap.parse_args(argv)
    return lab.exit_status(lambda: ab(args))


if __name__ == "__main__":
    raise SystemExit(main())
