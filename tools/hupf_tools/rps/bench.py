"""RPS's three-way trade-off as hupf's data plane makes it (seed 003 §2.5, §4.2, ch. 5): sampling capacity against
data-plane memory against controller bandwidth.

Every observation goes through `hupf_tools.model.rps.FifoPoint`, the data plane's FIFO RPS with disclosure numbers
and its tracker (RPS_TRACK_DEPTH deep, size_hw.p4): its decisions are bmv2's and the backend's (tests/ptf/test_rps.py,
the backend's C vectors
from dp/tests/gen_hw_vectors.py and the differential test compare them receipt for receipt), so the counts below are
what either target would emit on the same trace; the model is used because a sweep needs millions of observations
on many configurations, with nothing but the algorithm in the way.

Traces: F balanced flows of rate r (R = F r), Poisson arrivals, a uniform 32-bit digest per packet (the lab's
frames give every packet its own digest). The seed's reference parameters (§5.2.2: κ = 100 ms, σ = 1 %, (95 %,
10 %) accuracy at 0.1 % loss, N = 380,000 samples per flow in T = 10 min at r_min = 200 kpps) with the rates scaled
by 1/100 so that this machine can drive them: r_min = 2 kpps, N* = 3,800 delayed disclosures per flow per T, i.e.
6.33 per flow per second. κ is unscaled; the seed's optimum (Eq. 2.3) depends on r only through N / (r T σ),
which the scaling keeps. δ: in the capacity table the seed's reference thresholds (§5.2.2: 2.185e-5 below 437
kpps, 1.37e-6 above; scaled: 2.185e-3 below 4.37 kpps, 1.37e-4 above, so that δ r, the disclosures per second, is
the seed's), as an operator sets them once; in the buffer-size sweeps (the seed's Figs. 2.5 and 2.6 optimise δ) the
maximum over δ of Eq. 2.2, δ = ln(y/x) / (y − x) with x = r κ and y = r β / R packets of the flow in the quiet time
and in the buffer.

A run warms up for one buffer span (β / R) and then counts, over at least 3 s and one more buffer span, what the
point emits: delayed disclosures (the samples), direct disclosures, late-disclosure warnings, tracker overruns.

  PYTHONPATH=tools .venv/bin/python -m hupf_tools.rps.bench [--seeds 3] [--markdown reports/rps-tradeoff.md] \\
      [--replay backend/build/rpsreplay]
"""
import argparse
import math
import os
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

from hupf_tools.model import rps

KAPPA_US = 100_000
SIGMA = 0.01
T_S = 600
N_TARGET = 3800                                # N = 380,000 per T at the seed's rates, scaled by 1/100
R_MIN = 2000
BUFFERS = (256, 1024, 4096, 16384, 65536)
RATES = tuple(R_MIN * f for f in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128))   # aggregate R, pps
R_FIXED = 32000                                # the scaled R* of the r_min and κ sweeps
TRACK_DEPTHS = (4, 16, 32, 64, 128)            # the tracker table's depths (the data plane's among them)
R_MINS = (500, 700, 1000, 2000, 4000, 8000, 16000)
KAPPAS_MS = (25, 50, 100, 200, 400)
MEASURE_S = 3.0
SEED_DELTA_LOW, SEED_DELTA_HIGH, SEED_DELTA_SWITCH_PPS = 2.185e-3, 1.37e-4, 4370
# What the data plane stores per receipt: bmv2's registers rps_buf_flow 16, digest 32, ts 32, dnum 16, valid 1 bit;
# the backend's struct dp_rps_slot (13 bytes, 16 with its alignment).
BITS_PER_RECEIPT_P4 = 16 + 32 + 32 + 16 + 1
BYTES_PER_RECEIPT_BACKEND = 16
# The tracker's per disclosure: rps_track_dnum 16, digest 32, ts 32, valid 1 bit; struct dp_rps_track (12 bytes).
BITS_PER_TRACKED_P4 = 16 + 32 + 32 + 1
BYTES_PER_TRACKED_BACKEND = 12
# Export (docs/RPS.md): 16-byte records, "HRPS" datagrams of at most 91 with an 8-byte header, UDP/IPv4 28 bytes.
RECORD_BYTES, DATAGRAM_HEADER, MAX_RECORDS, UDP_IP = rps.RECEIPT_LEN, 8, 91, 28


def seed_delta(r, kappa_s, span_s):
    """The seed's two reference thresholds (scaled), whatever the buffer."""
    return SEED_DELTA_LOW if r < SEED_DELTA_SWITCH_PPS else SEED_DELTA_HIGH


