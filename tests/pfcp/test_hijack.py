"""N4 hijack attempts over real UDP (issue #13): the real SMF (Node ID 127.0.0.1 at 127.0.0.1) holds a session;
each forged request comes from a second source on loopback (another address, or the SMF's address with another
port), is refused with its TS 29.244 cause, changes nothing, and the real SMF's session keeps working.

The host allows Node ID 127.0.0.1 from 127.0.0.1 only and smf.hupf.test from 127.0.0.2 only (conftest.py)."""
import json
import os
import time

import pytest
from scapy.all import IP, UDP, conf, send
from scapy.contrib import pfcp as P

from smf import Smf, cause, ie

UE = "10.250.9.1"
GNB = "192.168.1.10"


def state(upf):
    """What a refused request must not change: sessions, device entities, association count."""
    entities = {k: sorted(json.dumps(e, sort_keys=True) for e in v) for k, v in upf.get("/lab/entities").items()}
    return upf.get("/sessions"), entities, upf.get("/health")["pfcp.associations"]


@pytest.fixture
def smf(upf):
    """The real SMF, associated, with one session (its UP SEID and chosen TEID kept on the object)."""
    s = Smf(upf.addr)
    assert cause(s.request(s.association_setup())[0]) == 1
    resp, _ = s.request(s.establishment(4242, UE))
    assert cause(resp) == 1
    s.up_seid = ie(resp, P.IE_FSEID).seid
    s.teid = [x for x in ie(resp, P.IE_CreatedPDR).IE_list if isinstance(x, P.IE_FTEID)][0].TEID
    yield s
    s.request(s.release())
    s.close()


@pytest.fixture
def intruder(upf):
    """A second SMF, allowed as smf.hupf.test from 127.0.0.2, associated: it may do anything but touch 127.0.0.1's."""
    s = Smf(upf.addr, node_id="smf.hupf.test", bind="127.0.0.2")
    assert cause(s.request(s.association_setup())[0]) == 1
    yield s
    s.request(s.release())
    s.close()


def still_served(smf):
    """The real SMF's session answers its owner: a modification, then a deletion."""
    assert cause(smf.request(smf.modify_to_forward(smf.up_seid, GNB, 0x99))[0]) == 1
    assert cause(smf.request(smf.deletion(smf.up_seid))[0]) == 1


def forged(upf, node_id="127.0.0.1", bind="127.0.0.2", **kw):
    return Smf(upf.addr, node_id=node_id, bind=bind, **kw)


def test_establishment_from_another_address_naming_the_smfs_node_id(upf, smf, intruder):
    before = state(upf)
    spoof = forged(upf)
    assert cause(spoof.request(spoof.establishment(1, "10.250.9.2"))[0]) == 72
    # An associated SMF naming another's Node ID fares no better.
    spec = intruder.establishment(2, "10.250.9.3")
    spec["ies"][0] = spoof.node_ie()
    assert cause(intruder.request(spec)[0]) == 72
    assert state(upf) == before
    spoof.close()
    still_served(smf)


def test_association_setup_from_another_address_with_the_smfs_node_id(upf, smf):
    before = state(upf)
    spoof = forged(upf, recovery=smf.recovery + 1000)
    resp, _ = spoof.request(spoof.association_setup())
    assert cause(resp) == 64
    assert ie(resp, P.IE_UPFunctionFeatures) is None
    assert state(upf) == before
    # Not associated, the spoofer can neither see nor delete the SMF's session.
    assert cause(spoof.request(spoof.deletion(smf.up_seid))[0]) == 65
    assert upf.pfcp_stats()["reject.peer_address"] >= 1
    spoof.close()
    still_served(smf)


def test_association_release_only_from_the_association_peer(upf, smf):
    before = state(upf)
    for bind in ("127.0.0.2", "127.0.0.1"):  # another address; the SMF's address with another port
        spoof = forged(upf, bind=bind)
        assert cause(spoof.request(spoof.release())[0]) == 72
        spoof.close()
    assert state(upf) == before
    still_served(smf)


