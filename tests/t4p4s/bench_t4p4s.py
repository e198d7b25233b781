"""T4P4S beside hupf-backend (issue #36): Mpps per core of hupf's sw profile compiled by T4P4S (its build without
the debug log) and of hupf-backend's data plane (backend/build/bench), the same frames at each session count,
alternated in one run. Writes markdown rows; without T4P4S one SKIPPED line and hupf-backend's rows.

The frames are hupf's benchmark's "hot" traffic replayed byte for byte (backend/dp/bench/bench.c: its two templates,
its session draws, packet k of the k-th drawn session, uplink when k is odd), cycled over HOT frames: T4P4S takes
them from DPDK's net_pcap with infinite_rx, which holds every frame of its pcap file in the switch's mbuf pool
(8,192 mbufs), so the cycle is 4,096 frames and hupf-backend is run on the same cycle (BENCH_HOT). The sessions are
written through hupf-t4p4s as the benchmark writes them into hupf-backend (per session its uplink and downlink
session and termination, two counter cells each, by hupf-p4rt-bench; interfaces, tunnel peer, routes); T4P4S holds no application or
ACL rules (hupf-t4p4s refuses them) and no meters, where hupf-backend's run has 32 application rules, 16 ACL rules
and a meter on every 16th session. Egress: T4P4S's ports 1 and 2 have no output (net_pcap drops what is sent).

T4P4S's packets per core: the frames its port 0 received (DPDK's ethdev statistics over EAL's telemetry socket)
per second of CPU time of its one forwarding thread (the main lcore), over windows of TRIAL_CPU_S of that CPU,
each after a warm-up; received and sent are its ports' counts over the trials (read one after the other: the
frames in flight between the two reads differ). T4P4S's exact tables hold HASH_ENTRIES entries whatever the P4 size
says: 1,024 in its stock build, --hash-entries N compiles a build of N (its own build directory; T4P4S's local change
that lets the define through, docs/BACKENDS.md). It runs at the session counts that fit, and the row of a larger
count says so."""
import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hupf_p4const as C
from p4rt import Client, P4Info
from procs import free_port

from hupf_tools import t4p4s

REPO = Path(__file__).resolve().parents[2]
HUPF_BENCH = REPO / "backend" / "build" / "bench"
P4RT_BENCH = REPO / "backend" / "build" / "hupf-p4rt-bench"
P4INFO = REPO / "pipeconf" / "src" / "main" / "resources" / "p4c-out" / "sw" / "bmv2" / "p4info.txt"
N3, GNB, APP, UE_BASE = 0x0A000001, 0x0A000064, 0x08080808, 0x10000000
HOT = 4096
TRIAL_CPU_S = 1.0
TRIAL_TIMEOUT_S = 120
MASK64 = (1 << 64) - 1


def draws(n, count=HOT):
    """bench.c's hot table: xorshift64 from its seed, each draw mod n."""
    xs, out = 0x9E3779B97F4A7C15, []
    for _ in range(count):
        xs ^= (xs << 13) & MASK64
        xs ^= xs >> 7
        xs ^= (xs << 17) & MASK64
        out.append(xs % n)
    return out


def checksum(header):
    s = sum(struct.unpack("!10H", header))
    s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    return struct.pack("!H", ~s & 0xFFFF)


def ipudp(src, dst, sport, dport, payload):
    """bench.c's ipudp: IPv4 (TTL 64, UDP) and UDP headers with `payload` zero bytes after them."""
    ip = bytearray(struct.pack("!BBHHHBBHII", 0x45, 0, 28 + payload, 0, 0, 64, 17, 0, src, dst))
    ip[10:12] = checksum(bytes(ip))
    return bytes(ip) + struct.pack("!HHHH", sport, dport, 8 + payload, 0) + bytes(payload)


def frame(session, uplink):
    eth = bytes(12) + b"\x08\x00"
    ue = UE_BASE + session
    if not uplink:
        return eth + ipudp(APP, ue, 53, 4000, 64)
    inner = ipudp(ue, APP, 4000, 53, 64)
    gtp = struct.pack("!BBHI", 0x30, 0xFF, len(inner), session + 1)
    outer = ipudp(GNB, N3, 2152, 2152, len(gtp) + len(inner))[:28]
    return eth + outer + gtp + inner


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for fr in frames:
            f.write(struct.pack("<IIII", 0, 0, len(fr), len(fr)) + fr)


