"""The tenants lab (`tools/lab.sh tenants`): its percentiles, windows, frames and checks on synthetic stats (each
check must fail on the run that breaks it), then one short A/B on the machine (root)."""
import copy
import json
import os
import struct
import subprocess
import sys

import pytest

from hupf_tools.lab import accounting, frames, tenant_checks, tenant_plan, tenant_traffic, tenants
from test_lab import LAB_TIMEOUT_S, missing

SLACK_MS = 3.0
TENANT = {t["name"]: t for t in tenant_plan.TENANTS}


def test_percentiles_are_nearest_rank():
    values = list(range(1, 1001))   # 1..1000
    assert tenant_checks.percentile(values, 50) == 500
    assert tenant_checks.percentile(values, 99) == 990
    assert tenant_checks.percentile(values, 99.9) == 999
    assert tenant_checks.percentile([7.0], 99.9) == 7.0
    assert tenant_checks.percentile([], 50) is None


def test_bronze_ramps_from_below_to_above_the_port_rate_and_windows_split_the_run():
    plan = tenant_plan.Plan(port_mbps=5, duration_s=30)
    bronze = plan.phases("bronze")
    assert tenant_traffic.rate_at(bronze, 1.0)[0] == plan.pps(plan.BRONZE_LOW, plan.BRONZE_SIZE)
    ramp_mid = sum(plan.ramp) / 2
    mid = tenant_traffic.rate_at(bronze, ramp_mid)[0]
    assert plan.pps(plan.BRONZE_LOW, plan.BRONZE_SIZE) < mid < plan.pps(plan.BRONZE_HIGH, plan.BRONZE_SIZE)
    offered = sum(tenant_traffic.rate_at(plan.phases(n), 29.0)[0] * tenant_traffic.rate_at(plan.phases(n), 29.0)[1]
                  * 8 for n in TENANT)
    assert offered > 1.4 * plan.port_mbps * 1e6   # congested at the end
    base = sum(tenant_traffic.rate_at(plan.phases(n), 2.0)[0] * tenant_traffic.rate_at(plan.phases(n), 2.0)[1] * 8
               for n in TENANT)
    assert base < 0.6 * plan.port_mbps * 1e6      # not before the ramp
    net = {"windows": plan.windows}
    assert tenant_traffic.window_of(net, 2.0) == "baseline"
    assert tenant_traffic.window_of(net, ramp_mid) is None
    assert tenant_traffic.window_of(net, 29.0) == "congested"
    # Gold's allowance: a tenth of a full queue of 64 bronze frames (1000 B, Ethernet and framing) at 5 Mbit/s.
    assert plan.slack_ms == pytest.approx(64 * 1038 * 8 / 5e6 * 1000 / 10)
    with pytest.raises(ValueError):
        tenant_plan.Plan(port_mbps=500)


def test_a_tenants_frame_is_gtpu_in_its_vxlan_and_its_send_time_reaches_the_receiver():
    plan = {"gnb_peer_mac": "02:00:00:00:00:01", "gnb_mac": "02:00:00:00:00:02", "gnb": "192.0.2.2",
            "n3": "192.0.2.1", "app": "198.51.100.10", "vtep": tenant_plan.VTEP}
    ue = {"idx": 3, "ul_teid": 0x1234, "addr": "10.250.0.3"}
    buf, off = tenant_traffic.vxlan_frame(plan, {"vni": 300, "sport": 49452}, ue, 1000)
    tenant_traffic.STAMP.pack_into(buf, off, 17, 123456789)
    assert struct.unpack_from("!H", buf, 36)[0] == tenant_traffic.VXLAN_PORT
    assert bytes(buf[30:34]) == frames.ip(tenant_plan.VTEP)
    assert struct.unpack_from("!I", buf, 46)[0] >> 8 == 300
    tenant_frame = bytes(buf[tenant_traffic.OUTER_LEN:])
    assert struct.unpack_from("!I", tenant_frame, 14 + 20 + 8 + 4)[0] == 0x1234   # the G-PDU's TEID
    # What the DN receives: the user packet, decapsulated, in a new Ethernet header.
    user = tenant_frame[14 + 20 + 8 + 8:]
    received = tenant_frame[:14] + user
    assert frames.parse_uplink(received)[:2] == (3, 17)
    assert struct.unpack_from("!Q", received, tenant_traffic.RX_STAMP_OFF)[0] == 123456789


