"""The fabric's topology files and the netcfg generated from them: every device, link, host and route the Mininet
network has, and a precise error for a file that cannot describe a fabric. (No root, ONOS or bmv2 needed.)"""
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from hupf_tools.fabric import compose, netcfg, topology as topo

REPO = Path(__file__).resolve().parents[2]
TOPOLOGIES = sorted(topo.TOPOLOGIES.glob("*.json"))
# The netcfg files generated from the topologies, and how (checked to be what the generator makes now).
GENERATED = {"fabric-one-site.json": ("one-site", "one-site", lambda t: netcfg.generate(t)),
             "fabric-two-sites.json": ("two-sites", "two-sites", lambda t: netcfg.generate(t)),
             "docker-compose.json": ("one-site", "one-site --compose", netcfg.generate_for_compose),
             "docker-compose-two-sites.json": ("two-sites", "two-sites --compose", netcfg.generate_for_compose)}
COMPOSE_TOPOLOGIES = ["one-site", "two-sites"]


@pytest.fixture
def two_sites():
    return json.loads((topo.TOPOLOGIES / "two-sites.json").read_text())


@pytest.mark.parametrize("path", TOPOLOGIES, ids=[p.name for p in TOPOLOGIES])
def test_every_topology_file_loads(path):
    t = topo.load(path)
    assert t.sites and all(s.backends and s.gnbs for s in t.sites)


def test_two_sites_each_a_switch_with_its_backends_and_gnbs():
    t = topo.load("two-sites")
    assert [(s.name, s.switch.device_id, [b.name for b in s.backends], [g.name for g in s.gnbs]) for s in t.sites] \
        == [("site1", "device:bmv2:s1", ["b1", "b2"], ["gnb1"]), ("site2", "device:bmv2:s2", ["b3"], ["gnb2"])]
    # Management links: the SMF's first, then each backend's, never shared.
    # Its management subnet is not one-site's: in one ONOS, the second fabric's backends get addresses the first's
    # did not have (a backend at a reused address was never reached: GET-pipeline-config deadline exceeded).
    assert t.smf_mgmt == ("172.30.0.1", "172.30.0.254")
    assert [b.mgmt for b in t.backends()] == [("172.30.%d.1" % k, "172.30.%d.254" % k) for k in (1, 2, 3)]
    macs = [h.mac for s in t.sites for h in s.hosts()] + [s.switch.port_mac(h.port) for s in t.sites
                                                          for h in s.hosts()]
    assert len(set(macs)) == len(macs)


def test_netcfg_has_every_device_link_and_host_of_the_topology():
    t = topo.load("two-sites")
    cfg = netcfg.generate(t)
    assert set(cfg["devices"]) == {"device:bmv2:s1", "device:bmv2:s2", "device:backend:b1", "device:backend:b2",
                                   "device:backend:b3"}
    assert cfg["devices"]["device:backend:b3"]["basic"]["managementAddress"] == "grpc://172.30.3.1:9559?device_id=1"
    assert cfg["devices"]["device:bmv2:s2"]["basic"] == {
        "name": "hupf switch s2 (site2)", "driver": "bmv2", "pipeconf": "org.hupf.bmv2",
        "managementAddress": "grpc://127.0.0.1:50002?device_id=1"}
    assert set(cfg["links"]) == {"device:bmv2:s1/3-device:backend:b1/1", "device:bmv2:s1/4-device:backend:b2/1",
                                 "device:bmv2:s2/3-device:backend:b3/1"}
    assert {h["basic"]["name"]: h["basic"]["locations"] for h in cfg["hosts"].values()} == {
        "gnb1": ["device:bmv2:s1/1"], "dn1": ["device:bmv2:s1/2"], "gnb2": ["device:bmv2:s2/1"],
        "dn2": ["device:bmv2:s2/2"]}


