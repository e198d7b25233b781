"""Exact packet accounting for the lab's checks: a check asserts that every packet the senders sent was delivered or
counted as dropped, with a reason, by someone:

- hupf: each hupf-backend's ports (`rx_missed`: the port's receive ring was full; `tx_dropped`: the port refused
  it), its egress queues (`queue_dropped` by priority, a rate-limited port), its packets to the controller's queue
  (`to_cpu_dropped`), IPv4 fragments and packets before a pipeline (its SIGUSR1 stats line), and its pipeline's
  verdicts (`HupfIngress.upf.drop_reasons`, read over P4Runtime);
- bmv2: its egress queues and pcap sockets, and its pipelines' drops, from its log (bmv2_log);
- a T4P4S backend: its pipeline's verdicts, and what its veth took in and it did not send (t4p4s_backend);
- the kernel: each veth pair's transmit drops (a full backlog of the peer; the same drop shows as the peer's
  rx_dropped, which is not added again) and the receivers' socket drops (their own counts);
- the senders: a send the socket refused is retried, never counted as sent.

sent == delivered + counted drops, or the check fails and says how many nobody counted. A loss ratio is a
figure for the summary and the benchmarks' --json, never a pass criterion: a busy machine drops packets, and
those drops are counted; a drop nobody counted is a fault."""
import json
import os
import re
import signal
import subprocess
import time

import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from hupf_tools.lab import bmv2_log, topo

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DEFINE_P4 = os.path.join(REPO, "p4src", "include", "define.p4")
DROP_REASONS = "HupfIngress.upf.drop_reasons"
STATS_LINE = '"msg":"stats"'
STATS_TIMEOUT_S = 60
# How long packets still in flight when the senders stopped may take to arrive or be counted dropped: only a
# packet nobody counts makes a wait this long (its check then fails).
SETTLE_TIMEOUT_S = 60
# Drops for want of room (a ring, queue or backlog was full): what a busy machine does. The pipeline's verdicts
# (a session miss, a meter's red) are hupf's decisions, which a check judges by itself.
ROOM = "for want of room"
# A hupf-backend port's counters that stop moving once nothing is in flight through it.
SETTLING = ("RX", "TX", "RXMissed", "TXDropped", "QueueDropped", "QueueBacklog")


def drop_reason_names():
    """{index: name} of the pipeline's drop reasons, from the P4 program's constants (define.p4)."""
    with open(DEFINE_P4) as f:
        found = re.findall(r"const bit<32> DROP_(\w+)\s*=\s*(\d+);", f.read())
    return {int(v): k.lower().replace("_", " ") for k, v in found if k != "REASONS_SIZE"}


def stats_lines(log_path):
    try:
        with open(log_path) as f:
            return [json.loads(ln) for ln in f if STATS_LINE in ln]
    except OSError:
        return []


def backend_stats(pid, log_path, timeout=STATS_TIMEOUT_S):
    """The stats line a hupf-backend logs on SIGUSR1 (its ports, to_cpu_dropped, ...), waited for in its log."""
    before = len(stats_lines(log_path))
    os.kill(pid, signal.SIGUSR1)
    deadline = time.time() + timeout
    while time.time() < deadline:
        lines = stats_lines(log_path)
        if len(lines) > before:
            return lines[-1]
        time.sleep(0.05)
    raise TimeoutError("hupf-backend %d logged no stats line within %d s of SIGUSR1 (%s)" % (pid, timeout, log_path))


def stats_drops(stats):
    """({reason: packets} for want of room, {reason: packets} hupf decided) from a hupf-backend stats line."""
    room, decided = {}, {}
    for p in stats.get("ports") or []:
        port = p.get("P4Port")
        for key, what in (("RXMissed", "port %d rx_missed"), ("TXDropped", "port %d tx_dropped")):
            if p.get(key):
                room[what % port] = p[key]
        for prio, n in enumerate(p.get("QueueDropped") or []):
            if n:
                room["port %d queue %d full" % (port, prio)] = n
    if stats.get("to_cpu_dropped"):
        room["to_cpu_dropped"] = stats["to_cpu_dropped"]
    for key in ("dropped_no_pipeline", "ipv4_fragments_dropped"):
        if stats.get(key):
            decided[key.replace("_", " ")] = stats[key]
    return room, decided


