"""Devices under test for the PTF suite: bmv2 running the hw or sw profile, or the
x86 backend running either (`backend`: sw, `backend-hw`: `--profile hw`, the switch's stand-in), or the sw profile
compiled by T4P4S behind hupf-t4p4s (`t4p4s`, only when asked for: docs/BACKENDS.md "T4P4S"). Each is started on
the switch ends of a TestBed and reached over P4Runtime; `HUPF_PTF_TARGETS` (comma separated) selects them.
The backend runs on its test clock (`--test-clock`): its meters see only the time a
test sets with `Device.advance_clock`, never the wall clock; bmv2 has no such clock."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import hupf_p4const as C
import t4p4s_switch
from hupf_tools import p4tools
from p4rt import Client
from procs import free_port, stop_process

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
P4C_OUT = os.path.join(REPO, "pipeconf", "src", "main", "resources", "p4c-out")
ALL_TARGETS = ("bmv2-sw", "bmv2-hw", "backend", "backend-hw", "t4p4s")
# T4P4S only when HUPF_PTF_TARGETS names it (make test-t4p4s): its compile takes minutes.
DEFAULT_TARGETS = ALL_TARGETS[:4]
# The vectors T4P4S cannot pass, and why (docs/BACKENDS.md "T4P4S" lists them): skipped on the t4p4s target.
T4P4S_CANNOT = {
    "test_sdf_application_filtering": "application filters: T4P4S gives the applications table one match kind "
                                      "(LPM), so hupf-t4p4s refuses range and ternary rules",
    "test_meter_red_drop_keeps_post_qos_counter_exact": "meters: T4P4S's v1model execute_meter colours nothing",
    "test_downlink_buffer_sends_packet_in": "packet-in: T4P4S's controller protocol carries digests, not packets",
    "test_acl_punt": "ACL rules: T4P4S makes the acl table exact (hupf-t4p4s refuses rules); no packet-in",
    "test_acl_drop_is_counted": "ACL rules: T4P4S makes the acl table exact (hupf-t4p4s refuses rules)",
    "test_packet_out": "packet-out: T4P4S's controller protocol has none",
    "test_malformed_gtpu_dropped_and_counted": "T4P4S's parser ends a packet whose header overshoots the frame "
                                               "before hupf's ingress can count DROP_MALFORMED_GTPU",
}
CPU_PORT = {"bmv2-sw": 255, "bmv2-hw": 255, "backend": None, "backend-hw": None, "t4p4s": None}


def artifacts(profile):
    d = os.path.join(P4C_OUT, profile, "bmv2")
    return os.path.join(d, "p4info.txt"), os.path.join(d, "bmv2.json")


def binary(target):
    if target.startswith("bmv2"):
        return p4tools.bmv2()
    if target == "t4p4s":
        return t4p4s_switch.HOME
    return os.environ.get("HUPF_BACKEND") or shutil.which("hupf-backend")


def selected():
    """(targets to run, reason line when none can run)."""
    wanted = [t.strip() for t in os.environ.get("HUPF_PTF_TARGETS", "").split(",") if t.strip()]
    unknown = set(wanted) - set(ALL_TARGETS)
    if unknown:
        raise ValueError("HUPF_PTF_TARGETS: unknown targets %s (known: %s)"
                         % (sorted(unknown), ", ".join(ALL_TARGETS)))
    found = [t for t in (wanted or DEFAULT_TARGETS) if binary(t)]
    if found:
        if not os.path.exists(artifacts("hw")[0]):
            return [], "SKIPPED ptf: P4 artifacts missing under %s (run make p4)" % P4C_OUT
        return found, None
    if wanted == ["t4p4s"]:
        return [], "SKIPPED ptf: missing " + t4p4s_switch.MISSING
    if wanted and not any(t.startswith("bmv2") for t in wanted):
        return [], "SKIPPED ptf: hupf-backend not found (set HUPF_BACKEND=...)"
    return [], "SKIPPED ptf: missing %s (or HUPF_BACKEND=...)" % p4tools.BMV2_HINT


def differential_missing(profile):
    """Why bmv2 and the backend cannot both run `profile` ("sw" or "hw") here, or None: what a differential
    test between them needs (root for the veth test bed, both binaries, the committed P4 artifacts)."""
    bmv2, backend = ("bmv2-sw", "backend") if profile == "sw" else ("bmv2-hw", "backend-hw")
    if os.geteuid() != 0:
        return "needs root (network namespace, veth)"
    if not binary(bmv2):
        return "missing " + p4tools.BMV2_HINT
    if not binary(backend):
        return "hupf-backend not found (set HUPF_BACKEND=backend/build/hupf-backend)"
    if not os.path.exists(artifacts(profile)[0]):
        return "P4 artifacts missing under %s (run make p4)" % P4C_OUT
    return None


class Device:
    """A running device under test and its P4Runtime client."""

    def __init__(self, target, bed):
        self.target = target
        self.profile = "hw" if target.endswith("-hw") else "sw"
        self.bed = bed
        self.cpu_port = CPU_PORT[target]
        self._cpu_clone_session = False
        self.has_test_clock = target.startswith("backend")
        self.clock_ns = 0
        if target == "t4p4s":
            self._start_t4p4s()
            return
        self.t4p4s = None
        self.log = tempfile.NamedTemporaryFile(prefix="hupf-%s-" % target, suffix=".log", delete=False)
        addr = "127.0.0.1:%d" % free_port()
        exe = binary(target)
        if target.startswith("bmv2"):
            # A private notifications socket: other bmv2 instances on the machine use the default.
            notif = "ipc://%s.ipc" % self.log.name
            cmd = [exe, "--device-id", "1", "--no-p4", "--notifications-addr", notif]
            for p in bed.ports:
                cmd += ["-i", "%d@%s" % (p, bed.switch_ifname(p))]
            # 8 priority queues so that QoS's standard_metadata.priority selects one.
            cmd += ["--", "--grpc-server-addr", addr, "--cpu-port", str(self.cpu_port),
                    "--priority-queues", "8"]
        else:
            cmd = [exe, "--grpc-addr", addr, "--device-id", "1", "--test-clock", "--profile", self.profile]
            for p in bed.ports:
                cmd += ["--port", "%d=%s" % (p, bed.switch_ifname(p))]
        if self.has_test_clock:
            # The clock is fed on stdin and each time acknowledged on stdout; logs go to stderr.
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self.log, text=True, bufsize=1)
        else:
            self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        try:
            self.client = Client(addr, timeout=20)
        except Exception as e:
            self.stop()
            raise RuntimeError("%s did not come up (%s); log: %s" % (target, e, self.log.name)) from None

    def _start_t4p4s(self):
        """hupf-t4p4s, then the T4P4S switch (its build cached) with P4 port p on the bed's port p."""
        work = Path(tempfile.mkdtemp(prefix="hupf-t4p4s-"))
        executable = t4p4s_switch.compile_switch()
        adapter = t4p4s_switch.build_adapter(work)
        self.t4p4s = t4p4s_switch.Running(executable, adapter, t4p4s_switch.port_vdevs(self.bed, work), work)
        try:
            self.client = Client(self.t4p4s.grpc_addr, timeout=20)
        except Exception:
            self.t4p4s.close()
            raise

    def advance_clock(self, ns):
        """Move the backend's data-plane time ns nanoseconds on (it starts at 0 and stands
        still otherwise); returns once the data plane has taken the new time."""
        if not self.has_test_clock:
            raise RuntimeError("%s has no test clock" % self.target)
        self.clock_ns += ns
        self.proc.stdin.write("%d\n" % self.clock_ns)
        self.proc.stdin.flush()
        ack = self.proc.stdout.readline().strip()
        if ack != "clock %d" % self.clock_ns:
            raise RuntimeError("test clock: expected 'clock %d', got %r (log: %s)"
                               % (self.clock_ns, ack, self.log.name))

    def reset(self):
        """Push the pipeline again: a clean device state for every test."""
        p4info, json_path = artifacts(self.profile)
        self.client.set_pipeline(p4info, json_path if self.target.startswith("bmv2") else None)
        self.client.drain_packet_ins()
        self.bed.flush()

    def cpu_clone_session(self):
        """The clone session to the CPU port, created once per device: bmv2 keeps it across
        pipeline pushes, and creating it again would add a second copy per clone."""
        if not self._cpu_clone_session:
            self.client.clone_session(C.CPU_CLONE_SESSION_ID, self.cpu_port)
            self._cpu_clone_session = True

    def stop(self):
        if self.t4p4s is not None:
            self.client.close()
            self.t4p4s.close()
            return
        if self.has_test_clock:
            self.proc.stdin.close()
        stop_process(self.proc)
        if self.has_test_clock:
            self.proc.stdout.close()
        self.log.close()

