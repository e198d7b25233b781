"""hupf on a three-node ONOS 2.7 cluster (issue 18): the hupf leader's ONOS is killed with SIGKILL while
traffic runs; a survivor takes the lead, the sessions stay in the distributed store and on the backend, no
usage is lost nor reported twice (one session's usage is queried on the old leader), and the new leader
reconciles and serves PFCP. Traffic goes straight to the backend; then a second cluster runs it again through
a switch (hupf-backend in the hw profile, pipeconf org.hupf.bmv2) that steers misses to the backend, with one
session pinned to the switch (offloaded): the new leader takes it back from the switch and offloads it again,
its switch counts come through the distributed offload records, to the octet, and its deletion takes it off
the switch (docs/CLUSTER.md has the runs, and the failures that led to fencing a replaced leader and to
asking for a mastership once).

Each ONOS and each Atomix storage node runs in its own network namespace (tests/onos/cluster.py); the
devices and the SMF emulator are on the host, on the bridge's address. The nodes' logs are kept under
reports/onos/cluster when a test fails, or always with HUPF_KEEP_CLUSTER_LOGS=1."""
import os
import signal
import subprocess
import time

import pytest
from scapy.all import conf, sendp
from scapy.contrib import pfcp as P

import cluster as cluster_mod
import conftest
import packets
import smf as smf_mod
from test_onos import HW_P4INFO, BackendTables

pytestmark = pytest.mark.skipif(conftest.CLUSTER_WHY is not None, reason="missing %s" % conftest.CLUSTER_WHY)

CLUSTER_TIMEOUT_S = 1500
BOOT_TIMEOUT_S = 600
FAILOVER_TIMEOUT_S = 120
INSTALL_TIMEOUT_S = 180
PFCP_PORT = 8805
# An answer waits for the backend's writes; on a shared 2-vCPU machine with six JVMs that can take seconds.
PFCP_TIMEOUT_S = 30
RECONCILE_PAUSE_S = 2
MAX_RECONCILE_PASSES = 10
N3 = "192.168.0.1"
DN_PREFIX, APP = "10.9.9.0", "10.9.9.9"
UE_POOL = "10.250.0.0"  # netcfg/deployment.json's uePools
GNB = "10.0.1.1"
SESSIONS = 8
TRAFFIC_UES = 3  # the first sessions carry uplink traffic before and after the kill
PACKETS_PER_ROUND, PAYLOAD = 40, 200
PINNED = 1  # with the switch, ue(PINNED), one of the busy sessions, is pinned to it (offload.pins)
SWITCH, BACKEND = "device:bmv2:s1", "device:backend:b1"
ROUTER_MAC = "02:00:00:00:00:01"


def ue(i):
    return "10.250.1.%d" % (10 + i)


class Links:
    """veth pairs on the host, the test playing the gNB at one end: on the backend's port 1; or, with the switch,
    on the switch's port 1, and the switch's port 3 on the backend's port 1 (its port 2, to the DN, is null)."""

    def __init__(self, tag, with_switch):
        self.gnb_if, self.backend_if = "hc%dgnb" % tag, "hc%dbe" % tag
        self.pairs = [("hc%dsg" % tag, self.gnb_if), ("hc%dsb" % tag, self.backend_if)] if with_switch \
            else [(self.backend_if, self.gnb_if)]
        for a, b in self.pairs:
            subprocess.run(["ip", "link", "del", a], capture_output=True)
            cluster_mod.sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
            for i in (a, b):
                cluster_mod.sh("ip", "link", "set", i, "up")
        self.switch_gnb_if, self.switch_backend_if = (self.pairs[0][0], self.pairs[1][0]) if with_switch \
            else (None, None)
        # scapy caches interfaces by name and index: a name made again (the second cluster) has a new index.
        conf.ifaces.reload()
        self.backend_mac = self.mac(self.backend_if)
        self.first_hop_mac = self.mac(self.switch_gnb_if) if with_switch else self.backend_mac

    @staticmethod
    def mac(ifname):
        return open("/sys/class/net/%s/address" % ifname).read().strip()

    def uplink(self, teid, ue_addr, count):
        inner = packets.user_packet(ue_addr, APP, size=PAYLOAD)
        frame = packets.gtpu(inner, teid, GNB, N3, eth_dst=self.first_hop_mac)
        sendp([frame] * count, iface=self.gnb_if, verbose=False)

    def down(self):
        for a, _ in self.pairs:
            subprocess.run(["ip", "link", "del", a], capture_output=True)


