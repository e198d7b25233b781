"""The backend-only chain (real hupf-backend programmed over P4Runtime by the lab runner, counters polled every
500 ms, the lab's period): 20,000 sessions established and deleted through it, every one answered and programmed,
every 100th carrying known uplink traffic (veth ports) and every Usage Report of a deletion exact to the byte, a
peer restart with 20,000 sessions, an SMF restart whose 10,000 re-establishments follow its new association at
once (none refused, the backend's tables exact after), and a device that stops answering (establishments fail
with a cause, nothing stored). The tests assert what was done, not how fast: a loaded machine makes the chain slower, never wrong
(rates and latencies are bench_control_plane.py's).
"""
import os
import socket
import sys
import time

import pytest

from backend_chain import (GNB, N3, USAGE_REPORT_DELETION, Chain, cause_of, deletion, ies, up_seid_of,
                           uplink_teid, volumes)
from bench_control_plane import pipelined
from bench_pfcp import patch, template, ue_address
from smf import Smf, cause

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dataplane import TestBed as VethBed  # noqa: E402
from packets import gtpu, user_packet  # noqa: E402

ACCEPTED, SYSTEM_FAILURE = 1, 77
SESSIONS = 20_000
WINDOW = 32
# Every TRAFFIC_EVERY-th session carries uplink traffic; the others must report a volume of 0.
TRAFFIC_EVERY = 100
SO_RCVBUFFORCE = 33  # Linux: a receive buffer beyond rmem_max (root)
ROUTER_MAC, SERVER = "02:68:75:70:66:01", "198.51.100.10"
# A request unanswered this long is lost, not slow (the SMF would have given up long before).
UNANSWERED_S = 120
# The longest a condition is waited for; met conditions return at once.
CONDITION_S = 300


@pytest.fixture
def chain():
    c = Chain()
    yield c
    c.stop()


def establish(smf, chain, n, seq0=1000):
    raw, seid_at, ue_at = template(smf)
    reqs = [(seq0 + i, patch(raw, seid_at, ue_at, seq0 + i, i)) for i in range(n)]
    return pipelined(smf.sock, chain.pfcp, reqs, WINDOW, stall_s=UNANSWERED_S)


@pytest.fixture
def traffic_chain():
    if os.geteuid() != 0:
        pytest.skip("needs root (veth pairs and af_packet ports to send the usage test's traffic)")
    bed = VethBed(2)
    try:
        c = Chain(interfaces=[bed.switch_ifname(1), bed.switch_ifname(2)])
    except BaseException:
        bed.close()
        raise
    yield c, bed
    c.stop()
    bed.close()


def sequence(message):
    return int.from_bytes(message[12:15], "big")


def uplink_frames(i, teid):
    """Session i's uplink G-PDUs: i % 3 + 1 of them, of sizes that differ between sessions."""
    ue = str(ue_address(i))
    return [bytes(gtpu(user_packet(ue, SERVER, size=64 + (i + k) % 200), teid, GNB, N3, eth_dst=ROUTER_MAC))
            for k in range(i % 3 + 1)]


def test_20000_sessions_all_answered_and_programmed_with_exact_usage(traffic_chain):
    chain, bed = traffic_chain
    smf = Smf(chain.pfcp)
    try:
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == ACCEPTED
        _, _, resp, lost = establish(smf, chain, SESSIONS)
        assert lost == 0, "%d establishments unanswered" % lost
        assert [cause_of(r) for r in resp] == [ACCEPTED] * SESSIONS
        assert chain.wait_sessions(SESSIONS, CONDITION_S) == SESSIONS
        resp.sort(key=sequence)  # session i answered to request 1000 + i
        # Known uplink traffic on a sample of the sessions, all forwarded to N6 before the deletions (the
        # capture socket holds them all: its default buffer keeps ~220 of these frames).
        bed.socks[2].setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
        sent = {}
        for i in range(0, SESSIONS, TRAFFIC_EVERY):
            frames = uplink_frames(i, uplink_teid(resp[i]))
            for f in frames:
                bed.send(1, f)
            sent[i] = frames
        n_sent = sum(len(f) for f in sent.values())
        forwarded = bed.recv_all(2, 3.0, accept=lambda f: f[12:14] == b"\x08\x00")
        assert len(forwarded) == n_sent, "%d of %d uplink packets forwarded" % (len(forwarded), n_sent)
        seids = [up_seid_of(r) for r in resp]
        dels = [(5_000_000 + i, deletion(s, 5_000_000 + i)) for i, s in enumerate(seids)]
        _, _, resp, lost = pipelined(smf.sock, chain.pfcp, dels, WINDOW, stall_s=UNANSWERED_S)
        assert lost == 0, "%d deletions unanswered" % lost
        assert [cause_of(r) for r in resp] == [ACCEPTED] * SESSIONS
        resp.sort(key=sequence)
        reported = [volumes(ies(r)[USAGE_REPORT_DELETION][0]) for r in resp]
        # The usage of a session is the uplink frames as the UPF received them (TS 29.244 §5.2.2: the
        # pre-QoS counter of its uplink termination); exact, per session.
        expected = [(sum(len(f) for f in sent.get(i, ())),) * 2 + (0,) for i in range(SESSIONS)]
        wrong = [(i, reported[i], expected[i]) for i in range(SESSIONS) if reported[i] != expected[i]]
        # A backend restart the usage ledger declared (logged by the runner) would add a session's last counts.
        assert not wrong, "%d sessions report a wrong final usage (session, reported, sent): %s; restarts: %s" % (
            len(wrong), wrong[:5], chain.log_lines("runner", "restarted") or "none logged")
        assert chain.wait_sessions(0, CONDITION_S) == 0
        assert chain.status()["metrics"]["sessions"] == 0
    finally:
        smf.close()


