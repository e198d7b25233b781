"""A small process supervisor for the lab (its backends and its runner): runs a command and starts it again
whenever it exits.

    python -m hupf_tools.lab.supervise --state FILE -- COMMAND...

A child that dies (crash, kill -9) is restarted after a backoff that starts at 0.2 s and doubles to 5 s,
and goes back to 0.2 s once a child has run for 10 s. FILE (JSON, replaced atomically) says the current
child's pid, how many restarts there were and how the last child ended, for the lab and its tests.
SIGTERM or SIGINT stops the child (SIGTERM, then SIGKILL after 5 s) and the supervisor. Deployments use
systemd instead (tools/systemd/: hupf-backend.service and hupf-standalone.service, Restart=always).
"""
import argparse
import signal
import subprocess
import sys
import time

from hupf_tools.lab.traffic import write_json

FIRST_BACKOFF_S = 0.2
MAX_BACKOFF_S = 5.0
STABLE_S = 10.0
STOP_GRACE_S = 5.0


def how_it_ended(rc):
    return "signal %d" % -rc if rc < 0 else "exit %d" % rc


def supervise(cmd, state_path, log=sys.stderr):
    stopping = []
    child = [None]

    def stop(signum, _frame):
        stopping.append(signum)
        if child[0] is not None and child[0].poll() is None:
            child[0].terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    state = {"pid": None, "restarts": 0, "last_exit": None, "started": None}
    backoff = FIRST_BACKOFF_S
    while not stopping:
        started = time.time()
        child[0] = subprocess.Popen(cmd)
        state.update(pid=child[0].pid, started=started)
        write_json(state_path, state)
        while True:
            try:
                rc = child[0].wait(timeout=STOP_GRACE_S if stopping else None)
                break
            except subprocess.TimeoutExpired:
                child[0].kill()
        if stopping:
            break
        ran = time.time() - started
        backoff = FIRST_BACKOFF_S if ran >= STABLE_S else backoff
        state.update(pid=None, last_exit=how_it_ended(rc), restarts=state["restarts"] + 1)
        write_json(state_path, state)
        print("supervise: %s ended (%s) after %.1f s; restart %d in %.1f s" % (cmd[0], how_it_ended(rc), ran,
                                                                                state["restarts"], backoff),
              file=log, flush=True)
        deadline = time.time() + backoff
        while not stopping and time.time() < deadline:
            time.sleep(0.05)
        backoff = min(MAX_BACKOFF_S, backoff * 2)
    state.update(pid=None)
    write_json(state_path, state)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--state", required=True, help="JSON file with the child's pid and the restart count")
    p.add_argument("cmd", nargs=argparse.REMAINDER, help="-- COMMAND...")
    a = p.parse_args(argv)
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        p.error("no command to supervise")
    return supervise(cmd, a.state)


if __name__ == "__main__":
    sys.exit(main())
