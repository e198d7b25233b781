"""Two UPF sites under one ONOS in the Mininet fabric of topologies/two-sites.json (docs/SITES.md): each site a
bmv2 switch with its own backends and gNB, the netcfg's `sites` block generated from the same file. The lab's
checks hold at each site in turn: its sessions placed there by their gNB (over N4 from the SMF host), its heavy
UE offloaded to its own site's switch while heavy and back after, mice never offloaded, every packet delivered or
counted dropped, usage between what arrived and what was sent, the deleted sessions gone. Then every site's
sessions at once over one association: each UE's entries on every backend of its site (each holds all of its
site's sessions; the switch splits their traffic by UE hash) and on no device of another site, each switch
steering only to its own site's backends; ONOS's topology holds exactly both sites' links and hosts; and, where
ONOS's GUI app and Chromium are found, the hupf view while both sites carry traffic, a heavy UE at each on its
switch (gui_sites.py)."""
import json

import pytest
from p4.v1 import p4runtime_pb2

import conftest
import gui_sites
from hupf_tools.fabric import onos_topology, run as fabric_run, topology as topo
from hupf_tools.fabric.mininet_nodes import switch_binary
from hupf_tools.fabric.mininet_net import Fabric
from hupf_tools.lab import scenario
from test_fabric import DURATION_S, HEAVY, PFCP_PORT, UES, clear
from test_onos import HW_P4INFO, BackendTables

# Under the GUI's eyes: a heavy UE among five mice at each site (a backend of site1's two with no mouse hashed to it
# would draw no traffic), for at most 90 s.
GUI_UES, GUI_TRAFFIC_S = 6, 90.0
SESSION_TABLES = {"downlink_sessions": 1, "uplink_sessions": 1, "uplink_terminations": 1,
                  "downlink_terminations": 1}


@pytest.mark.parametrize("target", conftest.TARGETS)
def test_two_sites_each_offload_to_their_own_switch_through_onos(onos, target, tmp_path):
    t = topo.load("two-sites")
    fabric = Fabric(t, target, switch_binary(target, str(conftest.lab.BACKEND))[0], conftest.lab.BACKEND,
                    conftest.REPORTS / ("two-sites-" + target)).up()
    cfg = None
    failed, lines = [], []
    try:
        cfg = fabric_run.deploy(onos, t, target, PFCP_PORT)
        onos_topology.wait_for(onos, cfg, "ONOS's topology holds both sites' links and hosts")
        for site in t.sites:
            sc = scenario.Scenario(ues=UES, heavy=HEAVY, duration_s=DURATION_S, heavy_on_s=DURATION_S * 0.15,
                                   heavy_off_s=DURATION_S * 0.55)
            results, out = fabric_run.run_site(onos, fabric, t, site, sc, PFCP_PORT, target, tmp_path / site.name)
            lines += out
            failed += ["%s: %s (%s)" % (site.name, name, detail) for name, ok, detail in results if not ok]
        failed += sessions_on_their_sites_devices(onos, fabric, t, tmp_path)
    finally:
        fabric.down()
        if cfg is not None:
            clear(onos, cfg)
    print("\n".join(lines))
    assert not failed, "; ".join(failed)


def sessions_on_their_sites_devices(onos, fabric, t, work):
    """Every site's sessions established at once (site k's UEs numbered from 100(k + 1) + 1: no UE address, TEID or
    CP SEID shared between sites nor with the sessions of the runs before), then every backend's tables and every
    switch's steering read over P4Runtime, then the hupf view under every site's traffic; returns what is not
    where its site says or not shown as it should."""
    smf = fabric_run.SmfHost(fabric, t, PFCP_PORT)
    plans, failed = {}, []
    # The GUI's traffic: heavy from the start to the end, stopped once the view was checked.
    sc = scenario.Scenario(ues=GUI_UES, heavy=HEAVY, duration_s=GUI_TRAFFIC_S, heavy_on_s=1.0,
                           heavy_off_s=GUI_TRAFFIC_S)
    try:
        for k, site in enumerate(t.sites):
            plan = scenario.make_plan(sc, fabric.site_addresses(site), 0)
            for u in plan["ues"]:
                u["idx"] += 100 * (k + 1)
                u.update(addr=scenario.ue_addr(u["idx"]), ul_teid=scenario.UL_TEID_BASE + u["idx"],
                         dl_teid=scenario.DL_TEID_BASE + u["idx"])
            path = work / ("both-sites-%s.json" % site.name)
            path.write_text(json.dumps(plan))
            accepted = smf.ask("establish", path)["accepted"]
            assert accepted == GUI_UES, "site %s: hupf accepted %d of %d sessions" % (site.name, accepted, GUI_UES)
            plans[site.name] = (path, json.loads(path.read_text()))
        failed += sites_in_rest(onos, plans)
        for site in t.sites:
            for b in site.backends:
                failed += backend_holds(b, {s: p for s, (_, p) in plans.items()}, site.name)
            failed += steering_of(fabric, site)
        if conftest.GUI_OAR is not None:
            failed += gui_sites.view_under_traffic(onos, fabric, t, plans, work / "gui", conftest.REPORTS)
    finally:
        for path, _ in plans.values():
            smf.ask("delete", path)
        smf.close()
    return failed


def sites_in_rest(onos, plans):
    """hupf's REST places each session at its site."""
    site_of = {s["upSeid"]: s.get("site") for s in fabric_run.rest_ok(onos, "GET", "/onos/hupf/sessions")["sessions"]}
    return ["REST: UE %s's session at %s, want %s" % (u["addr"], site_of.get(u["up_seid"]), name)
            for name, (_, plan) in plans.items() for u in plan["ues"] if site_of.get(u["up_seid"]) != name]


def backend_holds(backend, plans, site):
    """A backend's session entries: every UE of its site's, none of another site's."""
    tables = BackendTables("%s:%d" % (backend.mgmt[0], topo.BACKEND_GRPC_PORT))
    try:
        out = []
        for name, plan in plans.items():
            for u in plan["ues"]:
                got = tables.session_entries(u["addr"], u["ul_teid"])
                want = SESSION_TABLES if name == site else {}
                if got != want:
                    out.append("backend %s (site %s): UE %s of site %s has %s, want %s"
                               % (backend.name, site, u["addr"], name, got, want or "none"))
        return out
    finally:
        tables.close()


def steering_of(fabric, site):
    """The site's switch hashes UEs only among its own backends' ports."""
    tables = BackendTables("127.0.0.1:%d" % fabric.node(site.switch.name).grpc_port, HW_P4INFO)
    try:
        steer = next(a for a in tables.actions.values() if a.preamble.name.endswith(".steer_to_backend"))
        port = next(p.id for p in steer.params if p.name == "port")
        req = p4runtime_pb2.ReadRequest(device_id=1)
        req.entities.add().action_profile_member.action_profile_id = next(
            t.implementation_id for t in tables.tables.values() if t.preamble.name.endswith("steering.backends"))
        ports = {int.from_bytes(p.value, "big") for r in tables.stub.Read(req, timeout=30) for e in r.entities
                 if e.action_profile_member.action.action_id == steer.preamble.id
                 for p in e.action_profile_member.action.params if p.param_id == port}
    finally:
        tables.close()
    want = {b.port for b in site.backends}
    return [] if ports == want else ["switch %s steers to ports %s, want its backends' %s"
                                     % (site.switch.name, sorted(ports), sorted(want))]