def program(grpc_addr, n):
    """bench.c's populate, less what T4P4S cannot hold: the sessions (its 4 entries each, hupf-p4rt-bench, which
    pushes the pipeline first and prints its insert rate), then interfaces, tunnel peer and routes."""
    rate = subprocess.run([str(P4RT_BENCH), "--addr", grpc_addr, "--p4info", str(P4INFO), "--sessions", str(n),
                           "--writers", "1"], capture_output=True, text=True, timeout=7200, check=True).stdout
    c = Client(grpc_addr)
    c.p4info = P4Info.from_text_file(str(P4INFO))
    mac = 1
    base = [c.table_entry(C.HUPF_INGRESS_UPF_INTERFACES, {C.HDR_IPV4_DST_ADDR: (N3, 32), C.HDR_GTPU_IS_VALID: 1},
                          C.HUPF_INGRESS_UPF_IFACE_ACCESS, {C.SLICE_ID: 1}),
            c.table_entry(C.HUPF_INGRESS_UPF_INTERFACES, {C.HDR_IPV4_DST_ADDR: (UE_BASE, 8), C.HDR_GTPU_IS_VALID: 0},
                          C.HUPF_INGRESS_UPF_IFACE_CORE, {C.SLICE_ID: 1}),
            c.table_entry(C.HUPF_INGRESS_UPF_IG_TUNNEL_PEERS, {C.HDR_TUN_PEER_ID: 1},
                          C.HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST, {C.TUN_DST_ADDR: GNB}),
            c.table_entry(C.HUPF_EGRESS_UPF_EG_TUNNEL_PEERS, {C.HDR_TUN_PEER_ID: 1}, C.HUPF_EGRESS_UPF_LOAD_TUNNEL_PARAMS,
                          {C.TUNNEL_SRC_ADDR: N3, C.TUNNEL_DST_ADDR: GNB, C.TUNNEL_SRC_PORT: 2152}),
            c.table_entry(C.HUPF_INGRESS_ROUTING_ROUTES_V4, {C.HDR_IPV4_DST: (APP & 0xFF000000, 8)},
                          C.HUPF_INGRESS_ROUTING_ROUTE, {C.SRC_MAC: mac, C.DST_MAC: mac, C.PORT: 2}),
            c.table_entry(C.HUPF_INGRESS_ROUTING_ROUTES_V4, {C.HDR_IPV4_DST: (GNB, 32)},
                          C.HUPF_INGRESS_ROUTING_ROUTE, {C.SRC_MAC: mac, C.DST_MAC: mac, C.PORT: 1})]
    c.write(*[c.update("INSERT", "table_entry", e) for e in base])
    c.close()
    return rate.strip()


class Telemetry:
    """DPDK's telemetry socket of a running EAL (its runtime directory's dpdk_telemetry.v2)."""

    def __init__(self, prefix):
        path = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
        deadline = time.monotonic() + 60
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                raise TimeoutError("no telemetry socket %s" % path)
            time.sleep(0.1)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.connect(path)
        self.sock.recv(16384)  # its greeting

    def port(self, p):
        self.sock.send(b"/ethdev/stats,%d" % p)
        return json.loads(self.sock.recv(65536))["/ethdev/stats"]


def cpu_s(pid):
    """CPU seconds of a process's main thread (T4P4S's main lcore forwards)."""
    with open("/proc/%d/task/%d/stat" % (pid, pid)) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sample(tele, pid):
    rx = tele.port(0)
    out = sum(tele.port(p)["opackets"] for p in (1, 2))
    return cpu_s(pid), rx["ipackets"], out, rx.get("imissed", 0)


