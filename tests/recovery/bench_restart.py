#!/usr/bin/env python3
"""Benchmark: what a kill -9 of the core costs, at N sessions held (docs/RELIABILITY.md, "Core restart").

The backend-only chain (tests/pfcp/backend_chain.py: a real hupf-backend sized for N, idle ports) with the lab
runner durable (state directory) under the lab's supervisor, its heap --heap-mb (default N / 80 MB); N sessions
established over PFCP, pipelined (one unanswered within 30 s sent again, as an SMF retransmits). Then,
each round: kill -9 of the runner, and from the kill
  restarted  the supervisor started a new runner
  pfcp       a Heartbeat Request is answered (same Recovery Time Stamp asserted)
  session    a Session Deletion sent as soon as PFCP answered is answered (it waits for the reconciliation)
  ready      the runner's status is back with every session, and the backend lists every session's entry
with the CPU seconds the new runner had used when PFCP and the session request were answered (the restart's
cost apart from the machine's load),
and, from the runner's own log (milliseconds since its JVM started): main entered, switch connected (hybrid only), state
loaded, session core built, PFCP answered, devices reconciled, with the reconciliation's writes (0 when the
backend kept everything); the backends are connected after PFCP answers, inside "reconciled".
--host standalone: the same kill -9 of HupfStandalone (in-memory device, so no reconciliation) with a state
directory, restarted by hand: the JVM, state and session-core part of a restart at N, where N is beyond what the
backend chain establishes in a bench's time. --ab FILE (standalone): the rounds alternate between this tree's host
(A) and the one on the classpath in FILE (B), on the same state: a same-run A/B of two builds. A restarted host runs
with the JVM options its systemd unit gives it (standalone/jvm.options; B: --b-jvm-options FILE, by default the same
file: an A/B of the JVM options alone is --ab with A's classpath and B's options). Each standalone round
also gives the new host's CPU seconds per thread group (the JIT's compilers, the collector, ...) when PFCP and the
deletion were answered; --jfr DIR records each restarted host with JFR (settings=profile), dumped to
DIR/round-R.jfr once its deletion is answered (the first host, which establishes, is not recorded).
Usage: .venv/bin/python tests/recovery/bench_restart.py [--sessions N ...] [--rounds R] [--host H] [--ab FILE]
       [--b-jvm-options FILE] [--jfr DIR] [--heap-mb MB] [--out FILE]
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# What pytest.ini's pythonpath gives the suites (tests/lib, tools), then the chain's helpers.
for path in (os.path.join(HERE, "..", "..", "tools"), os.path.join(HERE, "..", "lib"), os.path.join(HERE, "..", "pfcp")):
    sys.path.insert(0, path)

from backend_chain import Chain, cause_of, deletion, up_seid_of  # noqa: E402
from conftest import MAIN, _classpath, start_upf, stop_upf  # noqa: E402
from bench_control_plane import pipelined  # noqa: E402
from bench_pfcp import patch, template  # noqa: E402
from smf import P, Smf, cause, ie  # noqa: E402

WINDOW = 64
JVM_OPTIONS = os.path.join(HERE, "..", "..", "standalone", "jvm.options")
TIMEOUT_S = 600
STARTED = re.compile(r"(\d+) stored sessions, devices reconciled with (\d+) writes.*ms since the JVM started: "
                     r"main (\d+), switch (\d+), state (\d+), session core (\d+), PFCP answered (\d+), "
                     r"reconciled (\d+)")
PHASES = ("main", "switch", "state", "session_core", "pfcp", "reconciled")
STANDALONE_STARTED = re.compile(r"ms since the JVM started: main (\d+), state (\d+), session core (\d+), "
                                r"PFCP answered (\d+), control API (\d+)")
STANDALONE_PHASES = ("main", "state", "session_core", "pfcp", "control")


def wait(what, cond, timeout=TIMEOUT_S, step=0.05):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(step)
    raise RuntimeError("timed out after %d s waiting for %s" % (timeout, what))


def establish(sock, addr, n, raw, seid_at, ue_at):
    """N establishments pipelined (WINDOW in flight), as an SMF sends them: a request unanswered within the
    pipeline's stall time is sent again, same bytes and sequence number (TS 29.244 §6.4: the UP function answers a
    retransmission with its first answer), up to three times. Returns the answers and how many went unanswered."""
    requests = [(1000 + i, patch(raw, seid_at, ue_at, 1000 + i, i)) for i in range(n)]
    answers = {}
    for _ in range(4):
        _, _, resp, _ = pipelined(sock, addr, [r for r in requests if r[0] not in answers], WINDOW)
        answers.update((int.from_bytes(r[12:15], "big"), r) for r in resp)
        if len(answers) == n:
            break
    return list(answers.values()), n - len(answers)


def supervisor(chain):
    try:
        with open(chain.supervisor_path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def backend_sessions(chain):
    return sum(1 for u in chain.status().get("targets", {}).get("backend", []) if not u.startswith("read"))


def cpu_s(pid, tid=None):
    """CPU seconds (user + system) a process (or one of its threads) has used: what its restart costs apart from the
    machine's load."""
    with open("/proc/%d/stat" % pid if tid is None else "/proc/%d/task/%s/stat" % (pid, tid)) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)