def test_a_peer_restart_with_20000_sessions_keeps_answering_heartbeats_and_deletes_them_all(chain):
    smf = Smf(chain.pfcp)
    try:
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == ACCEPTED
        _, _, resp, lost = establish(smf, chain, SESSIONS)
        assert lost == 0 and [cause_of(r) for r in resp] == [ACCEPTED] * SESSIONS
        assert chain.wait_sessions(SESSIONS, CONDITION_S) == SESSIONS
        # The peer restarted: a new Recovery Time Stamp in its Association Setup. The sessions' deletion runs in
        # the background: node messages are still answered meanwhile (a request that got no answer raises).
        assert cause(smf.request(smf.association_setup(recovery=smf.recovery + 100), timeout=UNANSWERED_S)[0]) \
            == ACCEPTED
        smf.request(smf.heartbeat(), timeout=UNANSWERED_S)
        # The store lets the sessions go at once; the device removals follow, queued: wait for both.
        assert chain.wait_sessions(0, CONDITION_S) == 0
        assert offload_sessions_gone(chain)
    finally:
        smf.close()


REASSOCIATED = 10_000
# A match field that every entry of each UPF table has.
UPF_TABLES = {"uplink_sessions": "teid", "downlink_sessions": "ue_addr", "uplink_terminations": "ue_session_id",
              "downlink_terminations": "ue_session_id", "ig_tunnel_peers": "tun_peer_id"}


def offload_sessions_gone(chain):
    """Waits until the runner's offload manager holds no session (what it tracks leaves with the device removal)."""
    deadline = time.time() + CONDITION_S
    while chain.status().get("metrics", {}).get("sessions") != 0:
        if time.time() > deadline:
            return False
        time.sleep(0.2)
    return True


def table_sizes(chain):
    return {t: len(chain.table_keys(t, field)) for t, field in UPF_TABLES.items()}


def test_a_restarted_smf_re_establishes_10000_sessions_at_once_none_refused_tables_exact(chain):
    """The SMF restarted: its new Association Setup (new Recovery Time Stamp) is followed at once by the same
    UEs' establishments with the same CP SEIDs. The old sessions are released logically before the setup is
    answered, their device removals queued ahead: every re-establishment is accepted, and the backend holds
    exactly the new sessions (the same table sizes as before, the new TEIDs, the same UEs)."""
    smf = Smf(chain.pfcp)
    try:
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == ACCEPTED
        _, _, resp, lost = establish(smf, chain, REASSOCIATED)
        assert lost == 0 and [cause_of(r) for r in resp] == [ACCEPTED] * REASSOCIATED
        before = table_sizes(chain)
        assert before["uplink_sessions"] == before["downlink_sessions"] == REASSOCIATED
        smf.recovery += 100
        assert cause(smf.request(smf.association_setup(), timeout=UNANSWERED_S)[0]) == ACCEPTED
        _, _, resp, lost = establish(smf, chain, REASSOCIATED, seq0=200_000)
        assert lost == 0, "%d re-establishments unanswered" % lost
        refused = [cause_of(r) for r in resp if cause_of(r) != ACCEPTED]
        assert not refused, "%d of %d re-establishments refused, causes %s" % (
            len(refused), REASSOCIATED, sorted(set(refused)))
        teids = {uplink_teid(r) for r in resp}
        assert chain.wait_sessions(REASSOCIATED, CONDITION_S) == REASSOCIATED
        assert table_sizes(chain) == before
        assert set(chain.table_keys("uplink_sessions", "teid")) == teids
        assert len(teids) == REASSOCIATED
        ues = {int(ue_address(i)) for i in range(REASSOCIATED)}
        assert set(chain.table_keys("downlink_sessions", "ue_addr")) == ues
        assert chain.status()["metrics"]["sessions"] == REASSOCIATED
    finally:
        smf.close()


def test_failing_device_fails_establishments_with_a_cause_and_stores_nothing(chain):
    smf = Smf(chain.pfcp)
    try:
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == ACCEPTED
        resp, _ = smf.request(smf.establishment(0x5E55, "10.1.2.2"), timeout=10)
        assert cause(resp) == ACCEPTED
        assert chain.wait_sessions(1, 10) == 1
        chain.stop_backend()
        t0 = time.perf_counter()
        resp, _ = smf.request(smf.establishment(0xFA11ED, "10.1.2.3"), timeout=15)
        assert cause(resp) == SYSTEM_FAILURE
        # Answered by the agent, not left to the SMF's retransmissions (the P4Runtime deadline bounds it).
        assert time.perf_counter() - t0 < 15
        # The refused session is neither stored nor tracked (nothing half-installed); the one the backend held
        # before it stopped still is: a status the runner wrote after the answer says so.
        answered = time.time()
        st = chain.status_after(answered, CONDITION_S)
        assert st is not None, "no status written within %d s of the answer" % CONDITION_S
        assert st["pfcp_sessions"] == 1
        assert st["metrics"]["sessions"] == 1
    finally:
        smf.close()
