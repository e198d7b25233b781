"""The lab's scenario through ONOS in the Mininet fabric: the netcfg generated from the topology pushed, ONOS
pushing the pipelines to every switch and backend, the SMF host establishing one session per UE over N4 to
hupf in ONOS, the lab's traffic between a site's gNB and DN hosts (one heavy UE among mice), ONOS's hupf
offloading the heavy UE to the switch and back, then the PFCP deletions; the lab's checks over what arrived,
what hupf counted and what it kept (tools/hupf_tools/lab/summary.py).

`tools/lab.sh fabric` runs it (ONOS booted from the runtime found here, hupf's .oar installed); make test-fabric's
tests/fabric run the same steps."""
import json
import sys
import time
from pathlib import Path

from hupf_tools.fabric import netcfg, topology as topo
from hupf_tools.lab import accounting, scenario, summary
from hupf_tools.lab.processes import READY_TIMEOUT_S

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tests" / "lib"))
import onos_ready  # noqa: E402 (tests/lib: ONOS readiness probes)

P4C_OUT = REPO / "pipeconf" / "src" / "main" / "resources" / "p4c-out"
DEVICE_TIMEOUT_S = 300
DEMOTION_TIMEOUT_S = 30
# hupf's counter poll runs every second, paced by its own duration (PollPacing): a loaded machine stretches it.
USAGE_TIMEOUT_S = 30
SWITCH_NAMES = {"bmv2": "bmv2 simple_switch_grpc", "stratum-bmv2": "Stratum-bmv2",
                "backend": "hupf-backend --profile hw (the switch's stand-in)"}


class FabricRunError(RuntimeError):
    pass


def driver_of(target):
    """ONOS's driver for a switch target: Stratum's own, else bmv2's (hupf-backend speaks bmv2's P4Runtime)."""
    return "stratum-bmv2" if target == "stratum-bmv2" else "bmv2"


def rest_ok(onos, method, path, body=None):
    status, answer = onos.rest(method, path, body)
    if status not in (200, 201, 204):
        raise FabricRunError("%s %s: %s %s" % (method, path, status, str(answer)[:300]))
    return answer


def all_added(onos, kind, device):
    status, body = onos.rest("GET", "/onos/v1/%s/%s" % (kind, device))
    items = body.get(kind, []) if status == 200 else []
    return bool(items) and all(i["state"] == "ADDED" for i in items)


def deploy(onos, t, target, pfcp_port):
    """Pushes the fabric's netcfg; returns it once ONOS pushed every device's pipeline, hupf drives the backends,
    the switches hold every flow rule and group (steering, HK-IPG, the CPU clone session)."""
    cfg = netcfg.generate(t, driver_of(target), pfcp_port=pfcp_port)
    rest_ok(onos, "POST", "/onos/v1/network/configuration", cfg)
    for device in cfg["devices"]:
        onos.wait_ready(lambda d=device: onos_ready.settled(onos, onos_ready.pipeline_pushed(d)),
                        DEVICE_TIMEOUT_S, "ONOS pushed %s's pipeline" % device)
    backends = sorted(topo.backend_device_id(b) for b in t.backends())
    onos.wait(lambda: sorted(offload(onos).get("backends", [])) == backends, DEVICE_TIMEOUT_S,
              "hupf drives the backends %s" % backends)
    for sw in t.switches():
        for kind in ("flows", "groups"):
            onos.wait(lambda k=kind, d=sw.device_id: all_added(onos, k, d), DEVICE_TIMEOUT_S,
                      "every %s of %s ADDED" % (kind[:-1], sw.device_id))
    return cfg


def offload(onos):
    status, body = onos.rest("GET", "/onos/hupf/offload")
    return body if status == 200 else {}