def t4p4s_trials(exe, adapter, n, trials, work, hash_entries, memory_mb):
    """Mpps per core of each trial, (received, sent, missed) over them, and hupf-p4rt-bench's insert row."""
    pcap = Path(work) / ("hot-%d.pcap" % n)
    table = draws(n)
    write_pcap(pcap, [frame(s, k & 1) for k, s in enumerate(table)])
    empty = Path(work) / "empty.pcap"
    write_pcap(empty, [])
    prefix = "hupf-bench-t4p4s-%d" % os.getpid()
    grpc_addr = "127.0.0.1:%d" % free_port()
    logs = [open(Path(work) / name, "w") for name in ("adapter.log", "switch-%d.log" % n)]
    ad = subprocess.Popen(t4p4s.adapter_command(adapter, grpc_addr, hash_entries), stdout=logs[0],
                          stderr=subprocess.STDOUT)
    sw = None
    try:
        wait(lambda: "serving P4Runtime" in (Path(work) / "adapter.log").read_text(), ad)
        # Port 0 replays the pcap; 1 and 2 send nowhere (no tx_pcap: net_pcap drops what they send).
        vdevs = ["rx_pcap=%s,infinite_rx=1" % pcap, "rx_pcap=%s" % empty, "rx_pcap=%s" % empty]
        sw = subprocess.Popen(t4p4s.switch_command(exe, vdevs, prefix, memory_mb), stdout=logs[1],
                              stderr=subprocess.STDOUT)
        wait(lambda: "switch connected" in (Path(work) / "adapter.log").read_text(), sw)
        inserts = program(grpc_addr, n)
        tele = Telemetry(prefix)
        rates, first = [], None
        for t in range(trials + 1):  # the first, a warm-up
            a = sample(tele, sw.pid)
            deadline = time.monotonic() + TRIAL_TIMEOUT_S
            while cpu_s(sw.pid) - a[0] < TRIAL_CPU_S and time.monotonic() < deadline:
                time.sleep(0.2)
            b = sample(tele, sw.pid)
            if t == 0:
                first = b
                continue
            rates.append((b[1] - a[1]) / (b[0] - a[0]) / 1e6)
        return rates, (b[1] - first[1], b[2] - first[2], b[3] - first[3]), inserts
    finally:
        if sw is not None:
            sw.terminate()
            sw.wait(timeout=30)
        ad.terminate()
        ad.wait(timeout=10)
        for f in logs:
            f.close()
        subprocess.run(["rm", "-rf", "/var/run/dpdk/" + prefix])


def wait(cond, proc, timeout=120):
    deadline = time.monotonic() + timeout
    while not cond():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("%s ended or took over %d s" % (proc.args[0], timeout))
        time.sleep(0.1)


def hupf_row(n, trials):
    """hupf-backend's benchmark row on the same hot cycle."""
    out = subprocess.run(["nice", str(HUPF_BENCH), "-L", "hupf-backend", "-T", str(trials), "-t", "hot", str(n)],
                         env=dict(os.environ, BENCH_HOT=str(HOT)), capture_output=True, text=True, timeout=900,
                         check=True).stdout
    return [ln for ln in out.splitlines() if ln.startswith("|")][0]


def spread(xs):
    xs = sorted(xs)
    return "%.2f / %.2f / %.2f" % (xs[0], xs[len(xs) // 2], xs[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, nargs="+", default=[1000, 100000])
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--hash-entries", type=int, default=t4p4s.EXACT_TABLE_ENTRIES,
                    help="T4P4S's exact tables' hash size (HASH_ENTRIES) to compile it with")
    ap.add_argument("--t4p4s-memory-mb", type=int, default=t4p4s.EAL_MEMORY_MB,
                    help="DPDK memory of the T4P4S switch (no hugepages): larger hashes need more")
    args = ap.parse_args()
    print("Load average at start: %s; %d vCPUs." % (open("/proc/loadavg").read().split()[:3], os.cpu_count()))
    print()
    if t4p4s.home() is None:
        print("SKIPPED t4p4s: missing %s (hupf-backend's rows only)" % t4p4s.MISSING)
    with tempfile.TemporaryDirectory(prefix="hupf-bench-t4p4s-") as work:   # the adapter and the frames
        built = (t4p4s.compile_switch(t4p4s.FAST_VARIANT, args.hash_entries), t4p4s.build_adapter(work)) \
            if t4p4s.home() else None
        print("| code | sessions | frames cycled | Mpps/core min / median / max | received / sent | note |")
        print("|---|---|---|---|---|---|")
        for n in args.sessions:
            row = hupf_row(n, args.trials).split("|")
            print("| hupf-backend | %d | %d | %s | | bench -t hot, BENCH_HOT=%d (%s forwarded) |"
                  % (n, HOT, row[5].strip(), HOT, row[11].strip()), flush=True)
            if built and n > args.hash_entries:
                print("| T4P4S 7cd5bac | %d | | not run | | its exact tables hold %d entries (HASH_ENTRIES) |"
                      % (n, args.hash_entries))
            elif built:
                rates, (rx, tx, missed), inserts = t4p4s_trials(*built, n, args.trials, work, args.hash_entries,
                                                            args.t4p4s_memory_mb)
                ins = inserts.strip("|").split("|")
                print("| T4P4S 7cd5bac, HASH_ENTRIES %d | %d | %d | %s | %d / %d | imissed %d; %s entries inserted "
                      "through hupf-t4p4s in %s s (%s/s) |" % (args.hash_entries, n, HOT, spread(rates), rx, tx, missed,
                                                              ins[1].strip(), ins[4].strip(), ins[5].strip()),
                      flush=True)
    print()
    print("Load average at the end: %s." % open("/proc/loadavg").read().split()[:3])
    return 0


if __name__ == "__main__":
    sys.exit(main())