def test_heartbeat_from_same_ip_other_port_with_a_new_recovery_time_stamp(upf, smf):
    before = state(upf)
    spoof = forged(upf, bind="127.0.0.1", recovery=smf.recovery + 1000)
    resp, _ = spoof.request(spoof.heartbeat())
    assert resp.message_type == 2  # answered (heartbeats need no association), and nothing else
    assert state(upf) == before
    spoof.close()
    still_served(smf)


def test_f_teid_of_another_session_zero_teid_and_duplicate_ue_address(upf, smf, intruder):
    before = state(upf)
    resp, _ = intruder.request(intruder.establishment(10, "10.250.9.4", teid=smf.teid))
    assert cause(resp) == 71
    assert ie(resp, P.IE_FailedRuleId).pdr_id == 1
    assert cause(intruder.request(intruder.establishment(11, "10.250.9.5", teid=0))[0]) == 69
    resp, _ = intruder.request(intruder.establishment(12, UE))
    assert cause(resp) == 73
    assert ie(resp, P.IE_FailedRuleId).pdr_id == 1
    assert state(upf) == before
    still_served(smf)


def test_session_messages_without_seid_or_establishment_with_a_seid(upf, smf):
    before = state(upf)
    resp, _ = smf.request(smf.establishment(20, "10.250.9.6", seid=None))
    assert cause(resp) == 64
    resp, _ = smf.request(smf.establishment(21, "10.250.9.7", seid=smf.up_seid))
    assert cause(resp) == 64
    no_seid = dict(smf.deletion(smf.up_seid), seid=None)
    resp, _ = smf.request(no_seid)
    assert cause(resp) == 64 and resp.seid == 0
    assert state(upf) == before
    assert upf.pfcp_stats()["reject.header"] == 3
    still_served(smf)


def test_session_messages_from_the_smfs_address_on_another_port(upf, smf):
    before = state(upf)
    spoof = forged(upf, bind="127.0.0.1")
    assert cause(spoof.request(spoof.modify_to_forward(smf.up_seid, "10.6.6.6", 0x66))[0]) == 65
    assert cause(spoof.request(spoof.deletion(smf.up_seid))[0]) == 65
    assert state(upf) == before
    spoof.close()
    still_served(smf)


def heartbeat_from(smf, recovery, seq):
    """A Heartbeat Request in the SMF's name: its Recovery Time Stamp, the sequence number given."""
    return bytes(P.PFCP(version=1, S=0, seq=seq, message_type=1)
                 / P.PFCPHeartbeatRequest(IE_list=[P.IE_RecoveryTimeStamp(timestamp=recovery)]))


def answer_heartbeats(smf, recovery, until):
    """Answers the UPF's Heartbeat Requests as the SMF would, with its Recovery Time Stamp, until until() holds
    or 10 s pass; returns how many it answered."""
    answered = 0
    deadline = time.time() + 10
    while not until() and time.time() < deadline:
        hb, _ = smf.wait_for(1, timeout=0.5)
        if hb is not None:
            smf.answer_heartbeat(hb.seq, recovery)
            answered += 1
    return answered


@pytest.mark.skipif(os.geteuid() != 0, reason="a datagram with the SMF's own address and port needs a raw socket")
def test_blind_spoofed_heartbeat_with_the_smfs_address_and_port_deletes_nothing(upf, smf):
    """A datagram with the association's exact source address and port (what an off-path sender can forge)
    announcing a restart makes the UPF ask the SMF, which answers with its real stamp: nothing is deleted."""
    before = state(upf)
    asked = upf.pfcp_stats().get("peer_restart_unconfirmed", 0)
    host, port = smf.sock.getsockname()
    conf.verb = 0
    send(IP(src=host, dst=upf.addr[0]) / UDP(sport=port, dport=upf.addr[1])
         / P.PFCP(heartbeat_from(smf, smf.recovery + 1000, 77)), iface="lo")
    # The UPF answers the forged request (to the SMF's socket) and asks the SMF with a request of its own,
    # which the SMF answers with its real stamp; a heartbeat round trip after that answer finds it acted on.
    assert answer_heartbeats(smf, smf.recovery, lambda: upf.pfcp_stats().get("rx.2", 0) > 0) >= 1
    assert smf.request(smf.heartbeat())[0].message_type == 2
    assert upf.pfcp_stats()["peer_restart_unconfirmed"] == asked + 1
    assert upf.pfcp_stats().get("peer_restart", 0) == 0
    assert state(upf) == before
    still_served(smf)


