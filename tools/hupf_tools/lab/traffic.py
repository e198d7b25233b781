"""Lab traffic: a paced sender and a checking receiver on one interface of one host.

    python -m hupf_tools.lab.traffic send|recv --plan plan.json --side gnb|dn --iface IF --stats OUT

The gNB side sends GTP-U uplink and receives (checks) encapsulated downlink; the DN side sends
plain downlink and receives (checks) decapsulated uplink. Rates follow the plan's phases;
pacing follows each UE's due times (a heap), with prebuilt frames on a raw AF_PACKET socket, each stamped with
its send time just before the socket call. The receiver's one-way latency of a packet is the kernel's receive
time of it (SO_TIMESTAMPNS, the same clock) less that send time: neither side's scheduling after the stamps counts.
Stats are written to OUT every half second (atomically) and on SIGTERM/SIGINT, then it exits; the receiver's
last write holds each UE's latencies.
"""
import argparse
import array
import heapq
import ipaddress
import json
import os
import select
import signal
import socket
import struct
import time

from hupf_tools.lab import frames

ETH_P_ALL = 0x0003
SOL_PACKET, PACKET_STATISTICS, PACKET_IGNORE_OUTGOING = 263, 6, 23
# Linux's SO_TIMESTAMPNS (also the control message's type), which Python's socket module does not name.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
TICK_S = 0.002
STATS_EVERY_S = 0.5
DRAIN_S = 0.3
# Loss runs reported per UE and direction at the end (when they happened, for the tests' diagnostics).
GAPS_PER_UE = 8


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def rate_at(ue, direction, t):
    """Packets per second and size of one UE in one direction at plan time t."""
    return phase_at(ue, direction, t)[:2]


def phase_at(ue, direction, t):
    """(packets per second, size, end of the phase) of one UE in one direction at plan time t."""
    for start, end, pps_ul, pps_dl, size in ue["phases"]:
        if start <= t < end:
            return (pps_ul if direction == frames.UPLINK else pps_dl), size, end
    return 0.0, 0, None


def build_frames(plan, side):
    """{(ue index, size): Frame} for every size the plan uses on this side."""
    built = {}
    for ue in plan["ues"]:
        for _, _, _, _, size in ue["phases"]:
            if (ue["idx"], size) in built:
                continue
            if side == "gnb":
                f = frames.uplink_frame(plan["gnb_peer_mac"], plan["gnb_mac"], plan["gnb"], plan["n3"],
                                        ue["ul_teid"], ue["addr"], plan["app"], ue["idx"], size)
            else:
                f = frames.downlink_frame(plan["dn_peer_mac"], plan["dn_mac"], plan["app"], ue["addr"],
                                          ue["idx"], size)
            built[(ue["idx"], size)] = f
    return built


class Stop:
    def __init__(self):
        self.now = False
        signal.signal(signal.SIGTERM, self._set)
        signal.signal(signal.SIGINT, self._set)

    def _set(self, *_):
        self.now = True


def next_active(ue, direction, t):
    """The start of the first phase after t in which the UE sends in this direction, or None."""
    starts = [start for start, _, pps_ul, pps_dl, _ in ue["phases"]
              if start > t and (pps_ul if direction == frames.UPLINK else pps_dl) > 0]
    return min(starts) if starts else None


