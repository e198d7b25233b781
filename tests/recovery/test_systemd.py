"""The systemd units (tools/systemd/): systemd-analyze verifies them, the core's is a notify unit restarted
always and ordered after the backend's; the readiness the standalone host sends ($NOTIFY_SOCKET, READY=1) comes
when its PFCP agent answers, after a kill -9 with its stored sessions too."""
import array
import os
import shutil
import signal
import socket
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "pfcp"))

import smf as emulator  # noqa: E402
from conftest import MAIN, _classpath  # noqa: E402

UNITS = os.path.join(ROOT, "tools", "systemd")
CORE, BACKEND = "hupf-standalone.service", "hupf-backend.service"
READY_TIMEOUT_S = 120


def directives(unit):
    """A unit file's directives as {key: [values]} (a key may repeat)."""
    out = {}
    with open(os.path.join(UNITS, unit)) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith(("#", "[")):
                key, value = line.split("=", 1)
                out.setdefault(key, []).append(value)
    return out


def test_systemd_analyze_verifies_both_units(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("SKIPPED units: systemd-analyze missing")
    # verify checks that ExecStart's program exists: the backend's install path stands for the built binary.
    stub = tmp_path / "hupf-backend"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    for unit in (CORE, BACKEND):
        with open(os.path.join(UNITS, unit)) as f:
            text = f.read().replace("/usr/local/bin/hupf-backend", str(stub))
        (tmp_path / unit).write_text(text)
    res = subprocess.run(["systemd-analyze", "verify", str(tmp_path / CORE), str(tmp_path / BACKEND)],
                         capture_output=True, text=True)
    assert res.returncode == 0 and "hupf" not in res.stderr, res.stderr


def test_core_unit_is_notify_restarted_and_after_the_backend():
    core, backend = directives(CORE), directives(BACKEND)
    assert core["Type"] == ["notify"] and core["NotifyAccess"] == ["all"]
    assert core["Restart"] == ["always"] and backend["Restart"] == ["always"]
    for key in ("After", "Wants"):
        assert BACKEND in " ".join(core[key]).split(), key
    assert "BindsTo" not in core and "Requires" not in core, "a backend's restart must not stop the core"


class NotifySocket:
    """What systemd listens on: a datagram socket; systemd-notify's barrier is answered by closing its fd."""

    def __init__(self, path):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.settimeout(READY_TIMEOUT_S)

    def next_state(self):
        """The next message's assignments (READY, STATUS, ...), barrier messages answered and skipped."""
        while True:
            msg, anc, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(16))
            for level, kind, data in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds = array.array("i")
                    fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
                    for fd in fds:
                        os.close(fd)
            state = dict(line.split("=", 1) for line in msg.decode().splitlines() if "=" in line)
            if "BARRIER" not in state:
                return state

    def close(self):
        self.sock.close()


def start_host(state_dir, notify_path):
    cmd = ["java", "-cp", _classpath(), MAIN, "--port", "0", "--control-port", "0", "--allow", "127.0.0.1",
           "--state-dir", str(state_dir)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=dict(os.environ, NOTIFY_SOCKET=notify_path))


def pfcp_port(status):
    return int(status["STATUS"].split(",")[0].rsplit(":", 1)[1])


def test_ready_is_sent_when_pfcp_answers_also_after_a_kill9(tmp_path):
    if shutil.which("java") is None or shutil.which("systemd-notify") is None:
        pytest.skip("SKIPPED readiness: java or systemd-notify missing")
    notify = NotifySocket(str(tmp_path / "notify"))
    hosts = []
    try:
        hosts.append(start_host(tmp_path / "state", notify.path))
        first = notify.next_state()
        assert first["READY"] == "1" and first["STATUS"].endswith(" 0 sessions"), first
        smf = emulator.Smf(("127.0.0.1", pfcp_port(first)))
        resp, _ = smf.request(smf.association_setup(), timeout=30)
        assert emulator.cause(resp) == 1, "READY=1 came before the PFCP agent answered"
        resp, _ = smf.request(smf.establishment(1, "10.250.0.1"), timeout=30)
        assert emulator.cause(resp) == 1
        up_seid = emulator.ie(resp, emulator.P.IE_FSEID).seid
        hosts[0].send_signal(signal.SIGKILL)
        hosts[0].wait()
        hosts.append(start_host(tmp_path / "state", notify.path))
        again = notify.next_state()
        assert again["READY"] == "1" and again["STATUS"].endswith(" 1 sessions"), again
        smf.upf = ("127.0.0.1", pfcp_port(again))
        resp, _ = smf.request(smf.deletion(up_seid), timeout=30)
        assert emulator.cause(resp) == 1, "the restarted host's READY=1 came before it served its stored session"
        smf.close()
    finally:
        for h in hosts:
            if h.poll() is None:
                h.kill()
                h.wait()
        notify.close()