def test_hupf_config_steers_each_switch_to_its_own_backends_and_routes_every_device():
    t = topo.load("two-sites")
    hupf = netcfg.generate(t)["apps"]["org.hupf.app"]["hupf"]
    assert [(p["switch"], p["port"], p["backend"], p.get("weight", 1)) for p in hupf["backendPorts"]] == [
        ("device:bmv2:s1", 3, "device:backend:b1", 1), ("device:bmv2:s1", 4, "device:backend:b2", 2),
        ("device:bmv2:s2", 3, "device:backend:b3", 1)]
    assert hupf["n3Addresses"] == ["192.168.0.1", "192.168.0.2"]
    assert hupf["pfcp"] == {"nodeId": "172.30.0.254", "listenAddress": "172.30.0.254", "port": 8805,
                            "allowedPeers": ["172.30.0.1"]}
    by_device = {}
    for r in hupf["routes"]:
        by_device.setdefault(r["deviceId"], {})[r["prefix"]] = (r["port"], r["dstMac"])
    s2 = t.sites[1]
    assert by_device["device:bmv2:s2"] == {"192.0.2.3/32": (1, s2.gnbs[0].mac), "203.0.113.0/24": (2, s2.dn.mac)}
    # A backend answers through its own switch port, whose MAC the Mininet link carries.
    assert by_device["device:backend:b3"] == {"192.0.2.3/32": (1, s2.switch.port_mac(3)),
                                              "203.0.113.0/24": (1, s2.switch.port_mac(3))}


def test_hupf_config_names_each_topology_site_with_its_devices_gnbs_and_n3():
    hupf = netcfg.generate(topo.load("two-sites"))["apps"]["org.hupf.app"]["hupf"]
    assert hupf["sites"] == [
        {"siteId": "site1", "switch": "device:bmv2:s1", "backends": ["device:backend:b1", "device:backend:b2"],
         "gnbs": ["192.0.2.2/32"], "n3Addresses": ["192.168.0.1"]},
        {"siteId": "site2", "switch": "device:bmv2:s2", "backends": ["device:backend:b3"],
         "gnbs": ["192.0.2.3/32"], "n3Addresses": ["192.168.0.2"]}]


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_netcfg_files_are_what_the_generator_makes(name):
    source, args, make = GENERATED[name]
    assert json.loads((REPO / "netcfg" / name).read_text()) == make(topo.load(source)), (
        "netcfg/%s is stale: PYTHONPATH=tools .venv/bin/python -m hupf_tools.fabric.netcfg %s > netcfg/%s"
        % (name, args, name))


@pytest.mark.parametrize("stem", COMPOSE_TOPOLOGIES)
def test_compose_files_are_what_the_generator_makes(stem):
    path = compose.compose_file(stem)
    assert (REPO / path).read_text() == compose.render(topo.load(stem), stem), (
        "%s is stale: PYTHONPATH=tools .venv/bin/python -m hupf_tools.fabric.compose %s > %s" % (path, stem, path))


@pytest.mark.parametrize("stem", COMPOSE_TOPOLOGIES)
def test_compose_services_are_the_netcfgs_devices_and_peers(stem):
    """Each file's services and its netcfg agree: the mininet service runs the topology file and publishes every
    switch's gRPC port; a backend service per backend device on its own interface, serving P4Runtime where the
    netcfg's device points; an SMF per site, its Node ID an allowed PFCP peer and its gNB one of the site's."""
    t = topo.load(stem)
    services = yaml.safe_load((REPO / compose.compose_file(stem)).read_text())["services"]
    cfg = json.loads((REPO / compose.netcfg_file(stem)).read_text())
    mn = services["mininet"]
    assert "hupf-fabric,/hupf-tools/hupf_tools/fabric/topologies/%s.json" % stem in mn["entrypoint"]
    assert sorted(mn["ports"]) == sorted("%d:%d" % (sw.grpc_port, sw.grpc_port) for sw in t.switches())
    serving = {}
    for name, svc in services.items():
        if svc.get("network_mode") == "service:mininet":
            args = dict(zip(svc["command"][::2], svc["command"][1::2]))
            port = int(args["--grpc-addr"].rsplit(":", 1)[1])
            serving["device:backend:" + args["--port"].split("=")[1][:-len("-eth0")]] = "grpc://mininet:%d" % port
    want = {d: c["basic"]["managementAddress"].split("?")[0] for d, c in cfg["devices"].items()
            if d.startswith("device:backend:")}
    assert serving == want and len(set(want.values())) == len(want) == len(t.backends())
    smfs = {svc["command"][svc["command"].index("--node-id") + 1]: svc["command"][svc["command"].index("--gnb") + 1]
            for svc in services.values() if svc.get("image") == "hupf/smf-emulator:dev"}
    assert sorted(smfs) == sorted(cfg["apps"]["org.hupf.app"]["hupf"]["pfcp"]["allowedPeers"])
    assert sorted(smfs.values()) == sorted(s.gnbs[0].ip for s in t.sites)