def lat(base_ms, n):
    return [round(1000 * (base_ms + i * 0.001), 1) for i in range(n)]


PLAIN, SLICED = tenant_plan.Plan(slices=False), tenant_plan.Plan()
BASE_N, CONG_N = 1000, 2000


def result(plan, run, congested_ms, lost=None, established=(6, 6), queue_dropped=(400, 0, 0, 0, 0, 0, 0, 0),
           dscp=None, bad=None, counters=None, outside=0, uncounted=0, stall_dropped=(0,) * 8, below_full=0):
    """A run's result as run_once returns it: every stream sends BASE_N packets in the baseline window and CONG_N
    congested, at 1 ms in the baseline and congested_ms[stream] (default 1.5) congested, losing lost[stream]
    congested packets (default: the low-priority streams 400, the video slice what its meter drops); the switch
    counted what was sent. The losses are counted: the video slice's as its meter's, `outside` of the others by
    the kernel, the rest as the switch's queue drops, but `uncounted`."""
    tenants_cfg = plan.tenants(run)
    lost = dict({"bronze": 400, "gold-bulk": 600}, **(lost or {}))
    sent = {s["name"]: {"baseline": BASE_N, "congested": CONG_N} for s in plan.streams}
    received = {n: dict(w) for n, w in sent.items()}
    windows = plan.windows
    flen = {s["name"]: tenant_plan.frame_len(plan.phases(s["name"])[-1][4], s["qfi"]) for s in plan.streams}
    if "silver-video" in sent and run != "no slices" and "silver-video" not in lost:
        rate = plan.slices("silver")[0]["rate_bps"]
        for w, (t0, t1) in windows.items():
            received["silver-video"][w] = int(rate * (t1 - t0) / 8 / flen["silver-video"])
    for n, k in lost.items():
        if n in received:
            received[n]["congested"] -= k
    cong = dict({"bronze": 150.0, "gold-bulk": 150.0}, **(congested_ms or {}))
    latency = {n: {"baseline": lat(1.0, received[n]["baseline"]),
                   "congested": lat(cong.get(n, 1.5), received[n]["congested"])} for n in sent}
    total = {n: BASE_N + CONG_N + 500 for n in sent}
    nbytes = {n: total[n] * flen[n] for n in sent}
    if counters is None:
        counters = {"read_ms": 1, "tenants": {}, "slices": {}}
        for s in plan.streams:
            tid = str(tenant_plan.TENANT_IDS[s["tenant"]])
            p, b = counters["tenants"].get(tid, [0, 0])
            counters["tenants"][tid] = [p + total[s["name"]], b + nbytes[s["name"]]]
        for t in tenants_cfg:
            for x in t.get("slices", ()):
                s = next(s for s in plan.streams if s["tenant"] == tenant_plan.TENANTS[t["tenant_id"] - 1]["name"]
                         and s["qfi"] == x["qfi"])
                counters["slices"]["%d/%d" % (t["tenant_id"], x["qfi"])] = [total[s["name"]], nbytes[s["name"]]]
    missing = {n: sum(sent[n].values()) - sum(received[n].values()) for n in sent}
    metered = missing.get("silver-video", 0) if run != "no slices" else 0
    queued = sum(missing.values()) - metered - outside - uncounted
    drops = {"room": {"switch": {"port 2 queue 0 full": queued}, "kernel": {"veth hs1-1 tx_dropped": outside}},
             "verdicts": {"switch": {"meter red": metered} if metered else {}, "backend": {}}}
    sent_all = sum(total.values())
    return {"established": list(established), "drops": drops,
            "accounting": accounting.balance(sent_all, sent_all - sum(missing.values()), drops),
            "figures": tenant_checks.tenant_figures({"sent": sent}, {"received": received, "latency_us": latency}),
            "queue_dropped": list(queue_dropped),
            "queue_service": {"stall_dropped": list(stall_dropped), "sent_below_full": below_full,
                              "longest_gap_us": 250000},
            "dscp": dscp or {s["name"]: {str(tenant_checks.expected_dscp(tenants_cfg, s)): 10} for s in plan.streams},
            "bad": bad or {}, "streams": plan.streams, "tenants": tenants_cfg, "windows": windows,
            "sent_total": total, "sent_bytes": nbytes, "counters": counters, "rx_missed": 0}


