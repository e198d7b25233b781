import pytest

from hupf_tools.model.features import (ClsParams, CodeTables, FeaturePipeline, Features, FlowState,
                                       Packet, ewma, slot_index, step, window_features)

P = ClsParams(window_us=1000, alpha_shift=2)
UE, APP = 0x0A000001, 0x08080808


def pkt(ts, up, size=100, ue=UE, port=4000):
    return Packet(ts, up, ue, APP, port, 443, 17, size)


def test_ewma_initialises_then_smooths():
    assert ewma(0, 500, 2) == 500
    assert ewma(500, 100, 2) == 500 - 125 + 25


def test_params_and_tables_are_validated():
    with pytest.raises(ValueError, match="window_us"):
        ClsParams(window_us=0)
    with pytest.raises(ValueError, match="unknown feature"):
        CodeTables({"bogus": [(0, 1, 1)]})
    with pytest.raises(ValueError, match="bad decision"):
        CodeTables(decisions={(1, 2): 3})


def test_directions_keep_separate_features():
    st = FlowState()
    st, _ = step(st, pkt(10, True, 100), P, CodeTables())
    st, _ = step(st, pkt(20, False, 1400), P, CodeTables())
    st, _ = step(st, pkt(50, True, 60), P, CodeTables())
    assert (st.pkts_up, st.pkts_dn) == (2, 1)
    assert (st.ps_up, st.ps_dn) == (100 - 25 + 15, 1400)
    assert (st.ipg_up, st.ipg_dn) == (40, 0)        # first IPG initialises; no second dn packet
    assert (st.last_up, st.last_dn, st.win_start) == (50, 20, 10)


def test_window_end_classifies_finished_window_and_restarts_counts():
    tables = CodeTables({"pkts_dn": [(0, 1, 1), (2, 100, 2)], "ps_dn": [(1000, 2000, 3)]},
                        {(0, 2, 0, 3, 0, 0): 9})
    st = FlowState()
    for t in (100, 200, 300):
        st, fin = step(st, pkt(t, False, 1400), P, tables)
        assert fin is None
    st, fin = step(st, pkt(1099, False, 1400), P, tables)   # 999 us after the start: same window
    assert fin is None and st.pkts_dn == 4
    st, fin = step(st, pkt(1100, True, 80), P, tables)
    assert fin == Features(0, 4, 0, 1400, 0, 100 - 25 + (799 >> 2))
    assert st.cls == 9 and (st.pkts_up, st.pkts_dn, st.win_start) == (1, 0, 1100)


def test_unmatched_codes_give_class_zero():
    tables = CodeTables({"pkts_up": [(5, 9, 1), (0, 100, 2)]})
    assert tables.code("pkts_up", 7) == 1            # first matching range wins
    assert tables.code("pkts_up", 200) == 0
    assert tables.classify(Features(7, 0, 0, 0, 0, 0)) == 0


def test_both_directions_of_a_flow_share_a_slot():
    assert slot_index(pkt(0, True), 4096) == slot_index(pkt(5, False), 4096)
    pipe = FeaturePipeline(P, CodeTables(), slots=4096)
    pipe.packet(pkt(1, True))
    pipe.packet(pkt(2, False))
    st = pipe.state[slot_index(pkt(0, True), 4096)]
    assert (st.pkts_up, st.pkts_dn) == (1, 1)


def test_window_features_of_a_trace():
    trace = [pkt(t, t % 3 == 0, 200) for t in range(1, 3500, 50)]
    rows = list(window_features(trace, P))
    assert len(rows) == 3                            # windows closed at ~1001, ~2001, ~3001
    total = sum(f.pkts_up + f.pkts_dn for _, f in rows)
    assert total == len([p for p in trace if p.ts_us < 3001])


def test_tables_from_tree_thresholds_classify_like_the_tree():
    def tree(f):   # a depth-2 tree: big downlink packets and few uplink ones -> gaming
        if f.ps_dn <= 999:
            return 1
        return 3 if f.pkts_up <= 20 else 2
    tables = CodeTables.from_thresholds({"ps_dn": [999], "pkts_up": [20]}, tree)
    assert tables.ranges["ps_dn"] == [(0, 999, 1), (1000, 0xFFFFFFFF, 2)]
    assert len(tables.decisions) == 4 and tables.ranges["ipg_up"] == []
    for f in (Features(5, 0, 0, 1400, 0, 0), Features(50, 0, 0, 1400, 0, 0), Features(5, 0, 0, 80, 0, 0),
              Features(21, 9, 7, 1000, 3, 4)):
        assert tables.classify(f) == tree(f)
    with pytest.raises(ValueError, match="exceed"):
        CodeTables.from_thresholds({n: list(range(10)) for n in ("pkts_up", "pkts_dn", "ps_up", "ps_dn")},
                                   tree)
