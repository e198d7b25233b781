#!/usr/bin/env python3
"""Benchmark (issue 32, "ONOS at the same standard"): tests/pfcp/bench_control_plane.py's pipelined PFCP client
and Session Establishment/Modification/Deletion messages against hupf inside ONOS 2.7 (its N4 agent; a real
hupf-backend, sized for N and on idle ports, programmed through ONOS's P4Runtime client), each round followed by
the standalone chain's run of the same N and window for the ratio ONOS / standalone.

Per phase: rate, p50/p99/max, lost, accepted, CPU ms per request of ONOS's process tree + the backend's, and the
backend's table entries read over P4Runtime right after the phase (every accepted session programmed before its
answer; none left after deletion), and its CPU ms per request by thread group of ONOS's JVM (hupf's threads by
name, gRPC, Atomix/Raft, GC, JIT compiler, other) and the backend's. --warmup-rounds K establishes, modifies and
deletes N other sessions K times before the measured phases, in ONOS and in the standalone chain (the steady
state: code compiled, maps grown). With the sessions held: ONOS's heap after a full GC, before and after, and
hupf's classes in it (GC.class_histogram, org.hupf.*).
Usage: .venv/bin/python tests/onos/bench_onos_cp.py [--sessions N ...] [--window W] [--rounds R]
       [--warmup-rounds K] [--no-standalone] [--jfr FILE] [--oar FILE] [--out FILE] [--markdown FILE]
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
# tests/pfcp first: its conftest is the `conftest` backend_chain imports; the ONOS suite's is loaded apart.
sys.path[:0] = [str(TESTS / "pfcp"), str(TESTS / "lib"), str(HERE), str(TESTS.parent / "tools")]
import bench_control_plane as cp  # noqa: E402
from backend_chain import cause_of, deletion, up_seid_of  # noqa: E402
from bench_pfcp import UE_POOL, patch, template  # noqa: E402
from onos_threads import ONOS_JAVA_OPTS, group_threads, groups_markdown  # noqa: E402
from peer_report import thread_breakdown, thread_cpu_seconds, tree_cpu_seconds as tree_cpu  # noqa: E402
from smf import Smf, cause  # noqa: E402

_spec = importlib.util.spec_from_file_location("onos_conftest", HERE / "conftest.py")
suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite)
onos_runtime = suite.onos_runtime
from test_onos import BackendTables  # noqa: E402
from p4.v1 import p4runtime_pb2  # noqa: E402

APP = "org.hupf.app"
SESSION_TABLES = ("uplink_sessions", "downlink_sessions")
READ_TIMEOUT_S = 600


def tree(pid):
    """pid and its descendants (those alive now)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path("/proc/%d/task" % p).glob("*/children"):
            try:
                todo += [int(c) for c in task.read_text().split()]
            except OSError:
                pass
    return out


def idle_cores(pid):
    """Share of a core a process tree used over bench_control_plane's IDLE_S with no PFCP traffic (polls)."""
    before = tree_cpu(pid)
    time.sleep(cp.IDLE_S)
    return round((tree_cpu(pid) - before) / cp.IDLE_S, 3)


def jvm_of(pid):
    """The java process under ONOS's start script."""
    for p in tree(pid):
        try:
            if Path("/proc/%d/comm" % p).read_text().strip() == "java":
                return p
        except OSError:
            pass
    return None


def jcmd(pid, *command, timeout=300):
    """Output of a jcmd diagnostic command (the JDK 17 jcmd on PATH attaches to ONOS's Java 11 JVM)."""
    res = subprocess.run([shutil.which("jcmd") or "jcmd", str(pid), *command], capture_output=True, text=True,
                         timeout=timeout)
    return res.stdout


