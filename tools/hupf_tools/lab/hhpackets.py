"""Thesis Table 5 with packets: HH reports per second at 2/5/10/20 Mbit/s from the switch's stand-in.

The hybrid scalability benchmark's trace (hupf_tools.lab.scale: Pareto session rates, Poisson arrivals,
1000-byte packets) is replayed packet by packet through the hw profile's data plane, the one
`hupf-backend --profile hw` runs (backend/dp/bench/hhreplay.c): each packet at its own timestamp on the
data plane's test clock, so the trace's rate (200,000 packets/s by default, far beyond what bmv2 forwards)
is what HK-IPG sees whatever this machine manages. HK-IPG is configured as the app configures it for each
threshold (ScaleSimulation --hh-config). The reports are the HH_REPORT packet-ins the pipeline emits; the
same trace through the reference model (hupf_tools.model.hkipg) must give the very same reports.

    python -m hupf_tools.lab.hhpackets --classpath CP --replay backend/build/hhreplay [--sessions ...]
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

from hupf_tools import hhtraces
from hupf_tools.lab import scale

MAGIC = 0x31524848   # "HHR1", little-endian as hhreplay reads it
T0_US = 1_000_000    # the P4 treats timestamp 0 as never seen (as scale.hh_reports)
# Thesis Table 5 (f = 100K flows, n = 1M packets, CAIDA 2016, four days): HHs/s, min-max over the days.
THESIS_F100K = {2: (612, 648), 5: (162, 196), 10: (46, 62), 20: (16, 27)}


def write_trace(path, sess, ts, params, table):
    packets = np.empty(len(sess), dtype=[("ts", "<u8"), ("ue", "<u4")])
    packets["ts"] = ts + T0_US
    packets["ue"] = scale.UE_BASE + sess + 1
    with open(path, "wb") as f:
        f.write(struct.pack("<4I", MAGIC, scale.HH_SLOTS, len(table.entries), len(sess)))
        f.write(struct.pack("<7I", params.tau_th, params.ipg_init, params.ipg_th, params.decay_k,
                            params.timeslot_us, params.alpha_shift, params.key_mode))
        for lo, hi, tau in table.entries:
            f.write(struct.pack("<3I", lo, hi, tau))
        f.write(packets.tobytes())


def replay(binary, path, npackets):
    """([(time us, session)] of the pipeline's HH reports, packets steered, wall s, CPU s)."""
    out = subprocess.run([binary, path], capture_output=True, text=True, check=False, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError("hhreplay failed (%d): %s" % (out.returncode, out.stderr.strip()[-2000:]))
    reports, summary = [], None
    for line in out.stdout.splitlines():
        f = line.split()
        if f[0] == "R":
            reports.append((int(f[1]) - T0_US, int(f[2]) - scale.UE_BASE - 1))
        elif f[0] == "P":
            summary = (int(f[1]), int(f[2]), float(f[3]), float(f[4]))
    if summary is None or summary[0] != npackets:
        raise RuntimeError("hhreplay replayed %s of %d packets" % (summary and summary[0], npackets))
    return reports, summary[1], summary[2], summary[3]


def run(args):
    t0 = time.time()
    sess, ts, rates = scale.make_trace(args.sessions, args.packets, args.seconds, args.seed)
    best_window = hhtraces.HHTrace(ts, sess, np.arange(args.sessions), None).max_window_packets(scale.WINDOW_US)
    rows = []
    with tempfile.TemporaryDirectory(prefix="hupf-hhpackets-") as d:
        for mbps in scale.THRESHOLDS_MBPS:
            params, table = scale.hh_config(args.classpath, mbps * 1_000_000)
            path = os.path.join(d, "trace-%d.bin" % mbps)
            write_trace(path, sess, ts, params, table)
            got, steered, wall, cpu = replay(args.replay, path, len(sess))
            model = scale.hh_reports(sess, ts, params, table)
            rows.append(dict(scale.report_rates(got, args.seconds, rates, best_window, mbps * 1_000_000),
                             mbps=mbps, params=params, reports=len(got), same_as_model=got == model,
                             model_reports=len(model), steered=steered, wall=wall, cpu=cpu))
            print("hhpackets: %d Mbit/s: %d reports from the pipeline, %d from the model (%.0f s)" % (
                mbps, len(got), len(model), time.time() - t0), flush=True)
    return len(sess), rows


def markdown(args, npackets, rows):
    lines = ["Trace: %d sessions, %d packets of %d B over %d s (seed %d: scale.make_trace), %.0f packets/s; each "
             "replayed through the hw data plane at its own timestamp (test clock), one packet per burst; HK-IPG "
             "as the app configures it (%d slots). Thesis: Table 5, f = 100K flows, n = 1M packets, CAIDA 2016 "
             "(min-max over its four days)." % (args.sessions, npackets, scale.PKT_BYTES, args.seconds, args.seed,
                                                npackets / args.seconds, scale.HH_SLOTS),
             "",
             "| threshold | IPG_th / timeslot | HH reports (packet-ins) | HH reports/s | thesis HHs/s | same reports as "
             "the model | precision / recall (1 s window) | packets steered | replay packets/s (wall / CPU) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = THESIS_F100K[r["mbps"]]
        lines.append("| >= %d Mbit/s | %d / %d us | %d | %.1f | %d-%d | %s (%d) | %.2f / %.2f | %d | %.0f / %.0f |" % (
            r["mbps"], r["params"].ipg_th, r["params"].timeslot_us, r["reports"], r["hh_per_sec"], lo, hi,
            "yes" if r["same_as_model"] else "NO", r["model_reports"], r["precision_window"], r["recall_window"],
            r["steered"], npackets / r["wall"], npackets / r["cpu"]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classpath", required=True, help="classpath of the standalone host (ScaleSimulation)")
    ap.add_argument("--replay", required=True, help="backend/build/hhreplay")
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--packets", type=int, default=2_000_000)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--markdown", help="also write the table here")
    args = ap.parse_args(argv)
    npackets, rows = run(args)
    md = markdown(args, npackets, rows)
    print(md)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(md + "\n")
    return 0 if all(r["same_as_model"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
