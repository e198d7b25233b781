"""Window features of a trace: the reference model's arithmetic, per flow, hand-checked."""
import numpy as np

from hupf_tools import dataset
from hupf_tools.model.features import ClsParams
from hupf_tools.traces import FlowKey, Trace

A = FlowKey(0x0A000001, 0xC6336401, 40000, 443, 6)
B = FlowKey(0x0A000002, 0xC6336402, 40001, 443, 6)
# (ts_us, uplink, IPv4 length) of flow A; window 1000 us, alpha = 1 - 2^-1.
A_PACKETS = [(1000, False, 100), (1100, False, 200), (1300, True, 60), (1500, False, 300),
             (1700, True, 80), (2000, False, 100), (2500, True, 100), (3000, False, 100)]
# Worked by hand (EWMA: first sample initialises, then avg - avg>>1 + sample>>1; IPG needs a
# previous packet of the same direction):
#   ps_dn 100 -> 100-50+100=150 -> 150-75+150=225;  ipg_dn gaps 100, 400 -> 100 -> 100-50+200=250
#   ps_up 60 -> 60-30+40=70;                          ipg_up gap 400 -> 400
#   t=2000 closes window 1 (2000-1000 >= 1000): (pkts_up 2, pkts_dn 3, 70, 225, 400, 250)
#   then ps_dn 225-112+50=163, ipg_dn gap 500: 250-125+250=375; ps_up 70-35+50=85,
#   ipg_up gap 800: 400-200+400=600; t=3000 closes window 2: (1, 1, 85, 163, 600, 375)
A_WINDOWS = [(2, 3, 70, 225, 400, 250), (1, 1, 85, 163, 600, 375)]


def trace_with_interleaved_flow():
    b_packets = [(1050, True, 1500), (1400, False, 40), (2600, False, 40)]
    rows = [(t, up, n, 0) for t, up, n in A_PACKETS] + [(t, up, n, 1) for t, up, n in b_packets]
    ts, up, size, flow = zip(*rows)
    return Trace(ts, size, up, flow, [A, B], ["a", "b"])


def test_window_features_match_hand_computation():
    X, owner = dataset.flow_windows(trace_with_interleaved_flow(), ClsParams(window_us=1000, alpha_shift=1))
    got_a = [tuple(int(v) for v in row) for row, f in zip(X, owner) if f == 0]
    assert got_a == A_WINDOWS
    # Flow B: window from 1050 closes at 2600 with one uplink and one downlink packet.
    got_b = [tuple(int(v) for v in row) for row, f in zip(X, owner) if f == 1]
    assert got_b == [(1, 1, 1500, 40, 0, 0)]


def test_no_window_closes_before_window_us():
    X, _ = dataset.flow_windows(trace_with_interleaved_flow(), ClsParams(window_us=5000, alpha_shift=1))
    assert X.shape == (0, 6)


def test_split_keeps_flows_whole_and_every_class_in_both_sets():
    labels = ["x"] * 10 + ["y"] * 4
    train, test = dataset.split_flows(labels, 0.3, np.random.default_rng(0))
    assert sorted(np.concatenate([train, test]).tolist()) == list(range(14))
    assert not set(train) & set(test)
    assert {labels[i] for i in test} == {"x", "y"} == {labels[i] for i in train}
