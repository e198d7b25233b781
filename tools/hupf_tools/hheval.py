"""HK-IPG accuracy benchmark: precision, recall and F1 against memory and threshold, next to a
packet-count HeavyKeeper and a fixed-window Count-Min, on a heavy-tailed trace with known
heavy hitters (hhtraces: the short-flow trace, or --trace persistent, CAIDA-like). HK-IPG is the
P4 reference model (model/hkipg.py) configured as the app configures the switch (configure).

  PYTHONPATH=tools .venv/bin/python -m hupf_tools.hheval --seed 1 --out reports/hkipg --plot docs/hkipg_accuracy.png
"""
import argparse
import dataclasses
import json
import multiprocessing
import pathlib
import time

import numpy as np

from hupf_tools import hhbaselines, hhtraces
from hupf_tools.model import hkipg

THRESHOLDS_MBPS = (1, 2, 5, 10, 20)
SLOTS = (2048, 4096, 8192, 16384)
TW_US = 1_000_000
# Register widths of one HK-IPG slot in p4src/include/hh.p4: flow_id, ipg_ewma, last_ts, tau, reported.
HKIPG_BITS = 32 + 32 + 48 + 16 + 8
THESIS_BITS = 72  # thesis §4.5.1.1: 32-bit flow id, 16-bit IPG, 16-bit timestamp, 8-bit tau
THESIS = {"precision": 0.92, "recall": 0.95, "kb": 144, "mbps": 1}
ALGORITHMS = ("HK-IPG", "HK-Count", "CM-window")
BITS = {"HK-IPG": HKIPG_BITS, "HK-Count": hhbaselines.HeavyKeeperCount.bits_per_slot,
        "CM-window": hhbaselines.WindowCountMin.bits_per_slot}
TRACES = {"short": hhtraces.HHTraceSpec(), "persistent": hhtraces.PERSISTENT}
_TRACE = None  # the benchmark trace, inherited by forked workers


def slots_in(kb, algo):
    """How many slots of `algo` fit in kb kilobytes."""
    return kb * 1024 * 8 // BITS[algo]


def hkipg_config(hh_bps, pkt_bytes, tau_entries, timeslot_us=None, alpha_shift=7):
    """The app's configuration for one threshold (hkipg.configure: IPG_init = IPG_th = packet time
    at hh_bps, timeslot >= 4 x IPG_th), the thesis's tau_th 1850 and k 10, 5-tuple keys."""
    return hkipg.configure(int(hh_bps), pkt_bytes, timeslot_us, alpha_shift=alpha_shift,
                           key_mode=hkipg.KEY_5TUPLE, tw_us=TW_US, tau_entries=tau_entries)


def _task(job):
    algo, slots, mbps, cfg = job
    keys, ts = _TRACE.keys[_TRACE.flow].tolist(), _TRACE.ts_us.tolist()
    t0 = time.process_time()
    if algo == "HK-IPG":
        params, table = hkipg_config(mbps * 1e6, _TRACE.spec.pkt_bytes, *cfg)
        sketch = hkipg.HKIPG(params, table, slots)
        out = {r.flow_key for r in map(sketch.packet, keys, ts) if r is not None}
    elif algo == "HK-Count":
        out = hhbaselines.HeavyKeeperCount(slots, TW_US).run(keys, ts)
    else:
        out = hhbaselines.WindowCountMin(slots, TW_US).run(keys, ts)
    return job, out, time.process_time() - t0


def score(detected, truth):
    tp = len(detected & truth)
    p = tp / len(detected) if detected else 1.0
    r = tp / len(truth) if truth else 1.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "tp": tp, "fp": len(detected - truth), "fn": len(truth - detected)}