def hybrid_netcfg(cfg, switch, link):
    """deployment.json's netcfg plus the switch, its port to the backend, its routes and the pinned UE."""
    cfg["devices"][SWITCH] = {"basic": {"name": "hupf switch s1", "driver": "bmv2", "pipeconf": "org.hupf.bmv2",
                                        "managementAddress": "grpc://%s?device_id=1" % switch.addr}}
    hupf = cfg["apps"]["org.hupf.app"]["hupf"]
    hupf["devices"].append({"deviceId": SWITCH, "role": "switch"})
    hupf["backendPorts"] = [{"switch": SWITCH, "port": 3, "backend": BACKEND, "mac": link.backend_mac}]
    hupf["offload"] = {"pins": {"ues": {ue(PINNED): "HARDWARE"}}}
    hupf["routes"] += [
        {"deviceId": SWITCH, "prefix": DN_PREFIX + "/24", "port": 2, "srcMac": ROUTER_MAC,
         "dstMac": "02:00:00:00:00:02"},
        {"deviceId": SWITCH, "prefix": GNB + "/32", "port": 1, "srcMac": ROUTER_MAC, "dstMac": "02:00:00:00:00:03"}]
    return cfg


@pytest.fixture(scope="module", params=["backend", "switch"])
def hupf_cluster(request, oar, tmp_path_factory):
    """Three Atomix + three ONOS nodes with hupf installed cluster-wide, hupf's backend (and, with the switch,
    the switch) as their P4Runtime devices (on the bridge's address, linked by veths), hupf's netcfg ready."""
    signal.signal(signal.SIGALRM, conftest._suite_timeout)
    signal.alarm(CLUSTER_TIMEOUT_S)
    tag = 100 + os.getpid() % 100
    c = cluster_mod.Cluster(tmp_path_factory.mktemp("cluster"), tag)
    link = backend = switch = None
    failed = False
    try:
        t0 = time.monotonic()
        c.start(BOOT_TIMEOUT_S)
        print("cluster of 3 ONOS + 3 Atomix ready in %.0f s" % (time.monotonic() - t0))
        first = next(iter(c.onos.values()))
        first.install_app(oar)
        link = Links(tag, request.param == "switch")
        backend = conftest.Backend(tmp_path_factory.mktemp("backend") / "hupf-backend.log",
                                   port1=link.backend_if, host=c.net.gateway)
        cfg = conftest.deployment_netcfg(backend.addr, PFCP_PORT)
        if request.param == "switch":
            switch = conftest.Backend(tmp_path_factory.mktemp("switch") / "hupf-switch.log",
                                      port1=link.switch_gnb_if, host=c.net.gateway, profile="hw",
                                      more_ports={3: link.switch_backend_if})
            cfg = hybrid_netcfg(cfg, switch, link)
        # The N4 address follows the leader: every node may bind it in its own namespace.
        cfg["apps"]["org.hupf.app"]["hupf"]["pfcp"].update(
            {"listenAddress": "0.0.0.0", "nodeId": N3, "allowedPeers": [c.net.gateway]})
        yield {"cluster": c, "backend": backend, "switch": switch, "link": link, "cfg": cfg}
    except BaseException:
        failed = True
        raise
    finally:
        signal.alarm(0)
        failed = failed or getattr(request.session, "onos_failed", False)
        if failed:
            c.thread_dumps()
        if failed or os.environ.get("HUPF_KEEP_CLUSTER_LOGS"):
            c.keep_logs(conftest.REPORTS / "cluster")
        c.stop()
        for device in (switch, backend):
            if device is not None:
                device.stop()
        if link is not None:
            link.down()
        c.remove()


HUPF_BUNDLES = {"org.hupf.hupf-api": "Active", "org.hupf.hupf-app": "Active", "org.hupf.hupf-core": "Active",
                "org.hupf.hupf-pipeconf": "Active"}


