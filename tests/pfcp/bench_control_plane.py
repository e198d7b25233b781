#!/usr/bin/env python3
"""Benchmark: PFCP establish and delete over the backend-only chain (real hupf-backend, lab runner, counters
polled every 500 ms), pipelined client; rate, latency p50/p99/max, share of answers within T1 (3 s).
Usage: .venv/bin/python tests/pfcp/bench_control_plane.py [--sessions N] [--window W ...] [--out FILE]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from backend_chain import T1_S, Chain, cause_of, deletion, up_seid_of  # noqa: E402
from bench_pfcp import patch, template  # noqa: E402
from smf import Smf, cause  # noqa: E402

import socket  # noqa: E402
import time  # noqa: E402


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=10000)
    ap.add_argument("--window", type=int, nargs="+", default=[32, 128])
    ap.add_argument("--out", default=os.path.join("reports", "control_plane_bench.json"))
    ap.add_argument("--backend-cpuprofile", help="write the backend agent's Go CPU profile here")
    args = ap.parse_args()
    results = []
    for window in args.window:
        chain = Chain(backend_args=["--cpuprofile", args.backend_cpuprofile] if args.backend_cpuprofile else ())
        try:
            smf = Smf(chain.pfcp)
            assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == 1
            raw, seid_at, ue_at = template(smf)
            reqs = [(1000 + i, patch(raw, seid_at, ue_at, 1000 + i, i)) for i in range(args.sessions)]
            elapsed, lat, resp, lost = pipelined(smf.sock, chain.pfcp, reqs, window)
            results.append(summary("establish", args.sessions, window, elapsed, lat, lost))
            seids = [up_seid_of(r) for r in resp if cause_of(r) == 1]
            results[-1]["accepted"] = len(seids)
            dels = [(5_000_000 + i, deletion(s, 5_000_000 + i)) for i, s in enumerate(seids)]
            elapsed, lat, _, lost = pipelined(smf.sock, chain.pfcp, dels, window)
            results.append(summary("delete", len(dels), window, elapsed, lat, lost))
            smf.close()
        finally:
            chain.stop()
        for r in results[-2:]:
            print(json.dumps(r), flush=True)
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "control_plane", "chain": "backend-only, hupf-backend 65536 sessions, poll 500 ms",
                   "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
