"""Requests the agent sends itself: heartbeats to associated peers (a new Recovery Time Stamp in the answer
means the SMF restarted) and Session Report Requests retransmitted every T1, N1 times at most."""
import time

import pytest
from scapy.contrib import pfcp as P

from conftest import start_upf, stop_upf
from smf import BUFF, NOCP, Smf, cause, ie


@pytest.fixture(scope="module")
def upf():
    u = start_upf("--heartbeat-ms", "300", "--t1-ms", "1000", "--n1", "3", "--report-tick-ms", "100")
    yield u
    stop_upf(u)


def test_heartbeat_answer_with_new_recovery_time_stamp_cleans_up(upf):
    smf = Smf(upf.addr)
    assert cause(smf.request(smf.association_setup())[0]) == 1
    assert cause(smf.request(smf.establishment(1, "10.250.1.1", urr=False))[0]) == 1
    hb, _ = smf.wait_for(1)
    assert hb is not None, "no Heartbeat Request from the UPF"
    assert ie(hb, P.IE_RecoveryTimeStamp).timestamp > 3_800_000_000
    # Answer as the same SMF: nothing happens.
    smf.send_raw(bytes(P.PFCP(version=1, S=0, seq=hb.seq, message_type=2)
                       / P.PFCPHeartbeatResponse(IE_list=[P.IE_RecoveryTimeStamp(timestamp=smf.recovery)])))
    # The UPF acts on a heartbeat's answer on its node worker before it answers a later node request of the same
    # peer there: once this SMF's own heartbeat is answered, the answer above was acted on (the bound is a hang guard).
    assert smf.request(smf.heartbeat(), timeout=60)[0] is not None
    assert upf.get("/health")["sessions"] == 1
    # Answer as a restarted SMF: its sessions are gone. A heartbeat that waited in the socket while the test
    # was busy (a slow REST call on a loaded machine) may belong to a transaction that already timed out
    # (T1 x N1 = 0.9 s here) and its answer is rightly ignored: answer each one until the UPF acts (the bound
    # only keeps a broken UPF from hanging the suite).
    # The UPF confirms the new stamp with a Heartbeat Request of its own, which must be answered within its T1 x N1
    # too: heartbeats are answered for a while between two REST calls (one of which can take seconds under load).
    deadline = time.time() + 120
    while time.time() < deadline and upf.get("/health")["sessions"] != 0:
        answering = time.time() + 2.0
        while time.time() < answering:
            hb, _ = smf.wait_for(1, timeout=answering - time.time())
            if hb is not None:
                smf.send_raw(bytes(P.PFCP(version=1, S=0, seq=hb.seq, message_type=2) / P.PFCPHeartbeatResponse(
                    IE_list=[P.IE_RecoveryTimeStamp(timestamp=smf.recovery + 5)])))
    assert upf.get("/health")["sessions"] == 0
    assert upf.pfcp_stats()["peer_restart"] >= 1
    smf.close()


def test_unanswered_session_report_is_retransmitted_n1_times(upf):
    smf = Smf(upf.addr, recovery=4000000000)
    assert cause(smf.request(smf.association_setup())[0]) == 1
    assert cause(smf.request(smf.establishment(2, "10.250.1.2", dl_far_action=BUFF | NOCP, urr=False))[0]) == 1
    before = upf.pfcp_stats().get("timeout.56", 0)
    assert upf.post("/ue/10.250.1.2/downlink-data")["reported"] is True
    # Every copy is sent before the UPF counts the transaction's timeout (after the last copy's T1): collect until
    # then (the bound only keeps a broken UPF from hanging the suite).
    copies = []
    deadline = time.time() + 120
    while time.time() < deadline and upf.pfcp_stats().get("timeout.56", 0) == before:
        msg, raw = smf.recv(0.2)
        if msg is not None and msg.message_type == 56:
            copies.append(raw)
    # Over loopback a copy is in this socket once sent, and each was sent before the timeout was counted: read
    # until the socket is empty.
    msg, raw = smf.recv(0.05)
    while msg is not None:
        if msg.message_type == 56:
            copies.append(raw)
        msg, raw = smf.recv(0.05)
    assert len(copies) == 3
    assert len(set(copies)) == 1, "a retransmission must repeat the request unchanged"
    assert upf.pfcp_stats()["timeout.56"] == before + 1
    smf.close()