def best_delta(r, kappa_s, span_s):
    """The δ that maximises Eq. 2.2's (1 − δ)^{rκ} − (1 − δ)^{rβ/R} (continuous form), for a flow of rate r."""
    x, y = r * kappa_s, r * span_s
    if y <= x * 1.0001:
        return 1.0 / max(x, 1.0)    # no receipt outlives the quiet time: nothing to optimise
    return math.log(y / x) / (y - x)


def eq22_samples_per_s(r, delta, kappa_s, span_s):
    """Eq. 2.2 per second: r ((1 − δ)^{rκ} − (1 − δ)^{rβ/R}) σ, the reference algorithm's expectation."""
    return max(0.0, r * ((1 - delta) ** (r * kappa_s) - (1 - delta) ** (r * span_s)) * SIGMA)


def make_trace(rate, flows, end_us, seed):
    """(flow, digest, ts_us) of every packet until end_us: Poisson arrivals at rate, a uniformly chosen flow."""
    rng = random.Random(seed)
    mean_gap_us = 1e6 / rate
    out = []
    t = rng.expovariate(1.0) * mean_gap_us
    while t < end_us:
        out.append((rng.randrange(flows), rng.getrandbits(32), int(t) & rps.MASK32))
        t += rng.expovariate(1.0) * mean_gap_us
    return out


def setup(buffer_len, rate, flows, kappa_us, seed, delta_rule):
    """The run's trace, configuration, disclosure threshold and its warm-up and measured spans (µs)."""
    span_s = buffer_len / rate
    delta = delta_rule(rate / flows, kappa_us / 1e6, span_s)
    warm_us, measure_us = span_s * 1e6, max(MEASURE_S, span_s) * 1e6
    cfg = rps.Config(rps.MODE_DATA_PLANE, kappa_us, int(SIGMA * 2 ** 32), buffer_len)
    return (make_trace(rate, flows, warm_us + measure_us, seed), cfg, min(rps.MASK32, int(delta * 2 ** 32)), delta,
            warm_us, measure_us)


def run(buffer_len, rate, flows, kappa_us, seed, delta_rule, track_depth=rps.TRACK_DEPTH):
    """One trace through one FIFO point: per-flow delayed disclosures per second and the other counts, over the
    measured part."""
    trace, cfg, threshold, delta, warm_us, measure_us = setup(buffer_len, rate, flows, kappa_us, seed, delta_rule)
    point = rps.FifoPoint(rps.POINT_IN, buffer_len, track_depth)
    counts = {rps.KIND_DIRECT: 0, rps.KIND_DELAYED: 0, rps.KIND_LATE: 0}
    overruns_before = None
    for flow, digest, ts in trace:
        if ts < warm_us:
            point.observe(cfg, flow, threshold, digest, ts)
            continue
        if overruns_before is None:
            overruns_before = point.events[rps.EV_TRACK_OVERRUN]
        receipt = point.observe(cfg, flow, threshold, digest, ts)
        if receipt is not None:
            counts[receipt.kind] += 1
    measure_s = measure_us / 1e6
    return {"delta": delta, "samples_flow_s": counts[rps.KIND_DELAYED] / flows / measure_s,
            "direct_s": counts[rps.KIND_DIRECT] / measure_s, "delayed_s": counts[rps.KIND_DELAYED] / measure_s,
            "late_s": counts[rps.KIND_LATE] / measure_s,
            "overrun_s": (point.events[rps.EV_TRACK_OVERRUN] - (overruns_before or 0)) / measure_s,
            "eq22_flow_s": eq22_samples_per_s(rate / flows, delta, kappa_us / 1e6, buffer_len / rate)}


