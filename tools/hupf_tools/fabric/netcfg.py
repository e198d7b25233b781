"""ONOS's network config for a fabric topology: every switch and backend as a P4Runtime device, the links
between them and the hosts on the switches' ports (ONOS's topology view), and hupf's config (roles, the
switches' ports towards their backends, routes on every device, N4 towards the SMF host, HK-IPG and offload,
and the UPF sites: each topology site's switch, backends, gNBs and N3 address, docs/SITES.md).

    python -m hupf_tools.fabric.netcfg one-site [--driver stratum-bmv2] [--switch-host H] > netcfg/fabric-one-site.json
    python -m hupf_tools.fabric.netcfg one-site --compose > netcfg/docker-compose.json   (docker-compose.yml's)
    python -m hupf_tools.fabric.netcfg two-sites --compose > netcfg/docker-compose-two-sites.json
      (docker-compose.two-sites.yml's; both compose files: hupf_tools.fabric.compose)
"""
import json
import sys

from hupf_tools.fabric import topology as topo
from hupf_tools.lab import scenario

DRIVERS = ("bmv2", "stratum-bmv2")
SWITCH_PIPECONF = "org.hupf.bmv2"
BACKEND_PIPECONF = "org.hupf.backend"
PFCP_PORT = 8805
# The lab's HK-IPG parameters (tests/onos/test_onos_hybrid.py): a UE above threshold_bps over both directions.
HOLD_MS = 2000


def heavy_hitter(threshold_bps):
    return {"thresholdBps": threshold_bps, "tauThreshold": 1850, "alphaShift": 7, "timeslotUs": 16384,
            "keyMode": "ue", "windowUs": 1_000_000, "packetBytes": scenario.HEAVY_SIZE}


def _route(t, device, prefix, port, dst_mac):
    return {"deviceId": device, "prefix": prefix, "port": port, "srcMac": t.router_mac, "dstMac": dst_mac}


def routes(t, site):
    """The switch forwards to its gNBs and its DN; each backend sends both ways back through the switch."""
    sw = site.switch
    out = [_route(t, sw.device_id, g.ip + "/32", g.port, g.mac) for g in site.gnbs]
    out.append(_route(t, sw.device_id, site.dn.prefix, site.dn.port, site.dn.mac))
    for b in site.backends:
        back = sw.port_mac(b.port)
        out += [_route(t, topo.backend_device_id(b), g.ip + "/32", topo.BACKEND_DATA_PORT, back) for g in site.gnbs]
        out.append(_route(t, topo.backend_device_id(b), site.dn.prefix, topo.BACKEND_DATA_PORT, back))
    return out


def devices(t, driver, switch_host, backend_host=None):
    out = {}
    for site in t.sites:
        sw = site.switch
        out[sw.device_id] = {"basic": {
            "name": "hupf switch %s (%s)" % (sw.name, site.name), "driver": driver, "pipeconf": SWITCH_PIPECONF,
            "managementAddress": "grpc://%s:%d?device_id=1" % (switch_host, sw.grpc_port)}}
        for b in site.backends:
            out[topo.backend_device_id(b)] = {"basic": {
                "name": "hupf backend %s (%s)" % (b.name, site.name), "driver": "bmv2", "pipeconf": BACKEND_PIPECONF,
                "managementAddress": "grpc://%s:%d?device_id=1" % (backend_host or b.mgmt[0], topo.BACKEND_GRPC_PORT)}}
    return out


def links(t):
    """Each backend's port 1 on its switch port, both ways."""
    return {"%s/%d-%s/%d" % (s.switch.device_id, b.port, topo.backend_device_id(b), topo.BACKEND_DATA_PORT):
            {"basic": {"type": "DIRECT", "bidirectional": True}}
            for s in t.sites for b in s.backends}


def hosts(t):
    """The gNB and DN hosts where they are attached (ONOS's host ids: MAC/VLAN)."""
    return {"%s/None" % h.mac: {"basic": {"name": h.name, "locations": ["%s/%d" % (s.switch.device_id, h.port)],
                                          "ips": [h.ip]}}
            for s in t.sites for h in list(s.gnbs) + [s.dn]}


