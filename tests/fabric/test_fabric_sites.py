"""Two UPF sites under one ONOS in the Mininet fabric of topologies/two-sites.json (docs/SITES.md): each site a
bmv2 switch with its own backends and gNB, the netcfg's `sites` block generated from the same file. The lab's
checks hold at each site in turn: its sessions placed there by their gNB (over N4 from the SMF host), its heavy
UE offloaded to its own site's switch while heavy and back after, mice never offloaded, every packet delivered or
counted dropped, usage between what arrived and what was sent, the deleted sessions gone."""
import pytest

import conftest
from hupf_tools.fabric import run as fabric_run, topology as topo
from hupf_tools.fabric.mininet_nodes import switch_binary
from hupf_tools.fabric.mininet_net import Fabric
from hupf_tools.lab import scenario
from test_fabric import DURATION_S, HEAVY, PFCP_PORT, UES, clear


@pytest.mark.parametrize("target", conftest.TARGETS)
def test_two_sites_each_offload_to_their_own_switch_through_onos(onos, target, tmp_path):
    t = topo.load("two-sites")
    fabric = Fabric(t, target, switch_binary(target, str(conftest.lab.BACKEND))[0], conftest.lab.BACKEND,
                    conftest.REPORTS / ("two-sites-" + target)).up()
    cfg = None
    failed, lines = [], []
    try:
        cfg = fabric_run.deploy(onos, t, target, PFCP_PORT)
        for site in t.sites:
            sc = scenario.Scenario(ues=UES, heavy=HEAVY, duration_s=DURATION_S, heavy_on_s=DURATION_S * 0.15,
                                   heavy_off_s=DURATION_S * 0.55)
            results, out = fabric_run.run_site(onos, fabric, t, site, sc, PFCP_PORT, target, tmp_path / site.name)
            lines += out
            failed += ["%s: %s (%s)" % (site.name, name, detail) for name, ok, detail in results if not ok]
    finally:
        fabric.down()
        if cfg is not None:
            clear(onos, cfg)
    print("\n".join(lines))
    assert not failed, "; ".join(failed)
