"""The lab's end-of-run checks: each must fail on the run that breaks it (they gate `make lab`'s exit status)."""
import copy

from hupf_tools.lab import summary

PLAN = {"start": 100.0, "duration": 20.0, "heavy_on": 3.0, "heavy_off": 11.0,
        "ues": [{"idx": 1, "addr": "10.250.0.1", "heavy": True}, {"idx": 2, "addr": "10.250.0.2", "heavy": False}]}
TX = [{"tx": {"1": {"pkts": 100}, "2": {"pkts": 10}}}]
RX = [{"rx": {"1": {"pkts": 100}, "2": {"pkts": 10}}, "bad": {}}]
STATUS = {"ues": {"10.250.0.1": {"pkts": 100}, "10.250.0.2": {"pkts": 10}},
          "events": [{"t": 104500, "kind": "PROMOTED", "ue": "10.250.0.1"},
                     {"t": 114000, "kind": "DEMOTED", "ue": "10.250.0.1"}]}
DELIVERY = "every UE's packets arrive, correctly encapsulated/decapsulated, or are counted dropped"
GONE = {"10.250.0.1": {"backend": False, "switch": False}, "10.250.0.2": {"backend": False, "switch": False}}


def failed(**changes):
    args = dict(plan=PLAN, switch="bmv2", established=(2, 2), final_status=STATUS, deleted=GONE, tx=TX, rx=RX)
    args.update(changes)
    return [name for name, ok, _ in summary.checks(**copy.deepcopy(args)) if not ok]


def test_a_clean_run_passes_every_check():
    assert failed() == []


def test_a_refused_session_fails_establishment():
    assert failed(established=(1, 2)) == ["all sessions established over PFCP"]


def test_malformed_or_missing_packets_fail_delivery():
    bad = [{"rx": RX[0]["rx"], "bad": {"wrong TEID": 1}}]
    assert failed(rx=bad) == [DELIVERY]
    silent = [{"rx": {"1": {"pkts": 100}, "2": {"pkts": 0}}, "bad": {}}]
    assert DELIVERY in failed(rx=silent)


def test_counters_outside_received_and_sent_fail():
    over = dict(STATUS, ues={"10.250.0.1": {"pkts": 101}, "10.250.0.2": {"pkts": 10}})
    assert failed(final_status=over) == ["usage counters (summed over both targets) add up"]


def test_an_offloaded_mouse_fails():
    ev = STATUS["events"] + [{"t": 105000, "kind": "PROMOTED", "ue": "10.250.0.2"}]
    assert failed(final_status=dict(STATUS, events=ev)) == ["mice are never offloaded"]


def test_a_late_or_missing_promotion_and_no_demotion_fail_with_a_switch_only():
    late = dict(STATUS, events=[{"t": 109000, "kind": "PROMOTED", "ue": "10.250.0.1"}])
    assert set(failed(final_status=late)) == {"heavy UEs offloaded within 5 s (305 HK-IPG timeslots) of turning heavy",
                                             "heavy UEs back in software after they cool down"}
    assert failed(final_status=dict(STATUS, events=[]), switch=None) == []


def test_a_session_left_on_a_target_fails_deletion():
    left = dict(GONE, **{"10.250.0.2": {"backend": False, "switch": True}})
    assert failed(deleted=left) == ["sessions deleted over PFCP are gone from both targets"]


def drops(room=None, verdicts=None):
    return {"room": room or {}, "verdicts": verdicts or {}}


def test_every_packet_not_delivered_must_be_counted_dropped():
    """20 packets missing: counted by the backend's port and the kernel, the run passes (its loss is a figure);
    one of them counted by nobody fails it, as does a count beyond what is missing."""
    lossy = [{"rx": {"1": {"pkts": 80}, "2": {"pkts": 10}}, "bad": {}}]
    counted = dict(STATUS, ues={"10.250.0.1": {"pkts": 85}, "10.250.0.2": {"pkts": 10}})
    room = {"backend": {"port 1 rx_missed": 15}, "kernel": {"veth hs1-2 tx_dropped": 5}}
    assert failed(rx=lossy, final_status=counted, switch="backend", drops=drops(room)) == []
    short = {"backend": {"port 1 rx_missed": 15}, "kernel": {"veth hs1-2 tx_dropped": 4}}
    assert failed(rx=lossy, final_status=counted, switch="backend", drops=drops(short)) == [DELIVERY]
    over = {"backend": {"port 1 rx_missed": 16}, "kernel": {"veth hs1-2 tx_dropped": 5}}
    assert failed(rx=lossy, final_status=counted, switch=None, drops=drops(over)) == [DELIVERY]
    _, _, detail = [c for c in summary.checks(PLAN, "backend", (2, 2), counted, GONE, TX, lossy,
                                              drops=drops(room)) if c[0] == DELIVERY][0]
    assert "sent 110 = delivered 90 + dropped for want of room 20" in detail and "uncounted 0" in detail, detail
    assert "port 1 rx_missed 15" in detail and "loss 18.18%" in detail, detail