def heap_after_gc(pid):
    """Heap used (bytes) after a full GC, the org.hupf.* share of the class histogram (shallow bytes,
    instances, top classes) and the whole histogram ({class: bytes})."""
    jcmd(pid, "GC.run")
    m = re.search(r"used (\d+)K", jcmd(pid, "GC.heap_info"))
    hupf = {"bytes": 0, "instances": 0, "top": []}
    total, classes = 0, {}
    for line in jcmd(pid, "GC.class_histogram").splitlines():
        f = line.split()
        if len(f) >= 4 and f[0].endswith(":") and f[1].isdigit():
            total += int(f[2])
            classes[f[3]] = int(f[2])
            if f[3].startswith("org.hupf."):
                hupf["bytes"] += int(f[2])
                hupf["instances"] += int(f[1])
                hupf["top"].append((f[3], int(f[2])))
    hupf["top"] = hupf["top"][:5]  # the histogram is sorted by bytes
    return {"heap_used_bytes": int(m.group(1)) * 1024 if m else None, "histogram_bytes": total, "hupf": hupf,
            "classes": classes}


def grown(before, after, most=8):
    """The classes whose shallow bytes grew most between two histograms: what the sessions hold, hupf's or not."""
    delta = {c: b - before["classes"].get(c, 0) for c, b in after["classes"].items()}
    return sorted(((c, d) for c, d in delta.items() if d > 0), key=lambda x: -x[1])[:most]


def table_counts(addr):
    """{table: entries} of the backend's non-default entries, read over P4Runtime from the backend itself."""
    tables = BackendTables(addr)
    try:
        names = {i: t.preamble.name.split(".")[-1] for i, t in tables.tables.items()}
        req = p4runtime_pb2.ReadRequest(device_id=1)
        req.entities.add().table_entry.table_id = 0
        counts = {}
        for resp in tables.stub.Read(req, timeout=READ_TIMEOUT_S):
            for e in resp.entities:
                name = names[e.table_entry.table_id]
                counts[name] = counts.get(name, 0) + 1
        return counts
    finally:
        tables.close()