def thread_group(name):
    """A JVM thread's group from its name (/proc truncates names to 15 characters)."""
    for prefix, group in (("C1 Compiler", "jit_c1"), ("C2 Compiler", "jit_c2"), ("GC Thread", "gc"), ("G1 ", "gc"),
                          ("VM Thread", "vm"), ("hupf-track-sto", "tracking"), ("java", "main")):
        if name.startswith(prefix):
            return group
    return "other"


def cpu_by_thread_group(pid):
    """CPU seconds a process's threads have used, summed by thread_group; what threads that ended used is "ended"."""
    groups = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                group = thread_group(f.read().strip())
            groups[group] = round(groups.get(group, 0) + cpu_s(pid, tid), 2)
        except OSError:
            continue
    groups["ended"] = round(cpu_s(pid) - sum(groups.values()), 2)
    return groups


def heartbeat(smf):
    try:
        return smf.request(smf.heartbeat(), timeout=0.2)[0]
    except AssertionError:
        return None


def starts(chain):
    with open(chain.logs["runner"]) as f:
        return [m.groups() for m in map(STARTED.search, f) if m]


def kill_round(chain, smf, recovery_ts, seid, held):
    """One kill -9 of the runner; returns the round's times (s from the kill) and the runner's own phases."""
    before = supervisor(chain)
    runs = len(starts(chain))
    load = os.getloadavg()[0]
    killed = time.time()
    os.kill(before["pid"], signal.SIGKILL)
    row = {"sessions": held, "load_1m": round(load, 1)}
    wait("the restart", lambda: supervisor(chain).get("restarts") == before["restarts"] + 1
         and supervisor(chain).get("pid"))
    row["restarted_s"] = round(time.time() - killed, 2)
    os.remove(chain.status_path)  # the dead runner's; the new one writes its own
    answer = wait("a heartbeat answered", lambda: heartbeat(smf), step=0)
    row["pfcp_s"] = round(time.time() - killed, 2)
    row["pfcp_cpu_s"] = cpu_s(supervisor(chain)["pid"])
    assert ie(answer, P.IE_RecoveryTimeStamp).timestamp == recovery_ts, "a new Recovery Time Stamp"
    smf.sock.sendto(deletion(seid, 7_000_000 + held), chain.pfcp)
    smf.sock.settimeout(TIMEOUT_S)
    while True:
        data = smf.sock.recv(65535)
        if int.from_bytes(data[12:15], "big") == 7_000_000 + held:
            break
    row["session_s"] = round(time.time() - killed, 2)
    row["session_cpu_s"] = cpu_s(supervisor(chain)["pid"])
    assert cause_of(data) == 1, "the deletion was refused: cause %s" % cause_of(data)
    wait("the status with every session", lambda: chain.status().get("ready")
         and chain.status().get("pfcp_sessions") == held - 1)
    wait("every session in the backend", lambda: backend_sessions(chain) == held - 1)
    row["ready_s"] = round(time.time() - killed, 2)
    stored, writes, *phases = map(int, wait("the runner's start line", lambda: starts(chain)[runs:])[0])
    assert stored == held and writes == 0, "the restart found %d sessions and wrote %d" % (stored, writes)
    row.update(stored=stored, writes=writes, load_1m_after=round(os.getloadavg()[0], 1))
    row.update(("jvm_%s_ms" % k, v) for k, v in zip(PHASES, phases))
    return row


