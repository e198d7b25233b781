"""Thousands of PFCP Session Establishments, fast: one request built with the SMF emulator (scapy) as a
template, then per UE only the bytes that differ are patched (sequence number, CP SEID, UE address,
downlink TEID), with a window of requests in flight; answers are read with a small TLV walk. The
association and every other request go through the emulator as usual, on the same socket."""
import ipaddress
import select
import struct

from pfcp_spec import build_message

IE_CAUSE, IE_FSEID, IE_CREATED_PDR, IE_FTEID = 19, 57, 8, 21
ACCEPTED = 1
MARK_SEID, MARK_UE, MARK_TEID = 0x5EED5EED5EED5EED, "10.254.253.252", 0x7EA7E1D0


def _offset(buf, needle, what):
    at = buf.find(needle)
    if at < 0 or buf.find(needle, at + 1) >= 0:
        raise AssertionError("template: %s not found exactly once" % what)
    return at


def _ies(buf, start, end):
    while start + 4 <= end:
        t, n = struct.unpack_from("!HH", buf, start)
        yield t, start + 4, start + 4 + n
        start += 4 + n


def parse_answer(data):
    """(seq, cause, up_seid, ul_teid) of an Establishment Response."""
    seq = int.from_bytes(data[12:15], "big")
    cause = up_seid = teid = None
    for t, s, e in _ies(data, 16, len(data)):
        if t == IE_CAUSE:
            cause = data[s]
        elif t == IE_FSEID:
            up_seid = struct.unpack_from("!Q", data, s + 1)[0]
        elif t == IE_CREATED_PDR:
            for t2, s2, _ in _ies(data, s, e):
                if t2 == IE_FTEID:
                    teid = struct.unpack_from("!I", data, s2 + 1)[0]
    return seq, cause, up_seid, teid


def establish(em, ues, gnb, window=64, timeout=30.0):
    """Establishes a session per UE ({"idx", "addr", "dl_teid"}; idx is the CP SEID); fills in "up_seid"
    and "ul_teid" of the accepted ones and returns how many were accepted."""
    spec = em.establishment(MARK_SEID, MARK_UE, dl_far_action=0x02, gnb=gnb, gnb_teid=MARK_TEID, urr=False)
    template = bytes(build_message(spec))
    o_seid = _offset(template, struct.pack("!Q", MARK_SEID), "CP SEID")
    o_ue = [template.find(ipaddress.IPv4Address(MARK_UE).packed)]
    o_ue.append(template.find(ipaddress.IPv4Address(MARK_UE).packed, o_ue[0] + 1))
    o_teid = _offset(template, struct.pack("!I", MARK_TEID), "downlink TEID")
    by_seq, pending, accepted, i = {}, 0, 0, 0
    em.sock.setblocking(False)
    try:
        while i < len(ues) or pending:
            while i < len(ues) and pending < window:
                u = ues[i]
                seq = em.next_seq() & 0xFFFFFF
                m = bytearray(template)
                m[12:15] = seq.to_bytes(3, "big")
                m[o_seid:o_seid + 8] = struct.pack("!Q", u["idx"])
                for o in o_ue:
                    m[o:o + 4] = ipaddress.IPv4Address(u["addr"]).packed
                m[o_teid:o_teid + 4] = struct.pack("!I", u["dl_teid"])
                em.send_raw(bytes(m))
                by_seq[seq] = u
                pending += 1
                i += 1
            ready, _, _ = select.select([em.sock], [], [], timeout)
            if not ready:
                raise AssertionError("no Establishment Response within %.0f s (%d in flight)" % (timeout, pending))
            while True:
                try:
                    data = em.sock.recv(65535)
                except BlockingIOError:
                    break
                seq, cause, up_seid, teid = parse_answer(data)
                u = by_seq.pop(seq, None)
                if u is None:
                    continue
                pending -= 1
                if cause == ACCEPTED and up_seid is not None and teid is not None:
                    u["up_seid"], u["ul_teid"] = up_seid, teid
                    accepted += 1
    finally:
        em.sock.setblocking(True)
    return accepted