def instructions_per_observation(replay, trace_path, n):
    """dp_rps_step's instructions per observation under callgrind (load-independent), None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=dp_rps_step", "--callgrind-out-file=" + out,
                        replay, trace_path], capture_output=True, check=True)
        with open(out) as f:
            total = next(int(line.split()[1]) for line in f if line.startswith("summary:"))
    return total / n


def replay_in_c(replay, buffer_len, rate, flows, seed, runs):
    """The same trace through the backend's dp_rps_step (backend/build/rpsreplay) and through the model: the
    point's event counts (they must be equal), the C loop's observations/s per run, its instructions per
    observation and the model's observations/s."""
    trace, cfg, threshold, _, _, _ = setup(buffer_len, rate, flows, KAPPA_US, seed, seed_delta)
    with tempfile.NamedTemporaryFile(suffix=".rpr") as f:
        f.write(struct.pack("<7I", 0x32525052, buffer_len, rps.FLOWS, rps.TRACK_DEPTH, cfg.quiet_us,
                            cfg.select_threshold, len(trace)))
        f.write(b"".join(struct.pack("<4I", flow, digest, ts, threshold) for flow, digest, ts in trace))
        f.flush()
        c_rates, c_events = [], None
        for _ in range(runs):
            out = subprocess.run([replay, f.name], capture_output=True, text=True, check=True).stdout.split("\n")
            c_events = [int(v) for v in out[0].split()[1:]]
            n, wall = out[1].split()[1:]
            c_rates.append(int(n) / float(wall))
        instructions = instructions_per_observation(replay, f.name, len(trace))
    point = rps.FifoPoint(rps.POINT_IN, buffer_len)
    started = time.perf_counter()
    for flow, digest, ts in trace:
        point.observe(cfg, flow, threshold, digest, ts)
    model_rate = len(trace) / (time.perf_counter() - started)
    return len(trace), c_events, point.events, c_rates, instructions, model_rate


def median_run(buffer_len, rate, flows, kappa_us, seeds, delta_rule):
    """Runs over seeds 1..seeds: the median of each figure and (min, max) of the samples per flow."""
    rs = [run(buffer_len, rate, flows, kappa_us, s, delta_rule) for s in range(1, seeds + 1)]
    out = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
    out["samples_range"] = (min(r["samples_flow_s"] for r in rs), max(r["samples_flow_s"] for r in rs))
    return out


def target_per_s():
    return N_TARGET / T_S


def smallest_buffer(rate, r, kappa_us, seeds):
    """The smallest power-of-two buffer (256..2^20) whose flows reach N* per T, with the run that reached it;
    (None, None) when none does."""
    lo, hi = 8, 20                      # log2 of the buffer
    best = (None, None)
    while lo <= hi:
        mid = (lo + hi) // 2
        res = median_run(1 << mid, rate, max(1, round(rate / r)), kappa_us, seeds, best_delta)
        if res["samples_flow_s"] >= target_per_s():
            best, hi = (1 << mid, res), mid - 1
        else:
            lo = mid + 1
    return best


def mbytes(receipts):
    return "%.2f / %.2f" % (receipts * BITS_PER_RECEIPT_P4 / 8 / 1e6, receipts * BYTES_PER_RECEIPT_BACKEND / 1e6)


