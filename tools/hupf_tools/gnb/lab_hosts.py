"""The gNB lab's hosts (docs/GNB.md, "The lab"), each on a raw AF_PACKET socket in its namespace:

- `ue`: every UE of the plan behind the air link. Uplink: user packets to the application, each a PDCP data
  PDU ciphered with the UE's NEA2 key (COUNT = its sequence number), with NIA2's MAC-I when the UE has an
  integrity key (checked on the downlink likewise). Downlink: the gNB's PDUs deciphered (COUNT
  from the SN and RX_DELIV, TS 38.323 §5.2.2.1), checked against what the DN host sent, delivered in COUNT
  order; status reports (FMC = RX_DELIV, the bitmap of what arrived beyond it) while PDUs are missing or new,
  and a last one acknowledging everything. With the plan's air_loss (a kernel without netem), it drops that
  share of the downlink frames it receives, seeded, and counts them.
- `dn`: the application's host: sends each UE's downlink user packets, checks their uplink ones (in order,
  content intact).

    python -m hupf_tools.gnb.lab_hosts ue|dn --plan PLAN.json [--keys KEYS.json] --iface IF --stats OUT.json

Keys come from a 0600 file the lab writes; they are never printed. The stats file says what was sent,
received, delivered and checked per UE; before, that the host listens (the lab sets the plan's start then).
"""
import argparse
import json
import random
import select
import socket
import struct
import time

from . import frames as F
from .nr_sec import DOWNLINK, UPLINK, nea2, nia2

ETH_P_ALL = 0x0003
SOL_PACKET, PACKET_IGNORE_OUTGOING = 263, 23
USER_HDR = struct.Struct("!IIB")   # UE index, sequence number, direction (0 uplink, 1 downlink)
UE_PORT, APP_PORT = 40000, 50000
STATUS_INTERVAL_S = 0.02


def user_payload(idx, seq, direction, size):
    head = USER_HDR.pack(idx, seq, direction)
    return head + bytes((seq + i) & 0xFF for i in range(size - len(head)))


def parse_user(packet, direction):
    """(idx, seq, src, dst) of a user IPv4/UDP packet whose payload is intact, else None."""
    if len(packet) < 28 + USER_HDR.size or packet[0] != 0x45 or packet[9] != 17:
        return None
    total = struct.unpack("!H", packet[2:4])[0]
    payload = packet[28:total]
    idx, seq, d = USER_HDR.unpack(payload[:USER_HDR.size])
    if d != direction or payload != user_payload(idx, seq, direction, len(payload)):
        return None
    return idx, seq, socket.inet_ntoa(packet[12:16]), socket.inet_ntoa(packet[16:20])


def downlink_packet(app, ue, seq, size):
    """The DN host's seq-th user packet to a UE."""
    return F.user_packet(app, ue["addr"], user_payload(ue["idx"], seq, 1, size), APP_PORT, UE_PORT)


def rx_count(rx_deliv, sn, sn_bits):
    """COUNT of a received SN (TS 38.323 §5.2.2.1)."""
    window = 1 << (sn_bits - 1)
    hfn, deliv_sn = rx_deliv >> sn_bits, rx_deliv & ((1 << sn_bits) - 1)
    if sn < deliv_sn - window:
        hfn += 1
    elif sn >= deliv_sn + window:
        hfn -= 1
    return (hfn << sn_bits) | sn


class Pacer:
    """Sends (due time, frame) in order at the plan's rate, as far as the socket takes them."""

    def __init__(self, sock, frames, pps, start):
        self.sock, self.frames, self.gap, self.start, self.next = sock, frames, 1.0 / pps, start, 0

    def pump(self, now):
        while self.next < len(self.frames) and self.start + self.next * self.gap <= now:
            try:
                self.sock.send(self.frames[self.next])
            except BlockingIOError:
                return
            self.next += 1

    def done(self):
        return self.next == len(self.frames)