def send(plan, side, sock, stats_path, stop):
    """Each UE's packets at its phase's rate, from a heap of due times: the work per tick is the packets
    due, not the UE count (a thousand UEs, a few of them at thousands of packets per second)."""
    direction = frames.UPLINK if side == "gnb" else frames.DOWNLINK
    built = build_frames(plan, side)
    ues = plan["ues"]
    tx = {str(u["idx"]): {"pkts": 0, "bytes": 0} for u in ues}
    seq = [0] * len(ues)
    start = plan["start"]
    # Plan-time due of each UE's next packet, spread by a fixed fraction of its interval per UE.
    due = []
    for i, ue in enumerate(ues):
        pps, _ = rate_at(ue, direction, 0.0)
        first = (ue["idx"] * 0.6180339887 % 1.0) / pps if pps > 0 else next_active(ue, direction, 0.0)
        if first is not None:
            due.append((first, i))
    heapq.heapify(due)
    while time.time() < start and not stop.now:
        time.sleep(0.01)
    last_stats = 0.0
    while not stop.now:
        now = time.time()
        t = now - start
        if t >= plan["duration"]:
            break
        while due and due[0][0] <= t:
            at, i = due[0]
            ue = ues[i]
            pps, size, end = phase_at(ue, direction, at)
            if pps <= 0:
                later = next_active(ue, direction, at)
                heapq.heapreplace(due, (later, i)) if later is not None else heapq.heappop(due)
                continue
            try:
                sock.send(built[(ue["idx"], size)].stamp(seq[i] + 1, time.time_ns()))
            except (BlockingIOError, OSError):
                break  # the socket is full: the same packet is due again next tick
            seq[i] += 1
            c = tx[str(ue["idx"])]
            c["pkts"] += 1
            c["bytes"] += size
            # The next packet at this phase's rate, or at the next phase's start; a sender that fell behind
            # by more than 50 ms skips ahead instead of bursting.
            heapq.heapreplace(due, (max(min(at + 1.0 / pps, end), t - 0.05), i))
        if now - last_stats >= STATS_EVERY_S:
            write_json(stats_path, {"side": side, "tx": tx, "done": False})
            last_stats = now
        time.sleep(TICK_S)
    write_json(stats_path, {"side": side, "tx": tx, "done": True})


def check(plan, side, frame, addrs):
    """(ue index, seq, user length, send time in ns or None) of a correct lab frame, None for foreign traffic;
    raises BadFrame."""
    if side == "dn":
        got = frames.parse_uplink(frame)
        if got is None:
            return None
        idx, seq, src, dst, length, sent_ns = got
        ue = addrs.get(idx)
        if ue is None:
            raise frames.BadFrame("unknown UE index")
        if src != ue["addr_b"] or dst != plan["app_b"]:
            raise frames.BadFrame("wrong inner addresses")
        return idx, seq, length, sent_ns
    got = frames.parse_downlink(frame)
    if got is None:
        return None
    idx, seq, osrc, odst, teid, idst, length, sent_ns = got
    ue = addrs.get(idx)
    if ue is None:
        raise frames.BadFrame("unknown UE index")
    if osrc != plan["n3_b"] or odst != plan["gnb_b"]:
        raise frames.BadFrame("wrong tunnel addresses")
    if teid != ue["dl_teid"]:
        raise frames.BadFrame("wrong TEID")
    if idst != ue["addr_b"]:
        raise frames.BadFrame("wrong inner destination")
    return idx, seq, length, sent_ns


def until_drained(sock, stop):
    """Yields, about every 0.1 s and whenever the socket has frames, whether it has; ends once stop is set and the
    socket then stayed empty for DRAIN_S: the frames already queued at the stop still count (a receiver that other
    work kept off the CPU for a while must not call them lost)."""
    drained_at = None
    while True:
        stopping = stop.now  # set by a signal handler at any time: read once per round
        if stopping and drained_at is None:
            drained_at = time.time()
        ready, _, _ = select.select([sock], [], [], 0.1)
        if stopping and not ready and time.time() - drained_at >= DRAIN_S:
            return
        if ready and stopping:
            drained_at = time.time()
        yield bool(ready)