def setup_from(smf, recovery, seq):
    """An Association Setup Request in the SMF's name: its Node ID, the Recovery Time Stamp given."""
    return bytes(P.PFCP(version=1, S=0, seq=seq, message_type=5)
                 / P.PFCPAssociationSetupRequest(IE_list=[P.IE_NodeId(id_type=0, ipv4=smf.node_id),
                                                           P.IE_RecoveryTimeStamp(timestamp=recovery)]))


@pytest.mark.skipif(os.geteuid() != 0, reason="a datagram with the SMF's own address and port needs a raw socket")
def test_blind_spoofed_association_setup_with_the_smfs_address_and_port_deletes_nothing(upf, smf):
    """A forged Association Setup Request with the SMF's exact address and port and a new Recovery Time Stamp
    would replace the association and delete its sessions: the UPF asks the SMF first, which answers with its
    real stamp, and the setup is refused (its answer goes to the SMF, which ignores it). Nothing changes."""
    before, stats = state(upf), upf.pfcp_stats()
    host, port = smf.sock.getsockname()
    conf.verb = 0
    send(IP(src=host, dst=upf.addr[0]) / UDP(sport=port, dport=upf.addr[1])
         / P.PFCP(setup_from(smf, smf.recovery + 1000, 78)), iface="lo")
    refused = lambda: upf.pfcp_stats().get("reject.association_unconfirmed", 0) == \
        stats.get("reject.association_unconfirmed", 0) + 1
    assert answer_heartbeats(smf, smf.recovery, refused) >= 1
    assert refused()
    assert upf.pfcp_stats().get("association_replaced", 0) == stats.get("association_replaced", 0)
    assert state(upf) == before
    still_served(smf)


def test_a_restarted_smfs_setup_is_confirmed_and_its_re_establishment_served_at_once(upf, smf):
    """The SMF itself restarted (new stamp, new port): the UPF asks it at the setup's address and port, the
    SMF answers with its new stamp while it waits for the setup's answer, and the old sessions go before the
    answer: the same UE and CP SEID are accepted at once."""
    replaced = upf.pfcp_stats().get("association_replaced", 0)
    restarted = Smf(upf.addr, recovery=smf.recovery + 1000)
    assert cause(restarted.request(restarted.association_setup())[0]) == 1
    assert upf.pfcp_stats()["association_replaced"] == replaced + 1
    assert cause(restarted.request(restarted.establishment(4242, UE))[0]) == 1
    assert upf.get("/health")["sessions"] == 1
    # The old peer's session is gone: its SEID is nobody's now.
    assert cause(smf.request(smf.deletion(smf.up_seid))[0]) == 65
    restarted.request(restarted.release())
    restarted.close()


def test_a_restart_the_smf_confirms_deletes_its_sessions(upf, smf):
    """The same announcement from the SMF itself, confirmed by its answer to the UPF's request: its sessions go."""
    smf.recovery += 1000
    smf.send_raw(heartbeat_from(smf, smf.recovery, smf.next_seq()))
    answer_heartbeats(smf, smf.recovery, lambda: upf.get("/health")["sessions"] == 0)
    assert upf.get("/health")["sessions"] == 0
    assert upf.pfcp_stats()["peer_restart"] >= 1
