#!/usr/bin/env python3
"""Benchmark: PFCP establish, modify and delete of N sessions over the backend-only chain (real hupf-backend sized
for N, lab runner polling the backend's counters every 500 ms, the lab's period), pipelined client: rate, latency
p50/p99/max, answers within T1 (3 s); with N sessions held: one counter poll's duration, the chain's idle CPU over
10 s and the runner's heap per session (after a full GC).

--warmup N (default 10000) establishes, modifies and deletes N other sessions before the timed phases, on hupf and
eUPF alike: the figures are the steady state's, not the JIT's warm-up. With --peer that warm-up round is timed and
reported apart (stage "cold", never folded into the steady rows), --warmup-rounds K adds K - 1 unreported ones, and
every phase carries the JIT's CPU per request (hupf's compiler threads), the cores the UPF used and its busiest
thread. --threads adds each phase's CPU per request per thread (runner, backend or eUPF thread names).

--old-classpath/--old-backend run a second build (e.g. main at e345510, built in another directory) in the same
run, alternating with this one, for an A/B; --delete-limit bounds the deletions timed (the rest are not timed).

--peer eupf (issue #32): rounds alternating hupf's chain and eUPF (HUPF_EUPF=<binary>, ../shared/eupf/README.md;
needs root for its namespaces), the same client and messages; per phase and round the rate, latency, CPU of each
UPF's whole process tree per request, the data-plane tables after each phase and the ratios hupf / eUPF.
Usage: .venv/bin/python tests/pfcp/bench_control_plane.py [--sessions N ...] [--window W ...] [--out FILE]
       .venv/bin/python tests/pfcp/bench_control_plane.py --peer eupf [--sessions N ...] [--rounds R]
           [--hupf-only-sessions N ...] [--warmup N] [--warmup-rounds K] [--threads] [--markdown FILE] [--out FILE]
"""
import argparse
import collections
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from backend_chain import GNB, T1_S, Chain, cause_of, deletion, up_seid_of, uplink_teid  # noqa: E402
from bench_pfcp import patch, template  # noqa: E402
from cpu_hog import cpu_hog  # noqa: E402
from eupf_peer import SKIPPED, Eupf, eupf_binary  # noqa: E402
from peer_report import (ab_notes, busiest, compare, jit_ms, markdown, mismatches, table_check,  # noqa: E402
                         thread_breakdown, thread_cpu_seconds, threads_markdown, tree_cpu_seconds,
                         warmup_notes)
from pfcp_spec import build_message  # noqa: E402
from smf import Smf, cause  # noqa: E402

import socket  # noqa: E402

IDLE_S = 10


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


def modifications(smf, seids, seq0):
    """Session Modification Requests (the downlink FAR now forwards to the gNB, TEID 0x100 + SEID % 0xFFFF), one
    per SEID: built once with scapy and patched (header SEID, sequence number, TEID), as fast for 1M as the
    establishments."""
    marker = 0x5EEDF00D
    raw = bytes(build_message(smf.modify_to_forward(0, GNB, marker)))
    at = raw.index(marker.to_bytes(4, "big"))
    out = []
    for i, up_seid in enumerate(seids):
        b = bytearray(raw)
        b[4:12] = up_seid.to_bytes(8, "big")
        b[12:15] = (seq0 + i).to_bytes(3, "big")
        b[at:at + 4] = (0x100 + up_seid % 0xFFFF).to_bytes(4, "big")
        out.append((seq0 + i, bytes(b)))
    return out


def rpc_counts(chain, timeout_s=30):
    """P4Runtime Write and Read RPCs the runner sent to all its devices so far, from a status written after this
    call (rewritten every 500 ms, less often while writing it takes long); None from a build whose status has no
    such counts."""
    since_ms = time.time() * 1000
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        st = chain.status()
        if st.get("written_ms", 0) >= since_ms:
            devices = st.get("devices", {}).values()
            if not devices or any("write_rpcs" not in d for d in devices):
                return None
            counts = {k: sum(d[k + "_rpcs"] for d in devices) for k in ("write", "read")}
            # Of the Writes, those over hupf-backend's local write channel (a build that has it)
            counts["local_write"] = sum(d.get("local_writes", 0) for d in devices)
            return counts
        if "written_ms" not in st and st:
            return None
        time.sleep(0.1)
    return None