def recv(plan, side, sock, stats_path, stop, start_of=lambda: 0.0):
    """Checks and counts what arrives until stopped; start_of() gives the senders' start (read at the end: the
    receiver listens before the senders' start is set), for the times in the gaps' report."""
    plan = dict(plan, app_b=frames.ip(plan["app"]), n3_b=frames.ip(plan["n3"]), gnb_b=frames.ip(plan["gnb"]))
    addrs = {u["idx"]: dict(u, addr_b=frames.ip(u["addr"])) for u in plan["ues"]}
    rx = {str(u["idx"]): {"pkts": 0, "bytes": 0, "reordered": 0, "max_seq": 0} for u in plan["ues"]}
    bad = {}
    drops = 0
    last_stats = 0.0
    # Per UE, when each sequence number arrived (0: not yet), for the gaps' report at the end.
    arrivals = {u["idx"]: array.array("d") for u in plan["ues"]}
    latency_us = {}
    for ready in until_drained(sock, stop):
        if ready:
            while True:
                try:
                    frame, anc, _, _ = sock.recvmsg(9216, 64)
                except BlockingIOError:
                    break
                try:
                    got = check(plan, side, frame, addrs)
                except frames.BadFrame as e:
                    bad[e.reason] = bad.get(e.reason, 0) + 1
                    continue
                if got is None:
                    continue
                c = rx[str(got[0])]
                arrived = arrivals[got[0]]
                if got[1] > len(arrived):
                    arrived.extend([0.0] * (got[1] - len(arrived)))
                arrived[got[1] - 1] = time.time()
                c["pkts"] += 1
                c["bytes"] += got[2]
                rx_ns = kernel_time_ns(anc)
                if got[3] is not None and rx_ns is not None:
                    latency_us.setdefault(str(got[0]), []).append(round((rx_ns - got[3]) / 1000.0, 1))
                if got[1] < c["max_seq"]:
                    c["reordered"] += 1
                c["max_seq"] = max(c["max_seq"], got[1])
        now = time.time()
        if now - last_stats >= STATS_EVERY_S:
            drops += socket_drops(sock)
            write_json(stats_path, {"side": side, "rx": rx, "bad": bad, "socket_drops": drops})
            last_stats = now
    drops += socket_drops(sock)
    write_json(stats_path, {"side": side, "rx": rx, "bad": bad, "socket_drops": drops, "done": True,
                            "gaps": gaps(arrivals, start_of()), "latency_us": latency_us})


def kernel_time_ns(ancdata):
    """The kernel's receive time (SO_TIMESTAMPNS) in a recvmsg's control messages, ns; None without it."""
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            sec, nsec = struct.unpack("qq", data[:16])
            return sec * 1_000_000_000 + nsec
    return None


def gaps(arrivals, start=0.0, per_ue=GAPS_PER_UE):
    """{ue index: [[first, last, t_before, t_after], ...]}: the runs of sequence numbers that never arrived (up
    to the highest that did), with the arrival times (s after start) of the packets either side;
    at most per_ue runs per UE, the first ones. Says when packets were lost, not only how many."""
    out = {}
    for idx, arrived in arrivals.items():
        runs, first = [], None
        for i, t in enumerate(arrived):
            if t == 0.0 and first is None:
                first = i
            elif t != 0.0 and first is not None:
                runs.append([first + 1, i, round(arrived[first - 1] - start, 3) if first else None,
                             round(t - start, 3)])
                first = None
                if len(runs) == per_ue:
                    break
        if runs:
            out[str(idx)] = runs
    return out


def ignore_outgoing(sock):
    """The kernel queues no frame this host sends to the socket: its drops (socket_drops) are then only of frames
    that arrived, which the lab's accounting adds up."""
    sock.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)


def socket_drops(sock):
    """Frames the kernel dropped for want of room in this socket's buffer since the last call (the
    receiver's own loss, not the UPF's)."""
    packets, dropped = struct.unpack("II", sock.getsockopt(SOL_PACKET, PACKET_STATISTICS, 8))
    return dropped


def load_plan(path):
    with open(path) as f:
        return json.load(f)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("send", "recv"))
    ap.add_argument("--plan", required=True)
    ap.add_argument("--side", choices=("gnb", "dn"), required=True)
    ap.add_argument("--iface", required=True)
    ap.add_argument("--stats", required=True)
    args = ap.parse_args(argv)
    plan = load_plan(args.plan)
    for u in plan["ues"]:
        ipaddress.IPv4Address(u["addr"])
    stop = Stop()
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((args.iface, 0))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF if args.mode == "recv" else socket.SO_SNDBUF, 1 << 23)
    if args.mode == "recv":
        ignore_outgoing(sock)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    sock.setblocking(False)
    if args.mode == "send":
        send(plan, args.side, sock, args.stats, stop)
    else:
        recv(plan, args.side, sock, args.stats, stop, lambda: load_plan(args.plan)["start"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