def bench(n, rounds, heap_mb=None):
    chain = Chain(sessions=max(65536, n), mem_mb=max(1024, n // 64),
                  java_opts=["-Xmx%dm" % (heap_mb or max(1024, n // 80))], durable=True)
    rows = []
    try:
        smf = Smf(chain.pfcp)
        resp = smf.request(smf.association_setup(), timeout=30)[0]
        assert cause(resp) == 1
        recovery_ts = ie(resp, P.IE_RecoveryTimeStamp).timestamp
        raw, seid_at, ue_at = template(smf)
        t0 = time.time()
        resp, lost = establish(smf.sock, chain.pfcp, n, raw, seid_at, ue_at)
        seids = [up_seid_of(r) for r in resp if cause_of(r) == 1]
        assert len(seids) == n and not lost, "%d of %d established, %d lost" % (len(seids), n, lost)
        wait("%d sessions in the backend" % n, lambda: chain.status().get("pfcp_sessions") == n
             and backend_sessions(chain) == n)
        print(json.dumps({"sessions": n, "established_s": round(time.time() - t0, 1)}), flush=True)
        for r in range(rounds):
            rows.append(kill_round(chain, smf, recovery_ts, seids[r], n - r))
            print(json.dumps(rows[-1]), flush=True)
        smf.close()
    finally:
        chain.stop()
    return rows


def restart_upf(old, host, classpath, jvm_options, jfr=None):
    """The host started again on its state (conftest's start_upf, without its 60 s bound: at 100,000 sessions on a
    loaded machine the start takes longer), same PFCP and control ports, with the JVM options in the file
    jvm_options (as its systemd unit starts it); recorded by JFR when jfr is set. Returns at once: the caller asks
    PFCP from now on (the host answers it before its ready line, which waits for the control API too), then reads
    the start with started_upf."""
    recording = ["-XX:StartFlightRecording=settings=profile,name=restart", "-Xlog:jfr+startup=off"] if jfr else []
    cmd = ["java", "@" + jvm_options, *recording, "-cp", classpath, MAIN, "--port", str(old.addr[1]), "--control-port",
           old.control.rsplit(":", 1)[1], "--control-token", old.token, "--allow", "127.0.0.1", *host]
    stderr = tempfile.TemporaryFile("w+")
    old.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=stderr, text=True)
    old.proc.stderr_file = stderr
    return old


def started_upf(upf):
    """The restarted host's ready line and start phases (ms since its JVM started); fails with its exit status and
    stderr if it did not start."""
    proc, stderr = upf.proc, upf.proc.stderr_file
    line = proc.stdout.readline()
    if not line.startswith("hupf-standalone ready"):
        proc.wait()
        stderr.seek(0)
        raise AssertionError("the host did not start (exit %s): %r; its stderr ends: %s"
                             % (proc.returncode, line, stderr.read()[-3000:]))
    stderr.close()
    phases = STANDALONE_STARTED.search(proc.stdout.readline())
    assert phases, "the host did not log its start phases"
    return dict(("jvm_%s_ms" % k, int(v)) for k, v in zip(STANDALONE_PHASES, phases.groups()))


def answered_heartbeat(smf, upf):
    """A heartbeat's answer, or None; a host that exited fails here with what started_upf reads."""
    if upf.proc.poll() is not None:
        started_upf(upf)
    return heartbeat(smf)


def standalone_bench(n, rounds, builds, jfr=None):
    """The standalone host (in-memory device: no backend to reconcile) with a state directory: N sessions, then per
    round kill -9 and a new host on the same state; from the kill, the heartbeat answered and the first session
    request answered: JVM start, state load and session core at N without the devices. Round r runs
    builds[r % len(builds)] ((name, classpath, JVM options file))."""
    state = tempfile.mkdtemp(prefix="hupf-restart-")
    host = ["--state-dir", state, "--ue-pool", "10.248.0.0/13", "--capacity", str(4 * n)]
    upf = start_upf(*host)
    rows = []
    completed = False
    try:
        smf = Smf(upf.addr)
        resp = smf.request(smf.association_setup(), timeout=30)[0]
        recovery_ts = ie(resp, P.IE_RecoveryTimeStamp).timestamp
        raw, seid_at, ue_at = template(smf)
        t0 = time.time()
        resp, lost = establish(smf.sock, upf.addr, n, raw, seid_at, ue_at)
        seids = [up_seid_of(r) for r in resp if cause_of(r) == 1]
        refused = sorted({cause_of(r) for r in resp if cause_of(r) != 1})
        assert len(seids) == n and not lost, "%d of %d established (refused: %s), %d lost" % (len(seids), n, refused,
                                                                                             lost)
        print(json.dumps({"host": "standalone", "sessions": n, "established_s": round(time.time() - t0, 1)}),
              flush=True)
        for r in range(rounds):
            build, classpath, jvm_options = builds[r % len(builds)]
            row = {"host": "standalone", "build": build, "sessions": n - r, "load_1m": round(os.getloadavg()[0], 1)}
            killed = time.time()
            upf.proc.kill()
            upf.proc.wait()
            upf = restart_upf(upf, host, classpath, jvm_options, jfr)
            smf.upf = upf.addr
            answer = wait("a heartbeat answered", lambda: answered_heartbeat(smf, upf), step=0)
            row["pfcp_s"] = round(time.time() - killed, 2)
            row["pfcp_cpu_s"] = cpu_s(upf.proc.pid)
            row["pfcp_cpu_by_thread"] = cpu_by_thread_group(upf.proc.pid)
            row.update(started_upf(upf))
            assert ie(answer, P.IE_RecoveryTimeStamp).timestamp == recovery_ts, "a new Recovery Time Stamp"
            resp = smf.request(smf.deletion(seids[r]), timeout=TIMEOUT_S)[0]
            assert cause(resp) == 1
            row["session_s"] = round(time.time() - killed, 2)
            row["session_cpu_s"] = cpu_s(upf.proc.pid)
            row["session_cpu_by_thread"] = cpu_by_thread_group(upf.proc.pid)
            if jfr:
                subprocess.run(["jcmd", str(upf.proc.pid), "JFR.dump", "name=restart",
                                "filename=%s" % os.path.join(os.path.abspath(jfr), "round-%d.jfr" % r)],
                               check=True, stdout=subprocess.DEVNULL)
            assert upf.get("/health")["sessions"] == n - r - 1
            rows.append(row)
            print(json.dumps(row), flush=True)
        smf.close()
        completed = True
    finally:
        stop_upf(upf)
        if completed:
            shutil.rmtree(state, ignore_errors=True)
        else:
            # A state that would not reopen is the evidence: a rerun cannot be relied on to make another.
            print("bench_restart: the state is kept for inspection in %s" % state, file=sys.stderr)
    return rows


def spread(rows, key):
    v = [r[key] for r in rows]
    return [min(v), statistics.median(v), max(v)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, nargs="+", default=[10000, 100000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--host", choices=("chain", "standalone"), default="chain",
                    help="chain: the runner and a real backend (default); standalone: HupfStandalone, no devices")
    ap.add_argument("--ab", metavar="FILE", help="standalone: alternate rounds with the host on the classpath in FILE")
    ap.add_argument("--b-jvm-options", metavar="FILE", default=JVM_OPTIONS,
                    help="with --ab: B's JVM options (default: standalone/jvm.options, as A's)")
    ap.add_argument("--jfr", metavar="DIR", help="standalone: record each restarted host with JFR into DIR")
    ap.add_argument("--heap-mb", type=int, help="chain: the runner's heap (-Xmx; default N / 80 MB, at least 1,024)")
    ap.add_argument("--out", help="write every round and the min/median/max per N here (JSON)")
    a = ap.parse_args()
    builds = [("A", _classpath(), JVM_OPTIONS)]
    if a.ab:
        with open(a.ab) as f:
            builds.append(("B", f.read().strip(), a.b_jvm_options))
    report = {}
    keys = ("pfcp_s", "pfcp_cpu_s", "session_s", "session_cpu_s", "load_1m",
            *("jvm_%s_ms" % k for k in STANDALONE_PHASES)) if a.host == "standalone" else (
        "restarted_s", "pfcp_s", "pfcp_cpu_s", "session_s", "session_cpu_s", "ready_s", "load_1m",
        *("jvm_%s_ms" % k for k in PHASES))
    for n in a.sessions:
        rows = standalone_bench(n, a.rounds, builds, a.jfr) if a.host == "standalone" else bench(n, a.rounds, a.heap_mb)
        report[n] = {"rounds": rows}
        for build, _, _ in builds:
            mine = [r for r in rows if r.get("build", build) == build]
            spreads = {k: spread(mine, k) for k in keys}
            report[n]["min_median_max" + ("" if len(builds) == 1 else "_" + build)] = spreads
            print(json.dumps({"sessions": n, "build": build, "min_median_max": spreads}), flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
