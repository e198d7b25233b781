"""The backend-only chain (real hupf-backend programmed over P4Runtime by the lab runner, counters polled every
500 ms): a device that stops answering makes establishments fail with a cause, and nothing is stored.
The 20,000-session run is bench_control_plane.py (docs/PERFORMANCE.md, control plane): on this machine it does
not meet T1 yet, so it is a benchmark with its figures, not a test that would fail every run.
"""
import time

import pytest

from backend_chain import Chain
from smf import Smf, cause

ACCEPTED, SYSTEM_FAILURE = 1, 77


@pytest.fixture
def chain():
    c = Chain()
    yield c
    c.stop()


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
        # The refused session is not stored; the one the backend held before it stopped still is.
        time.sleep(1.5)
        assert chain.wait_sessions(1, 5) == 1
    finally:
        smf.close()
