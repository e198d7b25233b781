"""docker-compose's services for a fabric topology, from the same file as the Mininet fabric and its netcfg: ONOS,
the mininet service (mn-stratum's Stratum-bmv2 switches, hupf_tools.fabric.mininet_topo), one hupf-backend service
per topology backend (each on its own interface in the mininet service's namespace, P4Runtime on its own port there:
netcfg's --compose managementAddress) and one SMF emulator per site (its gNB, a share of the UE pool and TEIDs).

    python -m hupf_tools.fabric.compose one-site > docker-compose.yml
    python -m hupf_tools.fabric.compose two-sites > docker-compose.two-sites.yml
"""
import ipaddress
import sys
from pathlib import Path

import yaml

from hupf_tools.fabric import netcfg, topology as topo

ONOS_APPS = "gui,drivers.bmv2,drivers.stratum,p4runtime,generaldeviceprovider"
SMF_SESSIONS = 100
TEID_BASE, TEID_SPAN = 0x1000, 0x10000


def compose_file(stem):
    """The file docker compose is given for the topology file topologies/<stem>.json (one-site's: the default)."""
    return "docker-compose.yml" if stem == "one-site" else "docker-compose.%s.yml" % stem


def netcfg_file(stem):
    return "netcfg/docker-compose.json" if stem == "one-site" else "netcfg/docker-compose-%s.json" % stem


def header(t, stem):
    flag = "" if stem == "one-site" else " -f %s" % compose_file(stem)
    return ("# A full hupf deployment of tools/hupf_tools/fabric/topologies/%s.json (%s): ONOS 2.7.0\n"
            "# with the hupf .oar, the Mininet fabric with Stratum-bmv2 switches running the hw profile (ONOS\n"
            "# pushes it), a hupf-backend per backend, an SMF emulator per site as PFCP peer. ONOS_APPS: the\n"
            "# P4Runtime stack and the drivers of the netcfg's devices, and gui (ONOS's legacy web GUI, whose views\n"
            "# hupf's extends); the hupf .oar is installed after with `make onos-install`. Generated from the\n"
            "# topology file (do not edit):\n"
            "#   PYTHONPATH=tools python -m hupf_tools.fabric.compose %s > %s\n"
            "#   make oar && docker compose%s up -d && make onos-install netcfg NETCFG=%s\n"
            "# (the netcfg: python -m hupf_tools.fabric.netcfg %s --compose; docs/FABRIC.md.)\n"
            "# Needs an image registry (none is reachable on the development machines, see README).\n"
            % (stem, t.name, stem, compose_file(stem), flag, netcfg_file(stem), stem))


def smf_services(t):
    """One SMF emulator per site: its first gNB, the site's share of the UE pool and of the TEIDs."""
    pools = ipaddress.ip_network(t.ue_pool).subnets(new_prefix=24)
    out = {}
    for k, (site, pool) in enumerate(zip(t.sites, pools)):
        name = netcfg.compose_smf(t, site)
        out[name] = {
            "build": {"context": ".", "dockerfile": "tests/pfcp/Dockerfile"}, "image": "hupf/smf-emulator:dev",
            "container_name": "hupf-" + name,
            "command": ["--upf", "onos:%d" % netcfg.PFCP_PORT, "--node-id", name, "--sessions", str(SMF_SESSIONS),
                        "--hold", "0", "--ue-pool", str(pool if len(t.sites) > 1 else t.ue_pool),
                        "--teid-base", str(TEID_BASE + k * TEID_SPAN), "--gnb", site.gnbs[0].ip],
            "depends_on": ["onos"], "networks": ["hupf"]}
    return out


def services(t, stem):
    """The compose file's content for topology t (the file topologies/<stem>.json)."""
    out = {
        "onos": {"image": "onosproject/onos:2.7.0", "hostname": "onos", "container_name": "hupf-onos",
                 "environment": ["ONOS_APPS=" + ONOS_APPS],
                 "ports": ["8181:8181", "8101:8101", "%d:%d/udp" % (netcfg.PFCP_PORT, netcfg.PFCP_PORT)],
                 "networks": ["hupf"]},
        "mininet": {"image": "opennetworking/mn-stratum:latest", "hostname": "mininet",
                    "container_name": "hupf-mininet", "privileged": True, "tty": True, "stdin_open": True,
                    "volumes": ["./tools:/hupf-tools:ro"],
                    "entrypoint": ["mn", "--custom", "/hupf-tools/hupf_tools/fabric/mininet_topo.py", "--topo",
                                   "hupf-fabric,/hupf-tools/hupf_tools/fabric/topologies/%s.json" % stem,
                                   "--switch", "stratum-bmv2", "--host", "no-offload-host", "--controller", "none"],
                    "ports": ["%d:%d" % (sw.grpc_port, sw.grpc_port) for sw in t.switches()],
                    "networks": ["hupf"]},
    }
    for b in t.backends():
        name = netcfg.compose_backend(t, b)
        out[name] = {"build": "./backend", "image": "hupf/backend:dev", "container_name": "hupf-" + name,
                     "privileged": True, "network_mode": "service:mininet",
                     "command": ["--grpc-addr", "0.0.0.0:%d" % netcfg.compose_grpc_port(t, b), "--device-id", "1",
                                 "--port", "%d=%s-eth0" % (topo.BACKEND_DATA_PORT, b.name)],
                     "depends_on": ["mininet"]}
    out.update(smf_services(t))
    return {"services": out, "networks": {"hupf": {}}}


class _Dumper(yaml.SafeDumper):
    """Lists on one line (wrapped), mappings as blocks: as a compose file is written by hand."""


_Dumper.add_representer(list, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))


def render(t, stem):
    return header(t, stem) + yaml.dump(services(t, stem), Dumper=_Dumper, sort_keys=False, width=114)


def main(argv=None):
    args = topo.argument_parser(__doc__).parse_args(argv)
    t = topo.load_or_exit(args.topology, "compose")
    sys.stdout.write(render(t, Path(args.topology).stem))
    return 0


if __name__ == "__main__":
    sys.exit(main())
