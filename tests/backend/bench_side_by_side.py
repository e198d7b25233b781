#!/usr/bin/env python3
"""bmv2 (sw profile) and the x86 backend measured the same way, side by side: each device
runs on the same veth test bed (tests/lib/dataplane.py, 2 ports), gets the same P4Runtime
writes (base + N sessions) and the same frames from an AF_PACKET sender in Python: uplink
G-PDUs and downlink IPv4 interleaved, sessions drawn at random, 64-byte inner UDP payload.

  throughput: PKTS frames, closed loop with WINDOW frames in flight (a frame is sent when
              an output comes back); pps = outputs / elapsed. The sender/receiver is one
              Python thread, so a device faster than it is measured at its rate.
  latency:    LAT_PKTS frames one at a time, send -> output seen by the receiving socket.

Bounded: every wait has a deadline. Needs root; finds the binaries as the PTF suite does
(BMV2 / HUPF_BACKEND or PATH).
  sudo .venv/bin/python tests/backend/bench_side_by_side.py [--sessions 1000] [--pkts 20000]
"""
import argparse
import os
import random
import select
import socket
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))

import dataplane  # noqa: E402
import targets as T  # noqa: E402
import upf_setup as U  # noqa: E402
from packets import gtpu, user_packet  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402

PAYLOAD = 64
INNER = 20 + 8 + PAYLOAD   # inner IPv4 + UDP + 64-byte payload


def ues(n):
    base = (172 << 24) | (16 << 16)
    out = []
    for k in range(n):
        a = base + 1 + k
        addr = "%d.%d.%d.%d" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255)
        out.append(U.Ue(addr, teid_ul=0x1000 + k, teid_dl=0x200000 + k, ctr=10 + 2 * k))
    return out


def frames(sessions, count, seed=1):
    """(ingress port, frame bytes): uplink and downlink alternating, UEs at random."""
    rnd = random.Random(seed)
    out = []
    for i in range(count):
        ue = sessions[rnd.randrange(len(sessions))]
        if i % 2 == 0:
            f = gtpu(user_packet(ue.addr, "8.8.8.8", size=INNER), ue.teid_ul, U.GNB_ADDR, U.N3_ADDR,
                     eth_src=U.GNB_MAC, eth_dst=U.SWITCH_MAC)
            out.append((U.PORT_ACCESS, bytes(f)))
        else:
            f = Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / user_packet("8.8.8.8", ue.addr, sport=80,
                                                                    dport=4000, size=INNER)
            out.append((U.PORT_CORE, bytes(f)))
    return out


def setup(dev, sessions):
    dev.reset()
    c = dev.client
    U.base(c)
    pending, write = [], c.write
    c.write = lambda *u: pending.extend(u)   # collect, then write in batches
    try:
        for ue in sessions:
            U.session(c, ue)
    finally:
        c.write = write
    for i in range(0, len(pending), 500):
        c.write(*pending[i:i + 500])


def throughput(bed, pkts, window, limit):
    """Closed loop: at most `window` frames in flight (sent, no output yet), so the device
    runs at its own sustained rate and nothing is lost to a full input queue. When no
    output comes for 0.5 s, what is in flight is counted as lost."""
    socks = [bed.socks[p] for p in bed.ports]
    for s in socks:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
    bed.flush()
    sent = out = lost = 0
    n = len(pkts)
    t0 = time.monotonic()
    deadline = t0 + limit
    while out + lost < n and time.monotonic() < deadline:
        while sent < n and sent - out - lost < window:
            port, f = pkts[sent]
            bed.socks[port].send(f)
            sent += 1
        r = select.select(socks, [], [], 0.5)[0]
        if not r:
            lost = sent - out
            continue
        for s in r:
            while True:
                try:
                    _, addr = s.recvfrom(65535)
                except BlockingIOError:
                    break
                if addr[2] != dataplane.PACKET_OUTGOING:
                    out += 1
    t1 = time.monotonic()
    return {"sent": sent, "out": min(out, sent), "pps": out / (t1 - t0), "window": window}


def latency(bed, pkts, limit):
    out_port = {U.PORT_ACCESS: U.PORT_CORE, U.PORT_CORE: U.PORT_ACCESS}
    lat, lost = [], 0
    deadline = time.monotonic() + limit
    for port, f in pkts:
        if time.monotonic() > deadline:
            break
        bed.flush()
        t0 = time.monotonic()
        bed.send(port, f)
        if bed.recv(out_port[port], 1.0) is None:
            lost += 1
        else:
            lat.append((time.monotonic() - t0) * 1e6)
    lat.sort()
    return {"lat_n": len(lat), "lat_lost": lost, "p50_us": statistics.median(lat) if lat else float("nan"),
            "p99_us": lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--pkts", type=int, default=20000)
    ap.add_argument("--lat-pkts", type=int, default=500)
    ap.add_argument("--window", type=int, default=64, help="frames in flight")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds at most per phase (throughput, latency) per device")
    ap.add_argument("--targets", default="bmv2-sw,backend")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("needs root (network namespace, veth)")
    sessions = ues(a.sessions)
    pkts, lat_pkts = frames(sessions, a.pkts), frames(sessions, a.lat_pkts, seed=2)
    print("frames: uplink %d B, downlink %d B" % (len(pkts[0][1]), len(pkts[1][1])))
    rows = {}
    for target in a.targets.split(","):
        if not T.binary(target):
            print("SKIPPED %s: binary not found" % target)
            continue
        bed = dataplane.TestBed(2, tag="bs%d" % (os.getpid() % 10000))
        try:
            dev = T.Device(target, bed)
            try:
                setup(dev, sessions)
                r = throughput(bed, pkts, a.window, a.limit)
                r.update(latency(bed, lat_pkts, a.limit))
            finally:
                dev.stop()
        finally:
            bed.close()
        rows[target] = r
        print("%-8s sent %d (%d in flight), out %d (%.1f %%), %.0f pps, latency p50 %.0f us "
              "p99 %.0f us (%d, %d lost)" % (target, r["sent"], r["window"], r["out"],
                                             100.0 * r["out"] / r["sent"], r["pps"], r["p50_us"],
                                             r["p99_us"], r["lat_n"], r["lat_lost"]), flush=True)
    if "bmv2-sw" in rows and "backend" in rows:
        b, m = rows["backend"], rows["bmv2-sw"]
        print("ratio backend/bmv2: throughput %.1fx, p50 latency %.2fx (bmv2/backend %.1fx)"
              % (b["pps"] / m["pps"], b["p50_us"] / m["p50_us"], m["p50_us"] / b["p50_us"]))


if __name__ == "__main__":
    main()