def capacity_table(seeds, emit):
    emit("### Samples per flow against buffer and aggregate rate (r = %d pps, κ = %d ms, σ = %g, the seed's δ)"
         % (R_MIN, KAPPA_US // 1000, SIGMA))
    emit("")
    emit("Delayed disclosures per flow per second at one point (median of %d seeds, [min, max]); target N* / T = "
         "%.2f/s. Eq. 2.2: the reference algorithm's expectation with the same δ. Late: late-disclosure warnings/s; "
         "overruns: receipts whose disclosure the %d-deep tracker had forgotten, per s."
         % (seeds, target_per_s(), rps.TRACK_DEPTH))
    emit("")
    emit("| buffer β (receipts per point) | MB per point (bmv2 / backend) | R (pps) | flows | β / R (ms) | δ | "
         "samples/flow/s | Eq. 2.2 | direct/s | late/s | overruns/s |")
    emit("|---|---|---|---|---|---|---|---|---|---|---|")
    capacity = {}
    rows = []
    for b in BUFFERS:
        for rate in RATES:
            flows = rate // R_MIN
            res = median_run(b, rate, flows, KAPPA_US, seeds, seed_delta)
            rows.append((b, rate, flows, res))
            lo, hi = res["samples_range"]
            emit("| %d | %s | %d | %d | %.0f | %.2e | %.2f [%.2f, %.2f] | %.2f | %.1f | %.1f | %.1f |" % (
                b, mbytes(b), rate, flows, 1000 * b / rate, res["delta"], res["samples_flow_s"], lo, hi,
                res["eq22_flow_s"], res["direct_s"], res["late_s"], res["overrun_s"]))
            if res["samples_flow_s"] >= target_per_s():
                capacity.setdefault(b, []).append(rate)
    emit("")
    emit("Sampling capacity: the aggregate rates R of the sweep at which the %d-pps flows reach N* per T (the "
         "largest is the capacity; below the smallest, a receipt may stay in the buffer longer than the tracker "
         "remembers its flow's disclosures, %d of them or %d / (δ r) seconds, and leave as an overrun):"
         % (R_MIN, rps.TRACK_DEPTH, rps.TRACK_DEPTH))
    emit("")
    emit("| buffer β | MB per point (bmv2 / backend) | R reaching N* (pps) | capacity at 800 B/packet (Mbit/s) |")
    emit("|---|---|---|---|")
    for b in BUFFERS:
        c = capacity.get(b)
        emit("| %d | %s | %s | %s |" % (b, mbytes(b), "%d .. %d" % (c[0], c[-1]) if c else "none",
                                        "%.1f" % (c[-1] * 800 * 8 / 1e6) if c else "-"))
    emit("")
    return rows


def sweep_table(title, what, values, fmt, args_of, seeds, emit):
    emit("### %s" % title)
    emit("")
    emit("| %s | smallest β reaching N* per T | MB per point (bmv2 / backend) | β / R (ms) | δ | samples/flow/s | "
         "late/s | overruns/s |" % what)
    emit("|---|---|---|---|---|---|---|---|")
    for v in values:
        rate, r, kappa_us = args_of(v)
        b, res = smallest_buffer(rate, r, kappa_us, seeds)
        if b is None:
            emit("| %s | above 2^20 | - | - | - | - | - | - |" % fmt(v))
            continue
        emit("| %s | %d | %s | %.0f | %.2e | %.2f | %.1f | %.1f |" % (
            fmt(v), b, mbytes(b), 1000 * b / rate, res["delta"], res["samples_flow_s"], res["late_s"],
            res["overrun_s"]))
    emit("")


def tracker_table(seeds, emit):
    """Samples against the tracker's depth where the buffer outlasts a few disclosures of each flow."""
    b, rate = BUFFERS[-1], 16000
    delta = seed_delta(R_MIN, 0, 0)
    emit("### Tracker depth (β = %d, R = %d pps, r = %d pps, the seed's δ)" % (b, rate, R_MIN))
    emit("")
    emit("The data plane's tracker keeps %d disclosures per flow and point (RPS_TRACK_DEPTH); here the model with "
         "others on the same traces, where a receipt waits β / R = %.1f s, %.1f disclosures of its flow (δ r β / R); "
         "median [min, max] of %d traces:" % (rps.TRACK_DEPTH, b / rate, delta * R_MIN * b / rate, seeds))
    emit("")
    emit("| tracker depth | samples/flow/s | Eq. 2.2 | overruns/s |")
    emit("|---|---|---|---|")
    for depth in TRACK_DEPTHS:
        rs = [run(b, rate, rate // R_MIN, KAPPA_US, s, seed_delta, depth) for s in range(1, seeds + 1)]
        samples, overruns = [r["samples_flow_s"] for r in rs], [r["overrun_s"] for r in rs]
        emit("| %d%s | %.2f [%.2f, %.2f] | %.2f | %.1f [%.1f, %.1f] |" % (
            depth, " (RPS_TRACK_DEPTH)" if depth == rps.TRACK_DEPTH else "", statistics.median(samples), min(samples),
            max(samples), rs[0]["eq22_flow_s"], statistics.median(overruns), min(overruns), max(overruns)))
    emit("")


def bandwidth_table(rows, emit):
    """Records and bytes to the monitor per Mpps of sampled traffic, both points, from the capacity runs."""
    emit("### Controller bandwidth per Mpps of sampled traffic (both points, no loss)")
    emit("")
    emit("Mode 1 (DATA_PLANE): only disclosures and warnings leave the data plane; mode 2 (HYBRID): every "
         "observation is a receipt to the controller (2 per packet), which runs Algorithm 2 and sends the monitor "
         "what mode 1 would. Bytes: 16-byte records in full %d-record datagrams (8-byte header, 28 bytes of "
         "UDP/IPv4); the packet-ins' own framing is left out." % MAX_RECORDS)
    emit("")
    emit("| buffer β | R (pps) | mode 1 records/s per Mpps | mode 1 bytes/s per Mpps | "
         "mode 2 receipts/s per Mpps (data plane → controller) | mode 2 bytes/s per Mpps |")
    emit("|---|---|---|---|---|---|")
    per_dgram = DATAGRAM_HEADER + UDP_IP
    m2_records = 2e6
    m2_bytes = m2_records * RECORD_BYTES + m2_records / MAX_RECORDS * per_dgram
    for b, rate, _, res in rows:
        if res["samples_flow_s"] < target_per_s():
            continue
        m1 = 2 * (res["direct_s"] + res["delayed_s"] + res["late_s"]) * 1e6 / rate
        emit("| %d | %d | %.0f | %.0f | %.0f | %.0f |" % (
            b, rate, m1, m1 * RECORD_BYTES + m1 / MAX_RECORDS * per_dgram, m2_records, m2_bytes))
    emit("")


def c_table(replay, runs, emit):
    """The backend's C data plane on one trace per buffer (R where β / R = 256 ms): the same events as the model."""
    emit("### The backend's dp_rps_step on the same traces (backend/build/rpsreplay)")
    emit("")
    emit("One trace per buffer (seed 1, the capacity table's δ), replayed %d times through the C function the backend "
         "runs per observation, and once through the model: event counts (observed, direct, delayed, late, overrun, "
         "exported, late repeated, invalid) compared; observations/s of the loop alone." % runs)
    emit("")
    emit("| buffer β | R (pps) | observations | C events = model events | C observations/s min / median / max | "
         "C instructions/observation (callgrind) | model observations/s |")
    emit("|---|---|---|---|---|---|---|")
    same = True
    for b in BUFFERS:
        rate = max(R_MIN, b * 1000 // 256 // R_MIN * R_MIN)
        n, c_events, model_events, c_rates, instructions, model_rate = replay_in_c(replay, b, rate, rate // R_MIN,
                                                                                   1, runs)
        same = same and c_events == model_events
        emit("| %d | %d | %d | %s | %s | %s | %.0f |" % (
            b, rate, n, "yes %s" % c_events if c_events == model_events else "NO: C %s, model %s" % (
                c_events, model_events), " / ".join("%.3g" % v for v in (min(c_rates), statistics.median(c_rates),
                                                                          max(c_rates))),
            "-" if instructions is None else "%.1f" % instructions, model_rate))
    emit("")
    return same


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=3, help="traces per configuration (default 3)")
    ap.add_argument("--markdown", help="also write the report here")
    ap.add_argument("--replay", help="backend/build/rpsreplay: also run the traces through the backend's C function "
                                     "and require the model's counts")
    ap.add_argument("--replays", type=int, default=3, help="timed replays per trace in C (default 3)")
    a = ap.parse_args(argv)
    lines = []

    def emit(line):
        print(line, flush=True)
        lines.append(line)
    started = time.monotonic()
    load_before = os.getloadavg()[0]
    emit("## RPS trade-off (hupf_tools.rps.bench, FIFO RPS as the data plane runs it)")
    emit("")
    emit("%s UTC, %d CPUs, load average %.2f at the start (the counts are the model's on seeded traces, the same on "
         "any machine; the timings are not)." % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()), os.cpu_count(),
                                                load_before))
    emit("")
    emit("Memory: %d bits per receipt in bmv2's registers (%.2f B), %d B in the backend's array (struct "
         "dp_rps_slot); per point, two points per switch. The tracker besides: %d flows x %d disclosures per point, "
         "%.1f KB in bmv2's registers (%d bits each), %.1f KB in the backend's (struct dp_rps_track)."
         % (BITS_PER_RECEIPT_P4, BITS_PER_RECEIPT_P4 / 8, BYTES_PER_RECEIPT_BACKEND, rps.FLOWS, rps.TRACK_DEPTH,
            rps.FLOWS * rps.TRACK_DEPTH * BITS_PER_TRACKED_P4 / 8 / 1e3, BITS_PER_TRACKED_P4,
            rps.FLOWS * rps.TRACK_DEPTH * BYTES_PER_TRACKED_BACKEND / 1e3))
    emit("")
    rows = capacity_table(a.seeds, emit)
    sweep_table("Buffer against the minimal rate r_min (R = %d pps, κ = %d ms; seed Fig. 2.6)"
                % (R_FIXED, KAPPA_US // 1000), "r_min (pps)", R_MINS, str,
                lambda r: (R_FIXED, r, KAPPA_US), a.seeds, emit)
    sweep_table("Buffer against the quiet time κ (R = %d pps, r = %d pps; seed Fig. 2.5)" % (R_FIXED, R_MIN),
                "κ (ms)", KAPPAS_MS, str, lambda k: (R_FIXED, R_MIN, k * 1000), a.seeds, emit)
    tracker_table(a.seeds, emit)
    bandwidth_table(rows, emit)
    same = c_table(a.replay, a.replays, emit) if a.replay else True
    emit("(%d seeds, %.0f s, load average %.2f at the end)" % (a.seeds, time.monotonic() - started,
                                                             os.getloadavg()[0]))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
    if not same:
        print("bench: the C data plane and the model disagree (see the table above)", file=sys.stderr)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
