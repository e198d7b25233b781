#!/usr/bin/env python3
"""Benchmark: what a kill -9 of the core costs, at N sessions held (docs/RELIABILITY.md, "Core restart").

The backend-only chain (tests/pfcp/backend_chain.py: a real hupf-backend sized for N, idle ports) with the lab
runner durable (state directory) under the lab's supervisor; N sessions established over PFCP, pipelined. Then,
each round: kill -9 of the runner, and from the kill
  restarted  the supervisor started a new runner
  pfcp       a Heartbeat Request is answered (same Recovery Time Stamp asserted)
  session    a Session Deletion sent as soon as PFCP answered is answered (it waits for the reconciliation)
  ready      the runner's status is back with every session, and the backend lists every session's entry
and, from the runner's own log (milliseconds since its JVM started): main entered, switch connected (hybrid only), state
loaded, session core built, PFCP answered, devices reconciled, with the reconciliation's writes (0 when the
backend kept everything); the backends are connected after PFCP answers, inside "reconciled".
Usage: .venv/bin/python tests/recovery/bench_restart.py [--sessions N ...] [--rounds R] [--out FILE]
"""
import argparse
import json
import os
import re
import signal
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pfcp"))

from backend_chain import Chain, cause_of, deletion, up_seid_of  # noqa: E402
from bench_control_plane import pipelined  # noqa: E402
from bench_pfcp import patch, template  # noqa: E402
from smf import P, Smf, cause, ie  # noqa: E402

WINDOW = 64
TIMEOUT_S = 600
STARTED = re.compile(r"(\d+) stored sessions, devices reconciled with (\d+) writes.*ms since the JVM started: "
                     r"main (\d+), switch (\d+), state (\d+), session core (\d+), PFCP answered (\d+), "
                     r"reconciled (\d+)")
PHASES = ("main", "switch", "state", "session_core", "pfcp", "reconciled")


def wait(what, cond, timeout=TIMEOUT_S, step=0.05):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(step)
    raise RuntimeError("timed out after %d s waiting for %s" % (timeout, what))


def supervisor(chain):
    try:
        with open(chain.supervisor_path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def backend_sessions(chain):
    return sum(1 for u in chain.status().get("targets", {}).get("backend", []) if not u.startswith("read"))


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
    assert ie(answer, P.IE_RecoveryTimeStamp).timestamp == recovery_ts, "a new Recovery Time Stamp"
    smf.sock.sendto(deletion(seid, 7_000_000 + held), chain.pfcp)
    smf.sock.settimeout(TIMEOUT_S)
    while True:
        data = smf.sock.recv(65535)
        if int.from_bytes(data[12:15], "big") == 7_000_000 + held:
            break
    row["session_s"] = round(time.time() - killed, 2)
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


def bench(n, rounds):
    chain = Chain(sessions=max(65536, n), mem_mb=max(1024, n // 64), java_opts=["-Xmx%dm" % max(1024, n // 80)],
                  durable=True)
    rows = []
    try:
        smf = Smf(chain.pfcp)
        resp = smf.request(smf.association_setup(), timeout=30)[0]
        assert cause(resp) == 1
        recovery_ts = ie(resp, P.IE_RecoveryTimeStamp).timestamp
        raw, seid_at, ue_at = template(smf)
        t0 = time.time()
        _, _, resp, lost = pipelined(smf.sock, chain.pfcp, [(1000 + i, patch(raw, seid_at, ue_at, 1000 + i, i))
                                                            for i in range(n)], WINDOW)
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


def spread(rows, key):
    v = [r[key] for r in rows]
    return [min(v), statistics.median(v), max(v)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, nargs="+", default=[10000, 100000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", help="write every round and the min/median/max per N here (JSON)")
    a = ap.parse_args()
    report = {}
    for n in a.sessions:
        rows = bench(n, a.rounds)
        report[n] = {"rounds": rows, "min_median_max": {k: spread(rows, k) for k in (
            "restarted_s", "pfcp_s", "session_s", "ready_s", "load_1m", *("jvm_%s_ms" % k for k in PHASES))}}
        print(json.dumps({"sessions": n, "min_median_max": report[n]["min_median_max"]}), flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
