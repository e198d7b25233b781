"""A lab backend run by T4P4S (issue #36): hupf's sw profile compiled by T4P4S (its build without the debug log),
programmed by the runner over P4Runtime through hupf-t4p4s, on the backend's veth (P4 port 1 = DPDK port 1; DPDK
port 0 a pcap file that sends nothing). The runner writes to it over gRPC: the adapter has no local write channel.

Its drops: the pipeline's verdicts are hupf's drop-reason counter, read through the adapter. T4P4S counts none of
the packets it loses otherwise (its pcap socket's ring full, its queues) and logs no stats; those are what entered
its veth less what left it less the verdicts (the kernel's counters of the veth it owns), read once it is quiet."""
import shutil
import struct
import time
from pathlib import Path

from hupf_tools import t4p4s
from hupf_tools.lab import accounting
from hupf_tools.lab.moves import backend_name
from hupf_tools.lab.processes import LabError

READY_TIMEOUT_S = 120
# Its veth's counters are read until two reads this far apart agree (nothing in flight through it), or QUIET_TIMEOUT_S.
QUIET_S = 0.3
QUIET_TIMEOUT_S = 10
INSIDE = "in - out - pipeline drops (its pcap socket and queues: T4P4S counts none)"
# An empty pcap file (its global header alone): DPDK port 0's input.
EMPTY_PCAP = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)


def prepare(workdir):
    """Compiles the switch (a repeat is quick: T4P4S's cache) and builds the adapter; (switch, adapter) paths."""
    if t4p4s.home() is None:
        raise LabError("--t4p4s-backend: missing %s" % t4p4s.MISSING)
    try:
        return t4p4s.compile_switch(t4p4s.FAST_VARIANT), t4p4s.build_adapter(workdir)
    except RuntimeError as e:
        raise LabError(str(e)) from e


def runtime_prefix(tag):
    """The switch's DPDK runtime directory name (EAL leaves it behind; the lab removes it)."""
    return "hupf-lab-t4p4s-%d" % tag


def start(procs, k, grpc_port, ifname, built, tag):
    """Starts backend k: the adapter serving P4Runtime on grpc_port, then the switch on ifname, connected to it."""
    switch, adapter = built
    name = backend_name(k)
    adapter_log = Path(procs.workdir) / (name + "-adapter.log")
    procs.start(name + "-adapter", t4p4s.adapter_command(adapter, "127.0.0.1:%d" % grpc_port))
    _wait(procs, lambda: "serving P4Runtime" in adapter_log.read_text(), "%s's adapter to serve" % name)
    empty = Path(procs.workdir) / (name + "-empty.pcap")
    empty.write_bytes(EMPTY_PCAP)
    vdevs = ["rx_pcap=%s,tx_pcap=%s" % (empty, Path(procs.workdir) / (name + "-port0.pcap")), "iface=" + ifname]
    procs.start(name, t4p4s.switch_command(switch, vdevs, runtime_prefix(tag)))
    _wait(procs, lambda: "switch connected" in adapter_log.read_text(), "%s's switch to connect" % name)


def cleanup(tag):
    shutil.rmtree(Path("/var/run/dpdk") / runtime_prefix(tag), ignore_errors=True)


def _wait(procs, cond, what):
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not cond():
        procs.check_alive()
        if time.monotonic() > deadline:
            raise LabError("waiting for %s for %d s; logs in %s" % (what, READY_TIMEOUT_S, procs.workdir))
        time.sleep(0.1)


class Device:
    """A T4P4S backend's drops, as accounting.collect takes a device with its own collect()."""

    def __init__(self, name, pid, ifname, grpc_addr, p4info):
        self.name, self.pid, self.ifname, self.grpc_addr, self.p4info = name, pid, ifname, grpc_addr, p4info

    def _veth(self):
        """(in, out) of its veth; out counts what T4P4S sent that the veth's peer had no room for."""
        out = sum(accounting.iface_counter(self.ifname, c) for c in ("tx_packets", "tx_dropped"))
        return accounting.iface_counter(self.ifname, "rx_packets"), out

    def collect(self):
        deadline = time.monotonic() + QUIET_TIMEOUT_S
        seen = self._veth()
        while time.monotonic() < deadline:
            time.sleep(QUIET_S)
            now, seen = seen, self._veth()
            if now == seen:
                break
        verdicts = accounting.pipeline_drops(self.grpc_addr, self.p4info)
        inside = seen[0] - seen[1] - sum(verdicts.values())
        return {"room": {self.name: {INSIDE: inside} if inside else {}}, "verdicts": {self.name: verdicts},
                "pids": {self.name: self.pid}}


def devices(procs, cfg, topology, ks):
    """The T4P4S backends ks (indexes from 0) running now (a stopped one left out). cfg: the runner's config."""
    running = {name: p.pid for name, p, _ in procs.procs if p.poll() is None}
    named = [(k, cfg["backends"][k]) for k in ks]
    return [Device(b["name"], running[b["name"]], topology.backends[k][1], b["grpc"], b["p4info"])
            for k, b in named if b["name"] in running]
