"""The RPS verifier: delay and loss of each sampled flow and tenant between hupf's two observation points, from the
records the collector kept, checked against the UPF's own counters.

Per device (IN and OUT of one target share its clock) and flow:
- delay: every IN disclosure (direct or delayed) whose digest OUT disclosed too gives OUT.ts - IN.ts (us);
  p50/p90/p99/max, and a distribution-free confidence interval of the median;
- loss: an IN direct disclosure is a sample (lost when OUT has no record of its digest); an IN delayed disclosure is
  one when OUT can have made the same choice: the IN direct disclosure that chose it (same flow and dnum) reached
  OUT, OUT did not warn of a late disclosure for that disclosure's number (a gap: OUT's buffer lost its receipts),
  and the order of R, the disclosure before its judge, its judge and the disclosure after cannot change between
  IN and OUT (more than the delay jitter apart; R older than the quiet time plus the jitter). Samples younger than the
  horizon (the last OUT record minus the largest delay) are pending, not lost. The loss ratio comes with a Wilson
  score interval;
- gaps: every late-disclosure warning, as the span of receipts its point lost;
- a digest one point disclosed more than once names no one packet: its records are left out (counted).
Then per tenant (the flows' tenant in the rps config), and the check: the counted loss ratio of the UPF's counters
((in - out) / in per tenant, optionally per direction) lies in the sampled estimate's interval.

  PYTHONPATH=tools .venv/bin/python -m hupf_tools.rps.verifier --records rps.jsonl --config netcfg.json \
      [--counters counters.json | --rest http://127.0.0.1:8181/onos/hupf --user onos:rocks] [--confidence 0.95] [--json]

--config: a file with the `rps` block (or a netcfg holding apps.org.hupf.app.hupf.rps). --counters: {"TENANT":
{"in": N, "out": M}} or {"TENANT": {"uplink": {"in", "out"}, "downlink": {...}}} ("dropped" may stand for in - out).
--rest: the control plane's REST (sessions and their PDR counters; pre-QoS packets = in, post-QoS = out).
"""
import argparse
import base64
import collections
from collections import Counter
import json
import math
import statistics
import sys
import urllib.request
from ipaddress import IPv4Address, IPv4Network

from hupf_tools.rps import records as rec

DIRECTIONS = ("uplink", "downlink")


def z_of(confidence):
    """Two-sided standard normal quantile."""
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(lost, n, confidence=0.95):
    """Wilson score interval of a binomial proportion; (0, 1) without samples."""
    if n == 0:
        return 0.0, 1.0
    z = z_of(confidence)
    p = lost / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # At 0 or n lost the bound is exactly 0 or 1 (the formula's rounding would leave a crumb).
    return (0.0 if lost == 0 else max(0.0, centre - half)), (1.0 if lost == n else min(1.0, centre + half))


def percentile(sorted_samples, q):
    """Nearest-rank percentile of sorted samples."""
    if not sorted_samples:
        return None
    k = max(1, math.ceil(q * len(sorted_samples)))
    return sorted_samples[k - 1]


def quantile_interval(sorted_samples, q, confidence=0.95):
    """Distribution-free confidence interval of the q-quantile: order statistics around n*q (normal
    approximation of the binomial ranks)."""
    n = len(sorted_samples)
    if n == 0:
        return None
    z = z_of(confidence)
    spread = z * math.sqrt(n * q * (1 - q))
    lo = max(0, math.floor(n * q - spread) - 1)
    hi = min(n - 1, math.ceil(n * q + spread))
    return sorted_samples[lo], sorted_samples[hi]


def delay_summary(samples, confidence):
    s = sorted(samples)
    if not s:
        return {"samples": 0}
    return {"samples": len(s), "p50_us": percentile(s, 0.5), "p90_us": percentile(s, 0.9),
            "p99_us": percentile(s, 0.99), "max_us": s[-1], "min_us": s[0],
            "p50_interval_us": list(quantile_interval(s, 0.5, confidence))}


def loss_summary(lost, n, confidence, **extra):
    lo, hi = wilson(lost, n, confidence)
    return {"samples": n, "lost": lost, "ratio": lost / n if n else None, "interval": [lo, hi], **extra}


def age(now, then):
    return (now - then) % rec.U32


