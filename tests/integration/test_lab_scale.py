"""The hybrid scalability benchmark's HK-IPG scoring (tools/hupf_tools/lab/scale.py)."""
import numpy as np
import pytest

from hupf_tools.lab import scale
from hupf_tools.model import hkipg


def test_reports_are_scored_against_mean_rate_and_one_second_windows():
    # Sessions 0 and 1 above 2 Mbit/s by mean rate; session 2 only in its best 1 s window (250 packets
    # of 1000 B); session 3 never. Reports for 0, 2 and 3 (3 twice, in two seconds).
    rates = np.array([3e6, 2.5e6, 1.5e6, 1e5])
    best_window = np.array([375, 300, 250, 20])
    reports = [(1_200_000, 0), (2_500_000, 2), (3_100_000, 3), (4_000_000, 3)]
    r = scale.report_rates(reports, 10, rates, best_window, 2_000_000)
    assert r["hh_per_sec"] == pytest.approx(0.4)
    assert (r["reported_flows"], r["heavy_flows"], r["window_flows"]) == (3, 2, 3)
    assert r["precision"] == pytest.approx(1 / 3) and r["recall"] == pytest.approx(1 / 2)
    assert r["precision_window"] == pytest.approx(2 / 3) and r["recall_window"] == pytest.approx(2 / 3)


def test_the_model_reports_a_steady_heavy_session_and_not_a_slow_one():
    params, table = hkipg.configure(2_000_000, scale.PKT_BYTES)
    rng = np.random.default_rng(3)
    # 10 s of Poisson arrivals: session 0 at 4 Mbit/s (500 pps), session 1 at 1 Mbit/s (125 pps).
    ts = np.concatenate([np.sort(rng.uniform(0, 10e6, 5000)), np.sort(rng.uniform(0, 10e6, 1250))]).astype(int)
    sess = np.repeat([0, 1], [5000, 1250])
    order = np.argsort(ts, kind="stable")
    reports = scale.hh_reports(sess[order], ts[order], params, table)
    assert {s for _, s in reports} == {0}
    assert min(t for t, _ in reports) < 2_500_000   # about 1 s of tau after the EWMA converges
