import json
import os
import re
import zlib

import pytest

from hupf_tools.model.hkipg import (HHParams, HKIPG, KEY_5TUPLE, MASK32, Report, Slot, TauTable, configure,
                                    flow_key, step, tau_per_timeslot, tau_table_entries)

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "..", "pipeconf", "src", "test", "resources", "golden",
                      "hh_config_hkipg_model.json")

P = HHParams(tau_th=100, ipg_init=1000, ipg_th=1000, decay_k=10, timeslot_us=1024, alpha_shift=2)
TABLE = TauTable([(0, 99, 30), (100, 499, 10)])


def test_params_are_validated():
    with pytest.raises(ValueError, match="power of two"):
        HHParams(timeslot_us=20000)
    with pytest.raises(ValueError, match="tau_th"):
        HHParams(tau_th=0)
    with pytest.raises(ValueError, match="key_mode"):
        HHParams(key_mode=7)
    with pytest.raises(ValueError, match="bad tau table entry"):
        TauTable([(5, 4, 1)])


def test_empty_slot_is_taken_with_initial_ipg():
    slot, rep = step(Slot(), 7, 5000, P, TABLE)
    assert rep is None
    assert slot == Slot(7, 1000, 5000, 0, 0)


def test_collision_decays_resident_then_evicts_it():
    slot = Slot(7, 995, 3, 40, 1)
    slot, _ = step(slot, 8, 10, P, TABLE)
    assert slot == Slot(7, 1005, 3, 40, 1)          # <= ipg_th: aged by k
    slot, _ = step(slot, 8, 11, P, TABLE)
    assert slot == Slot(8, 1000, 11, 0, 0)          # > ipg_th: replaced


def test_ewma_and_timeslot_edge():
    slot = Slot(7, 1000, 1000, 0, 0)
    slot, _ = step(slot, 7, 1010, P, TABLE)         # 1010 >> 10 == 1000 >> 10: same timeslot
    assert slot == Slot(7, 1000 - 250 + 2, 1010, 0, 0)
    slot, rep = step(slot, 7, 1024 + 30, P, TABLE)  # timeslot 1 after 0: edge, ipg = 1054 - 1010
    ewma = 752 - 188 + (44 >> 2)
    assert rep is None and slot == Slot(7, ewma, 1054, 0, 0)  # 575 is outside the tau ranges


def test_gaps_longer_than_a_timeslot_are_measured_whole():
    # A new flow with 1030 us gaps and T = 1024: masked to the timeslot, they would look like 6 us
    # and earn tau 30 at every edge.
    slot = Slot(7, 1000, 1000, 0, 0)
    ewmas = []
    for i in range(1, 12):
        slot, rep = step(slot, 7, 1000 + 1030 * i, P, TABLE)
        assert rep is None and slot.tau == 0
        ewmas.append(slot.ipg_ewma)
    assert ewmas == sorted(ewmas) and ewmas[-1] > 499      # climbs towards 1030, out of the tau ranges
    assert slot.last_ts == 1000 + 1030 * 11


def test_timestamps_are_48_bits_and_gaps_saturate_at_32():
    t = (1 << 40) + 5
    slot, _ = step(Slot(7, 40, t, 0, 0), 7, t + 20, P, TABLE)
    assert slot == Slot(7, 40 - 10 + 5, t + 20, 0, 0)      # same timeslot above 2^32 us
    slot, rep = step(Slot(7, 40, 1000, 0, 0), 7, 1000 + (1 << 33), P, TABLE)
    assert slot.ipg_ewma == 40 - 10 + (MASK32 >> 2) and slot.last_ts == 1000 + (1 << 33)
    assert rep is None and slot.tau == 0
    slot, _ = step(Slot(7, 40, 5, 0, 0), 7, (1 << 48) + 9, P, TABLE)  # the 48-bit clock wraps
    assert slot.last_ts == 9 and slot.ipg_ewma == 40 - 10 + 1


def test_report_once_per_episode_and_new_episode_after_slowdown():
    slot = Slot(7, 50, 1000, 95, 0)
    slot, rep = step(slot, 7, 1024 + 10, P, TABLE)   # wrap: ewma 50-12+8=46 -> +30 -> 125 >= 100
    assert rep == Report(7, 46, 125) and slot.tau == 0 and slot.reported == 1
    slot = Slot(7, 50, 1000, 95, 1)
    slot, rep = step(slot, 7, 1024 + 10, P, TABLE)   # crossing again in the same episode: silent
    assert rep is None and slot.reported == 1
    slot, rep = step(Slot(7, 900, 1000, 20, 1), 7, 1024 + 5, P, TABLE)  # slow: outside every range
    assert rep is None and (slot.tau, slot.reported) == (20, 0)     # episode over, tau kept (Alg. 1)
    slot, rep = step(Slot(7, 50, 1000, 95, 0), 7, 1024 + 10, P, TABLE)
    assert rep == Report(7, 46, 125)                                # fast again: a new episode


def test_tau_saturates_at_16_bits():
    params = HHParams(tau_th=65535, ipg_init=1000, ipg_th=1000, timeslot_us=1024, alpha_shift=2)
    slot, rep = step(Slot(7, 50, 1000, 65530, 0), 7, 1024 + 10, params, TauTable([(0, 99, 30)]))
    assert rep == Report(7, 46, 65535)