def timed(cpu, addr, out, phase, n, window, sock, requests, roots=None, rpcs=None):
    """Runs a pipelined phase; adds its summary with the CPU (cpu(): seconds so far) the UPF spent per request,
    with roots ({label: pid}) the CPU per request of each thread name of their trees, and with rpcs (rpcs(): RPC
    counts so far) the P4Runtime Writes and Reads per request (the Reads include the counter poll's)."""
    rpcs0 = rpcs() if rpcs else None
    threads0 = thread_cpu_seconds(roots) if roots else None
    cpu0 = cpu()
    elapsed, lat, resp, lost = pipelined(sock, addr, requests, window)
    out.append(summary(phase, n, window, elapsed, lat, lost))
    spent = cpu() - cpu0
    out[-1]["cpu_ms_per_request"] = round(1000 * spent / max(1, len(requests)), 3)
    if roots:
        out[-1]["threads"] = thread_breakdown(threads0, thread_cpu_seconds(roots), spent, len(requests))
    if roots:
        out[-1]["jit_ms_per_request"] = jit_ms(out[-1]["threads"])
        out[-1]["busiest_thread"] = busiest(out[-1]["threads"], out[-1]["per_second"])
    out[-1]["cores"] = round(spent / elapsed, 2)
    rpcs1 = rpcs() if rpcs0 else None
    if rpcs1:
        for k in ("write", "read", "local_write"):
            out[-1][k + "_rpcs_per_request"] = round((rpcs1[k] - rpcs0[k]) / max(1, len(requests)), 4)
    refused = collections.Counter(cause_of(r) for r in resp if cause_of(r) != 1)
    if refused:
        out[-1]["refused_causes"] = dict(refused)
    return resp


def warm_up(smf, addr, n_warm, first, window):
    """Establishes, modifies and deletes n_warm sessions (UEs and SEIDs from index `first` on, after the timed
    ones), untimed, so that the timed phases measure the steady state (code compiled, pools and maps grown)."""
    if not n_warm:
        return
    raw, seid_at, ue_at = template(smf)
    reqs = [(7_000_000 + k, patch(raw, seid_at, ue_at, 7_000_000 + k, first + k)) for k in range(n_warm)]
    seids = [up_seid_of(r) for r in pipelined(smf.sock, addr, reqs, window)[2] if cause_of(r) == 1]
    pipelined(smf.sock, addr, modifications(smf, seids, 8_000_000), window)
    pipelined(smf.sock, addr, [(9_000_000 + i, deletion(s, 9_000_000 + i)) for i, s in enumerate(seids)], window)


def chain_roots(chain):
    return {"runner": chain.runner.pid, "backend": chain.backend.pid}


def chain_cpu(chain):
    """CPU seconds of the runner JVM and the backend, with anything they started."""
    return tree_cpu_seconds(chain.runner.pid) + tree_cpu_seconds(chain.backend.pid)


def idle_cpu(chain):
    """Share of one core the runner and the backend used over IDLE_S seconds with no PFCP traffic."""
    procs = {"runner": chain.runner.pid, "backend": chain.backend.pid}
    before = {k: tree_cpu_seconds(p) for k, p in procs.items()}
    time.sleep(IDLE_S)
    return {k: round((tree_cpu_seconds(p) - before[k]) / IDLE_S, 3) for k, p in procs.items()}


def heap_used_kib(pid):
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=120)
    out = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=60).stdout
    m = re.search(r"used (\d+)K", out)
    return int(m.group(1)) if m else None


