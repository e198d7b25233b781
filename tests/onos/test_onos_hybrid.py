"""A heavy UE offloaded through ONOS: a switch (bmv2's simple_switch_grpc where it is found, else hupf-backend
running the hw profile, as in the lab; HUPF_ONOS_SWITCH=bmv2|backend chooses), the hw pipeline pushed by ONOS
(pipeconf org.hupf.bmv2, driver bmv2), joins the suite's backend in the netcfg, with the switch's steering to
the backend (backendPorts) and HK-IPG parameters (heavyHitter). The lab's traffic (tools/hupf_tools/lab:
namespaces, GTP-U uplink from the gNB, downlink from the DN) runs for sessions made over PFCP: one heavy UE
among mice. The switch reports the heavy UE by an HH_REPORT packet-in, hupf offloads it to the switch, and
demotes it when it stops being heavy; mice stay on the backend. hupf writes the lab's routes from the netcfg
on both devices, and the lab's checks hold: every UE's packets arrive or are counted dropped (the backends',
the veths', the receivers' and bmv2's, from its log: tools/hupf_tools/lab/bmv2_log.py), and each session's
counters, switch and backend summed, lie between what arrived and what was sent. Where root, or bmv2 when chosen,
is missing, the suite prints one SKIPPED line."""
import copy
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import conftest
import stall_probe
from hupf_tools.lab import accounting, scenario, summary
from switch_state import SWITCH, switch_flows_added, switch_groups_added, switch_hh_path, switch_occupancy
from hupf_tools.lab.smf import Smf as LabSmf

pytestmark = pytest.mark.skipif(conftest.HYBRID_WHY is not None, reason="missing %s" % conftest.HYBRID_WHY)

GNB, APP, APP_NET = "192.0.2.2", "198.51.100.10", "198.51.100.0/24"
ROUTER_MAC = "02:68:75:70:66:01"
SWITCH_TIMEOUT_S = 120
# bmv2 forwards a few hundred packets per second on this shared machine: one heavy UE among 3, as the lab.
UES, HEAVY, DURATION_S = 3, 1, 24.0
HOLD_MS = 2000
POLL_S = 1.0  # OffloadComponent's counter poll


def route(device, prefix, port, mac):
    """A netcfg route of the lab's router MAC."""
    return {"deviceId": device, "prefix": prefix, "port": port, "srcMac": ROUTER_MAC, "dstMac": mac}


def hybrid_netcfg(deployed, switch, net):
    """The suite's netcfg (a copy) plus the switch, its port to the backend, HK-IPG, offload and routes."""
    cfg = copy.deepcopy(deployed["cfg"])
    cfg["devices"][SWITCH] = {"basic": {"name": "hupf switch s1", "driver": "bmv2", "pipeconf": "org.hupf.bmv2",
                                        "managementAddress": "grpc://%s?device_id=1" % switch["addr"]}}
    hupf = cfg["apps"]["org.hupf.app"]["hupf"]
    hupf["devices"].append({"deviceId": SWITCH, "role": "switch"})
    hupf["backendPorts"] = [{"switch": SWITCH, "port": 3, "backend": deployed["device"],
                             "mac": net["backend_mac"]}]
    hupf["heavyHitter"] = {"thresholdBps": scenario.Scenario().threshold_bps, "tauThreshold": 1850,
                           "alphaShift": 7, "timeslotUs": 16384, "keyMode": "ue", "windowUs": 1_000_000,
                           "packetBytes": scenario.HEAVY_SIZE}
    hupf["offload"] = {"holdMs": HOLD_MS, "hysteresis": 0.2}
    # The lab's routes: switch ports 1 gNB, 2 DN, 3 backend; the backend answers on its port 1, to the switch.
    hupf["routes"] = [route(SWITCH, GNB + "/32", 1, net["gnb_mac"]), route(SWITCH, APP_NET, 2, net["dn_mac"]),
                      route(deployed["device"], GNB + "/32", 1, net["switch_backend_mac"]),
                      route(deployed["device"], APP_NET, 1, net["switch_backend_mac"])]
    return cfg


