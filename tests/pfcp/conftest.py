"""Starts hupf's standalone host (PFCP agent + session core, in-memory device) for the SMF emulator.

Its REST API is the app's (the same JAX-RS resources ONOS serves under /onos/hupf, here at the root of the
control port) plus the host's /lab hooks.

Needs java and the built standalone module (see README.md). HUPF_CLASSPATH overrides the computed classpath.
"""
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest
from t4p4s_switch import HOME as T4P4S_HOME

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

# The runner with a T4P4S backend: `make test-t4p4s` names it (a file named on the command line is collected
# all the same), this suite leaves it out; without T4P4S it is deselected (tests/t4p4s prints the SKIPPED line).
T4P4S_CHAIN = "test_t4p4s_chain.py"
collect_ignore = [T4P4S_CHAIN]


def pytest_collection_modifyitems(config, items):
    left_out = [item for item in items if item.path.name == T4P4S_CHAIN] if T4P4S_HOME is None else []
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]

MAIN = "org.hupf.standalone.HupfStandalone"
CP_FILE = os.path.join(ROOT, "standalone", "target", "host-classpath.txt")


def _classpath():
    if os.environ.get("HUPF_CLASSPATH"):
        return os.environ["HUPF_CLASSPATH"]
    if not os.path.exists(CP_FILE):   # `make test-pfcp` builds it first (make host-classpath)
        if shutil.which("mvn") is None:
            pytest.skip("the standalone host is not built and mvn is missing: run `make host-classpath` first")
        subprocess.run(["make", "-s", "host-classpath"], cwd=ROOT, check=True)
    with open(CP_FILE) as f:
        return f.read().strip()


class Upf:
    def __init__(self, proc, pfcp_port, control_port, token, host="127.0.0.1"):
        self.proc = proc
        self.addr = (host, pfcp_port)
        self.control = "http://127.0.0.1:%d" % control_port
        self.token = token

    def get(self, path):
        with urllib.request.urlopen(self.control + path, timeout=10) as r:
            return json.loads(r.read())

    def pfcp_stats(self):
        """The PFCP agent's counters: the health resource's pfcp.* entries, without the prefix."""
        return {k[len("pfcp."):]: v for k, v in self.get("/health").items() if k.startswith("pfcp.")}

    def post(self, path):
        """A change through the REST API, with the host's token."""
        req = urllib.request.Request(self.control + path, data=b"", method="POST",
                                     headers={"Authorization": "Bearer " + self.token})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())


def start_upf(*extra, token=None, prefix=(), host="127.0.0.1"):
    """Starts the host; its REST API takes changes with `token` (a fresh random one by default; "" for a
    read-only API). prefix: a command the host runs under (e.g. `ip netns exec NS`); host: the address its
    PFCP agent listens on (`--listen` in extra)."""
    if shutil.which("java") is None:
        pytest.skip("java is missing: the PFCP tests need a JDK to run hupf's standalone host")
    token = secrets.token_hex(16) if token is None else token
    cmd = [*prefix, "java", "-cp", _classpath(), MAIN, "--port", "0", "--control-port", "0", "--control-token", token,
           "--allow", "127.0.0.1,smf.hupf.test@127.0.0.2", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("hupf standalone exited: " + proc.stderr.read())
        if line.startswith("hupf-standalone ready"):
            kv = dict(p.split("=") for p in line.split()[2:])
            return Upf(proc, int(kv["pfcp"]), int(kv["control"]), token, host)
    proc.kill()
    raise RuntimeError("hupf standalone did not start within 60 s")


def stop_upf(upf):
    upf.proc.terminate()
    try:
        upf.proc.wait(10)
    except subprocess.TimeoutExpired:
        upf.proc.kill()


@pytest.fixture(scope="module")
def upf():
    u = start_upf("--report-tick-ms", "200")
    yield u
    stop_upf(u)
