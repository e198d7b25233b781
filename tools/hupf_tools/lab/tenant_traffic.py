"""Tenant lab traffic: the gNB's uplink GTP-U inside each tenant's VXLAN, stamped with its send time, and a
receiver on the DN side that takes each decapsulated packet's one-way latency.

    python -m hupf_tools.lab.tenant_traffic send|recv --plan plan.json --iface IF --stats OUT

The plan's streams: a tenant's packets of one QoS flow (its QFI in the G-PDU's PDU Session Container, or none),
each with its phases. Sender: each stream's packets at its phases' rates (a phase ramps linearly from its
first rate to its second), to its tenant's UEs in turn; every payload carries, after the lab header
(frames.LAB), the send time (CLOCK_REALTIME, ns) taken just before the socket call, then the stream's index.
Receiver: the receive socket's kernel timestamp (SO_TIMESTAMPNS, the same clock) minus that send time is the
packet's latency, so that neither side's scheduling after the timestamp counts; latencies and counts go by
stream and by the plan's windows (the send time decides a packet's window), with the DSCP each stream's
packets arrived with; a packet whose stream index is not one of its UE's tenant is counted malformed.
Stats are written to OUT on SIGTERM/SIGINT (the receiver after draining what is queued), then it exits.
"""
import argparse
import heapq
import socket
import struct
import time

from hupf_tools.lab import frames
from hupf_tools.lab.traffic import (ETH_P_ALL, SO_TIMESTAMPNS, Stop, kernel_time_ns, load_plan, socket_drops,
                                    until_drained, write_json)

VXLAN_PORT = 4789
VXLAN_FLAG_I = 0x08
OUTER_LEN = frames.ETH_LEN + frames.IP_LEN + frames.UDP_LEN + 8
STAMP = struct.Struct("!QQ")  # sequence number (the lab header's last field), then the send time in ns
TICK_S = 0.001
# Where the send time sits in a decapsulated uplink frame as the DN receives it: after the lab header; the
# stream's index follows it.
RX_STAMP_OFF = frames.ETH_LEN + frames.IP_LEN + frames.UDP_LEN + frames.LAB.size
STREAM_AFTER_SEQ = STAMP.size   # the stream index's offset from the sequence number
MIN_SIZE = frames.MIN_USER + 8 + 1   # a user packet holds the send time and the stream index


def vxlan_frame(plan, stream, ue, size, index=0):
    """(frame, offset of the sequence number): ue's GTP-U uplink (user packet of `size` bytes, with the stream's
    QFI in a PDU Session Container when it has one, its index after the send time) inside the stream's tenant's
    VXLAN, from the gNB (the edge VTEP) to the switch's VTEP."""
    if size < MIN_SIZE:
        raise ValueError("a stream's user packet needs at least %d bytes, got %d" % (MIN_SIZE, size))
    inner = frames.uplink_frame(plan["gnb_peer_mac"], plan["gnb_mac"], plan["gnb"], plan["n3"], ue["ul_teid"],
                                ue["addr"], plan["app"], ue["idx"], size, qfi=stream.get("qfi"))
    inner.buf[inner.seq_off + STREAM_AFTER_SEQ] = index
    vxlan = struct.pack("!BxxxI", VXLAN_FLAG_I, stream["vni"] << 8)
    udp = struct.pack("!HHHH", stream["sport"], VXLAN_PORT, frames.UDP_LEN + len(vxlan) + len(inner.buf), 0)
    ip = frames.ipv4(frames.ip(plan["gnb"]), frames.ip(plan["vtep"]), len(udp) + len(vxlan) + len(inner.buf))
    outer = frames.mac(plan["gnb_peer_mac"]) + frames.mac(plan["gnb_mac"]) + struct.pack("!H", frames.ETH_IPV4)
    return bytearray(outer + ip + udp + vxlan + inner.buf), OUTER_LEN + inner.seq_off


def rate_at(phases, t):
    """(packets per second, size, end of phase) of a tenant at plan time t; a phase [t0, t1, pps0, pps1, size]
    ramps linearly from pps0 to pps1."""
    for t0, t1, pps0, pps1, size in phases:
        if t0 <= t < t1:
            return pps0 + (pps1 - pps0) * (t - t0) / (t1 - t0), size, t1
    return 0.0, 0, None


def window_of(plan, t):
    """The name of the plan's window holding plan time t, or None."""
    for name, (t0, t1) in plan["windows"].items():
        if t0 <= t < t1:
            return name
    return None