def hupf_bundles(o):
    return {k: v for k, v in o.bundles().items() if k.startswith("org.hupf.")}


def test_cluster_forms_and_hupf_runs_on_every_node(hupf_cluster):
    c = hupf_cluster["cluster"]
    for ident, o in c.onos.items():
        nodes = c.nodes(o)
        assert sorted(nodes) == sorted(c.onos) and set(nodes.values()) <= {"READY", "ACTIVE"}, (ident, nodes)
        # Installed through one node, the app reaches the others through ONOS's distributed app store.
        o.wait(lambda: hupf_bundles(o) == HUPF_BUNDLES, INSTALL_TIMEOUT_S,
               "hupf's bundles Active on %s" % ident)
    assert c.election_timeouts() == dict.fromkeys(c.onos, cluster_mod.ELECTION_TIMEOUT_MS)


def wait_leader(c, via, exclude=()):
    """The hupf leader (a node id among the live ones) once `via` sees one that is not in `exclude`."""
    found = {}

    def elected():
        found["leader"] = c.leader("org.hupf.app", via)
        return found["leader"] in c.onos and found["leader"] not in exclude

    via.wait(elected, FAILOVER_TIMEOUT_S, "a hupf leader among %s" % sorted(set(c.onos) - set(exclude)))
    return found["leader"]


def wait_forwarding(tables):
    """Until the backend holds the N3 interface, the UE pool's interface and the DN route (netcfg routes), all
    written by the hupf leader once it masters the device; while the mastership moves to the leader a write
    can be refused and is repeated by the next reconciliation or routes check (seen in CI: the N3 interface
    re-added 4 s after the takeover). An uplink
    packet sent before them is not a session's (no N3 interface) or is dropped unrouted, before the
    post-QoS counter that makes usage: it would never be counted."""
    wanted = {"N3 interface": ("interfaces", packets.ip2int(N3)),
              "UE pool interface": ("interfaces", packets.ip2int(UE_POOL)),
              "DN route": ("routes_v4", packets.ip2int(DN_PREFIX))}

    def missing():
        have = {(t, m.get("ipv4_dst_addr", m.get("ipv4_dst"))) for t, m in tables.entries()}
        return [what for what, key in wanted.items() if key not in have]

    deadline = time.monotonic() + FAILOVER_TIMEOUT_S
    while True:
        gone = missing()
        if not gone:
            return
        assert time.monotonic() < deadline, "not on the backend after %d s: %s" % (FAILOVER_TIMEOUT_S, gone)
        time.sleep(0.5)


def counters_total(o, seid):
    """Packets counted by the backend for a session: the sum over its PDRs (REST on ONOS node o)."""
    status, body = o.rest("GET", "/onos/hupf/sessions/%d/counters" % seid)
    assert status == 200, body
    return sum(c.get("ingressPkts", 0) for c in body.values())


def uplink_octets(resp, report_ie):
    """The uplink volume of a response's Usage Report (of the IE class for its message)."""
    report = smf_mod.ie(resp, report_ie)
    assert report is not None, "no %s in %r" % (report_ie.__name__, resp)
    return [x for x in report.IE_list if isinstance(x, P.IE_VolumeMeasurement)][0].uplink


def offload_state(o):
    status, body = o.rest("GET", "/onos/hupf/offload")
    return body if status == 200 else {}


def wait_offloaded(o, ue_addr, what):
    """Until node o's offload manager runs over the switch and has ue_addr on it."""
    o.wait(lambda: ue_addr in offload_state(o).get("offloaded_ues", []), FAILOVER_TIMEOUT_S, what)


def switch_flow_states(c):
    """{node: {flow state: count}} of hupf's flow rules on the switch, as each node's flow rule store has them."""
    out = {}
    for ident, o in c.onos.items():
        status, body = o.rest("GET", "/onos/v1/flows/" + SWITCH)
        states = {}
        for f in body.get("flows", []) if status == 200 else []:
            states[f.get("state")] = states.get(f.get("state"), 0) + 1
        out[ident] = states if status == 200 else status
    return out


