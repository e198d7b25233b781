"""Hybrid scalability benchmark (thesis Tables 4 and 5, in shape): docs/PERFORMANCE.md.

A heavy-tailed synthetic trace over S sessions (Pareto(1) session rates, Poisson arrivals,
1000-byte packets) goes through the HK-IPG reference model (hupf_tools.model.hkipg, the switch's
own arithmetic) at thresholds 2/5/10/20 Mbit/s, configured with what the app programs for each
threshold (ScaleSimulation --hh-config: HhConfig's IPG_th, timeslot and tau table): HH reports per
second, precision and recall against the flows whose mean rate is above the threshold (they stay
heavy all along) and against those above it in some 1 s window. The 2 Mbit/s reports and the per-100 ms bytes of every
session are then replayed through the real offload manager (org.hupf.standalone.lab.ScaleSimulation)
for switch capacities K: sessions served and share of bytes carried in hardware, against the
switch alone (K sessions, the rest unserved) and the backend alone (no hardware path).

    python -m hupf_tools.lab.scale --classpath CP [--sessions 100000 --packets 2000000 ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from hupf_tools import hhtraces
from hupf_tools.model import hkipg

PKT_BYTES = 1000
# Session rates: Pareto with shape 1 (Zipf-like): a few sessions carry most bytes, the premise of
# the hybrid (thesis 3.5.2: 5-10 % of UEs are active and carry most of the traffic).
PARETO_SHAPE = 1.0
THRESHOLDS_MBPS = (2, 5, 10, 20)
INTERVAL_MS = 100
HOLD_MS = 2000
BACKEND_SESSIONS = 2_097_152  # sw profile: UPF_UPLINK_SESSIONS_SIZE
HH_SLOTS = 4096               # hw profile: HH_SLOTS
TAU_TABLE_SIZE = 256          # hw profile: HH_TAU_TABLE_SIZE
WINDOW_US = 1_000_000
UE_BASE = int.from_bytes(bytes([10, 0, 0, 0]), "big")


def make_trace(sessions, packets, seconds, seed):
    """(session index, time in us) of every packet, sorted by time, and the mean rates in bit/s."""
    rng = np.random.default_rng(seed)
    weights = rng.pareto(PARETO_SHAPE, sessions) + 1.0
    pps = weights / weights.sum() * packets / seconds
    counts = rng.poisson(pps * seconds)
    sess = np.repeat(np.arange(sessions), counts)
    ts = rng.uniform(0, seconds * 1e6, len(sess)).astype(np.int64)
    order = np.argsort(ts, kind="stable")
    return sess[order], ts[order], counts * PKT_BYTES * 8 / seconds


def hh_config(classpath, threshold_bps):
    """(HHParams, TauTable) the app programs for a threshold (ScaleSimulation --hh-config)."""
    out = subprocess.run(["java", "-cp", classpath, "org.hupf.standalone.lab.ScaleSimulation", "--hh-config",
                          str(threshold_bps), str(PKT_BYTES), str(TAU_TABLE_SIZE)],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError("ScaleSimulation --hh-config failed: %s" % out.stderr.strip()[-2000:])
    c = json.loads(out.stdout.strip().splitlines()[-1])
    params = hkipg.HHParams(tau_th=c["tau_th"], ipg_init=c["ipg_init"], ipg_th=c["ipg_th"], decay_k=c["decay_k"],
                            timeslot_us=c["timeslot_us"], alpha_shift=c["alpha_shift"], key_mode=hkipg.KEY_UE_ADDR)
    return params, hkipg.TauTable([tuple(e) for e in c["entries"]])


def hh_reports(sess, ts, params, table):
    """[(time us, session)] of the HK-IPG reports for one configuration."""
    model = hkipg.HKIPG(params, table, slots=HH_SLOTS)
    out = []
    t0 = 1_000_000  # the P4 treats timestamp 0 as never seen
    for s, t in zip(sess.tolist(), ts.tolist()):
        if model.packet(UE_BASE + s + 1, t0 + t) is not None:
            out.append((t, s))
    return out


def report_rates(reports, seconds, rates, best_window, threshold_bps):
    """Reports per second, precision and recall against the sessions above the threshold by mean rate
    and against those above it in some 1 s window (best_window: a session's most packets in one)."""
    per_sec = {}
    for t, s in reports:
        per_sec.setdefault(int(t // 1_000_000), set()).add(s)
    reported = {s for _, s in reports}
    heavy = set(np.flatnonzero(rates >= threshold_bps).tolist())
    need = hhtraces.packets_for(threshold_bps, WINDOW_US, PKT_BYTES)
    window = set(np.flatnonzero(best_window >= need).tolist())

    def share(a, b):
        return len(a & b) / len(a) if a else 1.0
    return {"hh_per_sec": sum(len(v) for v in per_sec.values()) / seconds,
            "reported_flows": len(reported), "heavy_flows": len(heavy), "window_flows": len(window),
            "precision": share(reported, heavy), "recall": share(heavy, reported),
            "precision_window": share(reported, window), "recall_window": share(window, reported)}


def write_replay(path, sessions, sess, ts, reports):
    """The offload simulation's input: per 100 ms, HH reports first, then each session's bytes."""
    interval = (ts // (INTERVAL_MS * 1000)).astype(np.int64)
    rep_by_iv = {}
    for t, s in reports:
        rep_by_iv.setdefault(t // (INTERVAL_MS * 1000), []).append(s)
    with open(path, "w") as f:
        f.write("S %d\n" % sessions)
        bounds = np.searchsorted(interval, np.arange(interval.max() + 2))
        for iv in range(len(bounds) - 1):
            f.write("T %d\n" % (iv * INTERVAL_MS))
            for s in rep_by_iv.get(iv, []):
                f.write("R %d\n" % s)
            chunk = sess[bounds[iv]:bounds[iv + 1]]
            ids, pkts = np.unique(chunk, return_counts=True)
            f.write("".join("B %d %d %d\n" % (i, p, p * PKT_BYTES) for i, p in zip(ids.tolist(), pkts.tolist())))


def simulate(classpath, replay, capacity, threshold_bps, confirm=True):
    out = subprocess.run(["java", "-Xmx4g", "-cp", classpath, "org.hupf.standalone.lab.ScaleSimulation", replay,
                          str(capacity), str(threshold_bps), str(HOLD_MS)] + ([] if confirm else ["--no-confirm"]),
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError("ScaleSimulation K=%d failed: %s" % (capacity, out.stderr.strip()[-2000:]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def markdown(args, hh, sims, unconfirmed, rates, counts_bytes):
    total = counts_bytes.sum()
    lines = ["Trace: %d sessions, %d packets of %d B over %d s (seed %d); HK-IPG as the app configures it for "
             "each threshold (tau_th %d, %d slots, IPG_th and timeslot below); offload hold %d ms, "
             "hysteresis 20 %%." % (args.sessions, int(counts_bytes.sum() // PKT_BYTES), PKT_BYTES, args.seconds,
                                    args.seed, hh[0]["params"].tau_th, HH_SLOTS, HOLD_MS),
             "",
             "| design | switch capacity K | sessions served | sessions in hardware (peak) | bytes in hardware |",
             "|---|---|---|---|---|"]
    for k in args.capacity:
        served = min(args.sessions, k)
        # The switch alone serves the first K sessions set up (rates are independent of set-up order).
        lines.append("| switch alone | %d | %d | %d | %.1f %% of offered (%.1f %% unserved) |" % (
            k, served, served, 100 * counts_bytes[:served].sum() / total,
            100 * (1 - counts_bytes[:served].sum() / total)))
    lines.append("| backend alone | - | %d | 0 | 0 %% |" % min(args.sessions, BACKEND_SESSIONS))
    for s in sims:
        lines.append("| hybrid (HH >= 2 Mbit/s) | %d | %d | %d | %.1f %% |" % (
            s["capacity"], s["sessions"], s["peak_offloaded"], 100 * s["hw_share"]))
    lines += ["", "| threshold | IPG_th / timeslot | HH reports/s | flows reported | above by mean rate "
              "| above in a 1 s window | precision (mean / window) | recall (mean / window) |",
              "|---|---|---|---|---|---|---|---|"]
    for mbps, r in zip(THRESHOLDS_MBPS, hh):
        lines.append("| >= %d Mbit/s | %d / %d us | %.1f | %d | %d | %d | %.2f / %.2f | %.2f / %.2f |" % (
            mbps, r["params"].ipg_th, r["params"].timeslot_us, r["hh_per_sec"], r["reported_flows"],
            r["heavy_flows"], r["window_flows"], r["precision"], r["precision_window"], r["recall"],
            r["recall_window"]))
    lines += ["", "| K | promotions | demotions | evictions | rejections (switch full) | simulation wall time |",
              "|---|---|---|---|---|---|"]
    for s in sims:
        lines.append("| %d | %d | %d | %d | %d | %.1f s |" % (s["capacity"], s["promotions"], s["demotions"],
                                                            s["evictions"], s["rejections"], s["wall_s"]))
    lines += ["", "Without counter confirmation (every report promotes), K = %d: %d promotions for %d HH reports, "
              "%d demotions, %.1f %% of bytes in hardware (with confirmation: %d promotions, %.1f %%)." % (
                  unconfirmed["capacity"], unconfirmed["promotions"], unconfirmed["hh_reports"],
                  unconfirmed["demotions"], 100 * unconfirmed["hw_share"], sims[-1]["promotions"],
                  100 * sims[-1]["hw_share"])]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classpath", required=True, help="classpath of the standalone host (tools/lab.sh writes standalone/target/host-classpath.txt)")
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--packets", type=int, default=2_000_000)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--capacity", type=lambda s: [int(x) for x in s.split(",")], default=[16, 64, 256, 4096])
    ap.add_argument("--markdown", help="also write the tables here")
    args = ap.parse_args(argv)
    t0 = time.time()
    sess, ts, rates = make_trace(args.sessions, args.packets, args.seconds, args.seed)
    counts_bytes = rates * args.seconds / 8
    print("scale: trace of %d packets over %d sessions (%.1f s)" % (len(sess), args.sessions, time.time() - t0),
          flush=True)
    best_window = hhtraces.HHTrace(ts, sess, np.arange(args.sessions), None).max_window_packets(WINDOW_US)
    hh, reports_2 = [], None
    for mbps in THRESHOLDS_MBPS:
        params, table = hh_config(args.classpath, mbps * 1_000_000)
        reps = hh_reports(sess, ts, params, table)
        hh.append(dict(report_rates(reps, args.seconds, rates, best_window, mbps * 1_000_000), params=params))
        reports_2 = reports_2 if reports_2 is not None else reps
        print("scale: HK-IPG at %d Mbit/s: %d reports (%.1f s)" % (mbps, len(reps), time.time() - t0), flush=True)
    with tempfile.TemporaryDirectory(prefix="hupf-scale-") as d:
        replay = os.path.join(d, "replay.txt")
        write_replay(replay, args.sessions, sess, ts, reports_2)
        sims = []
        for k in args.capacity:
            sims.append(simulate(args.classpath, replay, k, THRESHOLDS_MBPS[0] * 1_000_000))
            print("scale: offload simulation K=%d done (%.1f s)" % (k, time.time() - t0), flush=True)
        unconfirmed = simulate(args.classpath, replay, args.capacity[-1], THRESHOLDS_MBPS[0] * 1_000_000, False)
        print("scale: offload simulation K=%d without confirmation done (%.1f s)" % (args.capacity[-1],
                                                                                 time.time() - t0), flush=True)
    md = markdown(args, hh, sims, unconfirmed, rates, counts_bytes)
    print(md)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(md + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
