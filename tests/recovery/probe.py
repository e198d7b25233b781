"""The recovery suite's forwarding probe: uplink G-PDUs of a sample of UEs at a steady rate (send, in the
gNB namespace), and their decapsulated arrivals counted per 100 ms (recv, in the DN namespace), so that a
gap in forwarding shows as empty buckets.

    probe.py send --iface gnb0 --spec SPEC.json --pps N --out SENT.json
    probe.py recv --iface dn0 --out COUNTS.json
    probe.py frames --iface gnb0 --spec FRAMES.json      (sends hex frames once: ["0a1b...", ...])

SPEC: {"eth_dst", "eth_src", "gnb", "n3", "app", "ues": [[idx, addr, ul_teid], ...]}. Both files are
rewritten every 200 ms: {"buckets": {"<100 ms slot since the epoch>": packets}, "per_ue": {idx: packets},
"bad": n, "socket_drops": n, "done": bool}, so that packets sent and received can be compared over any period (a CPU-starved sender
sends in bursts: gaps in what arrives are only losses where packets were sent).
"""
import argparse
import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from hupf_tools.lab import frames  # noqa: E402
from hupf_tools.lab.traffic import (ETH_P_ALL, Stop, ignore_outgoing, socket_drops, until_drained,  # noqa: E402
                                    write_json)

BUCKET_S = 0.1
WRITE_EVERY_S = 0.2
SIZE = 128


class Counts:
    """Packets per 100 ms slot and per UE, written to a file every WRITE_EVERY_S."""

    def __init__(self, path):
        self.path, self.buckets, self.per_ue, self.bad, self.written = path, {}, {}, 0, 0.0
        self.socket_drops, self.done = 0, False

    def add(self, ue_idx):
        slot = str(int(time.time() / BUCKET_S))
        self.buckets[slot] = self.buckets.get(slot, 0) + 1
        self.per_ue[str(ue_idx)] = self.per_ue.get(str(ue_idx), 0) + 1

    def write(self, force=False):
        if force or time.time() - self.written >= WRITE_EVERY_S:
            write_json(self.path, {"buckets": self.buckets, "per_ue": self.per_ue, "bad": self.bad,
                                   "socket_drops": self.socket_drops, "done": self.done})
            self.written = time.time()


def send(sock, spec, pps, counts, stop):
    built = [(idx, frames.uplink_frame(spec["eth_dst"], spec["eth_src"], spec["gnb"], spec["n3"], teid, addr,
                                       spec["app"], idx, SIZE)) for idx, addr, teid in spec["ues"]]
    seq, sent, start = 0, 0, time.time()
    while not stop.now:
        due = int((time.time() - start) * pps)
        while sent < due:
            seq += 1
            idx, frame = built[sent % len(built)]
            try:
                sock.send(frame.stamp(seq))
            except (BlockingIOError, OSError):
                break
            counts.add(idx)
            sent += 1
        counts.write()
        time.sleep(0.002)
    counts.done = True
    counts.write(force=True)


def recv(sock, counts, stop):
    """Counts arrivals until stopped and drained (what is queued at the stop still counts), then writes the
    final counts with the socket's drops and "done"."""
    ignore_outgoing(sock)
    for ready in until_drained(sock, stop):
        while ready:
            try:
                frame = sock.recv(9216)
            except BlockingIOError:
                break
            try:
                got = frames.parse_uplink(frame)
            except frames.BadFrame:
                counts.bad += 1
                continue
            if got is not None:
                counts.add(got[0])
        counts.socket_drops += socket_drops(sock)
        counts.write()
    counts.socket_drops += socket_drops(sock)
    counts.done = True
    counts.write(force=True)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("send", "recv", "frames"))
    ap.add_argument("--iface", required=True)
    ap.add_argument("--spec")
    ap.add_argument("--pps", type=int, default=1000)
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((a.iface, 0))
    sock.setblocking(False)
    if a.mode == "frames":
        with open(a.spec) as f:
            for frame in json.load(f):
                sock.send(bytes.fromhex(frame))
    elif a.mode == "send":
        with open(a.spec) as f:
            send(sock, json.load(f), a.pps, Counts(a.out), Stop())
    else:
        recv(sock, Counts(a.out), Stop())
    return 0


if __name__ == "__main__":
    sys.exit(main())
