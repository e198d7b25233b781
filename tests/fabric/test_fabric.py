"""hupf through ONOS in the Mininet fabric of topologies/one-site.json: switches of hupf's own Mininet class
(bmv2 simple_switch_grpc; Stratum-bmv2 where found), the backend on a Mininet host, gNB, DN and SMF hosts; ONOS
drives every switch and backend from the netcfg generated from the same file. The lab's checks hold: every
session established over N4 from the SMF host, every UE's packets arrived or are accounted for, the heavy UE
offloaded to the switch while heavy and back after, mice never offloaded, usage between what arrived and what
was sent, and the deleted sessions gone from hupf and the switch. ONOS's topology holds exactly the netcfg's links
and hosts while hupf's config is there, and none once it is removed."""
import pytest

import conftest
from hupf_tools.fabric import onos_topology, run as fabric_run, topology as topo
from hupf_tools.fabric.mininet_nodes import switch_binary
from hupf_tools.fabric.mininet_net import Fabric
from hupf_tools.lab import scenario

# bmv2 forwards a few hundred packets per second on this shared machine: one heavy UE among three, as
# tests/onos/test_onos_hybrid.py.
UES, HEAVY, DURATION_S = 3, 1, 24.0
PFCP_PORT = 8805


def clear(onos, cfg):
    """The fabric's netcfg and devices gone from ONOS (the next target's fabric reuses their ids)."""
    onos.rest("DELETE", "/onos/v1/network/configuration")
    for device in cfg["devices"]:
        onos.rest("DELETE", "/onos/v1/devices/%s" % device)


@pytest.mark.parametrize("target", conftest.TARGETS)
def test_the_lab_through_onos_in_the_fabric(onos, target, tmp_path):
    t = topo.load("one-site")
    fabric = Fabric(t, target, switch_binary(target, str(conftest.lab.BACKEND))[0], conftest.lab.BACKEND,
                    conftest.REPORTS / target).up()
    cfg = None
    try:
        cfg = fabric_run.deploy(onos, t, target, PFCP_PORT)
        onos_topology.wait_for(onos, cfg, "ONOS's topology holds the one-site fabric's links and hosts")
        sc = scenario.Scenario(ues=UES, heavy=HEAVY, duration_s=DURATION_S, heavy_on_s=DURATION_S * 0.15,
                               heavy_off_s=DURATION_S * 0.55)
        results, lines = fabric_run.run_site(onos, fabric, t, t.sites[0], sc, PFCP_PORT, target, tmp_path)
        # hupf's config gone, its devices still up: hupf withdraws what it put in ONOS's topology.
        fabric_run.rest_ok(onos, "DELETE", "/onos/v1/network/configuration/apps/org.hupf.app")
        onos_topology.wait_gone(onos, "ONOS's topology empty once hupf's config is removed")
    finally:
        fabric.down()
        if cfg is not None:
            clear(onos, cfg)
    print("\n".join(lines))
    failed = ["%s (%s)" % (name, detail) for name, ok, detail in results if not ok]
    assert not failed, "; ".join(failed)