def test_leader_killed_mid_traffic_loses_no_session_nor_usage(hupf_cluster):
    c, backend, link = hupf_cluster["cluster"], hupf_cluster["backend"], hupf_cluster["link"]
    via = next(iter(c.onos.values()))
    status, body = via.rest("POST", "/onos/v1/network/configuration", hupf_cluster["cfg"])
    assert status == 200, body
    leader = wait_leader(c, via)
    lo = c.onos[leader]
    lo.wait(lambda: lo.rest("GET", "/onos/hupf/offload")[0] == 200, conftest.DEVICE_TIMEOUT_S,
            "the hupf leader %s took the backend over" % leader)
    smf = smf_mod.Smf((lo.host, PFCP_PORT), node_id=c.net.gateway, bind=c.net.gateway)
    tables = BackendTables(backend.addr)
    switch = hupf_cluster["switch"]
    switch_tables = BackendTables(switch.addr, HW_P4INFO) if switch else None
    pinned = None
    try:
        assert smf_mod.cause(smf.request(smf.association_setup())[0]) == 1
        sessions = {}  # up SEID -> (UE, uplink TEID)
        for i in range(SESSIONS):
            resp, _ = smf.request(smf.establishment(7000 + i, ue(i), dl_far_action=smf_mod.FORW, gnb=GNB,
                                                    gnb_teid=0x700 + i), timeout=PFCP_TIMEOUT_S)
            assert smf_mod.cause(resp) == 1, "establishment %d on leader %s" % (i, leader)
            created = smf_mod.ie(resp, P.IE_CreatedPDR)
            teid = [x for x in created.IE_list if isinstance(x, P.IE_FTEID)][0].TEID
            sessions[smf_mod.ie(resp, P.IE_FSEID).seid] = (ue(i), teid)
        for u, teid in sessions.values():
            tables.wait_session(u, teid, present=True)
        wait_forwarding(tables)
        if switch:
            pinned = next(seid for seid, (u, _) in sessions.items() if u == ue(PINNED))
            wait_offloaded(lo, ue(PINNED), "UE %s (pinned) on the switch" % ue(PINNED))
            switch_tables.wait_session(*sessions[pinned], present=True)
            wait_forwarding(switch_tables)
        busy = dict(list(sessions.items())[:TRAFFIC_UES])
        assert pinned is None or pinned in busy
        sent = dict.fromkeys(busy, 0)

        def send(count):
            for seid, (u, teid) in busy.items():
                link.uplink(teid, u, count)
                sent[seid] += count

        send(PACKETS_PER_ROUND)
        before = {}
        for seid in busy:
            lo.wait(lambda: counters_total(lo, seid) >= sent[seid], 30,
                    "the backend counted session %d's first uplink packets" % seid)
            before[seid] = counters_total(lo, seid)
        if switch:
            # The offload manager's metrics follow the switch's counters at its next poll (every second).
            lo.wait(lambda: offload_state(lo).get("hw_bytes", 0) > 0, 30, "the switch carried the pinned UE")

        # One busy session's usage is queried on the old leader: the new leader must report only what came
        # after (the baselines are in the distributed store), without losing or repeating an octet.
        queried = next(seid for seid in busy if seid != pinned)
        resp, _ = smf.request(smf.modify_query_urr(queried), timeout=PFCP_TIMEOUT_S)
        assert smf_mod.cause(resp) == 1, "Query URR on leader %s" % leader
        queried_octets, queried_packets = uplink_octets(resp, P.IE_UsageReport_SMR), sent[queried]
        assert queried_octets >= queried_packets * PAYLOAD and queried_octets % queried_packets == 0, \
            "queried usage %d octets for %d packets" % (queried_octets, queried_packets)

        # Mid-traffic: the leader dies between two bursts of the busy sessions' uplink packets.
        send(PACKETS_PER_ROUND // 2)
        c.kill(leader)
        send(PACKETS_PER_ROUND // 2)

        survivor = next(iter(c.onos.values()))
        new_leader = wait_leader(c, survivor, exclude=(leader,))
        no = c.onos[new_leader]
        print("hupf leader %s killed; %s leads now" % (leader, new_leader))
        for ident, o in c.onos.items():
            status, body = o.rest("GET", "/onos/hupf/sessions")
            assert status == 200, body
            assert {s["upSeid"] for s in body["sessions"]} == set(sessions), \
                "%s after the failover: %s" % (ident, body)
        for u, teid in sessions.values():
            tables.wait_session(u, teid, present=True)
        no.wait(lambda: no.rest("GET", "/onos/hupf/offload")[0] == 200, FAILOVER_TIMEOUT_S,
                "the new leader %s took the backend over" % new_leader)
        if switch:
            # The new leader's offload manager takes the switch's sessions back (their counts folded into the
            # distributed offload records) and puts the pinned one on the switch again.
            wait_offloaded(no, ue(PINNED), "UE %s (pinned) on the switch under the new leader" % ue(PINNED))
            switch_tables.wait_session(*sessions[pinned], present=True)
        # The new leader reconciles the backend with the store (on takeover, periodically, or now) until a
        # pass finds nothing to do: the backend holds exactly what the store says. A pass made while the
        # mastership or the routes are still settling after the failover may find work that a later pass
        # does not: the passes must converge, not be 2.
        passes = []
        deadline = time.monotonic() + FAILOVER_TIMEOUT_S
        while not passes or passes[-1] != (200, {"operations": 0}):
            assert time.monotonic() < deadline, "reconciliation did not converge: %s" % passes
            if passes:
                time.sleep(RECONCILE_PAUSE_S)
            passes.append(no.rest("POST", "/onos/hupf/reconcile"))
            # 409 while the new leader's session core is still starting (it runs beside the device takeover).
            assert passes[-1][0] in (200, 409), passes
            if passes[-1][0] == 409:
                passes.pop()
                time.sleep(RECONCILE_PAUSE_S)
        print("reconciliation passes on the new leader: %s" % passes)
        assert len(passes) <= MAX_RECONCILE_PASSES, passes

        send(PACKETS_PER_ROUND)
        for seid in busy:
            no.wait(lambda: counters_total(no, seid) >= before[seid] + 2 * PACKETS_PER_ROUND, 30,
                    "session %d's usage counted on across the failover" % seid)

        # The SMF finds the N4 address on the new leader; deleting the sessions reports their whole usage.
        smf.upf = (no.host, PFCP_PORT)
        assert smf_mod.cause(smf.request(smf.association_setup())[0]) == 1
        per_packet = queried_octets // queried_packets
        for seid, (u, teid) in sessions.items():
            resp, _ = smf.request(smf.deletion(seid), timeout=PFCP_TIMEOUT_S)
            assert smf_mod.cause(resp) == 1, "deletion of %d on the new leader" % seid
            if seid == pinned:
                # Switch counts before the kill (offload records), between kill and takeover, and after: all
                # of them once.
                reported = uplink_octets(resp, P.IE_UsageReport_SDR)
                assert reported == sent[seid] * per_packet, \
                    "offloaded session %d: %d uplink octets reported, %d packets of %d octets sent" % (
                        seid, reported, sent[seid], per_packet)
                try:
                    switch_tables.wait_session(u, teid, present=False)
                except AssertionError as e:
                    # A removal the flow rule store dropped (docs/CLUSTER.md): what each node's store says.
                    raise AssertionError("%s; the switch's flow rules by state: %s" % (e, switch_flow_states(c)))
            elif seid == queried:
                # Exactly what was counted after the query on the old leader: nothing lost, nothing twice.
                reported = uplink_octets(resp, P.IE_UsageReport_SDR)
                assert reported == (sent[seid] - queried_packets) * per_packet, \
                    "session %d: %d uplink octets reported after a query of %d octets; %d packets of %d octets " \
                    "sent after it" % (seid, reported, queried_octets, sent[seid] - queried_packets, per_packet)
            elif seid in busy:
                # Every uplink packet sent, before, during and after the failover, is in the final report.
                reported = uplink_octets(resp, P.IE_UsageReport_SDR)
                assert reported >= sent[seid] * PAYLOAD, "session %d: %d uplink octets reported, %d packets" \
                    " of %d octets sent" % (seid, reported, sent[seid], PAYLOAD)
            tables.wait_session(u, teid, present=False)
        assert no.rest("GET", "/onos/hupf/sessions")[1]["sessions"] == []
    finally:
        tables.close()
        if switch_tables:
            switch_tables.close()
        smf.close()
