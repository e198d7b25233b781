"""What the backend-only chain costs while it holds sessions and nothing happens (issue #32's "at 1M sessions
held" targets): establishes N sessions (pipelined), waits for the store to hold them, then measures idle
windows with no PFCP traffic: each process's CPU by thread name (cores), the lab runner's last counter poll
(ms), its heap after a full GC. One JSON line per size; --old-classpath/--old-backend run an older build too.

  .venv/bin/python tests/pfcp/bench_idle.py --sessions 10000 100000 [--windows 3 --window-s 10]
"""
import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from backend_chain import Chain, cause_of  # noqa: E402
from bench_control_plane import pipelined  # noqa: E402
from bench_pfcp import patch, template  # noqa: E402
from smf import Smf, cause  # noqa: E402


def thread_cpu(pid):
    """CPU seconds by thread name of a process."""
    out = collections.Counter()
    tick = os.sysconf("SC_CLK_TCK")
    for t in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, t)) as f:
                st = f.read()
            with open("/proc/%d/task/%s/comm" % (pid, t)) as f:
                name = f.read().strip()
        except OSError:
            continue
        fields = st[st.rindex(")") + 2:].split()
        out[re.sub(r"\d+$", "N", name)] += (int(fields[11]) + int(fields[12])) / tick
    return out


def heap_mib(pid):
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=300)
    out = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=60).stdout
    m = re.search(r"used (\d+)K", out)
    return round(int(m.group(1)) / 1024, 1) if m else None


def histogram(pid, top):
    """The runner's largest classes after a full GC: [instances, bytes, class] each."""
    out = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True, timeout=300).stdout
    rows = re.findall(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", out, re.M)
    return [[int(n), int(b), c] for n, b, c in rows[:top]]


def spread(values):
    return [round(min(values), 3), round(statistics.median(values), 3), round(max(values), 3)]


def run(n, args, classpath=None, backend=None, label="this"):
    chain = Chain(sessions=max(65536, n), mem_mb=max(1024, 1024 + n // 700), classpath=classpath, backend=backend,
                  java_opts=["-Xmx%dm" % max(1024, n // 120)], backend_args=args.backend_args,
                  local_writes=label == "this")  # an older build may have no local write channel
    try:
        smf = Smf(chain.pfcp)
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == 1
        heap0 = heap_mib(chain.runner.pid)
        raw, seid_at, ue_at = template(smf)
        accepted, at = 0, 0
        t0 = time.time()
        while at < n:   # in chunks: a million requests at once would hold every message in memory
            reqs = [(1000 + i, patch(raw, seid_at, ue_at, 1000 + i, i)) for i in range(at, min(n, at + 100_000))]
            _, _, resp, _ = pipelined(smf.sock, chain.pfcp, reqs, 32)
            accepted += sum(1 for r in resp if cause_of(r) == 1)
            at += len(reqs)
        established_s = time.time() - t0
        held = chain.wait_sessions(accepted, 600)
        time.sleep(args.settle_s)
        pids = {"runner": chain.runner.pid, "backend": chain.backend.pid}
        windows = []
        for _ in range(args.windows):
            before = {k: thread_cpu(p) for k, p in pids.items()}
            time.sleep(args.window_s)
            after = {k: thread_cpu(p) for k, p in pids.items()}
            windows.append({k: {t: (after[k][t] - before[k].get(t, 0)) / args.window_s for t in after[k]}
                            for k in pids})
        polls = []
        for _ in range(5):
            polls.append(chain.status().get("last_poll_ms"))
            time.sleep(1)
        row = {"build": label, "sessions": held, "accepted": accepted, "establish_s": round(established_s, 1),
               "window_s": args.window_s, "load": os.getloadavg()[0],
               "idle_cores": {k: spread([sum(w[k].values()) for w in windows]) for k in pids},
               "idle_cores_total": spread([sum(sum(w[k].values()) for k in pids) for w in windows]),
               "threads": {k: {t: round(statistics.median(w[k].get(t, 0) for w in windows), 3)
                               for t in sorted(windows[-1][k], key=lambda t: -windows[-1][k][t])[:8]}
                           for k in pids},
               "poll_ms": spread([p for p in polls if p is not None] or [-1])}
        heap = heap_mib(chain.runner.pid)
        row["heap_mib"] = heap
        if args.histogram:
            row["histogram"] = histogram(chain.runner.pid, args.histogram)
        if heap is not None and heap0 is not None and held:
            row["heap_bytes_per_session"] = round((heap - heap0) * 1048576 / held)
        smf.close()
        print(json.dumps(row), flush=True)
        return row
    finally:
        chain.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, nargs="+", default=[10000])
    ap.add_argument("--windows", type=int, default=3, help="idle windows measured")
    ap.add_argument("--window-s", type=float, default=10.0)
    ap.add_argument("--settle-s", type=float, default=5.0, help="wait after the sessions are held")
    ap.add_argument("--backend-args", nargs="*", default=[], help="extra hupf-backend arguments")
    ap.add_argument("--old-classpath", help="runner classpath of the build to compare with")
    ap.add_argument("--old-backend", help="hupf-backend binary of the build to compare with")
    ap.add_argument("--histogram", type=int, default=0, metavar="N",
                    help="add the runner's N largest classes after the full GC (GC.class_histogram)")
    ap.add_argument("--out", help="append the rows to this JSON-lines file")
    args = ap.parse_args()
    rows = []
    for n in args.sessions:
        if args.old_classpath or args.old_backend:
            rows.append(run(n, args, args.old_classpath, args.old_backend, "old"))
        rows.append(run(n, args))
    if args.out:
        with open(args.out, "a") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