class UeReceiver:
    """One UE's PDCP receiving side on the downlink."""

    def __init__(self, ue):
        self.ue, self.rx_deliv, self.pending, self.delivered = ue, 0, {}, []
        self.duplicates = self.bad = self.out_of_order = 0
        self.highest = -1
        self.key = bytes.fromhex(ue["kUpEnc"])
        self.int_key = bytes.fromhex(ue["kUpInt"]) if ue.get("kUpInt") else None
        self.changed, self.last_status = False, 0.0

    def pdu(self, pdu):
        sn = F.pdcp_sn(pdu, self.ue["snBits"])
        if sn is None:
            self.bad += 1
            return
        count = rx_count(self.rx_deliv, sn, self.ue["snBits"])
        hdr, bearer = 2 if self.ue["snBits"] == 12 else 3, self.ue["drb"] - 1
        plain = nea2(self.key, count, bearer, DOWNLINK, pdu[hdr:])
        if self.int_key:   # SDU || MAC-I, the MAC over the header and the SDU (TS 38.323 §5.9)
            plain, mac = plain[:-4], plain[-4:]
            if nia2(self.int_key, count, bearer, DOWNLINK, pdu[:hdr] + plain) != mac:
                self.bad += 1
                return
        got = parse_user(plain, 1)
        if got is None or got[0] != self.ue["idx"] or got[3] != self.ue["addr"]:
            self.bad += 1
            return
        if count < self.rx_deliv or count in self.pending:
            self.duplicates += 1
            return
        if count < self.highest:
            self.out_of_order += 1   # a retransmission filling a gap
        self.highest = max(self.highest, count)
        self.pending[count] = got[1]
        self.changed = True
        while self.rx_deliv in self.pending:
            self.delivered.append(self.pending.pop(self.rx_deliv))
            self.rx_deliv += 1

    def status_report(self, now, force=False):
        """A status report's PDU when one is due: something new arrived, or PDUs are missing."""
        if not force and (now - self.last_status < STATUS_INTERVAL_S or not (self.changed or self.pending)):
            return None
        self.changed, self.last_status = False, now
        bits = self.highest - self.rx_deliv if self.pending else 0
        bitmap = bytearray((bits + 7) // 8)
        for i in range(bits):
            if self.rx_deliv + 1 + i in self.pending:
                bitmap[i // 8] |= 0x80 >> (i % 8)
        return F.pdcp_status(self.rx_deliv, bytes(bitmap))

    def stats(self):
        return {"delivered": len(self.delivered), "in_order": self.delivered == list(range(len(self.delivered))),
                "missing": len(self.pending), "rx_deliv": self.rx_deliv, "duplicates": self.duplicates,
                "bad": self.bad, "recovered_out_of_order": self.out_of_order}


def received(sock, wait_s=0.002):
    """The frames the socket holds (at most a burst of 256), after waiting up to wait_s for the first."""
    if not select.select([sock], [], [], wait_s)[0]:
        return
    for _ in range(256):
        try:
            yield sock.recv(65535)
        except BlockingIOError:
            return


def uplink_frames(plan, ues):
    out = []
    for seq in range(plan["packets"]):
        for u in ues:
            packet = F.user_packet(u["addr"], plan["app"], user_payload(u["idx"], seq, 0, plan["size"]),
                                   UE_PORT, APP_PORT)
            header = F.pdcp_data(seq, b"", u["snBits"])
            if u.get("kUpInt"):
                packet += nia2(bytes.fromhex(u["kUpInt"]), seq, u["drb"] - 1, UPLINK, header + packet)
            sdu = nea2(bytes.fromhex(u["kUpEnc"]), seq, u["drb"] - 1, UPLINK, packet)
            out.append(F.air_frame(plan["air_mac"], u["mac"], u["lcid"], header + sdu))
    return out


def downlink_frames(plan):
    out = []
    for seq in range(plan["packets"]):
        for u in plan["ues"]:
            packet = downlink_packet(plan["app"], u, seq, plan["size"])
            out.append(F.ether(plan["dn_peer_mac"], plan["dn_mac"], 0x0800) + packet)
    return out


def run_ue(plan, ues, sock, deadline):
    by_mac = {F.mac_bytes(u["mac"]): UeReceiver(u) for u in ues}
    air = random.Random(plan.get("seed", 0))
    air_lost = reports = 0
    pacer = Pacer(sock, uplink_frames(plan, ues), plan["pps"], plan["start"])
    expected = plan["packets"]
    while time.time() < deadline:
        now = time.time()
        pacer.pump(now)
        for frame in received(sock):
            try:
                dst, _, lcid, pdu = F.parse_air(frame)
            except ValueError:
                continue
            r = by_mac.get(dst)
            if r is None or lcid != r.ue["lcid"]:
                continue
            if air.random() < plan.get("air_loss", 0.0):   # the lossy radio, where the lab has no netem
                air_lost += 1
                continue
            r.pdu(pdu)
        for r in by_mac.values():
            report = r.status_report(now)
            if report is not None:
                sock.send(F.air_frame(plan["air_mac"], r.ue["mac"], r.ue["lcid"], report))
                reports += 1
        if pacer.done() and all(r.rx_deliv == expected for r in by_mac.values()):
            break
    for r in by_mac.values():   # everything acknowledged: BaaS lets go of what it holds
        sock.send(F.air_frame(plan["air_mac"], r.ue["mac"], r.ue["lcid"], r.status_report(time.time(), True)))
        reports += 1
    return {"sent_ul": pacer.next, "air_lost": air_lost, "status_reports": reports, "ues": {str(r.ue["idx"]): r.stats() for r in by_mac.values()}}


def run_dn(plan, sock, deadline):
    pacer = Pacer(sock, downlink_frames(plan), plan["pps"], plan["start"])
    got = {str(u["idx"]): [] for u in plan["ues"]}
    addrs = {u["addr"]: str(u["idx"]) for u in plan["ues"]}
    bad = 0
    while time.time() < deadline:
        pacer.pump(time.time())
        for frame in received(sock):
            if frame[12:14] != b"\x08\x00":
                continue
            user = parse_user(frame[14:], 0)
            if user is None or addrs.get(user[2]) != str(user[0]) or user[3] != plan["app"]:
                bad += 1
                continue
            got[str(user[0])].append(user[1])
        if pacer.done() and all(len(v) >= plan["packets"] for v in got.values()):
            break
    return {"sent_dl": pacer.next, "bad": bad,
            "ues": {k: {"received": len(v), "in_order": v == list(range(len(v)))} for k, v in got.items()}}


def listen_until_start(plan_path, stats_path, poll_s=0.02):
    """Says this host listens (its stats file, before any counts), then waits for the lab to set the plan's start,
    which it does once every host listens and the gNB's switch and services are ready; returns that plan."""
    with open(stats_path, "w") as f:
        json.dump({"listening": True}, f)
    while True:
        with open(plan_path) as f:
            plan = json.load(f)
        if plan.get("start") is not None:
            return plan
        time.sleep(poll_s)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("role", choices=("ue", "dn"))
    ap.add_argument("--plan", required=True)
    ap.add_argument("--keys")
    ap.add_argument("--iface", required=True)
    ap.add_argument("--stats", required=True)
    args = ap.parse_args(argv)
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((args.iface, 0))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 23)
    sock.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)
    sock.setblocking(False)
    plan = listen_until_start(args.plan, args.stats)
    deadline = plan["start"] + plan["timeout_s"]
    if args.role == "ue":
        with open(args.keys) as f:
            ues = json.load(f)
        stats = run_ue(plan, ues, sock, deadline)
    else:
        stats = run_dn(plan, sock, deadline)
    stats["done"] = True
    with open(args.stats, "w") as f:
        json.dump(stats, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