class Config:
    """The flows of an rps block: flow id -> (tenant, direction), and the quiet time."""

    def __init__(self, block):
        self.quiet_us = int(block.get("quietUs", 0))
        self.flows = {}
        self.prefixes = []
        for i, f in enumerate(block.get("flows", [])):
            try:
                tenant, direction, flow = str(f["tenant"]), f["direction"], int(f["flowId"])
                net = IPv4Network(f["uePrefix"])
            except (KeyError, TypeError, ValueError) as e:
                raise ValueError(f"rps.flows[{i}]: {e!r}") from None
            if direction not in DIRECTIONS:
                raise ValueError(f"rps.flows[{i}].direction: {direction!r} is neither uplink nor downlink")
            self.flows[flow] = (tenant, direction)
            self.prefixes.append((net, direction, tenant))

    @staticmethod
    def load(path):
        with open(path) as f:
            d = json.load(f)
        if "apps" in d:
            d = d["apps"]["org.hupf.app"]["hupf"]
        return Config(d.get("rps", d))

    def tenant(self, flow):
        return self.flows.get(flow, (f"flow-{flow}", "unknown"))


def verify(records, config, counters=None, confidence=0.95, jitter_us=None):
    """The verifier's report (a dict) over the collected records."""
    by_dev_flow = collections.defaultdict(list)
    for r in records:
        if r.kind != rec.RECEIPT:
            by_dev_flow[(r.device, r.flow)].append(r)
    # The collector keeps arrival order: a device's last OUT record is its latest (its clock wraps).
    last_out = {r.device: r.ts for r in records if r.point == rec.OUT and r.kind in (rec.DIRECT, rec.DELAYED)}
    flows = {}
    delays_of = {}
    # A digest disclosed twice at one point names no one packet (traffic without entropy in the digest's bytes:
    # e.g. a constant IP identification and UDP checksum): its records are left out of delay and loss.
    ambiguous = {}
    for key, rs in by_dev_flow.items():
        seen = Counter((r.point, r.digest) for r in rs if r.kind in (rec.DIRECT, rec.DELAYED))
        ambiguous[key] = {d for (_, d), n in seen.items() if n > 1}
        by_dev_flow[key] = [r for r in rs if r.digest not in ambiguous[key] or r.kind == rec.LATE_WARNING]
    # Delay first: it sets the jitter margin and the horizon of the loss samples.
    for key, rs in by_dev_flow.items():
        out_by_digest = {r.digest: r for r in rs if r.point == rec.OUT and r.kind in (rec.DIRECT, rec.DELAYED)}
        delays_of[key] = [age(out_by_digest[r.digest].ts, r.ts) for r in rs
                          if r.point == rec.IN and r.kind in (rec.DIRECT, rec.DELAYED) and r.digest in out_by_digest]
    all_delays = sorted(d for ds in delays_of.values() for d in ds)
    max_delay = all_delays[-1] if all_delays else 0
    jitter = jitter_us if jitter_us is not None else (max_delay - all_delays[0] if all_delays else 0)
    for (device, flow), rs in sorted(by_dev_flow.items()):
        tenant, direction = config.tenant(flow)
        out_by_digest = {r.digest: r for r in rs if r.point == rec.OUT and r.kind in (rec.DIRECT, rec.DELAYED)}
        in_direct = collections.defaultdict(list)
        for r in rs:
            if r.point == rec.IN and r.kind == rec.DIRECT:
                in_direct[r.dnum].append(r)
        out_late = {r.dnum for r in rs if r.point == rec.OUT and r.kind == rec.LATE_WARNING}
        horizon = last_out.get(device)
        n = lost = pending = unjudged = in_gap = too_close = 0
        unmatched_out = 0
        lost_digests = []
        for r in rs:
            if r.point != rec.IN or r.kind not in (rec.DIRECT, rec.DELAYED):
                continue
            if horizon is None or age(horizon, r.ts) < max_delay or age(horizon, r.ts) >= rec.U32 // 2:
                pending += 1
                continue
            if r.kind == rec.DELAYED:
                judges = [d for d in in_direct.get(r.dnum, []) if age(d.ts, r.ts) < rec.U32 // 2]
                if not judges:
                    unjudged += 1
                    continue
                judge = min(judges, key=lambda d: age(d.ts, r.ts))
                judge_out = out_by_digest.get(judge.digest)
                if judge_out is None or judge_out.kind != rec.DIRECT:
                    unjudged += 1
                    continue
                if judge_out.dnum in out_late:
                    in_gap += 1
                    continue
                # OUT makes the same choice only if it sees R after the disclosure before the judge, then the judge
                # before the disclosure after it, with R older than the quiet time: margins of the delay jitter.
                previous = [d for d in in_direct.get((r.dnum - 1) & 0xFFFF, []) if age(r.ts, d.ts) < rec.U32 // 2]
                following = [d for d in in_direct.get((r.dnum + 1) & 0xFFFF, []) if age(d.ts, judge.ts) < rec.U32 // 2]
                if age(judge.ts, r.ts) <= config.quiet_us + jitter or any(
                        age(r.ts, d.ts) <= jitter for d in previous) or any(
                        age(d.ts, judge.ts) <= jitter for d in following):
                    too_close += 1
                    continue
            n += 1
            if r.digest not in out_by_digest:
                lost += 1
                lost_digests.append({"digest": r.digest, "ts": r.ts, "kind": rec.KIND_NAMES[r.kind]})
        in_digests = {r.digest for r in rs if r.point == rec.IN}
        unmatched_out = sum(1 for d in out_by_digest if d not in in_digests)
        flows[(device, flow)] = {
            "device": device, "flow": flow, "tenant": tenant, "direction": direction,
            "delay": delay_summary(delays_of[(device, flow)], confidence),
            "loss": loss_summary(lost, n, confidence, pending=pending, unjudged=unjudged, in_gap=in_gap,
                                 too_close=too_close),
            "lost_examples": lost_digests[:20],
            "ambiguous_digests": len(ambiguous[(device, flow)]),
            "out_without_in": unmatched_out,
            "gaps": gaps(rs, tenant),
        }
    tenants = {}
    for name in sorted({f["tenant"] for f in flows.values()}):
        mine = [f for f in flows.values() if f["tenant"] == name]
        t = {"flows": sorted({f["flow"] for f in mine}),
             "delay": delay_summary([d for k, f in flows.items() if f["tenant"] == name for d in delays_of[k]],
                                    confidence),
             "loss": loss_summary(sum(f["loss"]["lost"] for f in mine), sum(f["loss"]["samples"] for f in mine),
                                  confidence),
             "gaps": sum(len(f["gaps"]) for f in mine),
             "ambiguous_digests": sum(f["ambiguous_digests"] for f in mine)}
        for direction in DIRECTIONS:
            dm = [f for f in mine if f["direction"] == direction]
            if dm:
                t[direction] = {"loss": loss_summary(sum(f["loss"]["lost"] for f in dm),
                                                     sum(f["loss"]["samples"] for f in dm), confidence)}
        tenants[name] = t
    report = {"confidence": confidence, "jitter_us": jitter, "records": len(records),
              "flows": list(flows.values()), "tenants": tenants}
    if counters is not None:
        report["counter_check"] = counter_check(tenants, counters)
    return report


def gaps(rs, tenant):
    """Each late-disclosure warning: the point lost receipts of the flow from ts on until its disclosure dnum."""
    direct_ts = {(r.point, r.dnum): r.ts for r in rs if r.kind == rec.DIRECT}
    return [{"point": "IN" if r.point == rec.IN else "OUT", "flow": r.flow, "tenant": tenant, "dnum": r.dnum,
             "from_ts": r.ts, "until_ts": direct_ts.get((r.point, r.dnum))}
            for r in rs if r.kind == rec.LATE_WARNING]


def counted_ratio(c):
    n_in = int(c["in"])
    n_out = int(c["out"]) if "out" in c else n_in - int(c["dropped"])
    return n_in, n_out, ((n_in - n_out) / n_in if n_in else None)


def counter_check(tenants, counters):
    """Per tenant (and direction where the counters have them): does the interval contain the counted ratio?"""
    out = []
    for name, c in sorted(counters.items()):
        t = tenants.get(name)
        parts = [(d, c[d]) for d in DIRECTIONS if d in c] or [(None, c)]
        for direction, cc in parts:
            n_in, n_out, ratio = counted_ratio(cc)
            est = None if t is None else (t["loss"] if direction is None else t.get(direction, {}).get("loss"))
            row = {"tenant": name, "direction": direction, "in": n_in, "out": n_out, "counted_ratio": ratio}
            if est is None or not est["samples"] or ratio is None:
                row.update(consistent=None, reason="no samples" if ratio is not None else "no packets counted")
            else:
                row.update(interval=est["interval"], samples=est["samples"],
                           consistent=est["interval"][0] <= ratio <= est["interval"][1])
            out.append(row)
    return out


def counters_from_rest(base, config, token=None, user=None):
    """Per tenant and direction, the packets the UPF's PDR counters saw (pre-QoS = in, post-QoS = out), from the
    control plane's REST: GET sessions, then each session's counters; a PDR belongs to the flow whose prefix and
    direction hold its UE address (ACCESS = uplink, CORE = downlink)."""
    def get(path):
        req = urllib.request.Request(base.rstrip("/") + "/" + path)
        if token:
            req.add_header("Authorization", "Bearer " + token)
        elif user:   # ONOS's REST: basic authentication (user:password)
            req.add_header("Authorization", "Basic " + base64.b64encode(user.encode()).decode())
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.load(resp)
    out = collections.defaultdict(lambda: {d: {"in": 0, "out": 0} for d in DIRECTIONS})
    for s in get("sessions")["sessions"]:
        pdr_of = {}
        for p in s.get("pdrs", []):
            pdi = p.get("pdi", {})
            ue = pdi.get("ueIpAddress")
            direction = {"ACCESS": "uplink", "CORE": "downlink"}.get(pdi.get("sourceInterface"))
            if ue and direction:
                for net, d, tenant in config.prefixes:
                    if d == direction and IPv4Address(ue) in net:
                        pdr_of[str(p["pdrId"])] = (tenant, direction)
                        break
        if not pdr_of:
            continue
        for pdr, c in get(f"sessions/{s['upSeid']}/counters").items():
            if pdr in pdr_of:
                tenant, direction = pdr_of[pdr]
                out[tenant][direction]["in"] += int(c.get("ingressPkts", 0))
                out[tenant][direction]["out"] += int(c.get("egressPkts", 0))
    return {t: {d: v for d, v in ds.items() if v["in"]} for t, ds in out.items()}


def render(report):
    lines = []
    for name, t in report["tenants"].items():
        d, l = t["delay"], t["loss"]
        delay = (f"delay p50 {d['p50_us']} us (CI {d['p50_interval_us'][0]}..{d['p50_interval_us'][1]}), "
                 f"p90 {d['p90_us']}, p99 {d['p99_us']}, max {d['max_us']} ({d['samples']} samples)"
                 if d["samples"] else "no delay samples")
        lo, hi = l["interval"]
        ratio = "n/a" if l["ratio"] is None else f"{l['ratio']:.4f}"
        lines.append(f"tenant {name} (flows {t['flows']}): {delay}; loss {ratio} in [{lo:.4f}, {hi:.4f}] "
                     f"({l['lost']}/{l['samples']}); {t['gaps']} late-disclosure gaps"
                     + (f"; {t['ambiguous_digests']} digests disclosed more than once left out"
                        if t["ambiguous_digests"] else ""))
    for row in report.get("counter_check", []):
        what = row["tenant"] + (f" {row['direction']}" if row["direction"] else "")
        verdict = {True: "CONSISTENT", False: "INCONSISTENT", None: "UNCHECKED"}[row["consistent"]]
        lines.append(f"counters {what}: counted loss {row['counted_ratio']} ({row['in']} in, {row['out']} out): "
                     f"{verdict}" + (f" (interval {row['interval']})" if "interval" in row else f" ({row.get('reason')})"))
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--records", required=True, help="JSON lines from the collector")
    p.add_argument("--config", required=True, help="the rps block, or a netcfg holding it")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--counters", help="JSON file of per-tenant packet counters")
    g.add_argument("--rest", help="base URL of the control plane's REST (e.g. http://127.0.0.1:8181/onos/hupf)")
    p.add_argument("--token", help="REST bearer token, if the REST needs one to read (the standalone host's)")
    p.add_argument("--user", help="REST basic authentication user:password (ONOS's, e.g. onos:rocks)")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--jitter-us", type=int, help="delay jitter margin (default: the observed delay spread)")
    p.add_argument("--json", action="store_true", help="print the whole report as JSON")
    a = p.parse_args(argv)
    from hupf_tools.rps.collector import load
    config = Config.load(a.config)
    counters = None
    if a.counters:
        with open(a.counters) as f:
            counters = json.load(f)
    elif a.rest:
        counters = counters_from_rest(a.rest, config, a.token, a.user)
    report = verify(load(a.records), config, counters, a.confidence, a.jitter_us)
    print(json.dumps(report, indent=2) if a.json else render(report))
    checks = report.get("counter_check", [])
    return 1 if any(c["consistent"] is False for c in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