def sites(t):
    """One hupf site per topology site: a session is placed at the site serving its gNB (docs/SITES.md)."""
    return [{"siteId": s.name, "switch": s.switch.device_id,
             "backends": [topo.backend_device_id(b) for b in s.backends],
             "gnbs": [g.ip + "/32" for g in s.gnbs], "n3Addresses": [s.n3]}
            for s in t.sites]


def hupf(t, pfcp, threshold_bps=scenario.Scenario().threshold_bps):
    return {
        "devices": [{"deviceId": s.switch.device_id, "role": "switch"} for s in t.sites]
        + [{"deviceId": topo.backend_device_id(b), "role": "backend"} for b in t.backends()],
        "n3Addresses": [s.n3 for s in t.sites],
        "uePools": [t.ue_pool],
        "backendPorts": [dict({"switch": s.switch.device_id, "port": b.port, "backend": topo.backend_device_id(b),
                               "mac": b.mac}, **({"weight": b.weight} if b.weight != 1 else {}))
                         for s in t.sites for b in s.backends],
        "pfcp": pfcp,
        "heavyHitter": heavy_hitter(threshold_bps),
        "offload": {"holdMs": HOLD_MS, "hysteresis": 0.2},
        "routes": [r for s in t.sites for r in routes(t, s)],
        "reconcileIntervalS": 5,
        "sites": sites(t),
    }


def generate(t, driver="bmv2", switch_host="127.0.0.1", pfcp_port=PFCP_PORT):
    """The whole netcfg, as POST /onos/v1/network/configuration takes it: N4 on the root namespace's end of the
    SMF host's management link."""
    if driver not in DRIVERS:
        raise ValueError("driver %r: one of %s" % (driver, ", ".join(DRIVERS)))
    smf, n4 = t.smf_mgmt
    pfcp = {"nodeId": n4, "listenAddress": n4, "port": pfcp_port, "allowedPeers": [smf]}
    return {"devices": devices(t, driver, switch_host), "links": links(t), "hosts": hosts(t),
            "apps": {"org.hupf.app": {"hupf": hupf(t, pfcp)}}}


def compose_backend(t, backend):
    """A backend's docker-compose service: "backend" where the topology has one."""
    return "backend" if len(t.backends()) == 1 else "backend-" + backend.name


def compose_grpc_port(t, backend):
    """A backend's P4Runtime port in the mininet service's namespace, which every backend service shares."""
    return topo.BACKEND_GRPC_PORT + t.backends().index(backend)


def compose_smf(t, site):
    """A site's SMF emulator service (its PFCP Node ID): "smf" where the topology has one site."""
    return "smf" if len(t.sites) == 1 else "smf-" + site.name


def generate_for_compose(t):
    """docker-compose's netcfg (hupf_tools.fabric.compose's services): Stratum-bmv2 switches and the backends in the
    mininet service (its backend hosts in the service's namespace, a backend service per backend beside them, each
    on its own P4Runtime port), N4 from each site's smf service."""
    pfcp = {"nodeId": "onos", "listenAddress": "0.0.0.0", "port": PFCP_PORT,
            "allowedPeers": [compose_smf(t, s) for s in t.sites]}
    devices_ = devices(t, "stratum-bmv2", "mininet", backend_host="mininet")
    for b in t.backends():
        devices_[topo.backend_device_id(b)]["basic"]["managementAddress"] = (
            "grpc://mininet:%d?device_id=1" % compose_grpc_port(t, b))
    return {"devices": devices_, "links": links(t), "hosts": hosts(t),
            "apps": {"org.hupf.app": {"hupf": hupf(t, pfcp)}}}


def main(argv=None):
    ap = topo.argument_parser(__doc__)
    ap.add_argument("--driver", choices=DRIVERS, default="bmv2")
    ap.add_argument("--switch-host", default="127.0.0.1", help="where ONOS reaches the switches' gRPC ports")
    ap.add_argument("--compose", action="store_true", help="docker-compose.yml's netcfg (its service names)")
    args = ap.parse_args(argv)
    t = topo.load_or_exit(args.topology, "netcfg")
    cfg = generate_for_compose(t) if args.compose else generate(t, args.driver, args.switch_host)
    json.dump(cfg, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
