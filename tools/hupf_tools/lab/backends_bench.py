"""Several backends behind the switch (issue 16 part 3): the lab run once per backend set, side by side.

For each set (`--sets "1" "1 1" "1 2" "1 1 1" "1 1 1 1"`: one weight per backend), `make lab` runs with
hupf-backend playing the switch and the same scenario and seed, and this reports per set: sessions
established and how long the sequential PFCP establishments took (every session is written to every
backend), the packets the switch sent each backend and their shares against the weights' shares (the
UE-hash split's balance), the worst UE's loss, the bytes carried in hardware, and the lab's checks.

With `--moves add kill stop drain`, the last backend of `--move-set` (default "1 1") also joins, dies, stops or
is drained (then stopped) 40 % into the traffic, one run each: the rebalancing time (until the switch steered its
UEs, taken from the runner's status), for a killed one the time until it is steered to again, for a drained one
the time until the runner let it go, the packets lost in the run and the lab's checks (usage included: what the
leaving backend counted is kept by the runner's ledger).

    tools/lab.sh backends [--ues 1000 --duration 20 --sets "1" "1 1" ...] [--moves add kill stop drain]
                          [--markdown FILE] [--json FILE]
    (--from-dir DIR: report an earlier bench's lab runs again)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from hupf_tools.lab import summary
from hupf_tools.lab.latency import backend_index

DEFAULT_SETS = ("1", "1 1", "1 2", "1 1 1", "1 1 1 1")


def run_name(weights, move=None):
    return "lab-%s%s.json" % ("-".join(map(str, weights)), "-" + move if move else "")


def run_lab(weights, ues, duration, seed, workdir, move=None, mouse_pps=None):
    """One lab run (move: the last backend is added, killed, stopped or drained under traffic; mouse_pps: the
    mice's mean rate, the lab's default if None); returns its JSON summary with the exit status and wall time."""
    out = os.path.join(workdir, run_name(weights, move))
    cmd = [sys.executable, "-m", "hupf_tools.lab.run", "--switch", "backend", "--backends", str(len(weights)),
           "--weights"] + [str(w) for w in weights] + ["--ues", str(ues), "--duration", str(duration),
                                                         "--seed", str(seed), "--json", out]
    if move:
        cmd += ["--%s-backend" % move, str(len(weights))]
    if mouse_pps is not None:
        cmd += ["--mouse-pps", str(mouse_pps)]
    t0 = time.monotonic()
    load0 = os.getloadavg()[0]
    with open(out + ".log", "w") as log:
        rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, check=False).returncode
    try:
        with open(out) as f:
            result = json.load(f)
    except (OSError, ValueError):
        raise RuntimeError("lab with weights %s wrote no summary (exit %d): %s" % (weights, rc, out + ".log"))
    # The machine is shared: every figure goes with the load it was taken under (1-minute average).
    result.update(rc=rc, wall_s=time.monotonic() - t0, load=[load0, os.getloadavg()[0]])
    return result


def earlier_run(weights, workdir, move=None):
    """The summary run_lab left in workdir for these weights (and move)."""
    with open(os.path.join(workdir, run_name(weights, move))) as f:
        result = json.load(f)
    result.update(rc=0 if all(c["passed"] for c in result.get("checks", [])) else 1, wall_s=0.0, load=None)
    return result


def balance(result):
    """[(backend, packets, share, weight share)] and the largest |share - weight share| / weight share."""
    shares = result.get("backend_packets") or {"backend": None}
    weights = result.get("weights") or [1]
    total_w = float(sum(weights))
    total_p = sum(n for n in shares.values() if n) or 0
    rows, worst = [], 0.0
    for (name, n), w in zip(sorted(shares.items(), key=lambda kv: (len(kv[0]), kv[0])), weights):
        want = w / total_w
        got = (n / total_p) if (n is not None and total_p) else 1.0
        worst = max(worst, abs(got - want) / want)
        rows.append((name, n, got, want))
    return rows, worst


def ue_split(result):
    """UEs per backend as the switch splits them: shares in member order, a backend of weight w w times,
    the UE's share crc16(UE) % the weights' sum."""
    weights = result.get("weights") or [1]
    counts = [0] * len(weights)
    for u in result["plan"]["ues"]:
        counts[backend_index(u["addr"], weights)] += 1
    return counts


def worst_loss(result):
    plan, tx, rx = result["plan"], result["tx"], result["rx"]
    worst = 0.0
    for u in plan["ues"]:
        sent = summary._pkts(tx, "tx", u["idx"])
        got = summary._pkts(rx, "rx", u["idx"])
        if sent:
            worst = max(worst, 1 - got / sent)
    return worst


def lost(result):
    """(packets sent, packets lost) over the run, both directions."""
    sent = sum(summary._pkts(result["tx"], "tx", u["idx"]) for u in result["plan"]["ues"])
    got = sum(summary._pkts(result["rx"], "rx", u["idx"]) for u in result["plan"]["ues"])
    return sent, sent - got


def move_row(weights, result):
    m = result.get("move") or {}
    sent, n_lost = lost(result)
    checks = result.get("checks", [])
    drain = m.get("drain") or {}
    return {"weights": weights, "move": m.get("how"), "backend": m.get("backend"), "moved_s": m.get("moved_s"),
            "back_s": m.get("back_s"), "drained_s": m.get("drained_s"), "runner_steered_ms": drain.get("steered_ms"),
            "runner_drained_ms": drain.get("drained_ms"), "after_steering": drain.get("after_steering"),
            "sent": sent, "lost": n_lost, "worst_loss": worst_loss(result),
            "usage_ok": all(c["passed"] for c in checks if c["name"].startswith("usage")),
            "checks": len(checks), "checks_passed": sum(1 for c in checks if c["passed"]),
            "failed_checks": [c for c in checks if not c["passed"]], "rc": result["rc"], "load": result.get("load")}


def load(r):
    return "-" if not r["load"] else "%.1f → %.1f" % tuple(r["load"])


def render_moves(rows):
    def secs(v):
        return "-" if v is None else "%.2f" % v

    def drained(r):
        if r["drained_s"] is None:
            return "-"
        return "%.2f (runner: steered %s ms, quiet after %s ms, %s packets after the steering)" % (
            r["drained_s"], r["runner_steered_ms"], r["runner_drained_ms"], r["after_steering"])
    lines = ["", "| weights | move | steered, s after | back, s after | drained, s after | packets lost / sent "
             "| worst UE loss | usage | checks | load |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s %s | %s | %s | %s | %d / %d | %.2f %% | %s | %d/%d passed | %s |" % (
            ":".join(map(str, r["weights"])), r["backend"], r["move"], secs(r["moved_s"]), secs(r["back_s"]),
            drained(r),
            r["lost"], r["sent"], 100 * r["worst_loss"], "adds up" if r["usage_ok"] else "FAILS",
            r["checks_passed"], r["checks"], load(r)))
    return lines


def render(rows, args):
    lines = ["# Several backends behind the switch (`tools/lab.sh backends`)", "",
             "hupf-backend plays the switch; %d UEs, %g s of traffic, seed %d, mice at %s pps each way on average; "
             "one lab run per backend set, one after the other, on this machine (%d vCPU); load: the 1-minute "
             "load average at the run's start and end." % (
                 args.ues, args.duration, args.seed, "4" if args.mouse_pps is None else "%g" % args.mouse_pps,
                 os.cpu_count()), "",
             "| weights | sessions | establishment (sequential PFCP), s | per session, ms | UEs per backend (by the "
             "switch's hash) | packets per backend (share / weight share) | worst packet-share error | packets lost / "
             "sent | worst UE loss | hw bytes | checks | load |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        per_backend = "; ".join("%s %s (%.1f %% / %.1f %%)" % (name, "-" if n is None else n, 100 * got, 100 * want)
                                for name, n, got, want in r["balance"])
        lines.append("| %s | %d/%d | %.1f | %.1f | %s | %s | %.1f %% | %d / %d | %.2f %% | %.1f %% | %d/%d passed "
                     "| %s |" % (
            ":".join(map(str, r["weights"])), r["established"][0], r["established"][1], r["establish_s"],
            1000 * r["establish_s"] / max(1, r["established"][0]), " / ".join(map(str, r["ues"])), per_backend,
            100 * r["balance_error"], r["lost"], r["sent"],
            100 * r["worst_loss"], 100 * r["hw_share"], r["checks_passed"], r["checks"], load(r)))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ues", type=int, default=1000)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mouse-pps", type=float, help="the mice's mean rate each way, packets/s (the lab's default: 4)")
    ap.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS),
                    help="backend sets, each a quoted list of weights (default: %s)" % " ".join(
                        '"%s"' % s for s in DEFAULT_SETS))
    ap.add_argument("--moves", nargs="*", default=[], choices=("add", "kill", "stop", "drain"),
                    help="also run the --move-set with its last backend added, killed, stopped or drained under "
                         "traffic")
    ap.add_argument("--move-set", default="1 1", help='the weights of the move runs (default "1 1")')
    ap.add_argument("--from-dir", help="report the lab runs an earlier bench left in this directory instead of "
                                       "running them again")
    ap.add_argument("--markdown", help="write the table here")
    ap.add_argument("--json", help="write the per-set figures here")
    args = ap.parse_args(argv)
    workdir = args.from_dir or tempfile.mkdtemp(prefix="hupf-backends-bench-")
    rows = []
    for s in args.sets:
        weights = [int(w) for w in s.split()]
        print("backends bench: weights %s ..." % ":".join(map(str, weights)), flush=True)
        result = earlier_run(weights, workdir) if args.from_dir else run_lab(weights, args.ues, args.duration,
                                                                               args.seed, workdir,
                                                                               mouse_pps=args.mouse_pps)
        bal, err = balance(result)
        checks = result.get("checks", [])
        rows.append({"weights": weights, "established": result["established"], "establish_s": result["establish_s"],
                     "ues": ue_split(result),
                     "balance": bal, "balance_error": err, "worst_loss": worst_loss(result),
                     "sent": lost(result)[0], "lost": lost(result)[1], "load": result.get("load"),
                     "hw_share": result.get("metrics", {}).get("hw_share", 0.0),
                     "checks": len(checks), "checks_passed": sum(1 for c in checks if c["passed"]),
                     "failed_checks": [c for c in checks if not c["passed"]], "rc": result["rc"],
                     "wall_s": result["wall_s"]})
        print("  %s" % render([rows[-1]], args)[-1], flush=True)
    moves = []
    move_weights = [int(w) for w in args.move_set.split()]
    for move in args.moves:
        print("backends bench: weights %s, backend %d %s ..." % (":".join(map(str, move_weights)),
                                                                len(move_weights), move), flush=True)
        result = earlier_run(move_weights, workdir, move) if args.from_dir else run_lab(
            move_weights, args.ues, args.duration, args.seed, workdir, move, args.mouse_pps)
        moves.append(move_row(move_weights, result))
        print("  %s" % render_moves([moves[-1]])[-1], flush=True)
    lines = render(rows, args) + (render_moves(moves) if moves else [])
    print("\n".join(lines))
    if args.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(args.markdown)), exist_ok=True)
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"sets": rows, "moves": moves}, f, indent=1)
    return 0 if all(r["rc"] == 0 for r in rows + moves) else 1


if __name__ == "__main__":
    raise SystemExit(main())