def test_the_generator_cli_prints_the_netcfg():
    res = subprocess.run([sys.executable, "-m", "hupf_tools.fabric.netcfg", "one-site"], capture_output=True,
                         text=True, env={"PYTHONPATH": str(REPO / "tools")}, cwd=REPO)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == netcfg.generate(topo.load("one-site"))


@pytest.mark.parametrize("edit, error", [
    (lambda r: r["sites"][0]["backends"].clear(), r"sites\[0\]\.backends: a site needs a backend"),
    (lambda r: r["sites"][1]["backends"][0].update(port=1), r"sites\[1\]\.backends\[0\]\.port: switch port 1 is "
                                                            r"used twice"),
    (lambda r: r["sites"][0]["gnbs"][0].update(port=255), r"sites\[0\]\.gnbs\[0\]\.port: 255 is not a switch port"),
    (lambda r: r["sites"][1]["switch"].update(name="s1"), r"sites\[1\]\.switch\.name: 's1' is used twice"),
    (lambda r: r["sites"][0]["dn"].update(ip="10.0.0.1"), r"sites\[0\]\.dn: 10\.0\.0\.1 is not in its prefix"),
    (lambda r: r["sites"][0]["gnbs"][0].update(ip="192.0.2.300"), r"gnbs\[0\]\.ip: '192\.0\.2\.300' is not an IPv4"),
    (lambda r: r["sites"][1]["switch"].update(grpcPort=50001), r"two switches on gRPC port"),
    (lambda r: r["sites"][0]["backends"][0].update(name="backend-one"), r"is not a short lowercase name"),
    (lambda r: r["sites"][0]["backends"][1].update(weight=0), r"backends\[1\]\.weight: 0 is not in 1\.\.255"),
    (lambda r: r.update(mgmtSubnet="172.31.0.0/24"), r"mgmtSubnet: .* fewer than two /24"),
    (lambda r: r.pop("smf"), r"missing 'smf'"),
    (lambda r: r["sites"][0].update(switch=[]), r"sites\[0\]\.switch: \[\] is not dict"),
])
def test_a_topology_that_cannot_be_a_fabric_is_refused_naming_the_field(two_sites, edit, error):
    raw = copy.deepcopy(two_sites)
    edit(raw)
    with pytest.raises(topo.TopologyError, match=error):
        topo.parse(raw, "two-sites.json")


def test_more_backends_than_management_links_is_refused(two_sites):
    raw = copy.deepcopy(two_sites)
    raw["mgmtSubnet"] = "172.31.0.0/23"  # two /24s: the SMF's and one backend's
    with pytest.raises(topo.TopologyError, match=r"sites\[0\]\.backends\[1\]: no management link left in "):
        topo.parse(raw, "two-sites.json")


def test_a_missing_or_broken_file_is_named(tmp_path):
    with pytest.raises(topo.TopologyError, match="topology nowhere: No such file"):
        topo.load("nowhere")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(topo.TopologyError, match="topology .*bad.json: not JSON"):
        topo.load(bad)