def send(plan, sock, stats_path, stop):
    streams = plan["streams"]
    ues = {s["name"]: [u for u in plan["ues"] if u["tenant"] == s["tenant"]] for s in streams}
    built = {}
    for k, s in enumerate(streams):
        for u in ues[s["name"]]:
            for size in {p[4] for p in s["phases"]}:
                built[(k, u["idx"], size)] = vxlan_frame(plan, s, u, size, k)
    seq = {u["idx"]: 0 for u in plan["ues"]}
    turn = {s["name"]: 0 for s in streams}
    sent = {s["name"]: {w: 0 for w in plan["windows"]} for s in streams}
    total = {s["name"]: 0 for s in streams}
    sent_bytes = {s["name"]: 0 for s in streams}   # whole VXLAN frames, as the switch counts them
    start = plan["start"]
    # A stream whose tenant has no UE (its sessions refused) sends nothing.
    due = [(s["phases"][0][0], k) for k, s in enumerate(streams) if ues[s["name"]]]
    heapq.heapify(due)
    while time.time() < start and not stop.now:
        time.sleep(0.01)
    while not stop.now and due:
        t = time.time() - start
        if t >= plan["duration"]:
            break
        while due and due[0][0] <= t:
            at, k = due[0]
            stream = streams[k]
            pps, size, end = rate_at(stream["phases"], at)
            if pps <= 0:
                later = [p[0] for p in stream["phases"] if p[0] > at]
                heapq.heapreplace(due, (min(later), k)) if later else heapq.heappop(due)
                continue
            mine = ues[stream["name"]]
            ue = mine[turn[stream["name"]] % len(mine)]
            buf, off = built[(k, ue["idx"], size)]
            now_ns = time.time_ns()
            STAMP.pack_into(buf, off, seq[ue["idx"]] + 1, now_ns)
            try:
                sock.send(buf)
            except (BlockingIOError, OSError):
                break  # the socket is full: the same packet is due again next tick (stamped anew)
            seq[ue["idx"]] += 1
            turn[stream["name"]] += 1
            total[stream["name"]] += 1
            sent_bytes[stream["name"]] += len(buf)
            w = window_of(plan, now_ns / 1e9 - start)
            if w:
                sent[stream["name"]][w] += 1
            # The next packet at this rate, or at the phase's end; a sender that fell behind by more than
            # 50 ms skips ahead instead of bursting.
            heapq.heapreplace(due, (max(min(at + 1.0 / pps, end), t - 0.05), k))
        time.sleep(TICK_S)
    write_json(stats_path, {"sent": sent, "total": total, "bytes": sent_bytes, "done": True})


def stream_of(frame, streams, tenant):
    """The name of a received uplink frame's stream (its index after the send time), None when that is no stream
    of its UE's tenant."""
    k = frame[RX_STAMP_OFF + 8] if len(frame) > RX_STAMP_OFF + 8 else len(streams)
    return streams[k]["name"] if k < len(streams) and streams[k]["tenant"] == tenant else None


def recv(plan, sock, stats_path, stop, start_of=lambda: None):
    """Stats are written once when listening (the lab starts the sender then) and at the end. The senders' start
    (plan["start"], else start_of(), read when the first frame arrives) places each frame in its window."""
    tenant_of = {u["idx"]: u["tenant"] for u in plan["ues"]}
    streams = plan["streams"]
    names = [s["name"] for s in streams]
    lat = {n: {w: [] for w in plan["windows"]} for n in names}
    got = {n: {w: 0 for w in plan["windows"]} for n in names}
    total = {n: 0 for n in names}
    dscp = {n: {} for n in names}
    bad, no_stamp = {}, 0
    start_ns = None if plan["start"] is None else int(plan["start"] * 1e9)
    write_json(stats_path, {"listening": True})
    for ready in until_drained(sock, stop):
        while ready:
            try:
                frame, anc, _, addr = sock.recvmsg(9216, 64)
            except BlockingIOError:
                break
            if start_ns is None:
                start_ns = int(start_of() * 1e9)
            if addr[2] == socket.PACKET_OUTGOING:
                continue
            try:
                parsed = frames.parse_uplink(frame)
            except frames.BadFrame as e:
                bad[e.reason] = bad.get(e.reason, 0) + 1
                continue
            if parsed is None or parsed[0] not in tenant_of:
                continue
            name = stream_of(frame, streams, tenant_of[parsed[0]])
            if name is None:
                bad["stream of another tenant"] = bad.get("stream of another tenant", 0) + 1
                continue
            rx_ns = kernel_time_ns(anc)
            if rx_ns is None:
                no_stamp += 1
                continue
            sent_ns = struct.unpack_from("!Q", frame, RX_STAMP_OFF)[0]
            total[name] += 1
            d = str(frame[frames.ETH_LEN + 1] >> 2)
            dscp[name][d] = dscp[name].get(d, 0) + 1
            w = window_of(plan, (sent_ns - start_ns) / 1e9)
            if w:
                got[name][w] += 1
                lat[name][w].append(round((rx_ns - sent_ns) / 1000.0, 1))
    write_json(stats_path, {"received": got, "total": total, "latency_us": lat, "dscp": dscp, "bad": bad,
                            "no_kernel_timestamp": no_stamp, "socket_drops": socket_drops(sock), "done": True})


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("send", "recv"))
    ap.add_argument("--plan", required=True)
    ap.add_argument("--iface", required=True)
    ap.add_argument("--stats", required=True)
    args = ap.parse_args(argv)
    plan = load_plan(args.plan)
    stop = Stop()
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((args.iface, 0))
    if args.mode == "recv":
        # Kernel receive timestamps (CLOCK_REALTIME, as the sender's time.time_ns()).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 23)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    else:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 23)
    sock.setblocking(False)
    if args.mode == "send":
        send(plan, sock, args.stats, stop)
    else:
        recv(plan, sock, args.stats, stop, lambda: load_plan(args.plan)["start"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
