"""The backend-only chain for PFCP scale tests and benchmarks: a real hupf-backend (idle ports) programmed
over P4Runtime by hupf's lab runner (PFCP agent, session core, offload manager polling the backend's counters),
plus a pipelined PFCP client and a raw IE reader fast enough for tens of thousands of responses.
"""
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

import pytest

from conftest import ROOT, _classpath

RUNNER = "org.hupf.standalone.lab.LabRunner"
# The standalone host's JVM options, as the lab and systemd's unit run it; java_opts come after them (and win).
RUNNER_JVM_OPTIONS = os.path.join(ROOT, "standalone", "jvm.options")
P4INFO = os.path.join(ROOT, "pipeconf", "src", "main", "resources", "p4c-out", "sw", "bmv2", "p4info.txt")
N3, GNB, APP_NET = "192.0.2.1", "192.0.2.2", "198.51.100.0/24"
T1_S = 3.0
READY_S = 300
# IE types (TS 29.244 Table 8.1.2-1).
CREATED_PDR, CAUSE, F_TEID, F_SEID, PDR_ID, VOLUME_MEASUREMENT, USAGE_REPORT_DELETION = 8, 19, 21, 57, 56, 66, 79


def backend_binary():
    path = os.environ.get("HUPF_BACKEND") or os.path.join(ROOT, "backend", "build", "hupf-backend")
    return path if os.access(path, os.X_OK) else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Chain:
    """hupf-backend + lab runner (backend only), polling the backend's counters every poll_ms."""

    def __init__(self, sessions=65536, mem_mb=1024, poll_ms=500, ue_pool="10.0.0.0/8", java_opts=(), backend_args=(),
                 classpath=None, backend=None, interfaces=None, durable=False, local_writes=True, serving=None):
        """interfaces: the Linux interfaces of the backend's ports 1 (N3) and 2 (N6) for tests that send
        traffic; without them both ports are idle pcap files. durable: the runner keeps its state in the chain's
        directory and runs under the lab's supervisor (restarted when it dies; pid and restarts in
        self.supervisor_path). serving: the P4Runtime address of a backend already running (hupf-t4p4s in front
        of T4P4S): no hupf-backend is started and the runner writes to it over gRPC."""
        binary = None if serving else backend or backend_binary()
        if binary is None and not serving:
            pytest.skip("hupf-backend is not built (make backend) and HUPF_BACKEND is not set")
        local_writes = local_writes and not serving
        self.dir = tempfile.mkdtemp(prefix="hupf-chain-")
        # The runner's Writes over the backend's local write channel (local_writes: off for a build without it)
        socket = os.path.join(self.dir, "backend.sock")
        local = ["--local-writes", socket] if local_writes else []
        self.pfcp = ("127.0.0.1", free_port())
        self.grpc = serving or "127.0.0.1:%d" % free_port()
        self.logs = {}
        # Idle ports (pcap, nothing to receive) and an lcore that naps when idle: null ports would make the data
        # plane forward an endless stream of generated packets, a core of this two-core machine taken from the
        # control plane under test.
        empty = os.path.join(self.dir, "empty.pcap")
        with open(empty, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        ports = []
        for p in (1, 2):
            spec = interfaces[p - 1] if interfaces else "pcap:rx_pcap=%s,tx_pcap=%s" % (
                empty, os.path.join(self.dir, "tx%d.pcap" % p))
            ports += ["--port", "%d=%s" % (p, spec)]
        self.backend = None if serving else self._start(
            "backend", [binary, "--grpc-addr", self.grpc, "--device-id", "1", "--sessions", str(sessions), "--mem",
                        str(mem_mb), *ports, "--idle-sleep-us", "200", *local, *backend_args])
        self.status_path = os.path.join(self.dir, "status.json")
        cfg = {"pfcp": {"address": self.pfcp[0], "port": self.pfcp[1]},
               "backends": [{"name": "backend", "grpc": self.grpc, "device_id": 1, "p4info": P4INFO,
                             **({"local_writes": socket} if local_writes else {})}],
               "smf_node_id": "127.0.0.1", "router_mac": "02:68:75:70:66:01", "n3": N3, "gnb": GNB,
               "app_net": APP_NET, "ue_pool": ue_pool, "slice": 1,
               "policy": {"threshold_bps": 10**12, "hold_ms": 2000, "hysteresis": 0.2},
               "poll_ms": poll_ms, "status": self.status_path,
               "routes": {"backend": [[GNB + "/32", 1, "02:00:00:00:00:01"], [APP_NET, 2, "02:00:00:00:00:02"]]}}
        runner = ["java", "@" + RUNNER_JVM_OPTIONS, *java_opts, "-cp", classpath or _classpath(), RUNNER]
        self.supervisor_path = os.path.join(self.dir, "runner-supervisor.json")
        if durable:
            cfg.update(state_dir=os.path.join(self.dir, "state"), state_sync_ms=100)
            runner = [sys.executable, "-m", "hupf_tools.lab.supervise", "--state", self.supervisor_path, "--"] + runner
        cfg_path = os.path.join(self.dir, "runner.json")
        with open(cfg_path, "w") as f:
            json.dump(cfg, f)
        if self.backend is not None:
            self._wait_grpc_listening()
        self.runner = self._start("runner", runner + [cfg_path])
        # The runner retries the backend with a backoff until it answers; on a machine with a run queue of 20 the
        # backend's start and the first arbitration have taken more than 90 s.
        deadline = time.time() + READY_S
        while not self.status().get("ready"):
            for name, p in (("backend", self.backend), ("runner", self.runner)):
                if p is not None and p.poll() is not None:
                    self.stop()
                    raise RuntimeError("%s exited: %s" % (name, self.log_tail(name)))
            if time.time() > deadline:
                self.stop()
                raise RuntimeError("runner not ready in %d s: %s" % (READY_S, self.log_tail("runner")))
            time.sleep(0.2)

    def _wait_grpc_listening(self):
        """Until the backend accepts connections on its P4Runtime address (the runner's first try then succeeds
        instead of starting its backoff)."""
        host, port = self.grpc.rsplit(":", 1)
        deadline = time.time() + READY_S
        while True:
            with socket.socket() as s:
                if s.connect_ex((host, int(port))) == 0:
                    return
            if self.backend.poll() is not None:
                raise RuntimeError("backend exited: %s" % self.log_tail("backend"))
            if time.time() > deadline:
                self.stop_backend()
                raise RuntimeError("backend not listening on %s in %d s" % (self.grpc, READY_S))
            time.sleep(0.05)

    def _start(self, name, cmd):
        self.logs[name] = os.path.join(self.dir, name + ".log")
        out = open(self.logs[name], "w")
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools")))

    def log_tail(self, name, lines=30):
        with open(self.logs[name]) as f:
            return "".join(f.readlines()[-lines:])

    def log_lines(self, name, needle, lines=10):
        """The first lines of a process's log that contain needle (e.g. the usage ledger's restarts)."""
        with open(self.logs[name]) as f:
            return "".join([line for line in f if needle in line][:lines])

    def status(self):
        try:
            with open(self.status_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def status_after(self, t, timeout):
        """The first status the runner began writing after epoch time t (what it held then); None after timeout."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            st = self.status()
            if st.get("written_ms", 0) / 1000.0 >= t:
                return st
            time.sleep(0.2)
        return None

    def wait_sessions(self, n, timeout):
        """Waits until the runner reports n sessions; returns the last count seen."""
        deadline = time.time() + timeout
        seen = None
        while time.time() < deadline:
            seen = self.status().get("pfcp_sessions")
            if seen == n:
                return seen
            time.sleep(0.2)
        return seen

    def stop_backend(self):
        _stop(self.backend)

    def stop(self):
        _stop(self.runner)
        _stop(self.backend)


    def table_keys(self, table, field):
        """The values of one exact match field of every entry of a backend table (P4Runtime Read, no
        arbitration needed: the runner stays the backend's primary)."""
        import grpc
        sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
        from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc
        from p4rt import P4Info
        info = P4Info.from_text_file(P4INFO)
        t = info.get("tables", "HupfIngress.upf." + table)
        field_id = next(m.id for m in t.match_fields if m.name == field)
        req = p4runtime_pb2.ReadRequest(device_id=1)
        req.entities.add().table_entry.table_id = t.preamble.id
        with grpc.insecure_channel(self.grpc) as ch:
            out = []
            for resp in p4runtime_pb2_grpc.P4RuntimeStub(ch).Read(req):
                for e in resp.entities:
                    out += [int.from_bytes(m.exact.value, "big") for m in e.table_entry.match if m.field_id == field_id]
            return out


def _stop(p):
    if p is not None and p.poll() is None:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def ies(data):
    """Top-level IEs of a PFCP message as {type: [value, ...]}."""
    at = 16 if data[0] & 0x01 else 8
    end = 4 + struct.unpack("!H", data[2:4])[0]
    out = {}
    while at + 4 <= end:
        t, n = struct.unpack("!HH", data[at:at + 4])
        out.setdefault(t, []).append(data[at + 4:at + 4 + n])
        at += 4 + n
    return out


def grouped(value):
    """IEs inside a grouped IE's value."""
    return ies(b"\x20\x00" + struct.pack("!H", len(value) + 4) + b"\x00" * 4 + value)


def cause_of(data):
    c = ies(data).get(CAUSE)
    return c[0][0] if c else None


def up_seid_of(data):
    return struct.unpack("!Q", ies(data)[F_SEID][0][1:9])[0]


def uplink_teid(data, pdr_id=1):
    """The TEID the UP function chose for a PDR (Created PDR's F-TEID) in an establishment response."""
    for created in ies(data).get(CREATED_PDR, []):
        inner = grouped(created)
        if struct.unpack("!H", inner[PDR_ID][0])[0] == pdr_id and F_TEID in inner:
            return struct.unpack("!I", inner[F_TEID][0][1:5])[0]
    return None


def volumes(usage_report):
    """(total, uplink, downlink) volume of a Usage Report's Volume Measurement, None where its flag is off."""
    vm = grouped(usage_report).get(VOLUME_MEASUREMENT)
    if not vm:
        return None, None, None
    flags, at, out = vm[0][0], 1, []
    for bit in (0x01, 0x02, 0x04):
        if flags & bit:
            out.append(struct.unpack("!Q", vm[0][at:at + 8])[0])
            at += 8
        else:
            out.append(None)
    return tuple(out)


def deletion(up_seid, seq):
    return struct.pack("!BBHQ", 0x21, 54, 12, up_seid) + seq.to_bytes(3, "big") + b"\x00"
