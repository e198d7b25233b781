"""The lab's processes: started with their logs in the run's directory (the backends and the runner under the
lab's supervisor, which starts them again when they die), waited for until ready, stopped in reverse order; and
the runner's status file read back.
"""
import json
import os
import signal
import subprocess
import sys
import time

from hupf_tools import p4tools
from hupf_tools.lab import bmv2_log

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
BACKEND = os.path.join(REPO, "backend", "build", "hupf-backend")
RUNNER_MAIN = "org.hupf.standalone.lab.LabRunner"
# The standalone host's JVM options (garbage collector, compiler), as systemd's unit and the benchmarks use them.
RUNNER_JVM_OPTIONS = os.path.join(REPO, "standalone", "jvm.options")
CPU_PORT = 255
READY_TIMEOUT_S = 90
COUNTED_TIMEOUT_S = 60


class LabError(RuntimeError):
    pass


def say(msg):
    print("lab: " + msg, flush=True)


def bmv2_binary():
    return p4tools.bmv2()


class Procs:
    """Child processes, stopped in reverse start order."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.procs = []

    def start(self, name, cmd, netns=None):
        if netns:
            cmd = ["ip", "netns", "exec", netns] + cmd
        log = open(os.path.join(self.workdir, name + ".log"), "w")
        env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "tools"))
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.procs.append((name, p, log))
        return p

    def forget(self, name):
        """Drops an exited process from those checked and stopped (its log file is closed)."""
        for entry in [e for e in self.procs if e[0] == name and e[1].poll() is not None]:
            entry[2].close()
            self.procs.remove(entry)

    def check_alive(self):
        for name, p, _ in self.procs:
            if p.poll() is not None and name not in ("send-gnb", "send-dn"):
                raise LabError("%s exited with status %s; log: %s" % (name, p.returncode, self.log_tail(name)))

    def log_tail(self, name, lines=15):
        path = os.path.join(self.workdir, name + ".log")
        try:
            with open(path) as f:
                return path + "\n" + "".join(f.readlines()[-lines:])
        except OSError:
            return path

    def stop(self, name=None, timeout=5):
        for n, p, log in reversed(self.procs):
            if name and n != name:
                continue
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
            log.close()
        self.procs = [x for x in self.procs if name and x[0] != name]


def local_writes(workdir, name):
    """The Unix socket of backend name's local write channel: its --local-writes and the runner's local_writes."""
    return os.path.join(workdir, name + ".sock")


def supervised(cmd, state_path):
    """The command under the lab's supervisor (hupf_tools.lab.supervise): restarted whenever it dies."""
    return [sys.executable, "-m", "hupf_tools.lab.supervise", "--state", state_path, "--"] + cmd


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default if default is not None else {}


def switch_command(switch, ports, topology, workdir=None):
    """The switch's command line: bmv2 (its log in workdir, for its drops) or hupf-backend in the hw profile, on
    the switch's ports."""
    if switch == "bmv2":
        cmd = [bmv2_binary(), "--device-id", "1", "--no-p4"] + bmv2_log.fresh_log_args(
            os.path.join(workdir, bmv2_log.LAB_BASE))
        for p, ifname in sorted(topology.switch_ports.items()):
            cmd += ["-i", "%d@%s" % (p, ifname)]
        return cmd + ["--", "--grpc-server-addr", "127.0.0.1:%d" % ports["switch"], "--cpu-port", str(CPU_PORT)]
    cmd = [BACKEND, "--profile", "hw", "--grpc-addr", "127.0.0.1:%d" % ports["switch"], "--device-id", "1",
           "--cpu-port", str(CPU_PORT), "--mem", "512"]
    for p, ifname in sorted(topology.switch_ports.items()):
        cmd += ["--port", "%d=%s" % (p, ifname)]
    return cmd


SWITCH_SERVING = '"msg":"serving P4Runtime"'
SWITCH_START_TIMEOUT_S = 30


def start_switch(procs, switch, ports, topology):
    """Starts the switch; hupf-backend is waited for until it serves P4Runtime, and an exit meanwhile fails the
    lab at once, with its log."""
    p = procs.start("switch", switch_command(switch, ports, topology, procs.workdir))
    if switch == "bmv2":
        return
    log_path = os.path.join(procs.workdir, "switch.log")
    deadline = time.time() + SWITCH_START_TIMEOUT_S
    while p.poll() is None and time.time() < deadline:
        with open(log_path) as f:
            if SWITCH_SERVING in f.read():
                return
        time.sleep(0.1)
    if p.poll() is not None:
        raise LabError("switch exited with status %s; log: %s" % (p.returncode, procs.log_tail("switch")))
    # Still starting: the runner's readiness wait watches it from here.


def counted_status(status_path, since, timeout=COUNTED_TIMEOUT_S):
    """The runner's status once its usages come from a counter poll started after `since` (every delivered packet
    was counted by then): with thousands of UEs a status write lags the polls by seconds. After `timeout`, the
    latest status, said so."""
    deadline = time.time() + timeout
    while True:
        status = read_json(status_path)
        if status.get("polled_from_ms", 0) / 1000.0 >= since:
            return status
        if time.time() > deadline:
            say("no counter poll started after the traffic's end within %d s: usages as of the last one" % timeout)
            return status
        time.sleep(0.2)


def start_runner(procs, classpath, cfg_path, name="runner"):
    """Starts the lab runner under the lab's supervisor, as the backends are: a runner that dies is started again
    and restarts with its state (sessions, associations, Recovery Time Stamp). Its pid and restarts are in
    WORKDIR/NAME-supervisor.json."""
    return procs.start(name, supervised(["java", "@" + RUNNER_JVM_OPTIONS, "-cp", classpath, RUNNER_MAIN, cfg_path],
                                        os.path.join(procs.workdir, name + "-supervisor.json")))


def wait_listening(procs, stats_paths, timeout=READY_TIMEOUT_S):
    """Waits until each receiver has written its first stats, which it does once its socket is bound: a frame that
    arrives before is lost with nobody counting it (beside a CPU hog, 360 UEs lost their first downlink frames to a
    receiver still starting a second after it was launched)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        procs.check_alive()
        if all(os.path.exists(p) for p in stats_paths):
            return
        time.sleep(0.05)
    raise LabError("a receiver was not listening after %d s: %s" % (timeout, [p for p in stats_paths
                                                                              if not os.path.exists(p)]))


def wait_ready(procs, status_path, timeout=READY_TIMEOUT_S, name="runner"):
    """Waits for the runner's status to say ready; a runner that ended before (its supervisor counted a restart)
    fails the lab at once, with its log."""
    deadline = time.time() + timeout
    supervisor = os.path.join(procs.workdir, name + "-supervisor.json")
    restarts = read_json(supervisor).get("restarts", 0)
    while time.time() < deadline:
        procs.check_alive()
        ended = read_json(supervisor)
        if ended.get("restarts", 0) > restarts:
            raise LabError("the lab runner ended (%s) before it was ready; log: %s"
                           % (ended.get("last_exit"), procs.log_tail(name)))
        if read_json(status_path).get("ready"):
            return
        time.sleep(0.3)
    raise LabError("the lab runner was not ready after %d s; log: %s" % (timeout, procs.log_tail(name)))
