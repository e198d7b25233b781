"""The backend-only chain (real hupf-backend programmed over P4Runtime by the lab runner, counters polled every
500 ms, the lab's period): 20,000 sessions established and deleted through it within T1 with their usage, a peer
restart with 20,000 sessions, and a device that stops answering (establishments fail with a cause, nothing
stored).
"""
import time

import pytest

from backend_chain import T1_S, USAGE_REPORT_DELETION, Chain, cause_of, deletion, ies, total_volume, up_seid_of
from bench_control_plane import pipelined
from bench_pfcp import patch, template
from smf import Smf, cause

ACCEPTED, SYSTEM_FAILURE = 1, 77
SESSIONS = 20_000
WINDOW = 32


@pytest.fixture
def chain():
    c = Chain()
    yield c
    c.stop()


def establish(smf, chain, n, seq0=1000):
    raw, seid_at, ue_at = template(smf)
    reqs = [(seq0 + i, patch(raw, seid_at, ue_at, seq0 + i, i)) for i in range(n)]
    return pipelined(smf.sock, chain.pfcp, reqs, WINDOW, stall_s=T1_S)


def test_20000_sessions_within_t1_with_their_usage(chain):
    smf = Smf(chain.pfcp)
    try:
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == ACCEPTED
        _, lat, resp, lost = establish(smf, chain, SESSIONS)
        assert lost == 0, "%d establishments unanswered within T1" % lost
        assert [cause_of(r) for r in resp] == [ACCEPTED] * SESSIONS
        assert lat[-1] < T1_S, "slowest answer %.2f s" % lat[-1]
        assert chain.wait_sessions(SESSIONS, 30) == SESSIONS
        # What the runner's offload manager polled from the backend, per UE: the usage the deletions must report.
        time.sleep(1.5)
        polled = chain.status()["ues"]
        assert len(polled) == SESSIONS
        seids = [up_seid_of(r) for r in resp]
        dels = [(5_000_000 + i, deletion(s, 5_000_000 + i)) for i, s in enumerate(seids)]
        _, lat, resp, lost = pipelined(smf.sock, chain.pfcp, dels, WINDOW, stall_s=T1_S)
        assert lost == 0, "%d deletions unanswered within T1" % lost
        assert [cause_of(r) for r in resp] == [ACCEPTED] * SESSIONS
        assert lat[-1] < T1_S, "slowest answer %.2f s" % lat[-1]
        reported = [total_volume(ies(r)[USAGE_REPORT_DELETION][0]) for r in resp]
        assert sum(reported) == sum(u["bytes"] for u in polled.values())
        assert None not in reported, "every deletion carries its final Usage Report with a volume"
        assert chain.wait_sessions(0, 30) == 0
        assert chain.status()["metrics"]["sessions"] == 0
    finally:
        smf.close()


def test_a_peer_restart_with_20000_sessions_keeps_heartbeats_within_t1_and_deletes_them_all(chain):
    smf = Smf(chain.pfcp)
    try:
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == ACCEPTED
        _, _, resp, lost = establish(smf, chain, SESSIONS)
        assert lost == 0 and [cause_of(r) for r in resp] == [ACCEPTED] * SESSIONS
        assert chain.wait_sessions(SESSIONS, 30) == SESSIONS
        # The peer restarted: a new Recovery Time Stamp in its Association Setup.
        assert cause(smf.request(smf.association_setup(recovery=smf.recovery + 100), timeout=T1_S)[0]) == ACCEPTED
        smf.recovery += 100
        t0 = time.perf_counter()
        smf.request(smf.heartbeat(), timeout=T1_S)
        assert time.perf_counter() - t0 < T1_S
        assert chain.wait_sessions(0, 120) == 0
        assert chain.status()["metrics"]["sessions"] == 0
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
        # before it stopped still is.
        time.sleep(1.5)
        assert chain.wait_sessions(1, 5) == 1
        assert chain.status()["metrics"]["sessions"] == 1
    finally:
        smf.close()
