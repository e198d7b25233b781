#!/usr/bin/env python3
"""Benchmark: PFCP session establishment and deletion rate and latency of hupf's agent (standalone runner,
in-memory device), over loopback UDP.

Messages are built once with scapy and patched per session (sequence number, CP SEID, UE address), so
the timed part is the agent, not the emulator. Usage:
  .venv/bin/python tests/pfcp/bench_pfcp.py [--sessions N] [--window W] [--out reports/pfcp_bench.json]
"""
import argparse
import ipaddress
import json
import os
import statistics
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conftest import start_upf, stop_upf  # noqa: E402
from pfcp_spec import build_message  # noqa: E402
from smf import Smf, cause  # noqa: E402

CP_SEID = 0x0BADC0DE00000000
UE0 = ipaddress.IPv4Address("10.250.0.0")
# The chains' UE pool (backend_chain.Chain, bench_onos_cp): session i's UE is UE0 + i wrapped inside it, so that
# 16,777,216 sessions have distinct addresses in the pool (unwrapped, session 393,216 would be 11.0.0.0, outside it,
# and refused with cause 69).
UE_POOL = ipaddress.IPv4Network("10.0.0.0/8")


def ue_address(i):
    """The UE address of the benchmark's session i."""
    base = int(UE_POOL.network_address)
    return ipaddress.IPv4Address(base + (int(UE0) - base + i) % UE_POOL.num_addresses)


def template(smf):
    raw = bytes(build_message(smf.establishment(CP_SEID, str(UE0))))
    ue = UE0.packed
    return raw, raw.index(struct.pack("!Q", CP_SEID)), [i for i in range(len(raw)) if raw.startswith(ue, i)]


def patch(raw, seid_at, ue_at, seq, i):
    b = bytearray(raw)
    b[12:15] = seq.to_bytes(3, "big")
    b[seid_at:seid_at + 8] = struct.pack("!Q", CP_SEID + i)
    ue = ue_address(i).packed
    for at in ue_at:
        b[at:at + 4] = ue
    return bytes(b)


def run(sock, upf_addr, requests, window):
    """Sends requests keeping `window` outstanding; returns per-request latency (s) and responses."""
    sent, lat, responses, pending = 0, {}, {}, {}
    sock.settimeout(5)
    t0 = time.perf_counter()
    while len(responses) < len(requests):
        while sent < len(requests) and len(pending) < window:
            seq, data = requests[sent]
            pending[seq] = time.perf_counter()
            sock.sendto(data, upf_addr)
            sent += 1
        data, _ = sock.recvfrom(65535)
        seq = int.from_bytes(data[12:15], "big")
        if seq in pending:
            lat[seq] = time.perf_counter() - pending.pop(seq)
            responses[seq] = data
    return time.perf_counter() - t0, list(lat.values()), responses


def summary(name, n, elapsed, lat):
    lat = sorted(lat)
    return {"phase": name, "messages": n, "seconds": round(elapsed, 3), "per_second": round(n / elapsed, 1),
            "latency_ms_p50": round(1000 * statistics.median(lat), 3),
            "latency_ms_p99": round(1000 * lat[int(0.99 * (len(lat) - 1))], 3)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--window", type=int, default=32)
    ap.add_argument("--out", default=os.path.join("reports", "pfcp_bench.json"))
    ap.add_argument("--state-dir", help="the host's durable state directory (default: state in memory)")
    ap.add_argument("--state-sync-ms", default="100", help="with --state-dir: fsync period, 0 = every commit")
    args = ap.parse_args()
    upf = start_upf(*(["--state-dir", args.state_dir, "--state-sync-ms", args.state_sync_ms]
                      if args.state_dir else []))
    try:
        smf = Smf(upf.addr)
        assert cause(smf.request(smf.association_setup())[0]) == 1
        raw, seid_at, ue_at = template(smf)
        results = []
        for name, window in (("establish-serial", 1), ("establish-window", args.window)):
            base = 100 + (0 if window == 1 else args.sessions)
            reqs = [(base + i, patch(raw, seid_at, ue_at, base + i, base + i)) for i in range(args.sessions)]
            elapsed, lat, resp = run(smf.sock, upf.addr, reqs, window)
            accepted = b"\x00\x13\x00\x01\x01"  # Cause IE, Request accepted
            assert all(accepted in r for r in resp.values()), "an establishment was refused"
            results.append(summary(name, args.sessions, elapsed, lat))
        sessions = upf.get("/sessions")["sessions"]
        assert len(sessions) == 2 * args.sessions, len(sessions)
        seq0 = 10_000_000
        dels = []
        for i, s in enumerate(sessions):
            hdr = struct.pack("!BBHQ", 0x21, 54, 12, s["upSeid"]) + (seq0 + i).to_bytes(3, "big") + b"\x00"
            dels.append((seq0 + i, hdr))
        elapsed, lat, _ = run(smf.sock, upf.addr, dels, args.window)
        results.append(summary("delete-window", len(dels), elapsed, lat))
        assert upf.get("/health")["sessions"] == 0
        report = {"benchmark": "pfcp_agent", "transport": "udp loopback", "device": "in-memory",
                  "state": ("durable, fsync every %s ms" % args.state_sync_ms) if args.state_dir else "memory",
                  "results": results}
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)
        for r in results:
            print("%-18s %6d msgs %8.1f/s  p50 %.3f ms  p99 %.3f ms" % (
                r["phase"], r["messages"], r["per_second"], r["latency_ms_p50"], r["latency_ms_p99"]))
        print("report: " + args.out)
    finally:
        stop_upf(upf)


if __name__ == "__main__":
    main()
