"""bmv2's drops, counted from its own log. simple_switch counts none of the packets it loses: a packet its ingress
sends to a port whose egress queue is full (64 packets; the queue refuses it without a word) and a packet the
kernel finds no room for in the ring of bmv2's pcap socket on a port. Its debug log, written line by line
(--log-flush), names each packet (id.copy) where it is received, where its ingress sends it, where its egress
starts and where a pipeline drops it, so:

- egress queue full: a packet received on a data port and sent by ingress to a port whose egress never started,
  once bmv2 is quiet (no tracked packet moved for QUIET_S);
- pcap socket ring full: what the kernel received on a port's interface (rx_packets) less what bmv2 received on
  that port;
- the pipelines' verdicts: a packet dropped at the end of ingress or of egress.

Packets received on the CPU port (the controller's packet-outs) and clones (HH reports) are none of the senders'
and are not tracked."""
import os
import re
import time

# Rotation would drop lines still to be read: one file, as large as a run's log can grow.
MAX_LOG_BYTES = 1 << 36
QUIET_S = 1.0
# The lab's switch log, in its work directory.
LAB_BASE = "switch-packets"
SETTLE_TIMEOUT_S = 60
DROP_PORT = 511

_LINE = re.compile(rb"\[(\d+)\.(\d+)\] \[cxt \d+\] (?:Processing packet received on port (\d+)|Egress port is (\d+)"
                   rb"|(Pipeline 'egress': start)|Dropping packet at the end of (ingress|egress))")


def fresh_log_args(base):
    """simple_switch's options for the log this module reads (bmv2 writes it to base + '.txt'), a log of an earlier
    run removed: simple_switch appends to it, and its packet ids start again at 0."""
    try:
        os.remove(base + ".txt")
    except FileNotFoundError:
        pass
    return ["--log-file", base, "--log-level", "debug", "--log-flush", "--log-file-max-size", str(MAX_LOG_BYTES)]


def rx_packets(ifname):
    with open("/sys/class/net/%s/statistics/rx_packets" % ifname) as f:
        return int(f.read())


class Bmv2Log:
    """The drops of one simple_switch started with fresh_log_args(base); ports: {data port: interface in this
    namespace}."""

    def __init__(self, base, ports, name="bmv2", pid=None):
        self.path = base + ".txt"
        self.ports, self.name, self.pid = dict(ports), name, pid
        self.offset = 0
        self.received = {p: 0 for p in self.ports}
        self.queued = {}  # packet id -> the port its ingress sent it to, until its egress starts
        self.verdicts = {"dropped at the end of ingress": 0, "dropped at the end of egress": 0}
        self.tracked = set()  # packets received on a data port and still in bmv2
        self.moved = time.monotonic()

    def _read(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                chunk = f.read()
        except FileNotFoundError:
            return
        end = chunk.rfind(b"\n") + 1
        self.offset += end
        for m in _LINE.finditer(chunk, 0, end):
            pkt = (int(m.group(1)), int(m.group(2)))
            rx_port, eg_port, eg_start, dropped_at = m.group(3), m.group(4), m.group(5), m.group(6)
            if rx_port is not None:
                port = int(rx_port)
                if port in self.received and pkt[1] == 0:
                    self.received[port] += 1
                    self.tracked.add(pkt)
                    self.moved = time.monotonic()
                continue
            if pkt not in self.tracked:
                continue
            self.moved = time.monotonic()
            if eg_port is not None:
                if int(eg_port) != DROP_PORT:
                    self.queued[pkt] = int(eg_port)
            elif eg_start is not None:
                self.queued.pop(pkt, None)
                self.tracked.discard(pkt)
            else:
                self.verdicts["dropped at the end of %s" % dropped_at.decode()] += 1
                self.queued.pop(pkt, None)
                self.tracked.discard(pkt)

    def settle(self, timeout=SETTLE_TIMEOUT_S):
        """Reads the log until no tracked packet moved for QUIET_S: what is still queued then was refused."""
        deadline = time.monotonic() + timeout
        while True:
            self._read()
            if not self.queued and not self.tracked or time.monotonic() - self.moved >= QUIET_S:
                return
            if time.monotonic() >= deadline:
                raise TimeoutError("bmv2's log %s still moving %d s after the traffic" % (self.path, timeout))
            time.sleep(0.1)

    def collect(self):
        """accounting.collect's shape: {"room": {"bmv2": ..., "kernel": ...}, "verdicts": {"bmv2": ...},
        "pids": {"bmv2": pid}}, counted since bmv2 started."""
        self.settle()
        full = {}
        for port in self.queued.values():
            key = "egress queue of port %d full" % port
            full[key] = full.get(key, 0) + 1
        ring = {}
        for port, ifname in sorted(self.ports.items()):
            n = rx_packets(ifname) - self.received[port]
            if n > 0:
                ring["bmv2's pcap socket on %s full" % ifname] = n
        return {"room": {self.name: full, "kernel": ring},
                "verdicts": {self.name: {k: n for k, n in self.verdicts.items() if n}},
                "pids": {self.name: self.pid}}
