"""The lab's packet accounting (tools/hupf_tools/lab/accounting.py) on synthetic counts: where each drop is read,
how a restart and a run's start are taken off, and the balance its checks assert."""
from hupf_tools.lab import accounting

STATS = {"msg": "stats", "ports": [
    {"P4Port": 1, "RX": 900, "TX": 880, "RXMissed": 12, "TXDropped": 0},
    {"P4Port": 2, "RX": 880, "TX": 870, "RXMissed": 0, "TXDropped": 3, "RateBps": 5000000,
     "QueueDropped": [7, 0, 0, 0, 0, 0, 0, 0]}],
    "to_cpu_dropped": 1, "dropped_no_pipeline": 4, "ipv4_fragments_dropped": 0}


def test_a_stats_line_splits_into_drops_for_want_of_room_and_hupfs_decisions():
    room, decided = accounting.stats_drops(STATS)
    assert room == {"port 1 rx_missed": 12, "port 2 tx_dropped": 3, "port 2 queue 0 full": 7, "to_cpu_dropped": 1}
    assert decided == {"dropped no pipeline": 4}


def test_the_drop_reasons_are_named_from_the_p4_programs_constants():
    names = accounting.drop_reason_names()
    assert names[1] == "uplink session miss" and names[6] == "meter red" and len(names) == 15


def collection(pid, room, verdicts):
    return {"room": {"backend": room, "kernel": {"veth hs1-1 tx_dropped": 2}}, "verdicts": {"backend": verdicts},
            "pids": {"backend": pid}}


def test_drops_since_the_traffic_began_and_a_restarted_backend_counted_from_its_start():
    before = collection(10, {"port 1 rx_missed": 5}, {"dropped no pipeline": 4})
    after = collection(10, {"port 1 rx_missed": 9}, {"dropped no pipeline": 4, "meter red": 1})
    d = accounting.since(after, before)
    assert d["room"] == {"backend": {"port 1 rx_missed": 4}, "kernel": {}}
    assert d["verdicts"] == {"backend": {"meter red": 1}}
    restarted = accounting.since(collection(11, {"port 1 rx_missed": 3}, {}), before)
    assert restarted["room"]["backend"] == {"port 1 rx_missed": 3}


def test_the_balance_says_how_many_nobody_counted():
    drops = {"room": {"backend": {"port 1 rx_missed": 4}, "kernel": {"receiver dn socket": 1}},
             "verdicts": {"backend": {}}}
    assert accounting.balance(100, 95, drops) == {"sent": 100, "delivered": 95, "dropped": 5, "verdicts": 0,
                                                   "uncounted": 0, "loss": 0.05}
    assert accounting.balance(100, 94, drops)["uncounted"] == 1
    assert accounting.describe(drops["room"]) == "backend: port 1 rx_missed 4; kernel: receiver dn socket 1"
    assert accounting.describe({"backend": {}}) == "none"


def test_the_wait_ends_once_every_packet_is_accounted_for_or_at_its_bound():
    delivered = iter(range(94, 200))
    drops = {"room": {"backend": {"port 1 rx_missed": 4}}, "verdicts": {}}
    assert accounting.wait_accounted(lambda: 100, lambda: next(delivered), lambda: drops, timeout=60)
    assert next(delivered) == 97   # balanced at 96 + 4
    assert accounting.wait_accounted(lambda: 100, lambda: 90, lambda: drops, excused=6, timeout=0)
    assert not accounting.wait_accounted(lambda: 100, lambda: 90, lambda: drops, timeout=0)


def test_a_backend_added_under_traffic_is_counted_from_when_it_is_steered_to():
    before = collection(10, {"port 1 rx_missed": 5}, {})
    joined = {"room": {"backend-2": {"port 1 rx_missed": 1}, "kernel": {}},
              "verdicts": {"backend-2": {"dropped no pipeline": 15}}, "pids": {"backend-2": 20}}
    accounting.rebase(before, joined)
    after = collection(10, {"port 1 rx_missed": 5}, {})
    after["room"]["backend-2"] = {"port 1 rx_missed": 3}
    after["verdicts"]["backend-2"] = {"dropped no pipeline": 15, "uplink session miss": 2}
    after["pids"]["backend-2"] = 20
    d = accounting.since(after, before)
    assert d["room"]["backend-2"] == {"port 1 rx_missed": 2}
    assert d["verdicts"]["backend-2"] == {"uplink session miss": 2}
    assert d["room"]["kernel"] == {}, "the kernel's counts keep their baseline from the traffic's start"


def test_the_settle_wait_ends_on_two_equal_reads_with_empty_queues_or_at_its_bound(monkeypatch):
    def port2(tx, backlog):
        return {"ports": [dict(STATS["ports"][0]), dict(STATS["ports"][1], TX=tx, QueueBacklog=backlog)]}
    reads = iter([port2(860, 10), port2(870, 0), port2(870, 0), port2(871, 0)])
    monkeypatch.setattr(accounting, "backend_stats", lambda pid, log: next(reads))
    switch = accounting.Device("switch", 1, "switch.log", "127.0.0.1:1", "p4info.txt")
    assert accounting.wait_settled([switch], timeout=60)
    assert next(reads)["ports"][1]["TX"] == 871   # settled on the third read, the second equal one
    held = iter([port2(870, 3)] * 3 + [port2(870, 0)] * 2)
    monkeypatch.setattr(accounting, "backend_stats", lambda pid, log: next(held))
    assert accounting.wait_settled([switch], timeout=60)
    assert list(held) == []   # equal reads while the queues held packets did not end it
    monkeypatch.setattr(accounting, "backend_stats", lambda pid, log: port2(870, 3))
    assert not accounting.wait_settled([switch], timeout=0)