class SmfHost:
    """The SMF emulator's process on the SMF host (hupf_tools.fabric.smf_host)."""

    def __init__(self, fabric, t, pfcp_port):
        smf_ip, n4 = t.smf_mgmt
        self.proc = fabric.python(t.smf_name, "hupf_tools.fabric.smf_host", "--upf", "%s:%d" % (n4, pfcp_port),
                                  "--node-id", smf_ip, stdin=-1, stdout=-1, stderr=-2, text=True)

    def ask(self, op, plan_path):
        self.proc.stdin.write(json.dumps({"op": op, "plan": str(plan_path)}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise FabricRunError("the SMF host's emulator exited (%s)" % self.proc.poll())
        answer = json.loads(line)
        if "error" in answer:
            raise FabricRunError("SMF host: %s" % answer["error"])
        return answer

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


def start_traffic(fabric, site, plan, plan_path, work, timeout_s=READY_TIMEOUT_S):
    """The lab's senders and receivers on the site's first gNB host and its DN host: the receivers first, the plan's
    start set once both listen (their first stats written: a frame before would be lost uncounted), then the
    senders. The sessions' entries are on the devices already: hupf answers an establishment once written."""
    procs, stats = {}, {}
    hosts = {"gnb": site.gnbs[0], "dn": site.dn}
    for mode in ("recv", "send"):
        if mode == "send":
            plan["start"] = time.time() + 1.0
            plan_path.write_text(json.dumps(plan))
        for side, host in hosts.items():
            stats[mode, side] = work / ("%s-%s.json" % (mode, side))
            procs[mode, side] = fabric.python(host.name, "hupf_tools.lab.traffic", mode, "--plan", plan_path,
                                              "--side", side, "--iface", fabric.data_intf(host),
                                              "--stats", stats[mode, side], stdout=-3, stderr=-2)
        if mode == "recv":
            listening = until(lambda: any(p.poll() is not None for p in procs.values())
                              or all(stats["recv", side].exists() for side in hosts), timeout_s, interval=0.05)
            if not listening or any(p.poll() is not None for p in procs.values()):
                stop(procs)
                raise FabricRunError("a receiver did not listen within %d s (or ended): %s" % (
                    timeout_s, [str(stats["recv", side]) for side in hosts if not stats["recv", side].exists()]))
    return procs, stats


def finish_traffic(procs, in_flight_s=1.5):
    """Waits for the senders, then stops the receivers once the packets in flight are in (as the lab)."""
    for side in ("gnb", "dn"):
        procs["send", side].wait(timeout=120)
    time.sleep(in_flight_s)
    for side in ("gnb", "dn"):
        procs["recv", side].terminate()
        procs["recv", side].wait(timeout=30)


def stop(procs):
    for p in procs.values():
        if p.poll() is None:
            p.terminate()
    for p in procs.values():
        p.wait(timeout=30)


def watch(onos, plan, events, interval=0.5):
    """Polls hupf's offload state until the traffic ends: a UE's arrival on the switch is a PROMOTED event, its
    departure DEMOTED (t in ms, as the lab runner's events)."""
    on_switch = set()
    while time.time() < plan["start"] + plan["duration"]:
        now = set(offload(onos).get("offloaded_ues", []))
        t_ms = time.time() * 1000
        events += [{"kind": "PROMOTED", "ue": ue, "t": t_ms} for ue in sorted(now - on_switch)]
        events += [{"kind": "DEMOTED", "ue": ue, "t": t_ms} for ue in sorted(on_switch - now)]
        on_switch = now
        time.sleep(interval)
    return on_switch


def until(condition, timeout_s, interval=0.5):
    """Polls condition until it holds (True) or timeout_s passes (False)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)
    return True


def counted_by_ue(onos, plan):
    """{UE: {"pkts": what its session's PDRs counted, switch and backends summed}} (hupf's usage)."""
    out = {}
    for u in plan["ues"]:
        body = rest_ok(onos, "GET", "/onos/hupf/sessions/%d/counters" % u["up_seid"])
        out[u["addr"]] = {"pkts": sum(c.get("ingressPkts", 0) for c in body.values())}
    return out


def left_after_deletion(onos, plan, deleted, timeout_s=30):
    """{UE: {"hupf's session store": present, "switch": offloaded}} once neither holds a deleted UE, or at timeout."""
    where = {}

    def gone():
        seids = {s.get("upSeid") for s in rest_ok(onos, "GET", "/onos/hupf/sessions")["sessions"]}
        offloaded = set(offload(onos).get("offloaded_ues", []))
        where.update({u["addr"]: {"hupf's session store": u["up_seid"] in seids, "switch": u["addr"] in offloaded}
                      for u in plan["ues"] if u["addr"] in deleted})
        return not any(any(w.values()) for w in where.values())
    until(gone, timeout_s)
    return where


def tx_dropped(node, intf):
    return int(node.cmd("cat /sys/class/net/%s/statistics/tx_dropped" % intf))


def site_drops(fabric, site, rx=()):
    """Every drop counted so far at a site, in accounting.collect's shape: its backends' (stats and pipeline), its
    switch's (bmv2's from its log, hupf-backend's stand-in from its stats), both veth ends of its links (a full
    backlog of the peer) and the receivers' sockets (rx: their stats)."""
    sw_p4info = str(P4C_OUT / "sw" / "bmv2" / "p4info.txt")
    devices = [accounting.Device(b.name, fabric.node(b.name).proc.pid, str(fabric.node(b.name).log),
                                 "%s:%d" % (b.mgmt[0], topo.BACKEND_GRPC_PORT), sw_p4info) for b in site.backends]
    sw = fabric.node(site.switch.name)
    if fabric.target == "backend":
        devices.append(accounting.Device(sw.name, sw.proc.pid, str(sw.log), "127.0.0.1:%d" % sw.grpc_port,
                                         str(P4C_OUT / "hw" / "bmv2" / "p4info.txt")))
    out = accounting.collect(devices, None, [("receiver " + r["side"], r.get("socket_drops", 0)) for r in rx])
    ports = sw.data_ports()
    for h in site.hosts():
        for node, intf in ((fabric.node(h.name), fabric.data_intf(h)), (sw, ports[h.port])):
            n = tx_dropped(node, intf)
            if n:
                out["room"]["kernel"]["veth %s tx_dropped" % intf] = n
    return accounting.merge(out, sw.packets_log().collect()) if fabric.target == "bmv2" else out


def run_site(onos, fabric, t, site, sc, pfcp_port, target, work):
    """The scenario at one site; returns (checks [(name, passed, detail)], summary lines)."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    plan = scenario.make_plan(sc, fabric.site_addresses(site), 0)
    plan_path = work / "plan.json"
    plan_path.write_text(json.dumps(plan))
    smf = SmfHost(fabric, t, pfcp_port)
    procs, events = {}, []
    try:
        accepted = smf.ask("establish", plan_path)["accepted"]
        plan = json.loads(plan_path.read_text())
        if accepted != len(plan["ues"]):
            raise FabricRunError("hupf accepted %d of %d sessions over N4" % (accepted, len(plan["ues"])))
        drops_before = site_drops(fabric, site)
        plan["start"] = None
        plan_path.write_text(json.dumps(plan))
        procs, stats = start_traffic(fabric, site, plan, plan_path, work)
        watch(onos, plan, events)
        finish_traffic(procs)
        # The heavy UE demoted once quiet: the checks say whether it was.
        until(lambda: not offload(onos).get("offloaded_ues"), DEMOTION_TIMEOUT_S)
        received = [json.loads(stats["recv", side].read_text()) for side in ("gnb", "dn")]
        # hupf's usage is as of its last counter poll: waited for until it counts what arrived (the checks'
        # lower bound), or for USAGE_TIMEOUT_S, after which the checks name the UEs it still falls short for.
        counted = {}

        def caught_up():
            counted.update(counted_by_ue(onos, plan))
            return not summary.uncounted(plan, counted, received)
        until(caught_up, USAGE_TIMEOUT_S)
        final = {"events": events + demotions(events), "ues": counted}
        metrics = offload(onos)
        drops = accounting.since(site_drops(fabric, site, received), drops_before)
        deleted = smf.ask("delete", plan_path)["deleted"]
        left = left_after_deletion(onos, plan, deleted)
    finally:
        stop(procs)
        smf.close()
    tx = [json.loads(stats["send", side].read_text()) for side in ("gnb", "dn")]
    rx = [json.loads(stats["recv", side].read_text()) for side in ("gnb", "dn")]
    stand_in = "backend" if target == "backend" else "bmv2"
    results = summary.checks(plan, stand_in, (accepted, len(plan["ues"])), final, left, tx, rx, drops=drops)
    lines = summary.render(results, {"metrics": metrics}, tx, rx,
                           "%s at %s" % (SWITCH_NAMES[target], site.name))
    return results, lines


def demotions(events):
    """DEMOTED events for UEs the last poll still saw on the switch (demoted after the traffic ended)."""
    on = {}
    for e in events:
        on[e["ue"]] = e["kind"] == "PROMOTED"
    return [{"kind": "DEMOTED", "ue": ue, "t": time.time() * 1000} for ue, up in on.items() if up]