def test_a_packet_the_pipeline_dropped_fails_delivery_even_when_counted():
    lossy = [{"rx": {"1": {"pkts": 99}, "2": {"pkts": 10}}, "bad": {}}]
    miss = drops(verdicts={"backend": {"uplink session miss": 1}})
    assert failed(rx=lossy, switch="backend", drops=miss) == [DELIVERY]


def test_no_switch_may_leave_drops_uncounted():
    """bmv2 too: its queues' and sockets' drops are counted from its log (bmv2_log), as any other's."""
    lossy = [{"rx": {"1": {"pkts": 80}, "2": {"pkts": 10}}, "bad": {}}]
    counted = dict(STATUS, ues={"10.250.0.1": {"pkts": 85}, "10.250.0.2": {"pkts": 10}})
    for switch in (None, "backend", "bmv2"):
        assert DELIVERY in failed(rx=lossy, final_status=counted, switch=switch)
    queue_full = drops(room={"bmv2": {"egress queue of port 2 full": 20}})
    assert DELIVERY not in failed(rx=lossy, final_status=counted, switch="bmv2", drops=queue_full)


def test_a_backend_gap_excuses_only_what_a_ue_sends_in_it():
    """UE 1 sends 100 packets in 20 s (5/s): a 1 s gap excuses 5 lost and uncounted, or uncounted in usage, not 6
    (the backend switch excuses none otherwise)."""
    rx = [{"rx": {"1": {"pkts": 95}, "2": {"pkts": 10}}, "bad": {}}]
    counted = dict(STATUS, ues={"10.250.0.1": {"pkts": 95}, "10.250.0.2": {"pkts": 10}})
    delivery = DELIVERY
    assert failed(switch="backend", rx=rx, final_status=counted) == [delivery]
    assert failed(switch="backend", rx=rx, final_status=counted, gap_s=1.0) == []
    rx6 = [{"rx": {"1": {"pkts": 94}, "2": {"pkts": 10}}, "bad": {}}]
    assert failed(switch="backend", rx=rx6, final_status=counted, gap_s=1.0) == [delivery]
    # Received all 100, the dead backend's last 5 uncounted: excused; 6 are not.
    assert failed(final_status=dict(STATUS, ues={"10.250.0.1": {"pkts": 95}, "10.250.0.2": {"pkts": 10}}),
                  gap_s=1.0) == []
    assert failed(final_status=dict(STATUS, ues={"10.250.0.1": {"pkts": 94}, "10.250.0.2": {"pkts": 10}}),
                  gap_s=1.0) == ["usage counters (summed over both targets) add up"]


def test_a_drain_fails_unless_quiet_carried_exact_and_checked():
    """A drained backend's run: its drain went quiet, the backend carried traffic, usage exact, checks passed."""
    run = {"move": {"moved_s": 8.0, "drain": {"quiet": True}}, "backend_packets": {"backend-2": 40},
           "drops": {"room": {}}, "plan": PLAN, "tx": TX, "rx": RX, "ues": STATUS["ues"],
           "checks": [{"name": "deletion", "passed": True}]}
    assert summary.drain_failures(run, 0, "backend-2") == []
    assert summary.drain_failures(run, 2, "backend-2") == ["lab exit 2"]
    for change in ({"move": {"moved_s": 8.0, "drain": {"quiet": False}}}, {"backend_packets": {"backend-2": 0}},
                   {"ues": {"10.250.0.1": {"pkts": 99}, "10.250.0.2": {"pkts": 10}}},
                   {"checks": [{"name": "deletion", "passed": False}]}):
        assert len(summary.drain_failures(dict(run, **change), 0, "backend-2")) == 1, change
