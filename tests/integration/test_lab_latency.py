"""The lab's latency per backend (tools/hupf_tools/lab/latency.py): the mice's packets grouped by the backend the
switch steers their UE to, heavy UEs left out, nearest-rank percentiles."""
from hupf_tools.lab import latency
from hupf_tools.model.selector import selector_hash


def addr_on(member, members, start=1):
    """The first UE address from 10.250.0.start that the selector gives to `member` of `members`."""
    for i in range(start, 255):
        a = "10.250.0.%d" % i
        if selector_hash(int.from_bytes(bytes([10, 250, 0, i]), "big")) % members == member:
            return a
    raise AssertionError("no address for member %d" % member)


def test_a_ue_is_on_the_backend_its_share_names_weights_counted():
    a = addr_on(1, 3)
    assert latency.backend_index(a, [1, 1, 1]) == 1
    assert latency.backend_index(a, [1, 2]) == 1, "shares 0, 1, 1: share 1 is the second backend's"
    assert latency.backend_index(addr_on(0, 3), [1, 2]) == 0


def test_mice_latencies_go_to_their_backend_and_heavy_ues_count_nowhere():
    mouse0, mouse1 = addr_on(0, 2), addr_on(1, 2)
    heavy = addr_on(1, 2, int(mouse1.rsplit(".", 1)[1]) + 1)
    plan = {"ues": [{"idx": 0, "addr": mouse0, "heavy": False}, {"idx": 1, "addr": mouse1, "heavy": False},
                    {"idx": 2, "addr": heavy, "heavy": True}]}
    rx = [{"side": "dn", "latency_us": {"0": [10.0, 20.0, 30.0], "1": [100.0] * 99 + [900.0], "2": [5000.0]}},
          {"side": "gnb", "latency_us": {"0": [40.0]}}]
    got = latency.by_backend(plan, rx, [1, 1], [("backend", "hupf-backend"), ("backend-2", "T4P4S")])
    assert got["backend"] == {"kind": "hupf-backend", "ues": 1,
                              "uplink": {"samples": 3, "p50_us": 20.0, "p99_us": 30.0, "max_us": 30.0},
                              "downlink": {"samples": 1, "p50_us": 40.0, "p99_us": 40.0, "max_us": 40.0}}
    assert got["backend-2"]["ues"] == 1 and got["backend-2"]["uplink"] == {
        "samples": 100, "p50_us": 100.0, "p99_us": 100.0, "max_us": 900.0}
    assert got["backend-2"]["downlink"] == {"samples": 0, "p50_us": None, "p99_us": None, "max_us": None}
    assert latency.lines(got)[1].endswith("downlink no samples")