def pipeline_drops(grpc_addr, p4info_path, device_id=1):
    """{reason name: packets} of the pipeline's drop_reasons counter, read over P4Runtime (a Read needs no
    mastership: the runner stays the device's master)."""
    info = p4info_pb2.P4Info()
    with open(p4info_path) as f:
        text_format.Parse(f.read(), info)
    [counter_id] = [c.preamble.id for c in info.counters if c.preamble.name == DROP_REASONS]
    req = p4runtime_pb2.ReadRequest(device_id=device_id)
    req.entities.add().counter_entry.counter_id = counter_id
    names = drop_reason_names()
    with grpc.insecure_channel(grpc_addr) as ch:
        cells = [e.counter_entry for resp in p4runtime_pb2_grpc.P4RuntimeStub(ch).Read(req, timeout=30)
                 for e in resp.entities]
    return {names.get(c.index.index, "reason %d" % c.index.index): c.data.packet_count
            for c in cells if c.data.packet_count}


def iface_counter(ifname, name, netns=None):
    cmd = ["cat", "/sys/class/net/%s/statistics/%s" % (ifname, name)]
    return int(subprocess.run((["ip", "netns", "exec", netns] if netns else []) + cmd, check=True,
                              capture_output=True, text=True).stdout)


def veth_drops(topology):
    """{"veth IF tx_dropped": packets} over every veth end of the lab's topology (the namespaces' too)."""
    ends = [(ifname, None) for ifname in topology.switch_ports.values()]
    ends += [(ifname, None) for ports in topology.backends for ifname in ports.values()]
    ends += [(ifname, topology.ns(host)) for host, ifname in topo.HOST_IF.items()]
    out = {}
    for ifname, ns in ends:
        n = iface_counter(ifname, "tx_dropped", ns)
        if n:
            out["veth %s tx_dropped" % ifname] = n
    return out


class Device:
    """A hupf-backend whose drops count: its name, pid, log, and P4Runtime address and P4Info."""

    def __init__(self, name, pid, log_path, grpc_addr, p4info):
        self.name, self.pid, self.log_path, self.grpc_addr, self.p4info = name, pid, log_path, grpc_addr, p4info


def lab_devices(procs, cfg, switch, topology):
    """The lab's devices running now: every backend (its supervisor's child; one stopped is left out) and the
    switch: hupf-backend's stats, or bmv2's log. procs: the lab's run.Procs; cfg: the runner's config."""
    devices = []
    for b in cfg["backends"]:
        try:
            with open(os.path.join(procs.workdir, b["name"] + "-supervisor.json")) as f:
                pid = json.load(f).get("pid")
        except (OSError, ValueError):
            pid = None
        if pid:
            devices.append(Device(b["name"], pid, os.path.join(procs.workdir, b["name"] + ".log"), b["grpc"],
                                  b["p4info"]))
    if switch in ("backend", "bmv2"):
        pid = next(p.pid for name, p, _ in procs.procs if name == "switch")
    if switch == "bmv2":
        devices.append(bmv2_log.Bmv2Log(os.path.join(procs.workdir, bmv2_log.LAB_BASE), topology.switch_ports,
                                        "switch", pid))
    elif switch == "backend":
        devices.append(Device("switch", pid, os.path.join(procs.workdir, "switch.log"), cfg["switch"]["grpc"],
                              cfg["switch"]["p4info"]))
    return devices


def collect(devices, topology, receivers=()):
    """{"room": {place: {reason: n}}, "verdicts": {device: {reason: n}}, "pids": {device: pid}}: every drop counted
    so far (the pipelines' verdicts, fragments and packets before a pipeline are hupf's decisions; the rest is for
    want of room). topology: the lab's, whose veths' drops count (None: the caller counts its links');
    receivers: [(name, socket drops)]."""
    room, verdicts, logged = {}, {}, []
    for d in devices:
        if hasattr(d, "collect"):
            # bmv2 (its log) and T4P4S (lab/t4p4s_backend.py) count their own.
            logged.append(d.collect())
            continue
        room[d.name], decided = stats_drops(backend_stats(d.pid, d.log_path))
        verdicts[d.name] = dict(decided, **pipeline_drops(d.grpc_addr, d.p4info))
    room["kernel"] = veth_drops(topology) if topology else {}
    for name, n in receivers:
        if n:
            room["kernel"]["%s socket" % name] = n
    return merge({"room": room, "verdicts": verdicts, "pids": {d.name: d.pid for d in devices}}, *logged)


