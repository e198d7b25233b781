"""The several-backends benchmark's arithmetic (tools/hupf_tools/lab/backends_bench.py): the UE split it reports
is the switch's (crc16 of the UE modulo the weights' sum, members in order), and the balance error compares
packet shares with the weights' shares."""
from hupf_tools.lab import backends_bench as B
from hupf_tools.model.selector import selector_hash


def plan(n):
    return {"ues": [{"idx": i, "addr": "10.250.%d.%d" % (i // 256, i % 256)} for i in range(1, n + 1)]}


def test_selector_hash_is_bmv2s_crc16_of_the_address_bytes():
    # CRC-16/ARC of the bytes of "1234", the value backend/dp/tests/test_dp.c checks too.
    assert selector_hash(0x31323334) == 0x14BA


def test_the_split_counts_every_ue_once_by_its_share():
    split = B.ue_split({"weights": [1, 1, 1, 1], "plan": plan(1000)})
    assert sum(split) == 1000
    expected = [0] * 4
    for u in plan(1000)["ues"]:
        a, b, c, d = map(int, u["addr"].split("."))
        expected[selector_hash(a << 24 | b << 16 | c << 8 | d) % 4] += 1
    assert split == expected


def test_a_weight_of_two_takes_two_shares_of_the_hash():
    split = B.ue_split({"weights": [1, 2], "plan": plan(1000)})
    expected = [0, 0]
    for u in plan(1000)["ues"]:
        a, b, c, d = map(int, u["addr"].split("."))
        expected[[0, 1, 1][selector_hash(a << 24 | b << 16 | c << 8 | d) % 3]] += 1
    assert split == expected and split[1] > split[0]


def test_balance_error_is_the_worst_relative_gap_to_the_weights():
    rows, worst = B.balance({"weights": [1, 1], "backend_packets": {"backend": 60, "backend-2": 40}})
    assert [(name, n) for name, n, _, _ in rows] == [("backend", 60), ("backend-2", 40)]
    assert abs(worst - 0.2) < 1e-9


def test_a_move_row_counts_the_run_s_lost_packets_and_its_usage_check():
    p = {"ues": [{"idx": 1, "addr": "10.250.0.1"}, {"idx": 2, "addr": "10.250.0.2"}]}
    result = {"plan": p, "tx": [{"tx": {"1": {"pkts": 100}}}, {"tx": {"2": {"pkts": 50}}}],
              "rx": [{"rx": {"1": {"pkts": 97}}}, {"rx": {"2": {"pkts": 50}}}],
              "move": {"how": "kill", "backend": "backend-2", "moved_s": 0.1, "back_s": 1.3},
              "checks": [{"name": "usage counters (summed over both targets) add up", "passed": False},
                         {"name": "all sessions established over PFCP", "passed": True}], "rc": 1}
    row = B.move_row([1, 1], result)
    assert (row["sent"], row["lost"]) == (150, 3)
    assert abs(row["worst_loss"] - 0.03) < 1e-9
    assert not row["usage_ok"] and row["checks_passed"] == 1
    assert "| 1:1 | backend-2 kill | 0.10 | 1.30 | - | 3 / 150 | 3.00 % | FAILS | 1/2 passed | - |" in B.render_moves([row])


def test_a_drain_row_shows_the_lab_s_and_the_runner_s_times():
    p = {"ues": [{"idx": 1, "addr": "10.250.0.1"}]}
    result = {"plan": p, "tx": [{"tx": {"1": {"pkts": 80}}}], "rx": [{"rx": {"1": {"pkts": 80}}}],
              "move": {"how": "drain", "backend": "backend-2", "moved_s": 0.2, "back_s": None, "drained_s": 0.9,
                       "drain": {"quiet": True, "steered_ms": 40, "drained_ms": 610, "after_steering": 3}},
              "checks": [{"name": "usage counters (summed over both targets) add up", "passed": True}], "rc": 0,
              "load": [9.54, 12.0]}
    row = B.move_row([1, 1], result)
    assert (row["sent"], row["lost"], row["after_steering"]) == (80, 0, 3)
    assert ("| 1:1 | backend-2 drain | 0.20 | - | 0.90 (runner: steered 40 ms, quiet after 610 ms, 3 packets after "
            "the steering) | 0 / 80 | 0.00 % | adds up | 1/1 passed | 9.5 → 12.0 |") in B.render_moves([row])
