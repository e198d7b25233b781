"""Bad input over real UDP: each malformed request is answered with its TS 29.244 §7.6 cause or dropped
and counted, and the agent keeps serving."""
import struct

import pytest
from scapy.contrib import pfcp as P

from pfcp_spec import (build_message, flags, fseid, group, message, node_ipv4, uint)
from smf import Smf, cause, ie


@pytest.fixture(scope="module")
def smf(upf):
    s = Smf(upf.addr)
    assert cause(s.request(s.association_setup())[0]) == 1
    yield s
    s.close()


def stat(upf, name):
    return upf.pfcp_stats().get(name, 0)


def still_alive(smf):
    resp, _ = smf.request(smf.heartbeat())
    assert resp.message_type == 2


def unanswered_before_a_heartbeat(smf):
    """The UPF sorts its datagrams in order on one thread, where it drops the malformed ones: once it answers a
    heartbeat sent after them, it has handled them, and an answer to one of them would have come first."""
    spec = smf.heartbeat()
    smf.send_raw(bytes(build_message(spec)))
    resp, _ = smf.recv(60)   # a hang guard, not a timing check
    assert resp is not None, "no answer to a heartbeat within 60 s"
    assert resp.message_type == 2 and resp.seq == spec["seq"], "answered: %s" % resp.summary()


def offending(resp):
    o = ie(resp, P.IE_OffendingIE)
    return None if o is None else o.type


def test_truncated_header_is_dropped_and_counted(upf, smf):
    before = stat(upf, "drop.truncated_header")
    smf.send_raw(b"\x21\x01\x00")
    smf.send_raw(b"\x21\x32\x00\x0c\x00\x00\x00\x00")  # S flag set: 16-byte header, 8 received
    unanswered_before_a_heartbeat(smf)
    assert stat(upf, "drop.truncated_header") == before + 2
    still_alive(smf)


def test_message_length_beyond_datagram_is_invalid_length(smf):
    spec = smf.heartbeat()
    raw = bytearray(bytes(build_message(spec)))
    raw[2:4] = struct.pack("!H", len(raw) + 10)
    smf.send_raw(bytes(raw))
    resp, _ = smf.recv()
    # A Heartbeat Response has no Cause: the agent answers with its Recovery Time Stamp.
    assert resp.message_type == 2 and resp.seq == spec["seq"]
    spec = smf.association_setup()
    raw = bytearray(bytes(build_message(spec)))
    raw[2:4] = struct.pack("!H", len(raw) + 10)
    smf.send_raw(bytes(raw))
    resp, _ = smf.recv()
    assert resp.message_type == 6 and cause(resp) == 68


def test_ie_length_past_the_message_names_the_ie(smf):
    spec = smf.association_setup()
    raw = bytearray(bytes(build_message(spec)))
    # Node ID is the first IE (offset 8): claim 40 value bytes.
    raw[10:12] = struct.pack("!H", 40)
    smf.send_raw(bytes(raw))
    resp, _ = smf.recv()
    assert cause(resp) == 68
    assert offending(resp) == 60


def test_missing_mandatory_ies_are_reported_with_the_offending_ie(smf):
    resp, _ = smf.request(message(5, smf.next_seq(), [node_ipv4("127.0.0.1")]))
    assert cause(resp) == 66 and offending(resp) == 96
    resp, _ = smf.request(message(50, smf.next_seq(), [node_ipv4("127.0.0.1")], seid=0))
    assert cause(resp) == 66 and offending(resp) == 57
    resp, _ = smf.request(message(50, smf.next_seq(), [node_ipv4("127.0.0.1"), fseid(9, "127.0.0.1")], seid=0))
    assert cause(resp) == 66 and offending(resp) == 1
    # A Create PDR without its PDI.
    resp, _ = smf.request(message(50, smf.next_seq(), [
        node_ipv4("127.0.0.1"), fseid(9, "127.0.0.1"), group(1, uint(56, 1), uint(29, 1)),
        group(3, uint(108, 1), flags(44, 2))], seid=0))
    assert cause(resp) == 66 and offending(resp) == 2