def sized_chain(n, classpath=None, backend=None, backend_args=(), java_opts=(), local_writes=True):
    return Chain(sessions=max(65536, n), mem_mb=max(1024, n // 64), classpath=classpath, backend=backend,
                 # ~9 KB of heap per session measured; the compiler threads kept, for the JIT's CPU per phase
                 java_opts=["-Xmx%dm" % max(1024, n // 80), "-XX:-UseDynamicNumberOfCompilerThreads", *java_opts],
                 backend_args=backend_args, local_writes=local_writes)


def run(args, n, window, build, classpath=None, backend=None):
    opts = args.runner_java_opts if build == "this" else args.old_runner_java_opts
    chain = sized_chain(n, classpath, backend,
                        ["--cpuprofile", args.backend_cpuprofile] if args.backend_cpuprofile else (),
                        java_opts=opts.split(),
                        local_writes=not args.grpc_writes if build == "this" else args.old_local_writes)
    out = []
    try:
        smf = Smf(chain.pfcp)
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == 1
        for _ in range(args.warmup_rounds):
            warm_up(smf, chain.pfcp, args.warmup, n, window)
        roots = chain_roots(chain) if args.threads else None
        heap0 = heap_used_kib(chain.runner.pid)
        raw, seid_at, ue_at = template(smf)
        reqs = [(1000 + i, patch(raw, seid_at, ue_at, 1000 + i, i)) for i in range(n)]
        resp = timed(lambda: chain_cpu(chain), chain.pfcp, out, "establish", n, window, smf.sock, reqs, roots,
                     lambda: rpc_counts(chain))
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
            mods = modifications(smf, seids, 3_000_000)
            timed(lambda: chain_cpu(chain), chain.pfcp, out, "modify", len(mods), window, smf.sock, mods, roots,
                  lambda: rpc_counts(chain))
        doomed = seids[:args.delete_limit] if args.delete_limit else seids
        dels = [(5_000_000 + i, deletion(s, 5_000_000 + i)) for i, s in enumerate(doomed)]
        timed(lambda: chain_cpu(chain), chain.pfcp, out, "delete", len(dels), window, smf.sock, dels, roots,
              lambda: rpc_counts(chain))
        smf.close()
    finally:
        chain.stop()
    for r in out:
        r["build"] = build
        print(json.dumps(r), flush=True)
    return out


class HupfUpf:
    """hupf for one round: the backend chain sized for n; its tables are the UEs the runner's status read back
    from the backend (the downlink sessions), its CPU the runner's and the backend's trees."""
    name = "hupf"

    def __init__(self, args, n):
        self.chain = self.sized(args, n)
        self.addr = self.chain.pfcp
        try:
            self.smf = Smf(self.addr)
            assert cause(self.smf.request(self.smf.association_setup(), timeout=10)[0]) == 1
        except BaseException:
            self.chain.stop()
            raise

    @staticmethod
    def sized(args, n):
        return sized_chain(n, java_opts=args.runner_java_opts.split())

    def cpu(self):
        return chain_cpu(self.chain)

    def roots(self):
        return chain_roots(self.chain)

    def rpcs(self):
        return rpc_counts(self.chain)

    def tables(self):
        ues = self.chain.status().get("targets", {}).get("backend", [])
        return {"dl": sum(1 for u in ues if not u.startswith("read failed"))}

    def stop(self):
        self.smf.close()
        self.chain.stop()


def other_hupf(name, classpath=None, backend=None, opts="", local_writes=True):
    """hupf's other build or JVM options (--old-classpath, --old-backend, --old-runner-java-opts; --variant-java-opts)
    for an A/B in the same run: its rows are left out of the table against eUPF and compared with hupf's in notes."""
    return type("OtherHupf", (HupfUpf,), {"name": name, "sized": staticmethod(
        lambda args, n: sized_chain(n, classpath, backend, java_opts=opts.split(), local_writes=local_writes))})


def _associated(smf):
    try:
        return cause(smf.request(smf.association_setup(), timeout=1)[0]) == 1
    except AssertionError:
        return False


class EupfUpf:
    """eUPF for one round in namespaces of its own (eupf_peer.Eupf); its tables are its eBPF PDR maps."""
    name = "eupf"

    def __init__(self, args, n):
        self.peer = Eupf(args.eupf, n, args.eupf_log_level)
        self.addr = self.peer.pfcp
        try:
            self.smf = self.peer.smf_socket(Smf)
            self.peer.associate(self.smf, _associated)
        except BaseException:
            self.peer.stop()
            raise

    def cpu(self):
        return tree_cpu_seconds(self.peer.proc.pid)

    def roots(self):
        return {"eupf": self.peer.proc.pid}

    def rpcs(self):
        return None

    def tables(self):
        return self.peer.table_counts()

    def stop(self):
        try:
            self.smf.close()
        finally:
            self.peer.stop()


def settle(read, expected, timeout):
    """Reads a UPF's table counts until they hold `expected` sessions or timeout passes; the last read.
    eUPF writes its maps before it answers; hupf's status re-reads the backend's tables every few seconds."""
    deadline = time.time() + timeout
    counts = read()
    while not table_check(counts, expected) and time.time() < deadline:
        time.sleep(0.5)
        counts = read()
    return counts


def peer_phase(upf, rows, phase, n, window, requests, expected, threads):
    """One timed phase on one UPF, then its tables: `expected(responses)` sessions must be there."""
    resp = timed(upf.cpu, upf.addr, rows, phase, len(requests), window, upf.smf.sock, requests,
                 upf.roots() if threads else None, upf.rpcs)
    row = rows[-1]
    causes = collections.Counter(cause_of(r) for r in resp)
    row["accepted"] = causes.pop(1, 0)
    if causes:
        row["refused_causes"] = dict(causes)
    row["tables_expected"] = want = expected(resp)
    row["tables"] = settle(upf.tables, want, 60 + n / 1000)
    row["tables_ok"] = table_check(row["tables"], want)
    return resp


# Warm-up rounds' first sequence number; each phase adds 2,000,000, each further round its session count.
WARMUP_SEQ = 7_000_000


def round_of_phases(upf, rows, first, n, seq0, window, threads, done):
    """Establishes n sessions (UEs first.., sequence numbers from seq0) on one UPF, modifies and deletes every
    accepted one, each phase timed and its tables checked; done(**extra) labels and prints each phase's row."""
    raw, seid_at, ue_at = template(upf.smf)
    reqs = [(seq0 + i, patch(raw, seid_at, ue_at, seq0 + i, first + i)) for i in range(n)]
    resp = peer_phase(upf, rows, "establish", n, window, reqs, lambda r: sum(1 for x in r if cause_of(x) == 1),
                      threads)
    seids = [up_seid_of(r) for r in resp if cause_of(r) == 1]
    done(chosen_teids=sum(1 for r in resp if uplink_teid(r) is not None))  # CHOOSE F-TEID answered
    peer_phase(upf, rows, "modify", n, window, modifications(upf.smf, seids, seq0 + 2_000_000), lambda r: len(seids),
               threads)
    done()
    dels = [(seq0 + 4_000_000 + i, deletion(s, seq0 + 4_000_000 + i)) for i, s in enumerate(seids)]
    peer_phase(upf, rows, "delete", n, window, dels, lambda r: 0, threads)
    done(**({"heartbeats_answered": upf.peer.heartbeats.answered} if isinstance(upf, EupfUpf) else {}))


def peer_round(kind, args, n, window, rnd):
    """On a fresh UPF: the cold round (args.warmup sessions, reported apart), args.warmup_rounds - 1 more warm-up
    rounds (the same phases, pauses and table checks as the measured round: the JIT recompiles what the pauses
    between bursts deoptimize, so back-to-back requests alone do not warm it; kept in the results, left out of
    the table), then the measured (steady) round of n sessions; the phases' rows, each printed as its phase ends
    (a round of 100k takes many minutes)."""
    upf = kind(args, n)
    rows = []
    stage = "cold"

    def done(**extra):
        rows[-1].update(upf=kind.name, round=rnd, sessions_asked=n, stage=stage, **extra)
        print(json.dumps(rows[-1]), flush=True)
    try:
        if args.warmup:
            round_of_phases(upf, rows, n, args.warmup, WARMUP_SEQ, window, True, done)
            stage = "warmup"
            for k in range(1, args.warmup_rounds):
                # Each round its own sequence numbers: the same ones again would be retransmissions, which a
                # UPF that detects them (TS 29.244 6.4) answers from its kept responses without doing anything.
                round_of_phases(upf, rows, n, args.warmup, WARMUP_SEQ + k * args.warmup, window, True, done)
        stage = "steady"
        round_of_phases(upf, rows, 0, n, 1000, window, True, done)
    finally:
        upf.stop()
    return rows


def machine():
    """Where and when: for the report, the load is what moves these figures most."""
    with open("/proc/cpuinfo") as f:
        model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), None)
    return {"utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
            "loadavg": ["%.2f" % x for x in os.getloadavg()], "cpus": os.cpu_count(), "model": model}


def peer_rounds(args):
    """--peer eupf: rounds of hupf and eUPF alternating (the order swapped every round), then the table."""
    notes = [] if args.eupf else [SKIPPED]  # printed once, with the table
    before = machine()
    rows = []
    plan = [(n, args.eupf is not None) for n in args.sessions] + [(n, False) for n in args.hupf_only_sessions]
    others = [other_hupf("hupf " + opts, opts=opts) for opts in args.variant_java_opts]
    if args.old_classpath or args.old_backend or args.old_runner_java_opts:
        others.append(other_hupf("hupf-old", args.old_classpath, args.old_backend, args.old_runner_java_opts,
                                 args.old_local_writes))
    for n, with_peer in plan:
        for rnd in range(1, args.rounds + 1):
            kinds = [HupfUpf, EupfUpf] if with_peer else [HupfUpf]
            kinds[1:1] = others
            for kind in (kinds if rnd % 2 else kinds[::-1]):
                rows += peer_round(kind, args, n, args.window[0], rnd)
    after = machine()
    run_info = {"command": " ".join(sys.argv), "start": before, "end": after, "window": args.window[0],
                "eupf": args.eupf, "eupf_logging_level": args.eupf_log_level if args.eupf else None,
                "warmup": args.warmup, "warmup_rounds": args.warmup_rounds}
    notes += ["%s, %s to %s UTC, load %s before, %s after; %d CPUs, %s; window %d; warm-up %d rounds of %d sessions "
              "(the first reported: cold)%s" % (
        run_info["command"], before["utc"], after["utc"], " ".join(before["loadavg"]), " ".join(after["loadavg"]),
        before["cpus"], before["model"], args.window[0], args.warmup_rounds, args.warmup,
        "; eUPF logging_level " + args.eupf_log_level if args.eupf else "")]
    notes += warmup_notes(rows) + ab_notes(rows)
    bad = mismatches(rows)
    for r in bad:
        notes.append("MISMATCH: %s round %d %s of %d: tables %s, expected %d" % (
            r["upf"], r["round"], r["phase"], r["sessions_asked"], r["tables"], r["tables_expected"]))
    table = markdown(compare(rows), notes)
    if args.threads:
        table += "\n" + threads_markdown(rows)
    print(table, flush=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)
    return {"benchmark": "control_plane_vs_eupf", "run": run_info, "results": rows,
            "compared": [{k: v for k, v in c.items() if k not in ("hupf", "eupf")} for c in compare(rows)],
            "mismatches": len(bad)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer", choices=["eupf"], help="rounds alternating hupf and eUPF (HUPF_EUPF=<binary>)")
    ap.add_argument("--sessions", type=int, nargs="+", help="default 10000; with --peer 10000 100000")
    ap.add_argument("--window", type=int, nargs="+", help="default 32 128; with --peer 32 (the first only)")
    ap.add_argument("--rounds", type=int, default=2, help="--peer: rounds per size")
    ap.add_argument("--hupf-only-sessions", type=int, nargs="*", default=[],
                    help="--peer: sizes run on hupf alone (eUPF's maps stop short of 1M)")
    ap.add_argument("--warmup", type=int, default=10000, metavar="N",
                    help="sessions established, modified and deleted untimed before the timed phases (0: none)")
    ap.add_argument("--warmup-rounds", type=int, default=1, metavar="K",
                    help="warm-up rounds of --warmup sessions on each UPF; with --peer the first is "
                         "reported (cold)")
    ap.add_argument("--threads", action="store_true",
                    help="each phase's CPU per request per thread name (always with --peer)")
    ap.add_argument("--eupf-log-level", default="info", help="--peer: eUPF's logging_level")
    ap.add_argument("--markdown", help="--peer: write the table here too")
    ap.add_argument("--out", default=os.path.join("reports", "control_plane_bench.json"))
    ap.add_argument("--backend-cpuprofile", help="write the backend agent's Go CPU profile here")
    ap.add_argument("--old-classpath", help="runner classpath of the build to compare with")
    ap.add_argument("--old-backend", help="hupf-backend binary of the build to compare with")
    ap.add_argument("--old-local-writes", action="store_true",
                    help="the other build's Writes over hupf-backend's local write channel too (off: over gRPC, as "
                         "a build without the channel must)")
    ap.add_argument("--grpc-writes", action="store_true",
                    help="without --peer: this build's Writes over gRPC too (an A/B of the gRPC Write path)")
    ap.add_argument("--runner-java-opts", default="", help="more JVM options for the runner (one string)")
    ap.add_argument("--old-runner-java-opts", default="",
                    help="the runner's JVM options for the other build (with --peer: an A/B of options alone)")
    ap.add_argument("--variant-java-opts", action="append", default=[], metavar="OPTS",
                    help="--peer: this build again with these runner JVM options (=-XX:..., repeatable)")
    ap.add_argument("--delete-limit", type=int, help="time the deletion of this many sessions only")
    ap.add_argument("--no-modify", action="store_true")
    ap.add_argument("--cpu-hog", type=int, default=0, metavar="N",
                    help="N CPU-bound processes beside the whole run (stress-ng --cpu N where installed)")
    args = ap.parse_args()
    args.sessions = args.sessions or ([10000, 100000] if args.peer else [10000])
    args.window = args.window or ([32] if args.peer else [32, 128])
    with cpu_hog(args.cpu_hog) as hog:
        report = bench(args)
        report["cpu_hog"] = hog
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    if report.get("mismatches"):
        sys.exit(1)


def bench(args):
    if args.peer:
        args.eupf = eupf_binary()
        # A SIGTERM unwinds through the rounds' finally blocks: eUPF's namespaces and the chain go with it.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        return peer_rounds(args)
    results = []
    for n in args.sessions:
        for window in args.window:
            results += run(args, n, window, "this")
            if args.old_classpath:
                results += run(args, n, window, "old", args.old_classpath, args.old_backend)
    return {"benchmark": "control_plane", "chain": "backend-only, hupf-backend sized for N, poll 500 ms",
            "results": results}


if __name__ == "__main__":
    main()