def _heavy_and_mice(sim, heavy_ipg, mice_ipg, duration, t0=0):
    reports = []
    mice = [0x0A000000 + i for i in range(2, 12)]
    events = [(t, 0x0A000001) for t in range(t0, t0 + duration, heavy_ipg)]
    events += [(t + i * 7, m) for i, m in enumerate(mice) for t in range(t0, t0 + duration, mice_ipg)]
    for t, key in sorted(events):
        rep = sim.packet(key, t)
        if rep:
            reports.append(rep)
    return reports


def test_one_report_for_a_heavy_flow_among_mice():
    params, table = configure(10_000_000)
    sim = HKIPG(params, table, slots=64)
    reports = _heavy_and_mice(sim, heavy_ipg=100, mice_ipg=2000, duration=3_000_000)
    assert [r.flow_key for r in reports] == [0x0A000001]
    # The flow slows to 20 ms gaps (0.4 Mbit/s), longer than the 16.384 ms timeslot: the episode
    # ends; a new burst is a new episode.
    for t in range(3_000_000, 7_000_000, 20_000):
        assert sim.packet(0x0A000001, t) is None
    assert sim.slots[sim.index(0x0A000001)].reported == 0
    again = _heavy_and_mice(sim, heavy_ipg=100, mice_ipg=20000, duration=3_000_000, t0=7_000_000)
    assert [r.flow_key for r in again] == [0x0A000001]


def test_tau_table_follows_equation_4_9():
    # Thesis example: TW 1 s, HH 10 Mbps, T_wt 20 ms, tau_th 1850, 1000-byte packets.
    assert tau_per_timeslot(800, 1850, 20000, 1_000_000, 10_000_000, 1000) == 37
    assert tau_per_timeslot(1, 1850, 20000, 1_000_000, 10_000_000, 1000) == 925   # capped at tau_th/2
    entries = tau_table_entries(1850, 20000, 1_000_000, 10_000_000, 10000, max_entries=64)
    assert len(entries) <= 64
    assert entries[0][0] == 1
    for (lo, hi, tau), (lo2, _, tau2) in zip(entries, entries[1:]):
        assert lo <= hi and lo2 == hi + 1 and tau2 < tau
    for lo, hi, tau in entries:   # merged ranges never over-report
        assert tau <= tau_per_timeslot(lo, 1850, 20000, 1_000_000, 10_000_000, 1000)


def test_flow_keys():
    assert flow_key(HHParams(), 0x0A000001, 0x08080808, 1000, 53, 17) == 0x0A000001
    p5 = HHParams(key_mode=KEY_5TUPLE)
    packed = bytes.fromhex("0a000001" "08080808" "03e8" "0035" "11")
    assert flow_key(p5, 0x0A000001, 0x08080808, 1000, 53, 17) == zlib.crc32(packed)
    assert flow_key(p5, 0x0A000001, 0x08080808, 1001, 53, 17) != flow_key(p5, 0x0A000001, 0x08080808,
                                                                       1000, 53, 17)


def test_configure_derives_ipg_and_timeslot_from_the_threshold():
    params, table = configure(2_000_000, pkt_bytes=1000)
    assert (params.ipg_init, params.ipg_th, params.timeslot_us, params.decay_k) == (4000, 4000, 16384, 4)
    assert configure(800_000)[0].decay_k == 10                      # thesis: IPG_th 10 ms, k 10
    assert configure(20_000_000)[0].decay_k == 1 and configure(20_000_000, decay_k=5)[0].decay_k == 5
    assert table.entries == tau_table_entries(1850, 16384, 1_000_000, 2_000_000, 4000, 1000, 256)
    assert configure(1_000_000)[0].timeslot_us == 32768          # 4 x 8000 us > 16384
    assert configure(20_000_000, timeslot_us=2048)[0].timeslot_us == 2048
    assert configure(10_000_000, key_mode=KEY_5TUPLE)[0].key_mode == KEY_5TUPLE
    with pytest.raises(ValueError, match=r"timeslot_us 16384 is shorter than 4 x IPG_th = 32000 us "
                                         r"\(IPG_th 8000 us: one 1000-byte packet at 1000000 bit/s\); "
                                         r"use 32768 or more"):
        configure(1_000_000, timeslot_us=16384)
    with pytest.raises(ValueError, match="power of two"):
        configure(1_000_000, timeslot_us=40000)
    with pytest.raises(ValueError, match="outside 1..2"):
        configure(9_000_000_000, pkt_bytes=1000)


def test_configure_agrees_with_the_apps_golden_file():
    """The same cases HhConfigTest checks against org.hupf.pipeconf.dataplane.HhConfig."""
    with open(GOLDEN) as f:
        cases = json.load(f)
    for c in cases:
        given = c["given"]
        if "error" in c:
            with pytest.raises(ValueError, match=c["error"]):
                configure(given["hh_bps"], given["pkt_bytes"], given["timeslot_us"])
            continue
        params, table = configure(given["hh_bps"], given["pkt_bytes"], given["timeslot_us"])
        assert c["params"] == {"ipg_init": params.ipg_init, "ipg_th": params.ipg_th, "decay_k": params.decay_k,
                               "timeslot_us": params.timeslot_us}, given
        assert [list(e) for e in table.entries] == c["entries"], given


def test_p4_default_action_is_the_models_default_and_the_apps_for_10_mbits():
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "p4src", "include", "hh.p4")) as f:
        args = re.search(r"default_action = set_hh_params\(([^)]*)\);", f.read()).group(1).split(",")
    p = HHParams()
    assert [a.strip() for a in args] == [str(v) for v in (p.tau_th, p.ipg_init, p.ipg_th, p.decay_k, p.timeslot_us,
                                                          p.alpha_shift)] + ["HH_KEY_UE_ADDR"]
    assert configure(10_000_000)[0] == p