def good(plan):
    out = {"priority": result(plan, "priority", {}),
           "no priority": result(plan, "no priority", {n: 80.0 for n in ("gold", "silver", "silver-video")},
                                 lost={"gold": 900})}
    if plan.sliced:
        out["no slices"] = result(plan, "no slices", {"gold": 140.0}, lost={"gold": 300, "gold-bulk": 900})
    return out


GOOD = good(PLAIN)
GOOD_SLICED = good(SLICED)


def failed(plan=PLAIN, **runs):
    ab = copy.deepcopy(good(plan))
    ab.update({k.replace("_", " "): v for k, v in runs.items()})
    return [name for name, ok, _ in tenant_checks.checks(ab, SLACK_MS) if not ok]


def test_a_clean_ab_passes_every_check():
    assert failed() == []
    assert len(tenant_checks.checks(copy.deepcopy(GOOD), SLACK_MS)) == 9
    fig = GOOD["priority"]["figures"]["bronze"]["congested"]
    assert fig["loss"] == pytest.approx(400 / 2000)
    assert fig["p50"] == pytest.approx(150.0 + 0.001 * 799, abs=0.01)


def test_a_clean_sliced_abc_passes_every_check_the_slices_among_them():
    assert failed(SLICED) == []
    names = [n for n, _, _ in tenant_checks.checks(copy.deepcopy(GOOD_SLICED), SLACK_MS)]
    assert "without the slices, gold's congested p99 rises above that bound (its bulk QFI in its class)" in names
    assert "with priority, gold's bulk slice (QFI 9) (congested) loses packets and waits longer than in its " \
        "baseline" in names
    assert ("with priority, the switch's queue drops on port 2 are priority 0 (gold-bulk, bronze) or a stall's "
            "backlog, and no frame left below a full queue") in names
    assert OVERSUBSCRIBED in names
    assert len(names) == 13


GOLD_AND_SILVER = ("with priority, gold and silver lose nothing to congestion in hupf's queues: what they did not "
                   "receive was dropped for want of room elsewhere or in a stall's backlog")
ACCOUNTED = "every packet is delivered or counted dropped, in every run"


def test_gold_losing_packets_in_the_queues_with_priority_fails():
    assert failed(priority=result(PLAIN, "priority", {}, lost={"gold": 1})) == [GOLD_AND_SILVER]


def test_gold_losing_packets_the_kernel_counted_passes():
    """A busy machine's veth or socket drops are no priority failure: counted outside hupf's queues, they pass."""
    assert failed(priority=result(PLAIN, "priority", {}, lost={"gold": 3}, outside=3)) == []
    assert failed(priority=result(PLAIN, "priority", {}, lost={"gold": 3}, outside=2)) == [GOLD_AND_SILVER]


def test_a_drop_nobody_counted_fails_in_any_run():
    assert failed(no_priority=result(PLAIN, "no priority", {"gold": 80.0}, lost={"gold": 900}, uncounted=1)) == [
        ACCOUNTED]
    miss = result(PLAIN, "priority", {})
    miss["drops"]["verdicts"]["backend"] = {"uplink session miss": 1}
    assert failed(priority=miss) == [ACCOUNTED]