def test_incorrect_mandatory_ie_value(smf):
    spec = smf.establishment(31, "10.250.9.1")
    raw = bytes(build_message(spec))
    # Shorten the F-SEID (type 57, length 13) to 3 bytes and fix every length that contains it.
    pkt = P.PFCP(raw)
    for x in pkt.payload.IE_list:
        if isinstance(x, P.IE_FSEID):
            x.length = 3
    bad = bytearray(bytes(pkt))
    i = bad.index(b"\x00\x39\x00\x03")
    del bad[i + 7:i + 17]
    bad[2:4] = struct.pack("!H", len(bad) - 4)
    smf.send_raw(bytes(bad))
    resp, _ = smf.recv()
    assert resp.message_type == 51
    assert cause(resp) == 69 and offending(resp) == 57


def test_unknown_and_enterprise_ies_are_ignored(smf):
    spec = smf.heartbeat()
    pkt = build_message(spec)
    pkt.payload.IE_list.append(P.IE_NotImplemented(ietype=250, data=b"\x01\x02"))
    pkt.payload.IE_list.append(P.IE_EnterpriseSpecific(ietype=0x8001, enterprise_id=18681, data=b"\xff"))
    smf.send_raw(bytes(pkt))
    resp, _ = smf.recv()
    assert resp.message_type == 2 and resp.seq == spec["seq"]


def test_unknown_message_type_is_dropped_and_counted(upf, smf):
    before = stat(upf, "drop.unexpected_type")
    smf.send_raw(bytes(P.PFCP(version=1, S=0, seq=77, message_type=99)))
    smf.send_raw(bytes(P.PFCP(version=1, S=0, seq=78, message_type=2) / P.PFCPHeartbeatResponse()))
    unanswered_before_a_heartbeat(smf)
    assert stat(upf, "drop.unexpected_type") + stat(upf, "drop.unmatched_response") >= before + 2
    still_alive(smf)


def test_other_version_gets_version_not_supported(smf):
    raw = bytearray(bytes(build_message(smf.heartbeat())))
    raw[0] = (2 << 5) | (raw[0] & 0x1f)
    smf.send_raw(bytes(raw))
    resp, data = smf.recv()
    assert data[1] == 11


def test_unknown_session_is_session_context_not_found(smf):
    resp, _ = smf.request(smf.deletion(0xdeadbeef))
    assert cause(resp) == 65 and resp.seid == 0
    resp, _ = smf.request(smf.modify_query_urr(0xdeadbeef))
    assert cause(resp) == 65


def test_unsupported_rules_are_refused_with_failed_rule_id(upf, smf):
    resp, _ = smf.request(smf.establishment(41, "10.250.9.2", uplink_sdf="permit in ip from any to assigned"))
    assert cause(resp) == 73
    failed = ie(resp, P.IE_FailedRuleId)
    assert failed.type == 0 and failed.pdr_id == 1
    # Forwarding downlink without Outer Header Creation.
    resp, _ = smf.request(smf.establishment(42, "10.250.9.3", dl_far_action=0x02))
    assert cause(resp) == 67
    assert ie(resp, P.IE_FailedRuleId).type == 1
    assert upf.get("/health")["sessions"] == 0


def test_a_garbage_stream_never_stops_the_agent(upf, smf):
    import random
    rnd = random.Random(8805)
    base = bytes(build_message(smf.establishment(51, "10.250.9.9")))
    for _ in range(300):
        b = bytearray(base)
        for _ in range(rnd.randint(1, 6)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        smf.send_raw(bytes(b[:rnd.randint(1, len(b))]))
    while smf.recv(0.3)[0] is not None:
        pass
    still_alive(smf)
    assert stat(upf, "error.internal") == 0
