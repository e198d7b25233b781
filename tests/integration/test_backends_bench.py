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