def test_gold_waiting_behind_bronze_with_priority_fails_the_bound():
    # Baseline p99 ~1 ms: the bound is 2 x 1 + 3 = 5 ms.
    assert failed(priority=result(PLAIN, "priority", {"gold": 6.0})) == [
        "with priority, gold's congested p99 stays within 2 x its baseline p99 + 3.00 ms"]


def test_no_rise_without_priority_fails():
    assert failed(no_priority=result(PLAIN, "no priority", {})) == [
        "without priority, gold's congested p99 rises above that bound"]


def test_an_uncongested_bronze_fails():
    assert failed(priority=result(PLAIN, "priority", {"bronze": 1.0}, lost={"bronze": 0})) == [
        "with priority, bronze (congested) loses packets and waits longer than in its baseline"]


QUEUE_CHECK = ("with priority, the switch's queue drops on port 2 are priority 0 (bronze) or a stall's backlog, and "
               "no frame left below a full queue")


def test_queue_drops_of_another_priority_outside_a_stall_or_unread_fail():
    name = QUEUE_CHECK
    assert failed(priority=result(PLAIN, "priority", {}, queue_dropped=(400, 0, 3, 0, 0, 0, 0, 0))) == [name]
    assert failed(priority=result(PLAIN, "priority", {}, queue_dropped=(400, 0, 3, 0, 0, 0, 0, 0),
                                  stall_dropped=(10, 0, 2, 0, 0, 0, 0, 0))) == [name]
    for key in ("queue_dropped", "queue_service"):
        unread = result(PLAIN, "priority", {})
        unread[key] = None
        assert failed(priority=unread) == [name]


def test_drops_above_priority_0_in_a_stalls_backlog_pass_and_excuse_silvers_loss():
    # Beside a CPU hog: the switch's lcore away for longer than its queue at silver's rate; silver's frames that
    # arrived meanwhile overflow its queue (counted as a stall's), bronze's queue is full anyway.
    stalled = result(PLAIN, "priority", {}, lost={"silver": 55}, queue_dropped=(455, 0, 55, 0, 0, 0, 0, 0),
                     stall_dropped=(30, 0, 55, 0, 0, 0, 0, 0))
    assert failed(priority=stalled) == []


def test_a_frame_sent_below_a_full_queue_fails():
    assert failed(priority=result(PLAIN, "priority", {}, below_full=1)) == [QUEUE_CHECK]


OVERSUBSCRIBED = ("without the slices (gold's bulk QFI above the port's rate in gold's class), no frame left below a "
                  "full queue")


def test_a_frame_sent_below_gold_bulks_full_queue_without_the_slices_fails():
    over = result(SLICED, "no slices", {"gold": 140.0}, lost={"gold": 300, "gold-bulk": 900}, below_full=157)
    assert failed(SLICED, no_slices=over) == [OVERSUBSCRIBED]


def test_a_refused_session_fails():
    assert failed(no_priority=result(PLAIN, "no priority", {"gold": 80.0}, lost={"gold": 900},
                                     established=(5, 6))) == ["all sessions established over PFCP, both runs"]


def test_a_tenant_leaving_with_another_dscp_or_a_malformed_frame_fails():
    name = "every packet arrives decapsulated and well formed, with its tenant's or slice's DSCP"
    dscp = {n: {str(t["dscp"]): 10} for n, t in TENANT.items()}
    dscp["gold"]["0"] = 1
    assert failed(priority=result(PLAIN, "priority", {}, dscp=dscp)) == [name]
    assert failed(no_priority=result(PLAIN, "no priority", {"gold": 80.0}, lost={"gold": 900},
                                     bad={"uplink still GTP-U encapsulated": 1})) == [name]


