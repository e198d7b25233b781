"""Heavy-tailed traces, their ground truth, the counting baselines and the benchmark plumbing."""
import dataclasses

import numpy as np
import pytest

from hupf_tools import hhbaselines, hheval, hhtraces
from hupf_tools.model import hkipg

TINY = hhtraces.HHTraceSpec(flows=400, duration_s=1.5, elephants=8, elephant_mbps=(2.0, 30.0))


def hand_trace(rows, n_flows):
    ts, flow = zip(*rows)
    return hhtraces.HHTrace(np.array(ts, dtype=np.int64), np.array(flow), np.arange(1, n_flows + 1),
                            hhtraces.HHTraceSpec())


def test_sliding_window_ground_truth_by_hand():
    # Flow 0: 3 packets within 1000 us (900..1899), then one more. Flow 1: spread out.
    tr = hand_trace([(100, 0), (900, 0), (1500, 0), (1899, 0), (2000, 1), (3500, 1), (5000, 1)], 2)
    assert list(tr.max_window_packets(1000)) == [3, 1]
    assert list(tr.max_window_packets(1800)) == [4, 2]  # windows are [t, t + tw)
    assert list(tr.max_window_packets(1799)) == [3, 2]
    assert list(tr.lifetimes_us()) == [1799, 3000]


def test_packets_for_is_thesis_eq_4_7():
    # 10 Mbit/s over 1 s with 1000-byte packets: 1250 packets.
    assert hhtraces.packets_for(10e6, 1_000_000, 1000) == 1250
    assert hhtraces.packets_for(1e6, 500_000, 1500) == 42


def test_generator_is_deterministic_and_heavy_tailed():
    a, b = hhtraces.generate(3, TINY), hhtraces.generate(3, TINY)
    assert np.array_equal(a.ts_us, b.ts_us) and np.array_equal(a.flow, b.flow)
    assert np.array_equal(a.keys, b.keys) and len(set(a.keys.tolist())) == len(a.keys) and a.keys.min() > 0
    sizes = np.sort(np.bincount(a.flow, minlength=len(a.keys)))[::-1]
    # The top 5 % of flows carry most packets; the median flow is tiny.
    assert sizes[: len(sizes) // 20].sum() > 0.5 * sizes.sum()
    assert np.median(sizes) <= 5
    assert np.all(np.diff(a.ts_us) >= 0)


def test_heavykeeper_counts_exactly_without_contention_and_resets_per_window():
    # Two flows far apart in hash space, 4096 buckets: no decay ever happens.
    rows = [(t, 0) for t in range(0, 900, 100)] + [(t, 1) for t in range(950, 1400, 50)]
    tr = hand_trace(sorted(rows), 2)
    keys = tr.keys[tr.flow].tolist()
    best = hhbaselines.HeavyKeeperCount(4096, window_us=1000).run(keys, tr.ts_us.tolist())
    # Flow 1 has 9 packets but only 1 before the boundary at 1000 and 8 after it.
    assert best == {1: 9, 2: 8}
    cm = hhbaselines.WindowCountMin(4096, window_us=1000).run(keys, tr.ts_us.tolist())
    assert cm == {1: 9, 2: 8}


def test_count_min_never_underestimates_under_contention():
    tr = hhtraces.generate(5, TINY)
    keys, ts = tr.keys[tr.flow].tolist(), tr.ts_us.tolist()
    cm = hhbaselines.WindowCountMin(64, window_us=hheval.TW_US).run(keys, ts)
    window = (tr.ts_us // hheval.TW_US)
    for f in np.unique(tr.flow)[:200]:
        m = tr.flow == f
        true_best = np.bincount(window[m]).max()
        assert cm[int(tr.keys[f])] >= true_best


def test_score():
    assert hheval.score({1, 2, 3}, {2, 3, 4, 5}) == pytest.approx(
        {"precision": 2 / 3, "recall": 0.5, "f1": 2 * (2 / 3) * 0.5 / (2 / 3 + 0.5), "tp": 2, "fp": 1, "fn": 2})
    assert hheval.score(set(), set())["f1"] == 1.0


def test_hkipg_is_configured_as_the_app_configures_the_switch():
    params, table = hheval.hkipg_config(1e6, 1000, 256)
    assert (params.ipg_init, params.ipg_th, params.timeslot_us) == (8000, 8000, 32768)
    assert params.key_mode == hkipg.KEY_5TUPLE
    assert table.lookup(8000) > 0 and table.lookup(8001) == 0
    assert hheval.hkipg_config(20e6, 1000, 256)[0].timeslot_us == 16384
    with pytest.raises(ValueError, match="shorter than 4 x IPG_th"):
        hheval.hkipg_config(1e6, 1000, 256, timeslot_us=16384)


def test_persistent_trace_has_only_long_lived_heavy_hitters():
    spec = dataclasses.replace(hhtraces.PERSISTENT, flows=2000, duration_s=4.0, elephants=10,
                                        elephant_s=(2.0, 4.0), elephant_start_s=(0.0, 1.0))
    tr = hhtraces.generate(4, spec)
    heavy = tr.heavy_hitters(1e6, hheval.TW_US)
    assert len(heavy) > 0 and set(heavy.tolist()) <= set(range(spec.flows, spec.flows + spec.elephants))
    assert tr.lifetimes_us()[heavy].min() >= 1_000_000


def test_benchmark_rows_cover_every_algorithm_memory_and_threshold(tmp_path):
    meta, rows = hheval.run(2, TINY, jobs=1, tau_entries=256)
    assert len(rows) == len(hheval.ALGORITHMS) * (len(hheval.SLOTS) + 1) * len(hheval.THRESHOLDS_MBPS)
    for r in rows:
        assert r["tp"] + r["fn"] == r["heavy_hitters"]
        assert r["fn_short"] + r["fn_near"] <= r["fn"]
        assert 0 <= r["precision"] <= 1 and 0 <= r["recall"] <= 1
    assert any(r["heavy_hitters"] for r in rows)
    hheval.plot(rows, tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    md = hheval.markdown(meta, rows)
    assert "| 20 |" in md and "At the thesis's memory, 144 KB" in md
    thesis = [r for r in rows if r["slots"] == meta["thesis_slots"][r["algo"]]]
    assert len(thesis) == len(hheval.ALGORITHMS) * len(hheval.THRESHOLDS_MBPS)
    assert all(abs(r["kb"] - 144) < 0.1 for r in thesis)
