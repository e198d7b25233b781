"""The benchmarks' establishments (bench_pfcp.patch) stay inside the chains' UE pool up to a million sessions: the
UPF refuses a UE address outside its pools (cause 69), which capped every 1M benchmark at 393,216 sessions held."""
import ipaddress
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_pfcp import CP_SEID, UE0, UE_POOL, patch, ue_address  # noqa: E402

MILLION = 1_000_000


def test_a_million_sessions_have_distinct_ue_addresses_inside_the_pool():
    addresses = {int(ue_address(i)) for i in range(MILLION)}
    assert len(addresses) == MILLION
    inside = int(UE_POOL.network_address), int(UE_POOL.broadcast_address)
    assert inside[0] <= min(addresses) and max(addresses) <= inside[1]


def test_patch_writes_the_sessions_ue_address_past_the_pools_end():
    # A message with the SEID at 16 and the UE address twice (uplink and downlink PDRs), as template() finds them.
    raw = bytes(16) + struct.pack("!Q", CP_SEID) + UE0.packed * 2
    for i in (0, 393_215, 393_216, MILLION - 1):
        b = patch(raw, 16, (24, 28), 1000 + i, i)
        assert struct.unpack("!Q", b[16:24])[0] == CP_SEID + i
        first, second = ipaddress.IPv4Address(b[24:28]), ipaddress.IPv4Address(b[28:32])
        assert first == second == ue_address(i)
        assert first in UE_POOL
    assert ue_address(393_216) == ipaddress.IPv4Address("10.0.0.0")