def test_a_bulk_slice_in_the_tenants_class_fails():
    """Gold's bulk QFI leaving with gold's DSCP (its slice not applied) fails the DSCP check; gold's latency
    unchanged without the slices fails the slices' rise."""
    dscp = {s["name"]: {str(tenant_checks.expected_dscp(SLICED.tenants("priority"), s)): 10} for s in SLICED.streams}
    dscp["gold-bulk"] = {"46": 10}
    assert failed(SLICED, priority=result(SLICED, "priority", {}, dscp=dscp)) == [
        "every packet arrives decapsulated and well formed, with its tenant's or slice's DSCP"]
    assert failed(SLICED, no_slices=result(SLICED, "no slices", {}, lost={"gold-bulk": 900})) == [
        "without the slices, gold's congested p99 rises above that bound (its bulk QFI in its class)"]
    assert failed(SLICED, priority=result(SLICED, "priority", {"gold-bulk": 1.0}, lost={"gold-bulk": 0})) == [
        "with priority, gold's bulk slice (QFI 9) (congested) loses packets and waits longer than in its baseline"]


def test_the_video_slice_meter_must_drop_its_excess_and_only_that():
    name = "with priority, silver-video's slice meter (QFI 5, 500000 bit/s) delivers its rate and drops the excess"
    assert failed(SLICED, priority=result(SLICED, "priority", {}, lost={"silver-video": 0})) == [name]
    # Twice the loss the meter explains.
    half = result(SLICED, "priority", {})
    for w in ("baseline", "congested"):
        f = half["figures"]["silver-video"][w]
        f["received"] //= 2
    assert failed(SLICED, priority=half) == [name]
    # The meter's expectation: 500 kbit/s of 1108-byte frames over the baseline's 9 s is 507.6 frames.
    f = GOOD_SLICED["priority"]["figures"]["silver-video"]
    assert f["baseline"]["received"] == 507 and f["congested"]["received"] == 789


def test_counters_off_what_was_sent_or_unread_fail():
    name = "the switch's tenant and slice counters hold each tenant's and slice's packets and bytes as sent"
    for mutate in (lambda c: c["slices"]["1/9"].__setitem__(0, c["slices"]["1/9"][0] - 1),
                   lambda c: c["slices"]["2/5"].__setitem__(1, c["slices"]["2/5"][1] + 1),
                   lambda c: c["tenants"].__setitem__("3", [c["tenants"]["3"][0] + 1, c["tenants"]["3"][1]]),
                   lambda c: c["slices"].pop("1/1"),
                   lambda c: c.__setitem__("error", "switch unreachable")):
        r = result(SLICED, "priority", {})
        mutate(r["counters"])
        assert failed(SLICED, priority=r) == [name]
    # Packets the switch's gNB port missed may be missing from the counters, no more.
    r = result(SLICED, "priority", {})
    r["counters"]["slices"]["1/9"][0] -= 2
    r["rx_missed"] = 2
    assert failed(SLICED, priority=r) == []
    r["rx_missed"] = 1
    assert failed(SLICED, priority=r) == [name]


def test_the_plan_gives_gold_a_bulk_slice_and_silver_a_metered_video_slice():
    pr, nop, nos = (SLICED.tenants(r) for r in tenant_plan.RUNS)
    gold = pr[0]
    assert (gold["tc"], gold["dscp"]) == (3, 46)
    assert gold["slices"] == [{"qfi": 1, "tc": 3, "dscp": 46}, {"qfi": 9, "tc": 0, "dscp": 8}]
    assert pr[1]["slices"] == [{"qfi": 5, "tc": 2, "dscp": 34, "rate_bps": 500000,
                                "burst_bytes": 10 * tenant_plan.frame_len(1000, 5)}]
    assert all(t["tc"] == 0 and all(x["tc"] == 0 for x in t["slices"]) for t in nop)
    assert all("slices" not in t for t in nos)
    assert [t["tc"] for t in nos] == [3, 2, 0]
    assert PLAIN.runs == ("priority", "no priority") and all("slices" not in t for t in PLAIN.tenants("priority"))
    # The bulk slice alone ramps above the port's rate; the video sends 1.5 times what its meter passes.
    bulk = SLICED.phases("gold-bulk")
    assert tenant_traffic.rate_at(bulk, 2.0)[0] * 1400 * 8 < 0.15 * 5e6
    assert tenant_traffic.rate_at(bulk, 29.0)[0] * 1400 * 8 > 1.15 * 5e6
    video = tenant_traffic.rate_at(SLICED.phases("silver-video"), 5.0)
    assert video[0] * tenant_plan.frame_len(video[1], 5) * 8 / 500000 == pytest.approx(1.66, abs=0.01)


