"""The lab's supervisor (hupf_tools.lab.supervise): a child killed with -9 is started again and counted;
SIGTERM stops child and supervisor without a restart."""
import json
import os
import signal
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


# Guards against a hang, not times to meet: a busy machine starts a Python supervisor in seconds, not milliseconds.
GUARD_S = 120


def wait(cond, timeout=GUARD_S):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_killed_child_is_restarted_and_sigterm_stops_everything(tmp_path):
    state = str(tmp_path / "sup.json")
    sup = subprocess.Popen([sys.executable, "-m", "hupf_tools.lab.supervise", "--state", state, "--",
                            "sleep", "300"], env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools")),
                           stderr=subprocess.PIPE, text=True)
    try:
        first = wait(lambda: read(state).get("pid"))
        os.kill(first, signal.SIGKILL)
        second = wait(lambda: read(state).get("restarts") == 1 and read(state).get("pid"))
        assert second != first
        assert read(state)["last_exit"] == "signal 9"
        sup.send_signal(signal.SIGTERM)
        assert sup.wait(GUARD_S) == 0
        assert read(state)["pid"] is None and read(state)["restarts"] == 1, "stopped, not restarted"
        assert wait(lambda: not os.path.exists("/proc/%d" % second) or
                    open("/proc/%d/stat" % second).read().split()[2] == "Z")
        assert "restart 1" in sup.stderr.read()
    finally:
        if sup.poll() is None:
            sup.kill()


def test_without_command_it_says_so():
    res = subprocess.run([sys.executable, "-m", "hupf_tools.lab.supervise", "--state", "/dev/null"],
                         env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools")), capture_output=True, text=True)
    assert res.returncode == 2 and "no command to supervise" in res.stderr
