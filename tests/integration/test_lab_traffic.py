"""The lab's traffic generator over a bare veth pair (no UPF in between): pacing follows the plan, and
a receiver flags every frame that arrives the way no UPF would deliver it."""
import json
import os
import subprocess
import sys
import time

import pytest

from hupf_tools.lab import scenario
from hupf_tools.lab.run import write_plan

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NS = ("hupftA%d" % os.getpid(), "hupftB%d" % os.getpid())
IFS = ("htA%d" % (os.getpid() % 100000), "htB%d" % (os.getpid() % 100000))

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="integration traffic: needs root (netns, raw sockets)")


def sh(*cmd):
    subprocess.run(cmd, check=True, capture_output=True)


@pytest.fixture
def wire():
    for ns in NS:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        sh("ip", "netns", "add", ns)
    sh("ip", "link", "add", IFS[0], "netns", NS[0], "type", "veth", "peer", "name", IFS[1], "netns", NS[1])
    for ns, ifname in zip(NS, IFS):
        sh("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % ifname)
        sh("ip", "netns", "exec", ns, "ip", "link", "set", ifname, "up")
    yield
    for ns in NS:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def traffic(mode, ns, ifname, side, plan, stats):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "tools"))
    return subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, "-m", "hupf_tools.lab.traffic", mode,
                             "--plan", plan, "--side", side, "--iface", ifname, "--stats", stats], env=env)


def test_paced_uplink_arrives_flagged_as_never_decapsulated(wire, tmp_path):
    sc = scenario.Scenario(ues=6, heavy=1, duration_s=2.0, heavy_on_s=0.5, heavy_off_s=1.5, heavy_mbps=(3.2,))
    net = {"n3": "192.0.2.1", "gnb": "192.0.2.2", "app": "198.51.100.10", "gnb_mac": "02:00:00:00:00:01",
           "gnb_peer_mac": "02:00:00:00:00:02", "dn_mac": "02:00:00:00:00:03", "dn_peer_mac": "02:00:00:00:00:04"}
    plan = scenario.make_plan(sc, net, None)
    path = str(tmp_path / "plan.json")
    write_plan(plan, path, start=None)
    rx_path, tx_path = str(tmp_path / "rx.json"), str(tmp_path / "tx.json")
    rx = traffic("recv", NS[1], IFS[1], "dn", path, rx_path)
    deadline = time.time() + 60
    while not os.path.exists(rx_path):  # the receiver's first stats: its socket is bound
        assert rx.poll() is None and time.time() < deadline, "the receiver never listened"
        time.sleep(0.05)
    write_plan(plan, path, start=time.time() + 0.5)
    tx = traffic("send", NS[0], IFS[0], "gnb", path, tx_path)
    assert tx.wait(timeout=20) == 0
    rx.terminate()  # it reads what is already queued before it ends
    assert rx.wait(timeout=10) == 0
    with open(tx_path) as f:
        sent = json.load(f)["tx"]
    with open(rx_path) as f:
        got = json.load(f)
    heavy = sent["1"]["pkts"]
    # 0.5 s as a mouse, 1 s at 400 pps, 0.5 s as a mouse again.
    assert 0.8 * 400 <= heavy <= 1.2 * 400 + 2 * sc.mouse_max_pps
    total = sum(v["pkts"] for v in sent.values())
    assert got["bad"] == {"uplink still GTP-U encapsulated": total}
    assert all(v["pkts"] == 0 for v in got["rx"].values())


def test_gaps_name_the_missing_runs_and_when_they_fell():
    import array
    from hupf_tools.lab.traffic import gaps
    # UE 1: seq 1, 2 arrived, 3-4 lost, 5 arrived, 6 lost, 7 arrived; UE 2: nothing lost; UE 3: seq 1 lost.
    a = {1: array.array("d", [0.1, 0.2, 0.0, 0.0, 0.5, 0.0, 0.7]), 2: array.array("d", [0.1, 0.2]),
         3: array.array("d", [0.0, 0.4])}
    assert gaps(a) == {"1": [[3, 4, 0.2, 0.5], [6, 6, 0.5, 0.7]], "3": [[1, 1, None, 0.4]]}
    assert gaps(a, per_ue=1) == {"1": [[3, 4, 0.2, 0.5]], "3": [[1, 1, None, 0.4]]}
    # Arrivals kept as clock times, reported from the senders' start.
    later = {k: array.array("d", [t + 1000.0 if t else 0.0 for t in v]) for k, v in a.items()}
    assert gaps(later, start=1000.0) == gaps(a)