class OnosChain:
    """A private ONOS with hupf's .oar and a real hupf-backend sized for n sessions on idle (pcap) ports."""

    def __init__(self, n, workdir, oar=None):
        self.dir = Path(workdir)
        self.onos = onos_runtime.Onos(self.dir, java_opts=ONOS_JAVA_OPTS)
        self.backend = None
        try:
            self.onos.start(suite.BOOT_TIMEOUT_S)
            self.onos.install_app(oar or suite._oar())
            empty = self.dir / "empty.pcap"  # nothing to receive: the data plane stays idle (see backend_chain)
            empty.write_bytes(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
            idle = ["pcap:rx_pcap=%s,tx_pcap=%s" % (empty, self.dir / ("tx%d.pcap" % p)) for p in (1, 2)]
            self.backend = suite.Backend(self.dir / "hupf-backend.log", port1=idle[0], more_ports={2: idle[1]},
                                         args=["--sessions", str(max(65536, n)), "--mem", str(max(1024, n // 64)),
                                               "--idle-sleep-us", "200"])
            cfg = suite.deployment_netcfg(self.backend.addr, suite.free_port(), reconcile_s=None)
            cfg["apps"][APP]["hupf"]["uePools"] = [str(UE_POOL)]  # the benchmark's UEs outgrow deployment.json's /16
            self.pfcp = ("127.0.0.1", suite.deploy(self.onos, self.backend, cfg)["pfcp_port"])
        except BaseException:
            self.stop()
            raise

    def cpu(self):
        return tree_cpu(self.onos.proc.pid) + tree_cpu(self.backend.proc.pid)

    def roots(self):
        return {"onos": self.onos.proc.pid, "backend": self.backend.proc.pid}

    def stop(self):
        if self.backend is not None:
            self.backend.stop()
        self.onos.stop()
        if os.environ.get("HUPF_KEEP_ONOS_LOGS"):
            self.onos.keep_logs(suite.REPORTS)
        self.onos.remove()


def phase(chain, out, name, n, window, sock, requests):
    """A pipelined phase as bench_control_plane times it, with CPU of ONOS + backend, by thread group too, and
    table counts after."""
    threads0 = thread_cpu_seconds(chain.roots())
    cpu0 = chain.cpu()
    elapsed, lat, resp, lost = cp.pipelined(sock, chain.pfcp, requests, window)
    out.append(cp.summary(name, n, window, elapsed, lat, lost))
    spent = chain.cpu() - cpu0
    out[-1]["cpu_ms_per_request"] = round(1000 * spent / max(1, len(requests)), 3)
    out[-1]["cores"] = round(spent / elapsed, 2)
    threads1 = thread_cpu_seconds(chain.roots())
    out[-1]["thread_groups"] = group_threads(threads0, threads1, spent, len(requests))
    out[-1]["threads"] = thread_breakdown(threads0, threads1, spent, len(requests), top=20)
    out[-1]["accepted"] = sum(1 for r in resp if cause_of(r) == 1)
    t0 = time.monotonic()
    out[-1]["tables"] = table_counts(chain.backend.addr)
    out[-1]["tables_read_s"] = round(time.monotonic() - t0, 1)
    return resp


def modify_and_delete(chain, out, smf, seids, window):
    mods = cp.modifications(smf, seids, 3_000_000)
    phase(chain, out, "modify", len(mods), window, smf.sock, mods)
    dels = [(5_000_000 + i, deletion(s, 5_000_000 + i)) for i, s in enumerate(seids)]
    phase(chain, out, "delete", len(dels), window, smf.sock, dels)


def run_onos(args, n, window):
    out = []
    with tempfile.TemporaryDirectory(prefix="hupf-onos-bench-") as d:
        t0 = time.monotonic()
        chain = OnosChain(n, d, args.oar)
        print("ONOS + hupf + backend ready in %.0f s" % (time.monotonic() - t0), flush=True)
        try:
            jvm = jvm_of(chain.onos.proc.pid)
            smf = Smf(chain.pfcp)
            assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == 1
            for _ in range(args.warmup_rounds):
                cp.warm_up(smf, chain.pfcp, n, n, window)  # UEs and SEIDs apart from the measured ones
            heap0 = heap_after_gc(jvm) if args.heap else None
            raw, seid_at, ue_at = template(smf)
            reqs = [(1000 + i, patch(raw, seid_at, ue_at, 1000 + i, i)) for i in range(n)]
            if args.jfr:
                jcmd(jvm, "JFR.start", "name=bench", "settings=profile", "filename=%s" % os.path.abspath(args.jfr))
            resp = phase(chain, out, "establish", n, window, smf.sock, reqs)
            if args.jfr:
                jcmd(jvm, "JFR.stop", "name=bench")
            seids = [up_seid_of(r) for r in resp if cause_of(r) == 1]
            held = {"phase": "held", "sessions": len(seids), "window": window, "idle_cpu_cores": {
                name: idle_cores(pid) for name, pid in (("onos", chain.onos.proc.pid),
                                                        ("backend", chain.backend.proc.pid))}}
            out.append(held)
            if args.heap:
                held.update(before=heap0, after=heap_after_gc(jvm))
                held["grown"] = grown(heap0, held["after"])
                for h in (heap0, held["after"]):
                    del h["classes"]
                if heap0["heap_used_bytes"] and held["after"]["heap_used_bytes"] and seids:
                    held["heap_bytes_per_session"] = round(
                        (held["after"]["heap_used_bytes"] - heap0["heap_used_bytes"]) / len(seids))
            if not args.establish_only:
                modify_and_delete(chain, out, smf, seids, window)
            smf.close()
        finally:
            chain.stop()
    for r in out:
        r["build"] = "onos"
        print(json.dumps(r), flush=True)
    return out


def run_standalone(n, window, establish_only, warmup_rounds):
    """bench_control_plane's own run() of the same N and window, its current chain (local writes), as many
    warm-up rounds of N as ONOS got (modifications on, every deletion timed; or establishment only: one
    deletion)."""
    return cp.run(argparse.Namespace(backend_cpuprofile=None, no_modify=establish_only,
                                     warmup=n if warmup_rounds else 0, warmup_rounds=warmup_rounds, threads=False,
                                     old_local_writes=True, old_runner_java_opts="",
                                     delete_limit=1 if establish_only else None),
                  n, window, "standalone")


def markdown(results):
    rows = ["| N | phase | chain | rate/s | p50 ms | p99 ms | max ms | lost | accepted | CPU ms/req | "
            "session entries after | ONOS ÷ standalone rate |", "|---" * 12 + "|"]
    rate = {(r["sessions_round"], r["phase"], r["build"]): r["per_second"] for r in results if "per_second" in r}
    for r in results:
        if "per_second" not in r:
            continue
        key = (r["sessions_round"], r["phase"])
        other = rate.get(key + ("standalone",))
        ratio = "%.2f" % (r["per_second"] / other) if r["build"] == "onos" and other else ""
        sess = "/".join(str(r["tables"].get(t, 0)) for t in SESSION_TABLES) if "tables" in r else ""
        rows.append("| %d | %s | %s | %.0f | %s | %s | %s | %d | %s | %s | %s | %s |" % (
            r["sessions_round"], r["phase"], r["build"], r["per_second"], r["p50_ms"], r["p99_ms"], r["max_ms"],
            r["lost"], r.get("accepted", ""), r["cpu_ms_per_request"], sess, ratio))
    rows.append("\n" + groups_markdown(results))
    for r in results:
        if r["phase"] == "held" and "idle_cpu_cores" in r:
            rows.append("\nIdle with N=%d held (%s): %s cores" % (r["sessions_round"], r["build"], ", ".join(
                "%s %s" % kv for kv in sorted(r["idle_cpu_cores"].items()))))
        if r["build"] == "onos" and r["phase"] == "held" and "after" in r:
            b, a = r["before"], r["after"]
            rows.append("\nONOS heap after a full GC, N=%d: %.0f MiB before the sessions, %.0f MiB with %d held "
                        "(%s B/session); org.hupf.* classes %.1f MiB shallow (%d objects), before %.1f MiB; top: %s"
                        % (r["sessions_round"], b["heap_used_bytes"] / 2**20, a["heap_used_bytes"] / 2**20,
                           r["sessions"], r.get("heap_bytes_per_session"), a["hupf"]["bytes"] / 2**20,
                           a["hupf"]["instances"], b["hupf"]["bytes"] / 2**20,
                           ", ".join("%s %.1f MiB" % (c.rsplit(".", 1)[-1], s / 2**20) for c, s in a["hupf"]["top"])))
            rows.append("\nGrown most with the sessions held (shallow): " + ", ".join(
                "%s %.1f MiB" % (c, d / 2**20) for c, d in r.get("grown", [])))
    return "\n".join(rows) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, nargs="+", default=[10000])
    ap.add_argument("--window", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=1, help="ONOS then standalone, this many times per N")
    ap.add_argument("--warmup-rounds", type=int, default=0, metavar="K",
                    help="establish, modify and delete N other sessions K times before the measured phases, "
                         "in ONOS and in the standalone chain")
    ap.add_argument("--no-standalone", action="store_true")
    ap.add_argument("--establish-only", action="store_true", help="bound a large N: no modification or deletion")
    ap.add_argument("--no-heap", dest="heap", action="store_false", help="skip the full GCs and histograms")
    ap.add_argument("--jfr", help="record ONOS's JVM (JFR, settings=profile) during establishment into this file")
    ap.add_argument("--oar", help="the hupf .oar to install (default: this tree's, built when older than a source)")
    ap.add_argument("--out", default=os.path.join("reports", "onos_control_plane_bench.json"))
    ap.add_argument("--markdown", help="also write the table here")
    args = ap.parse_args()
    why = onos_runtime.missing() or (None if suite.BACKEND.exists() else "hupf-backend (make backend)")
    if why:
        print("SKIPPED bench-onos: missing %s" % why)
        return
    results = []
    for n in args.sessions:
        for _ in range(args.rounds):
            chains = [run_onos(args, n, args.window)]
            if not args.no_standalone:
                chains.append(run_standalone(n, args.window, args.establish_only, args.warmup_rounds))
            for r in (r for c in chains for r in c):
                r["sessions_round"] = n
                results.append(r)
    load = os.getloadavg()
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "control_plane_onos", "load_average": load, "results": results}, f, indent=1)
    table = markdown(results)
    print(table)
    if args.markdown:
        Path(args.markdown).write_text("Load average at the end: %.1f %.1f %.1f\n\n" % load + table)


if __name__ == "__main__":
    main()
