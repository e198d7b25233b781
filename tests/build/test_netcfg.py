"""The netcfg examples are deployable: every device hupf's config gives a role has its ONOS device entry
(P4Runtime address, driver, the pipeconf its role needs), the Makefile's default NETCFG exists, and
netcfg/docker-compose.json names the devices docker-compose.yml runs. (HupfConfigTest validates hupf's
own section of every example.)"""
import json
import re
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
NETCFG = ROOT / "netcfg"
PIPECONFS = {"switch": {"org.hupf.bmv2", "org.hupf.tofino", "org.hupf.tofino2"}, "backend": {"org.hupf.backend"}}
# ONOS app that provides each driver (ONOS 2.7's drivers.bmv2 and drivers.stratum).
DRIVER_APPS = {"bmv2": "drivers.bmv2", "stratum-bmv2": "drivers.stratum"}
EXAMPLES = sorted(NETCFG.glob("*.json"))


def grpc_target(address):
    """(host, port, device_id) of a managementAddress grpc://host:port?device_id=N."""
    u = urlparse(address)
    assert u.scheme == "grpc" and u.hostname and u.port, address
    return u.hostname, u.port, int(parse_qs(u.query)["device_id"][0])


def compose_onos_apps(services):
    """The apps docker-compose.yml's ONOS activates at boot (ONOS_APPS), as written."""
    return next(e.split("=", 1)[1] for e in services["onos"]["environment"] if e.startswith("ONOS_APPS="))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_hupf_device_has_its_onos_device_entry(path):
    cfg = json.loads(path.read_text())
    roles = {d["deviceId"]: d["role"] for d in cfg["apps"]["org.hupf.app"]["hupf"].get("devices", [])}
    devices = cfg.get("devices", {})
    assert roles, f"{path.name}: no device has a role"
    assert set(devices) == set(roles), f"{path.name}: ONOS devices {sorted(devices)} vs roles {sorted(roles)}"
    for dev, role in roles.items():
        basic = devices[dev]["basic"]
        grpc_target(basic["managementAddress"])
        assert basic["driver"] in DRIVER_APPS, f"{dev}: driver {basic['driver']}"
        assert basic["pipeconf"] in PIPECONFS[role], f"{dev} ({role}): pipeconf {basic['pipeconf']}"


def test_the_makefile_default_netcfg_exists():
    m = re.search(r"^NETCFG\s*\?=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M)
    assert m and (ROOT / m.group(1)).is_file(), m and m.group(1)


def test_the_compose_netcfg_names_the_compose_services():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    cfg = json.loads((NETCFG / "docker-compose.json").read_text())
    devices = {d: v["basic"] for d, v in cfg["devices"].items()}
    hupf = cfg["apps"]["org.hupf.app"]["hupf"]
    roles = {d["deviceId"]: d["role"] for d in hupf["devices"]}

    (switch,) = [d for d, r in roles.items() if r == "switch"]
    host, port, _ = grpc_target(devices[switch]["managementAddress"])
    assert host == "mininet" and any(p.split(":")[0] == str(port) for p in compose["mininet"]["ports"])
    assert "stratum-bmv2" in compose["mininet"]["entrypoint"] and devices[switch]["driver"] == "stratum-bmv2"

    (backend,) = [d for d, r in roles.items() if r == "backend"]
    host, port, device_id = grpc_target(devices[backend]["managementAddress"])
    cmd = compose["backend"]["command"]
    assert compose["backend"]["network_mode"] == "service:mininet" and host == "mininet"
    assert cmd[cmd.index("--grpc-addr") + 1].endswith(":%d" % port)
    assert int(cmd[cmd.index("--device-id") + 1]) == device_id

    sys.path.insert(0, str(ROOT / "tests" / "pfcp"))
    import smf_cli  # the emulator the smf image runs
    args = smf_cli.parse_args(compose["smf"]["command"])
    assert args.upf == (hupf["pfcp"]["nodeId"], hupf["pfcp"]["port"])
    assert args.node_id in hupf["pfcp"]["allowedPeers"]
    assert any(p.startswith("%d:" % hupf["pfcp"]["port"]) for p in compose["onos"]["ports"])

    apps = compose_onos_apps(compose)
    want = {"p4runtime", "generaldeviceprovider"} | {DRIVER_APPS[d["driver"]] for d in devices.values()}
    assert want <= set(apps.split(",")), apps


def test_the_compose_onos_serves_the_gui_hupf_extends():
    # hupf's view extends ONOS's legacy web GUI (docs/GUI.md); gui2, served at the same /onos/ui, draws no legacy view.
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    apps = compose_onos_apps(compose)
    assert "gui" in apps.split(",") and "gui2" not in apps.split(","), apps