def merge(*collections):
    """One collection of several (accounting.collect's, bmv2_log's): their counts side by side."""
    out = {"room": {}, "verdicts": {}, "pids": {}}
    for c in collections:
        for kind in ("room", "verdicts"):
            for where, by in c[kind].items():
                out[kind].setdefault(where, {}).update(by)
        out["pids"].update(c["pids"])
    return out


def since(after, before):
    """The drops counted between two collections (a device restarted in between counted from its start)."""
    def base(kind, where):
        same = where == "kernel" or before["pids"].get(where) == after["pids"].get(where)
        return before[kind].get(where, {}) if same else {}
    out = {kind: {where: {reason: n - base(kind, where).get(reason, 0) for reason, n in by.items()
                          if n != base(kind, where).get(reason, 0)}
                  for where, by in after[kind].items()} for kind in ("room", "verdicts")}
    out["pids"] = after["pids"]
    return out


def rebase(before, snapshot):
    """Counts the devices in `snapshot` (a collection of some devices) from it on: a backend added under traffic, or
    started again after a kill, is counted from when it is steered to; what reached it before, without a pipeline,
    was none of the lab's (no UE was steered to it then: a lab packet lost there is missing from the delivered
    ones, uncounted, and fails the balance beyond a departed backend's gap)."""
    for kind in ("room", "verdicts"):
        for where in snapshot["pids"]:
            before[kind][where] = snapshot[kind][where]
    before["pids"].update(snapshot["pids"])


def settled_counters(devices):
    """{device: {port: {counter: value}}}: every hupf-backend's port counters and rate-limited queues' backlog now."""
    out = {}
    for d in devices:
        if not isinstance(d, bmv2_log.Bmv2Log):
            out[d.name] = {p["P4Port"]: {k: p.get(k) for k in SETTLING}
                           for p in backend_stats(d.pid, d.log_path).get("ports") or []}
    return out


def wait_settled(devices, timeout=SETTLE_TIMEOUT_S):
    """Waits until what the senders sent has left every hupf-backend in `devices`: two reads in a row give the same
    port counters (received, sent, dropped) and every rate-limited port's queues hold nothing. Returns whether they
    settled within timeout (bmv2 is not read: its queues are not counted)."""
    deadline, last = time.time() + timeout, None
    while True:
        now = settled_counters(devices)
        empty = not any(c["QueueBacklog"] for ports in now.values() for c in ports.values())
        if now == last and empty:
            return True
        if time.time() >= deadline:
            return False
        last = now


def wait_accounted(sent, delivered, drops, excused=0, timeout=SETTLE_TIMEOUT_S):
    """Waits until every packet sent was delivered or counted dropped, but `excused` (after the senders stopped,
    packets may still be queued in a port, a veth or a socket). sent, delivered: callables returning counts;
    drops: one returning a collection (since the traffic began). Returns whether they balanced within timeout."""
    deadline = time.time() + timeout
    while True:
        d = drops()
        if delivered() + total(d["room"]) + total(d["verdicts"]) + excused >= sent():
            return True
        if time.time() >= deadline:
            return False
        time.sleep(0.5)


def total(drops):
    return sum(n for by_reason in drops.values() for n in by_reason.values())


def balance(sent, delivered, drops):
    """{"sent", "delivered", "dropped" (for want of room), "verdicts" (the pipelines' drops), "uncounted", "loss"}:
    uncounted = sent - delivered - every counted drop (0 when each packet is accounted for)."""
    room, verdicts = total(drops["room"]), total(drops["verdicts"])
    return {"sent": sent, "delivered": delivered, "dropped": room, "verdicts": verdicts,
            "uncounted": sent - delivered - room - verdicts, "loss": (sent - delivered) / sent if sent else 0.0}


def describe(drops):
    """'backend: port 1 rx_missed 12; kernel: veth hs1-1 tx_dropped 3' (or 'none')."""
    parts = ["%s: %s" % (where, ", ".join("%s %d" % kv for kv in sorted(by.items())))
             for where, by in sorted(drops.items()) if by]
    return "; ".join(parts) or "none"