def test_a_streams_frame_carries_its_qfi_in_an_uplink_pdu_session_container():
    from scapy.contrib.gtp import GTP_U_Header, GTPPDUSessionContainer
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    plan = {"gnb_peer_mac": "02:00:00:00:00:01", "gnb_mac": "02:00:00:00:00:02", "gnb": "192.0.2.2",
            "n3": "192.0.2.1", "app": "198.51.100.10", "vtep": tenant_plan.VTEP}
    ue = {"idx": 3, "ul_teid": 0x1234, "addr": "10.250.0.3"}
    buf, off = tenant_traffic.vxlan_frame(plan, {"vni": 100, "sport": 49252, "qfi": 9}, ue, 1400, index=1)
    tenant_traffic.STAMP.pack_into(buf, off, 5, 987654321)
    assert len(buf) == tenant_plan.frame_len(1400, 9)
    inner = Ether(bytes(buf[tenant_traffic.OUTER_LEN:]))
    gtp = inner[GTP_U_Header]
    assert (gtp.E, gtp.next_ex, gtp.teid) == (1, 0x85, 0x1234)
    assert gtp.length == 4 + 4 + 1400   # optional fields, the container, the user packet
    psc = inner[GTPPDUSessionContainer]
    assert (psc.type, psc.QFI, psc.ExtHdrLen, psc.NextExtHdr) == (1, 9, 1, 0)
    user = psc.payload
    assert isinstance(user, IP) and user.src == "10.250.0.3" and user.len == 1400 and isinstance(user.payload, UDP)
    # What the DN receives: the user packet, decapsulated; its stream is gold's index 1, not silver's.
    received = bytes(inner)[:14] + bytes(user)
    assert frames.parse_uplink(received)[:2] == (3, 5)
    assert struct.unpack_from("!Q", received, tenant_traffic.RX_STAMP_OFF)[0] == 987654321
    streams = [{"name": "gold", "tenant": "gold"}, {"name": "gold-bulk", "tenant": "gold"},
               {"name": "silver", "tenant": "silver"}]
    assert tenant_traffic.stream_of(received, streams, "gold") == "gold-bulk"
    assert tenant_traffic.stream_of(received, streams, "silver") is None
    assert tenant_traffic.stream_of(received, streams[:1], "gold") is None
    with pytest.raises(ValueError):
        frames.gtpu_header(1, 100, qfi=64)


def test_the_summary_and_the_spread_show_every_percentile():
    lines = tenants.render(GOOD, tenant_checks.checks(copy.deepcopy(GOOD), SLACK_MS), PLAIN, "1.00 1.00 1.00")
    assert any(line.startswith("| priority | gold | congested | 2000 | 0.00% |") for line in lines)
    sp = tenants.spread([GOOD, GOOD, copy.deepcopy(GOOD)])
    assert sp["no priority"]["gold"]["congested"]["p99"][0] == sp["no priority"]["gold"]["congested"]["p99"][2]
    assert len(tenants.render_spread(sp, 3)) == 4 + 2 * 3 * 2
    lines = tenants.render(GOOD_SLICED, tenant_checks.checks(copy.deepcopy(GOOD_SLICED), SLACK_MS), SLICED, "1.00")
    assert any(line.startswith("| no slices | gold-bulk (QFI 9) | congested | 2000 | 45.00% |") for line in lines)
    assert len(tenants.render_spread(tenants.spread([GOOD_SLICED] * 3), 3)) == 4 + 3 * 5 * 2