def start_traffic(plan, hybrid_net, tmp_path):
    """The lab's traffic generators and receivers for the plan, from 1 s from now: (processes, stats files)."""
    plan["start"] = time.time() + 1.0
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps(plan))
    env = dict(os.environ, PYTHONPATH=str(conftest.REPO / "tools"))
    procs, stats = {}, {}
    for mode in ("recv", "send"):
        for side in ("gnb", "dn"):
            stats[mode, side] = tmp_path / ("%s-%s.json" % (mode, side))
            procs[mode, side] = subprocess.Popen(
                ["ip", "netns", "exec", hybrid_net.ns(side), sys.executable, "-m", "hupf_tools.lab.traffic",
                 mode, "--plan", str(plan_path), "--side", side, "--iface", "%s0" % side,
                 "--stats", str(stats[mode, side])],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    return procs, stats


def finish_traffic(procs):
    """Waits for the senders, then stops the receivers once in-flight packets are in (as the lab)."""
    for side in ("gnb", "dn"):
        procs["send", side].wait(timeout=30)
    time.sleep(1.5)
    for side in ("gnb", "dn"):
        procs["recv", side].terminate()
        procs["recv", side].wait(timeout=20)


def stop_all(procs):
    for p in procs.values():
        p.terminate()
    for p in procs.values():
        p.wait(timeout=20)


def traffic_stats(stats):
    """(sent, received): the senders' and the receivers' stats, gNB side first."""
    return ([json.loads(stats["send", side].read_text()) for side in ("gnb", "dn")],
            [json.loads(stats["recv", side].read_text()) for side in ("gnb", "dn")])


def counted_by_ue(onos, plan):
    """{UE: {"pkts": packets its session's PDRs counted, switch and backend summed}} (as the lab's status)."""
    out = {}
    for u in plan["ues"]:
        status, body = onos.rest("GET", "/onos/hupf/sessions/%d/counters" % u["up_seid"])
        assert status == 200, body
        out[u["addr"]] = {"pkts": sum(c.get("ingressPkts", 0) for c in body.values())}
    return out


def offload_state(onos):
    status, body = onos.rest("GET", "/onos/hupf/offload")
    assert status == 200, body
    return body


def join_switch(onos, deployed, hybrid_net, switch, pins=None):
    """Puts the switch in the netcfg beside the backend (with the offload pins {UE: "HARDWARE"|"SOFTWARE"} given)
    and waits until hupf drives both and the switch holds every entry; returns the lab's addresses."""
    net = dict(hybrid_net.addresses(), n3=deployed["cfg"]["apps"]["org.hupf.app"]["hupf"]["n3Addresses"][0],
               gnb=GNB, app=APP)
    cfg = hybrid_netcfg(deployed, switch, net)
    if pins:
        cfg["apps"]["org.hupf.app"]["hupf"]["offload"]["pins"] = {"ues": pins}
    status, body = onos.rest("POST", "/onos/v1/network/configuration", cfg)
    assert status == 200, body
    onos.wait(lambda: onos.rest("GET", "/onos/v1/devices/%s" % SWITCH)[1].get("available"), SWITCH_TIMEOUT_S,
              "the switch (%s) available in ONOS" % conftest.SWITCH_TARGET)
    onos.wait(lambda: switch_occupancy(onos), SWITCH_TIMEOUT_S,
              "hupf's offload manager over the backend and the switch")
    # A switch may refuse the steering entry written before its action profile group is there; ONOS writes
    # it again when its flow statistics find it missing. Traffic starts once the switch holds every entry,
    # and the clone session HH reports reach the CPU port by.
    onos.wait(lambda: switch_flows_added(onos), SWITCH_TIMEOUT_S, "every flow rule of the switch ADDED")
    onos.wait(lambda: switch_groups_added(onos), SWITCH_TIMEOUT_S, "every group of the switch ADDED")
    return net


def test_heavy_ue_offloaded_through_onos_and_demoted(onos, deployed, backend, hybrid_net, switch,
                                                     tmp_path):
    net = join_switch(onos, deployed, hybrid_net, switch)
    assert offload_state(onos)["hh_reports"] == 0

    sc = scenario.Scenario(ues=UES, heavy=HEAVY, duration_s=DURATION_S, heavy_on_s=DURATION_S * 0.15,
                           heavy_off_s=DURATION_S * 0.55)
    plan = scenario.make_plan(sc, net, 0)
    smf = LabSmf("127.0.0.1", deployed["pfcp_port"])
    procs = {}
    try:
        assert smf.establish(plan) == UES
        before = conftest.counted_drops({"b1": backend}, switch, hybrid_net)
        procs, stats = start_traffic(plan, hybrid_net, tmp_path)
        heavy = {u["addr"] for u in plan["ues"] if u["heavy"]}
        mice = {u["addr"] for u in plan["ues"] if not u["heavy"]}
        offloaded_while_heavy = set()
        offloaded_mice = set()
        end = plan["start"] + DURATION_S
        while time.time() < end:
            state = offload_state(onos)
            t = time.time() - plan["start"]
            on_switch = set(state["offloaded_ues"])
            offloaded_mice |= on_switch & mice
            if sc.heavy_on_s <= t <= sc.heavy_off_s + HOLD_MS / 1000:
                offloaded_while_heavy |= on_switch & heavy
            time.sleep(0.5)
        finish_traffic(procs)
        onos.wait(lambda: not set(offload_state(onos)["offloaded_ues"]) & heavy, 30,
                  "the heavy UE demoted once it is quiet")
        # hupf's usage is as of its last counter poll: waited for until it counts what arrived of each UE.
        received = traffic_stats(stats)[1]
        onos.wait(lambda: not summary.uncounted(plan, counted_by_ue(onos, plan), received), 30,
                  "hupf's usage counting what arrived of every UE")
        counted = counted_by_ue(onos, plan)
        final = offload_state(onos)
        drops = accounting.since(conftest.counted_drops({"b1": backend}, switch, hybrid_net,
                                                        traffic_stats(stats)[1]), before)
    finally:
        stop_all(procs)
        smf.delete_all(plan, lambda: {})
        smf.close()
    print("offload after the run: %s" % final)
    time.sleep(2)
    print("after the PFCP deletions: offload manager sessions=%d, session store %d" % (
        offload_state(onos)["sessions"], len(onos.rest("GET", "/onos/hupf/sessions")[1]["sessions"])))
    assert final["hh_reports"] >= 1, "the switch reported the heavy UE (HH_REPORT packet-in): %s; %s" % (
        final, switch_hh_path(onos, switch))
    assert offloaded_while_heavy == heavy, "heavy UE %s offloaded to the switch while heavy: %s" % (heavy, final)
    assert not offloaded_mice, "mice stay on the backend: %s" % offloaded_mice
    assert final["promotions"] >= 1 and final["demotions"] >= 1, final
    assert final["hw_bytes"] > 0, "the switch carried the heavy UE's bytes while it was offloaded: %s" % final
    # The lab's checks of what arrived and what was counted, over ONOS's routes on both devices.
    tx, rx = traffic_stats(stats)
    for name, ok, detail in (summary.delivery(plan, tx, rx, drops=drops), summary.usage(plan, counted, tx, rx)):
        print("%s  %s (%s)" % ("PASS" if ok else "FAIL", name, detail))
        assert ok, "%s: %s" % (name, detail)


SECOND_BACKEND = "device:backend:b2"
# Mice only: which backend a UE's misses reach is the switch's hash of its address; 8 UEs at weights 1:2.
SPLIT_UES, SPLIT_DURATION_S, SECOND_WEIGHT = 8, 10.0, 2
MOVE_AT = 0.4  # share of a round's traffic sent before the second backend is drained, or stops


@pytest.fixture
def second_backend(tmp_path_factory, hybrid_net):
    """Another hupf-backend, its port 1 on the topology's switch port 4."""
    b = conftest.Backend(tmp_path_factory.mktemp("backend2") / "hupf-backend.log", port1=hybrid_net.backends[1][1])
    yield b
    b.stop()


def sent_and_received(tx, rx):
    """(packets sent, packets received) over every UE of a round."""
    return tuple(sum(s["pkts"] for r in side for s in r.get(key, {}).values())
                 for side, key in ((tx, "tx"), (rx, "rx")))


def rx_packets(ifname):
    with open("/sys/class/net/%s/statistics/rx_packets" % ifname) as f:
        return int(f.read())


def two_backends_netcfg(deployed, switch, second, net):
    """The hybrid netcfg with a second backend: a device, switch port 4 towards it (weight 2), its routes."""
    cfg = hybrid_netcfg(deployed, switch, net)
    first = cfg["devices"][deployed["device"]]["basic"]
    cfg["devices"][SECOND_BACKEND] = {"basic": dict(first, name="hupf backend b2",
                                                    managementAddress="grpc://%s?device_id=1" % second.addr)}
    hupf = cfg["apps"]["org.hupf.app"]["hupf"]
    hupf["devices"].append({"deviceId": SECOND_BACKEND, "role": "backend"})
    hupf["backendPorts"].append({"switch": SWITCH, "port": 4, "backend": SECOND_BACKEND,
                                 "mac": net["backend_macs"][1], "weight": SECOND_WEIGHT})
    hupf["routes"] += [route(SECOND_BACKEND, prefix, 1, net["switch_backend_macs"][1])
                       for prefix in (GNB + "/32", APP_NET)]
    return cfg


def back_to_one_backend(onos, deployed, switch, net, second, procs, plan, smf):
    """Ends a two-backend test: traffic and sessions gone, the second backend stopped and removed from the netcfg
    and ONOS (the rest of the suite expects the first alone)."""
    stop_all(procs)
    smf.delete_all(plan, lambda: {})
    smf.close()
    second.stop()
    onos.rest("DELETE", "/onos/v1/network/configuration/devices/%s" % SECOND_BACKEND)
    onos.rest("POST", "/onos/v1/network/configuration", hybrid_netcfg(deployed, switch, net))
    onos.rest("DELETE", "/onos/v1/devices/%s" % SECOND_BACKEND)
    # hupf applies a netcfg asynchronously and writes every session to each backend it drives: the next test's
    # establishments must not find the stopped backend still among them (answered 77, as a backend gone is).
    onos.wait(lambda: backend_ids(onos) == [deployed["device"]], 120, "hupf driving the first backend alone")


def backend_ids(onos):
    """The backends hupf drives (GET /onos/hupf/backends), or None while it does not answer."""
    status, body = onos.rest("GET", "/onos/hupf/backends")
    return [b["id"] for b in body["backends"]] if status == 200 else None


def test_two_backends_share_the_ues_the_switch_steers_by_hash(onos, deployed, backend, hybrid_net, switch,
                                                              second_backend, tmp_path):
    """A second backend in the netcfg: hupf puts every session on both, the switch steers each UE's misses
    to one of them by UE hash (weights 1:2), both carry traffic, and each session's usage is the sum. Then the
    second backend is drained mid-traffic (POST /onos/hupf/backends/ID/drain: its UEs steered to the first,
    its counts read until still, then it leaves): nothing is lost for it and the usage stays exact; restored
    (DELETE), it is steered to again. Then it stops mid-traffic: the switch steers all UEs to the first, which
    holds their sessions; the packets lost in the move are counted, and each session's usage keeps what the
    stopped backend counted."""
    net = dict(hybrid_net.addresses(), n3=deployed["cfg"]["apps"]["org.hupf.app"]["hupf"]["n3Addresses"][0],
               gnb=GNB, app=APP)
    both = [deployed["device"], SECOND_BACKEND]
    backends = {"b1": backend, "b2": second_backend}
    status, body = onos.rest("POST", "/onos/v1/network/configuration",
                             two_backends_netcfg(deployed, switch, second_backend, net))
    assert status == 200, body
    sc = scenario.Scenario(ues=SPLIT_UES, heavy=0, duration_s=SPLIT_DURATION_S, heavy_on_s=SPLIT_DURATION_S * 0.15,
                           heavy_off_s=SPLIT_DURATION_S * 0.55)
    plan = scenario.make_plan(sc, net, 0)
    smf = LabSmf("127.0.0.1", deployed["pfcp_port"])
    procs = {}
    try:
        # Steered to once it holds the sessions and its routes.
        onos.wait(lambda: offload_state(onos)["steered_to"] == both, SWITCH_TIMEOUT_S,
                  "hupf drives both backends %s and the switch steers to both" % both)
        onos.wait(lambda: switch_flows_added(onos), SWITCH_TIMEOUT_S, "every flow rule of the switch ADDED")
        backend_ifs = [b[1] for b in hybrid_net.backends]
        before = [rx_packets(i) for i in backend_ifs]
        assert smf.establish(plan) == SPLIT_UES
        drops_before = conftest.counted_drops(backends, switch, hybrid_net)
        procs, stats = start_traffic(plan, hybrid_net, tmp_path)
        finish_traffic(procs)
        time.sleep(2 * POLL_S)
        counted = counted_by_ue(onos, plan)
        drops = accounting.since(conftest.counted_drops(backends, switch, hybrid_net, traffic_stats(stats)[1]),
                                 drops_before)
        reached = [rx_packets(i) - b for i, b in zip(backend_ifs, before)]
        assert offload_state(onos)["steered_to"] == both

        # A planned removal: the second backend drained mid-traffic, answered once it has left.
        (tmp_path / "drain").mkdir()
        drops_before = conftest.counted_drops(backends, switch, hybrid_net)
        procs, stats_drain = start_traffic(plan, hybrid_net, tmp_path / "drain")
        time.sleep(1.0 + SPLIT_DURATION_S * MOVE_AT)
        status, drained = onos.rest("POST", "/onos/hupf/backends/%s/drain?quiet_ms=500&max_ms=10000"
                                    % SECOND_BACKEND)
        assert status == 200, drained
        left = offload_state(onos)
        status, listed = onos.rest("GET", "/onos/hupf/backends")
        assert status == 200, listed
        finish_traffic(procs)
        time.sleep(2 * POLL_S)
        counted_drain = counted_by_ue(onos, plan)
        drops_drain = accounting.since(conftest.counted_drops(backends, switch, hybrid_net,
                                                              traffic_stats(stats_drain)[1]), drops_before)
        status, body = onos.rest("DELETE", "/onos/hupf/backends/%s/drain" % SECOND_BACKEND)
        assert status == 200, body
        onos.wait(lambda: offload_state(onos)["steered_to"] == both, SWITCH_TIMEOUT_S,
                  "the restored backend held the sessions and is steered to again", interval=0.1)

        # The second backend stops mid-traffic: the first holds every session, so its UEs move by the steering
        # alone; what the stopped one would have taken until then is lost.
        before = [rx_packets(i) for i in backend_ifs]
        (tmp_path / "after").mkdir()
        drops_before = conftest.counted_drops(backends, switch, hybrid_net)
        procs, stats_after = start_traffic(plan, hybrid_net, tmp_path / "after")
        time.sleep(1.0 + SPLIT_DURATION_S * MOVE_AT)
        t0 = time.monotonic()
        second_backend.stop()
        onos.wait(lambda: offload_state(onos)["steered_to"] == [deployed["device"]], SWITCH_TIMEOUT_S,
                  "the switch steers every UE to the surviving backend", interval=0.1)
        moved_s = time.monotonic() - t0
        finish_traffic(procs)
        time.sleep(2 * POLL_S)
        counted_after = counted_by_ue(onos, plan)
        drops_after = accounting.since(conftest.counted_drops({"b1": backend}, switch, hybrid_net,
                                                              traffic_stats(stats_after)[1]), drops_before)
        reached_after = [rx_packets(i) - b for i, b in zip(backend_ifs, before)]
    finally:
        back_to_one_backend(onos, deployed, switch, net, second_backend, procs, plan, smf)
    print("packets the switch steered to each backend: %s" % dict(zip(both, reached)))
    assert all(n > 0 for n in reached), "both backends took UEs' misses: %s" % dict(zip(both, reached))
    tx, rx = traffic_stats(stats)
    for name, ok, detail in (summary.delivery(plan, tx, rx, drops=drops), summary.usage(plan, counted, tx, rx)):
        print("%s  %s (%s)" % ("PASS" if ok else "FAIL", name, detail))
        assert ok, "%s: %s" % (name, detail)
    print("drain of the second backend %.0f%% into the traffic: %s" % (100 * MOVE_AT, drained))
    assert drained["quiet"], drained
    assert (left["backends"], left["steered_to"]) == ([deployed["device"]], [deployed["device"]]), left
    assert {"id": SECOND_BACKEND, "site": "default", "state": "DRAINED"} in listed["backends"], listed
    tx, rx = traffic_stats(stats_drain)
    sent, got = sent_and_received(tx, rx)
    print("packets lost in the drain: %d of %d" % (sent - got, sent))
    # No gap excused: the drained backend held every session until nothing was in flight to it.
    name, ok, detail = summary.delivery(plan, tx, rx, drops=drops_drain)
    print("%s  %s across the drain (%s)" % ("PASS" if ok else "FAIL", name, detail))
    assert ok, "%s across the drain: %s" % (name, detail)
    two_rounds = dict(plan, duration=2 * SPLIT_DURATION_S)
    tx_drain, rx_drain = (a + b for a, b in zip(traffic_stats(stats), (tx, rx)))
    name, ok, detail = summary.usage(two_rounds, counted_drain, tx_drain, rx_drain)
    print("%s  %s across the drain (%s)" % ("PASS" if ok else "FAIL", name, detail))
    assert ok, "%s across the drain: %s" % (name, detail)

    tx, rx = traffic_stats(stats_after)
    sent, got = sent_and_received(tx, rx)
    print("second backend stopped %.0f%% into the traffic: steering to the first alone %.1f s after SIGTERM; "
          "%s packets per backend; %d of %d packets lost in the move"
          % (100 * MOVE_AT, moved_s, dict(zip(both, reached_after)), sent - got, sent))
    assert all(n > 0 for n in reached_after), dict(zip(both, reached_after))
    # Excused per UE, beyond the switch's own loss: what it sent from the SIGTERM until the steering moved.
    name, ok, detail = summary.delivery(plan, tx, rx, moved_s, drops_after)
    print("%s  %s across the move (%s)" % ("PASS" if ok else "FAIL", name, detail))
    assert ok, "%s across the move: %s" % (name, detail)
    # The sessions' usage over the three rounds keeps what b2 counted before it stopped (the leader's ledger):
    # excused per UE only what it sent until the move and in the two counter polls before b2's last read.
    three_rounds = dict(plan, duration=3 * SPLIT_DURATION_S)
    tx_all, rx_all = (a + b for a, b in zip((tx_drain, rx_drain), (tx, rx)))
    name, ok, detail = summary.usage(three_rounds, counted_after, tx_all, rx_all, moved_s + 2 * POLL_S)
    print("%s  %s across the move (%s)" % ("PASS" if ok else "FAIL", name, detail))
    assert ok, "%s across the move: %s" % (name, detail)
    onos.wait(lambda: offload_state(onos)["backends"] == [deployed["device"]], SWITCH_TIMEOUT_S,
              "hupf back on the first backend alone")


# Mice for at most ADD_MAX_S: the second backend joins once the first took JOIN_AFTER of their packets, and the
# senders stop once the switch steered JOIN_AFTER to the second (on a loaded machine the steering came 16 s after
# the netcfg: after a fixed share of a fixed duration, the traffic had ended).
ADD_UES, ADD_MAX_S, JOIN_AFTER = 8, 120.0, 200
STALL_RUN = 3  # a UE's packets lost in a row that make a stall (the earlier runs lost 17 to 28 in a row)


def test_a_second_backend_added_mid_traffic_stalls_no_ue(onos, deployed, backend, hybrid_net, switch,
                                                         second_backend, tmp_path):
    """The second backend joins by the netcfg while traffic flows: hupf gives it every session and its routes,
    then the switch steers part of the UEs to it. Every UE's packets arrive (the suite's delivery check) and no
    UE loses STALL_RUN or more in a row: the stall this add showed, a run of a UE's packets held for seconds and
    lost in both directions, came from the suite's backends' null ports, polled until hupf-backend made them
    sinks (both backends' forwarding lcores then busy-polled one CPU, and one was kept off it for more than a
    second while its packets waited in its ring; docs/BACKENDS.md). A sampler of the backends' and the
    switch's threads and ports runs meanwhile: kept with the logs in reports/onos/ when the test fails."""
    net = dict(hybrid_net.addresses(), n3=deployed["cfg"]["apps"]["org.hupf.app"]["hupf"]["n3Addresses"][0],
               gnb=GNB, app=APP)
    both = [deployed["device"], SECOND_BACKEND]
    backends = {"b1": backend, "b2": second_backend}
    status, body = onos.rest("POST", "/onos/v1/network/configuration", hybrid_netcfg(deployed, switch, net))
    assert status == 200, body
    sc = scenario.Scenario(ues=ADD_UES, heavy=0, duration_s=ADD_MAX_S, heavy_on_s=ADD_MAX_S * 0.15,
                           heavy_off_s=ADD_MAX_S * 0.55)
    plan = scenario.make_plan(sc, net, 0)
    smf = LabSmf("127.0.0.1", deployed["pfcp_port"])
    procs, probe, passed = {}, None, False
    first_if, second_if = hybrid_net.backends[0][1], hybrid_net.backends[1][1]
    try:
        onos.wait(lambda: offload_state(onos)["steered_to"] == [deployed["device"]], SWITCH_TIMEOUT_S,
                  "hupf drives the first backend and the switch steers to it")
        onos.wait(lambda: switch_flows_added(onos), SWITCH_TIMEOUT_S, "every flow rule of the switch ADDED")
        assert smf.establish(plan) == ADD_UES
        first_before, before = rx_packets(first_if), rx_packets(second_if)
        # The second backend's drops count from when it has a pipeline: no UE is steered to it before.
        drops_before = conftest.counted_drops({"b1": backend}, switch, hybrid_net)
        procs, stats = start_traffic(plan, hybrid_net, tmp_path)
        probe = stall_probe.Probe(tmp_path / "probe.jsonl",
                                  {"b1": backend.proc.pid, "b2": second_backend.proc.pid,
                                   "switch": switch["proc"].pid},
                                  [hybrid_net.switch_ports[p] for p in (1, 2, 3, 4)]
                                  + [hybrid_net.backends[0][1], second_if],
                                  usr1=[backend.proc.pid, second_backend.proc.pid], t0=plan["start"]).start()
        onos.wait(lambda: rx_packets(first_if) - first_before >= JOIN_AFTER, SWITCH_TIMEOUT_S,
                  "%d packets of the traffic on the first backend" % JOIN_AFTER, interval=0.1)
        probe.mark("netcfg")
        status, body = onos.rest("POST", "/onos/v1/network/configuration",
                                 two_backends_netcfg(deployed, switch, second_backend, net))
        assert status == 200, body
        onos.wait(lambda: conftest.pipelined(second_backend), SWITCH_TIMEOUT_S,
                  "ONOS pushed the second backend's pipeline", interval=0.1)
        accounting.rebase(drops_before, conftest.backend_drops({"b2": second_backend}))
        onos.wait(lambda: offload_state(onos)["steered_to"] == both, SWITCH_TIMEOUT_S,
                  "the switch steers to both backends", interval=0.1)
        probe.mark("steered to both")
        onos.wait(lambda: rx_packets(second_if) - before >= JOIN_AFTER, SWITCH_TIMEOUT_S,
                  "%d packets steered to the second backend" % JOIN_AFTER, interval=0.1)
        for side in ("gnb", "dn"):
            procs["send", side].terminate()
        finish_traffic(procs)
        reached = rx_packets(second_if) - before
        tx, rx = traffic_stats(stats)
        sent, got = sent_and_received(tx, rx)
        drops = accounting.since(conftest.counted_drops(backends, switch, hybrid_net, rx), drops_before)
        name, ok, detail = summary.delivery(plan, tx, rx, drops=drops)
        print("second backend added after %d packets; the switch sent it %d packets; events (s from the traffic's "
              "start) %s; %d of %d packets lost (%s)" % (JOIN_AFTER, reached, probe.events, sent - got, sent, detail))
        for r in rx:
            print("%s receiver's gaps: %s" % (r["side"], r.get("gaps") or "none"))
        assert reached > 0, "the switch steered nothing to the second backend"
        assert ok, "%s: %s" % (name, detail)
        runs = ["UE %s at the %s receiver: seq %d-%d (%s-%s s)" % (ue, r["side"], *g) for r in rx
                for ue, gs in (r.get("gaps") or {}).items() for g in gs if g[1] - g[0] + 1 >= STALL_RUN]
        assert not runs, "%d or more packets of a UE lost in a row with the second backend added: %s" % (
            STALL_RUN, runs)
        passed = True
    finally:
        if probe:
            probe.stop()
        back_to_one_backend(onos, deployed, switch, net, second_backend, procs, plan, smf)
        if probe and not passed:
            keep = conftest.REPORTS / "second-backend-added"
            keep.mkdir(parents=True, exist_ok=True)
            for f in (probe.path, Path(str(probe.path) + ".events"), backend.log, second_backend.log,
                      switch["log"]):
                shutil.copy(f, keep / ("%s-%s" % (f.parent.name, f.name)))