def run(seed, spec, jobs, tau_entries, timeslot_us=None, alpha_shift=7):
    global _TRACE
    _TRACE = hhtraces.generate(seed, spec)
    cfg = (tau_entries, timeslot_us, alpha_shift)
    thesis_slots = {a: slots_in(THESIS["kb"], a) for a in ALGORITHMS}
    tasks = [("HK-IPG", s, t, cfg) for s in SLOTS + (thesis_slots["HK-IPG"],) for t in THRESHOLDS_MBPS]
    tasks += [(a, s, None, cfg) for a in ALGORITHMS[1:] for s in SLOTS + (thesis_slots[a],)]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        done = pool.map(_task, tasks, chunksize=1)
    keys = _TRACE.keys
    best_window = _TRACE.max_window_packets(TW_US)
    life = _TRACE.lifetimes_us()
    rows, cpu = [], 0.0
    for (algo, slots, mbps, _), out, secs in done:
        cpu += secs
        for t in (THRESHOLDS_MBPS if mbps is None else (mbps,)):
            need = hhtraces.packets_for(t * 1e6, TW_US, spec.pkt_bytes)
            truth_idx = np.flatnonzero(best_window >= need)
            truth = set(keys[truth_idx].tolist())
            detected = out if algo == "HK-IPG" else {k for k, c in out.items() if c >= need}
            missed = [i for i in truth_idx if keys[i] not in detected]
            # Why heavy hitters were missed: they lived less than half a window, or their
            # best window was within 20 % of the threshold, or neither.
            short = sum(life[i] < TW_US // 2 for i in missed)
            near = sum(life[i] >= TW_US // 2 and best_window[i] < 1.2 * need for i in missed)
            rows.append(dict(algo=algo, slots=slots, kb=slots * BITS[algo] / 8 / 1024, mbps=t,
                             heavy_hitters=len(truth), **score(detected, truth),
                             fn_short=int(short), fn_near=int(near)))
    meta = {"seed": seed, "packets": len(_TRACE), "flows": spec.flows, "duration_s": spec.duration_s,
            "window_us": TW_US, "pkt_bytes": spec.pkt_bytes, "tau_entries": tau_entries, "cpu_s": cpu,
            "alpha_shift": alpha_shift,
            "timeslot_us": {t: hkipg_config(t * 1e6, spec.pkt_bytes, *cfg)[0].timeslot_us for t in THRESHOLDS_MBPS},
            "thesis_slots": thesis_slots}
    return meta, sorted(rows, key=lambda r: (r["mbps"], r["slots"], ALGORITHMS.index(r["algo"])))


def markdown(meta, rows):
    lines = ["| Mbit/s | true HH | slots (KB: IPG / Count / CM) | HK-IPG P / R / F1 | HK-Count P / R / F1 "
             "| CM-window P / R / F1 | HK-IPG misses: short / near / other |", "|---|---|---|---|---|---|---|"]
    by = {(r["algo"], r["slots"], r["mbps"]): r for r in rows}
    for t in THRESHOLDS_MBPS:
        for s in SLOTS:
            cells = ["%.3f / %.3f / %.3f" % tuple(by[a, s, t][m] for m in ("precision", "recall", "f1"))
                     for a in ALGORITHMS]
            ipg = by["HK-IPG", s, t]
            lines.append("| %d | %d | %d (%.0f / %.0f / %.0f) | %s | %d / %d / %d |" % (
                t, ipg["heavy_hitters"], s, *(s * BITS[a] / 8 / 1024 for a in ALGORITHMS), " | ".join(cells),
                ipg["fn_short"], ipg["fn_near"], ipg["fn"] - ipg["fn_short"] - ipg["fn_near"]))
    lines += ["", "At the thesis's memory, %d KB (slots: %s):" % (
        THESIS["kb"], ", ".join("%s %d" % (a, meta["thesis_slots"][a]) for a in ALGORITHMS)), "",
        "| Mbit/s | true HH | HK-IPG P / R / F1 | HK-Count P / R / F1 | CM-window P / R / F1 |",
        "|---|---|---|---|---|"]
    for t in THRESHOLDS_MBPS:
        at = [by[a, meta["thesis_slots"][a], t] for a in ALGORITHMS]
        lines.append("| %d | %d | %s |" % (t, at[0]["heavy_hitters"], " | ".join(
            "%.3f / %.3f / %.3f" % (r["precision"], r["recall"], r["f1"]) for r in at)))
    lines.append("")
    lines.append("Trace: seed %(seed)d, %(packets)d packets, %(flows)d flows over %(duration_s)g s, "
                 "%(pkt_bytes)d-byte packets, window %(window_us)d us; tau table %(tau_entries)d entries; "
                 "%(cpu_s).0f CPU seconds. HK-IPG alpha = 1 - 2^-%(alpha_shift)d, timeslot: " % meta
                 + ", ".join("%g Mbit/s %d us" % kv for kv in meta["timeslot_us"].items()) + ".")
    return "\n".join(lines) + "\n"


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    metrics = ("precision", "recall", "f1")
    fig, axes = plt.subplots(len(metrics), len(THRESHOLDS_MBPS), figsize=(16, 8.5), sharex=True, sharey=True)
    for j, t in enumerate(THRESHOLDS_MBPS):
        for i, m in enumerate(metrics):
            ax = axes[i][j]
            for algo, style in zip(ALGORITHMS, ("o-", "s--", "^:")):
                pts = sorted((r["slots"], r[m]) for r in rows if r["algo"] == algo and r["mbps"] == t)
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=algo)
            if t == THESIS["mbps"] and m in THESIS:
                ax.plot([THESIS["kb"] * 1024 * 8 / THESIS_BITS], [THESIS[m]], "r*", ms=12,
                        label="thesis HK-IPG (Tofino, CAIDA)")
            ax.set_xscale("log", base=2)
            ax.set_ylim(0, 1.05)
            ax.grid(alpha=0.3)
            if i == 0:
                ax.set_title("%d Mbit/s" % t)
            if j == 0:
                ax.set_ylabel(m)
            if i == len(metrics) - 1:
                ax.set_xlabel("slots")
    axes[0][0].legend(loc="lower right", fontsize=8)
    fig.suptitle("Heavy-hitter detection on a heavy-tailed synthetic trace (1 s window)")
    fig.tight_layout()
    pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m hupf_tools.hheval", description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trace", choices=sorted(TRACES), default="short",
                    help="short: heavy flows from 0.2 s (default); persistent: CAIDA-like, heavy flows last seconds")
    ap.add_argument("--flows", type=int, help="background flows (default: the trace's)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--tau-entries", type=int, default=256, help="tau_table size (hw P4Info: HH_TAU_TABLE_SIZE)")
    ap.add_argument("--timeslot-us", type=int, help="HK-IPG timeslot for every threshold (default: per threshold)")
    ap.add_argument("--alpha-shift", type=int, default=7, help="HK-IPG EWMA: alpha = 1 - 2^-s")
    ap.add_argument("--out", default="reports/hkipg", help="directory for results.json and results.md")
    ap.add_argument("--plot", help="PNG of precision/recall/F1 vs memory per threshold")
    a = ap.parse_args(argv)
    spec = TRACES[a.trace] if a.flows is None else dataclasses.replace(TRACES[a.trace], flows=a.flows)
    meta, rows = run(a.seed, spec, a.jobs, a.tau_entries, a.timeslot_us, a.alpha_shift)
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    table = markdown(meta, rows)
    (out / "results.md").write_text(table)
    if a.plot:
        plot(rows, a.plot)
    print(table)


if __name__ == "__main__":
    main()