def test_the_switch_queue_drops_come_from_its_last_stats_line(tmp_path):
    log = tmp_path / "switch.log"
    line = {"msg": "stats", "ports": [{"P4Port": 1}, {"P4Port": 2, "QueueDropped": [5, 0, 2, 0, 0, 0, 0, 0],
                                                      "QueueStallDropped": [1, 0, 2, 0, 0, 0, 0, 0],
                                                      "LongestGapUS": 180000}]}
    log.write_text('{"msg":"serving P4Runtime"}\n' + json.dumps(line, separators=(",", ":")) + "\n")
    assert tenants.queue_drops(str(log), 2) == [5, 0, 2, 0, 0, 0, 0, 0]
    assert tenants.queue_drops(str(log), 1) is None
    assert tenants.queue_service(str(log), 2) == {"stall_dropped": [1, 0, 2, 0, 0, 0, 0, 0], "sent_below_full": 0,
                                                  "longest_gap_us": 180000}
    assert tenants.queue_service(str(log), 1) is None


def test_a_short_ab_on_this_machine(tmp_path):
    """One A/B/C of 12 s runs (about two minutes), with the slices: the robust half of the checks must hold here
    whatever the machine's load (gold's p99 bound needs a quiet machine: it is reported, not asserted)."""
    why = missing("backend")
    if why:
        pytest.skip("tenants lab: missing %s" % why)
    if not os.path.exists(tenants.lab.CLASSPATH):
        pytest.skip("tenants lab: the runner's classpath %s (tools/lab.sh builds it)" % tenants.lab.CLASSPATH)
    out = tmp_path / "tenants.json"
    res = subprocess.run([sys.executable, "-m", "hupf_tools.lab.tenants", "--duration", "12", "--json", str(out)],
                         capture_output=True, text=True, timeout=LAB_TIMEOUT_S,
                         env=dict(os.environ, PYTHONPATH=os.path.join(tenants.lab.REPO, "tools")))
    print(res.stdout[-8000:], res.stderr[-2000:])
    assert res.returncode in (0, 1), res.stderr[-2000:]
    rep = json.loads(out.read_text())["repetitions"][0]
    passed = {c["name"]: c["passed"] for c in rep["checks"]}
    for name in ("all sessions established over PFCP, all runs", ACCOUNTED, GOLD_AND_SILVER,
                 "with priority, bronze (congested) loses packets and waits longer than in its baseline",
                 "with priority, gold's bulk slice (QFI 9) (congested) loses packets and waits longer than in its "
                 "baseline",
                 "with priority, the switch's queue drops on port 2 are priority 0 (gold-bulk, bronze) or a stall's "
                 "backlog, and no frame left below a full queue",
                 "the switch's tenant and slice counters hold each tenant's and slice's packets and bytes as sent",
                 OVERSUBSCRIBED,
                 "with priority, silver-video's slice meter (QFI 5, 500000 bit/s) delivers its rate and drops the "
                 "excess",
                 "every packet arrives decapsulated and well formed, with its tenant's or slice's DSCP"):
        assert passed[name], name
    gold = {run: rep[run]["figures"]["gold"]["congested"] for run in tenant_plan.RUNS}
    # One queue for all, or gold's bulk QFI in gold's class: gold waits behind a full queue; with its slices and
    # priority it does not.
    for run in ("no priority", "no slices"):
        assert gold[run]["p50"] > 10 * gold["priority"]["p50"], run
    assert gold["no priority"]["loss"] > 0
    # The counters the check compared, as the switch reported them: gold's two slices apart, silver's video alone.
    # (less at most what the switch's gNB port missed on a loaded machine).
    pr = rep["priority"]
    c, sent, missed = pr["counters"], pr["sent_total"], pr["rx_missed"] or 0
    for cell, stream in (("1/1", "gold"), ("1/9", "gold-bulk"), ("2/5", "silver-video")):
        assert sent[stream] - missed <= c["slices"][cell][0] <= sent[stream] and sent[stream] > 0, cell
    silver = sent["silver"] + sent["silver-video"]
    assert silver - missed <= c["tenants"]["2"][0] <= silver
    assert rep["no slices"]["counters"]["slices"] == {}
