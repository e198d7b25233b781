#!/usr/bin/env python3
"""Benchmark: PFCP establish, modify and delete of N sessions over the backend-only chain (real hupf-backend sized
for N, lab runner polling the backend's counters every 500 ms, the lab's period), pipelined client: rate, latency
p50/p99/max, answers within T1 (3 s); with N sessions held: one counter poll's duration, the chain's idle CPU over
10 s and the runner's heap per session (after a full GC).

--old-classpath/--old-backend run a second build (e.g. main at e345510, built in another directory) in the same
run, alternating with this one, for an A/B; --delete-limit bounds the deletions timed (the rest are not timed).
Usage: .venv/bin/python tests/pfcp/bench_control_plane.py [--sessions N ...] [--window W ...] [--out FILE]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from backend_chain import GNB, T1_S, Chain, cause_of, deletion, up_seid_of  # noqa: E402
from bench_pfcp import patch, template  # noqa: E402
from pfcp_spec import build_message  # noqa: E402
from smf import Smf, cause  # noqa: E402

import socket  # noqa: E402

IDLE_S = 10
TICKS = os.sysconf("SC_CLK_TCK")


def pipelined(sock, addr, requests, window, stall_s=30.0):
    """Keeps `window` requests outstanding; a request unanswered for stall_s counts as lost (not retried)."""
    sent, lat, responses, pending = 0, [], [], {}
    sock.settimeout(1.0)
    t0 = time.perf_counter()
    lost = 0
    while sent < len(requests) or pending:
        while sent < len(requests) and len(pending) < window:
            seq, data = requests[sent]
            pending[seq] = time.perf_counter()
            sock.sendto(data, addr)
            sent += 1
        try:
            data, _ = sock.recvfrom(65535)
        except socket.timeout:
            now = time.perf_counter()
            stale = [s for s, t in pending.items() if now - t > stall_s]
            for s in stale:
                del pending[s]
            lost += len(stale)
            continue
        seq = int.from_bytes(data[12:15], "big")
        if seq in pending:
            lat.append(time.perf_counter() - pending.pop(seq))
            responses.append(data)
    return time.perf_counter() - t0, sorted(lat), responses, lost


def summary(phase, n, window, elapsed, lat, lost):
    pick = lambda q: round(1000 * lat[int(q * (len(lat) - 1))], 1) if lat else None  # noqa: E731
    return {"phase": phase, "sessions": n, "window": window, "seconds": round(elapsed, 2),
            "per_second": round(len(lat) / elapsed, 1), "p50_ms": pick(0.5), "p99_ms": pick(0.99),
            "max_ms": pick(1.0), "within_t1": sum(1 for x in lat if x < T1_S), "lost": lost}


def modification(smf, up_seid, seq):
    """A Session Modification Request (downlink FAR now forwards to the gNB) for up_seid, with sequence seq."""
    b = bytearray(bytes(build_message(smf.modify_to_forward(up_seid, GNB, 0x100 + up_seid % 0xFFFF))))
    b[12:15] = seq.to_bytes(3, "big")
    return bytes(b)


def timed(chain, out, phase, n, window, sock, requests):
    """Runs a pipelined phase; adds its summary with the CPU the runner and backend spent per request."""
    cpu0 = chain_cpu(chain)
    elapsed, lat, resp, lost = pipelined(sock, chain.pfcp, requests, window)
    out.append(summary(phase, n, window, elapsed, lat, lost))
    out[-1]["cpu_ms_per_request"] = round(1000 * (chain_cpu(chain) - cpu0) / max(1, len(requests)), 3)
    return resp


def chain_cpu(chain):
    return cpu_seconds(chain.runner.pid) + cpu_seconds(chain.backend.pid)


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def idle_cpu(chain):
    """Share of one core the runner and the backend used over IDLE_S seconds with no PFCP traffic."""
    procs = {"runner": chain.runner.pid, "backend": chain.backend.pid}
    before = {k: cpu_seconds(p) for k, p in procs.items()}
    time.sleep(IDLE_S)
    return {k: round((cpu_seconds(p) - before[k]) / IDLE_S, 3) for k, p in procs.items()}


def heap_used_kib(pid):
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=120)
    out = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=60).stdout
    m = re.search(r"used (\d+)K", out)
    return int(m.group(1)) if m else None


def run(args, n, window, build, classpath=None, backend=None):
    chain = Chain(sessions=max(65536, n), mem_mb=max(1024, n // 64), classpath=classpath, backend=backend,
                  java_opts=["-Xmx%dm" % max(1024, n // 80)],  # ~9 KB of heap per session measured
                  backend_args=["--cpuprofile", args.backend_cpuprofile] if args.backend_cpuprofile else ())
    out = []
    try:
        smf = Smf(chain.pfcp)
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == 1
        heap0 = heap_used_kib(chain.runner.pid)
        raw, seid_at, ue_at = template(smf)
        reqs = [(1000 + i, patch(raw, seid_at, ue_at, 1000 + i, i)) for i in range(n)]
        resp = timed(chain, out, "establish", n, window, smf.sock, reqs)
        seids = [up_seid_of(r) for r in resp if cause_of(r) == 1]
        out[-1]["accepted"] = len(seids)
        chain.wait_sessions(len(seids), 60)
        held = {"phase": "held", "sessions": len(seids), "window": window}
        time.sleep(2)
        held["poll_ms"] = chain.status().get("last_poll_ms")
        held["idle_cpu_cores"] = idle_cpu(chain)
        heap = heap_used_kib(chain.runner.pid)
        if heap0 is not None and heap is not None and seids:
            held["heap_bytes_per_session"] = round((heap - heap0) * 1024 / len(seids))
        out.append(held)
        if not args.no_modify:
            mods = [(3_000_000 + i, modification(smf, s, 3_000_000 + i)) for i, s in enumerate(seids)]
            timed(chain, out, "modify", len(mods), window, smf.sock, mods)
        doomed = seids[:args.delete_limit] if args.delete_limit else seids
        dels = [(5_000_000 + i, deletion(s, 5_000_000 + i)) for i, s in enumerate(doomed)]
        timed(chain, out, "delete", len(dels), window, smf.sock, dels)
        smf.close()
    finally:
        chain.stop()
    for r in out:
        r["build"] = build
        print(json.dumps(r), flush=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, nargs="+", default=[10000])
    ap.add_argument("--window", type=int, nargs="+", default=[32, 128])
    ap.add_argument("--out", default=os.path.join("reports", "control_plane_bench.json"))
    ap.add_argument("--backend-cpuprofile", help="write the backend agent's Go CPU profile here")
    ap.add_argument("--old-classpath", help="runner classpath of the build to compare with")
    ap.add_argument("--old-backend", help="hupf-backend binary of the build to compare with")
    ap.add_argument("--delete-limit", type=int, help="time the deletion of this many sessions only")
    ap.add_argument("--no-modify", action="store_true")
    args = ap.parse_args()
    results = []
    for n in args.sessions:
        for window in args.window:
            results += run(args, n, window, "this")
            if args.old_classpath:
                results += run(args, n, window, "old", args.old_classpath, args.old_backend)
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "control_plane", "chain": "backend-only, hupf-backend sized for N, poll 500 ms",
                   "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
