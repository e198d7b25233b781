"""The fabric's topology file: sites, each a P4 switch with its gNB hosts, its data-network host and its
hupf-backends (a backend's port 1 on a switch port), and one SMF host; loaded, checked, and given every
address the Mininet network and ONOS's netcfg derive from it, so that both describe the same network.

Addresses the file does not spell out are derived, never random:
- MACs: switch s's port p 02:68:ss:00:00:pp; a host's data port 02:68:ss:KK:00:ii (KK 0a gNB, 0d DN, 0b backend);
- management links (a backend's P4Runtime, the SMF's N4): the n-th /24 of mgmtSubnet, the host .1, the root
  namespace (where ONOS runs) .254; the SMF's link is the first, backend k's the (k+1)-th.
"""
import argparse
import ipaddress
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

TOPOLOGIES = Path(__file__).resolve().parent / "topologies"
NAME = re.compile(r"^[a-z][a-z0-9]{0,7}$")  # Mininet names its interfaces <node>-eth<N>: 15 characters at most
CPU_PORT = 255
BACKEND_GRPC_PORT = 9559
BACKEND_DATA_PORT = 1
KIND = {"gnb": 0x0A, "dn": 0x0D, "backend": 0x0B}


class TopologyError(ValueError):
    """A topology file that cannot describe a fabric; the message names the file's field."""


@dataclass(frozen=True)
class Host:
    name: str
    kind: str  # gnb, dn, backend
    site: int  # index of its site, from 1
    index: int  # its rank among its site's hosts of that kind, from 1
    port: int  # the switch port it hangs off
    ip: str = None  # data-plane address (gNB, DN); backends have none
    prefix: str = None  # a DN's network
    weight: int = 1  # a backend's share of the UEs
    mgmt: tuple = None  # (host address, root address) of its management link (backends)

    @property
    def mac(self):
        return mac(self.site, KIND[self.kind], self.index)


@dataclass(frozen=True)
class Switch:
    name: str
    site: int
    grpc_port: int

    @property
    def device_id(self):
        return "device:bmv2:%s" % self.name

    def port_mac(self, port):
        return mac(self.site, 0, port)


@dataclass(frozen=True)
class Site:
    name: str
    index: int
    switch: Switch
    n3: str
    gnbs: tuple
    dn: Host
    backends: tuple

    def hosts(self):
        return list(self.gnbs) + [self.dn] + list(self.backends)


@dataclass(frozen=True)
class Topology:
    name: str
    sites: tuple
    smf_name: str
    smf_mgmt: tuple  # (SMF host address, root address: where hupf's N4 listens)
    router_mac: str
    ue_pool: str
    mgmt_prefix: int = field(default=24)

    def backends(self):
        return [b for s in self.sites for b in s.backends]

    def switches(self):
        return [s.switch for s in self.sites]


def mac(site, kind, index):
    return "02:68:%02x:%02x:00:%02x" % (site, kind, index)


def backend_device_id(backend):
    return "device:backend:%s" % backend.name


def _get(obj, key, where, kind=None):
    if not isinstance(obj, dict) or key not in obj:
        raise TopologyError("%s: missing %r" % (where, key))
    value = obj[key]
    if kind is not None and not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise TopologyError("%s.%s: %r is not %s" % (where, key, value, getattr(kind, "__name__", kind)))
    return value


def _name(obj, where, seen):
    name = _get(obj, "name", where, str)
    if not NAME.match(name):
        raise TopologyError("%s.name: %r is not a short lowercase name (%s)" % (where, name, NAME.pattern))
    if name in seen:
        raise TopologyError("%s.name: %r is used twice" % (where, name))
    seen.add(name)
    return name


def _ipv4(value, where):
    try:
        return str(ipaddress.IPv4Address(value))
    except (ipaddress.AddressValueError, ValueError):
        raise TopologyError("%s: %r is not an IPv4 address" % (where, value)) from None


def _port(obj, where, used):
    port = _get(obj, "port", where, int)
    if not 1 <= port < CPU_PORT:
        raise TopologyError("%s.port: %d is not a switch port (1..%d; %d is the CPU port)"
                            % (where, port, CPU_PORT - 1, CPU_PORT))
    if port in used:
        raise TopologyError("%s.port: switch port %d is used twice" % (where, port))
    used.add(port)
    return port


def _site(raw, index, names, mgmt_links):
    where = "sites[%d]" % (index - 1)
    name = _name(raw, where, names)
    sw = _get(raw, "switch", where, dict)
    grpc_port = _get(sw, "grpcPort", where + ".switch", int)
    if not 1024 <= grpc_port <= 65535:
        raise TopologyError("%s.switch.grpcPort: %d is not in 1024..65535" % (where, grpc_port))
    switch = Switch(_name(sw, where + ".switch", names), index, grpc_port)
    used = set()
    gnbs_raw = _get(raw, "gnbs", where, list)
    if not gnbs_raw:
        raise TopologyError("%s.gnbs: a site needs a gNB" % where)
    gnbs = tuple(Host(_name(g, "%s.gnbs[%d]" % (where, i), names), "gnb", index, i + 1,
                      _port(g, "%s.gnbs[%d]" % (where, i), used),
                      ip=_ipv4(_get(g, "ip", "%s.gnbs[%d]" % (where, i)), "%s.gnbs[%d].ip" % (where, i)))
                 for i, g in enumerate(gnbs_raw))
    dn_raw = _get(raw, "dn", where, dict)
    dn_ip = _ipv4(_get(dn_raw, "ip", where + ".dn"), where + ".dn.ip")
    try:
        prefix = ipaddress.IPv4Network(_get(dn_raw, "prefix", where + ".dn", str))
    except ValueError as e:
        raise TopologyError("%s.dn.prefix: %s" % (where, e)) from None
    if ipaddress.IPv4Address(dn_ip) not in prefix:
        raise TopologyError("%s.dn: %s is not in its prefix %s" % (where, dn_ip, prefix))
    dn = Host(_name(dn_raw, where + ".dn", names), "dn", index, 1, _port(dn_raw, where + ".dn", used), ip=dn_ip,
              prefix=str(prefix))
    backends_raw = _get(raw, "backends", where, list)
    if not backends_raw:
        raise TopologyError("%s.backends: a site needs a backend (it holds every session)" % where)
    backends = []
    for i, b in enumerate(backends_raw):
        bw = "%s.backends[%d]" % (where, i)
        weight = b.get("weight", 1) if isinstance(b, dict) else 1
        if not isinstance(weight, int) or isinstance(weight, bool) or not 1 <= weight <= 255:
            raise TopologyError("%s.weight: %r is not in 1..255" % (bw, weight))
        if not mgmt_links:
            raise TopologyError("%s: no management link left in mgmtSubnet (one /24 each)" % bw)
        backends.append(Host(_name(b, bw, names), "backend", index, i + 1, _port(b, bw, used), weight=weight,
                             mgmt=mgmt_links.pop(0)))
    n3 = _ipv4(_get(raw, "n3", where), where + ".n3")
    return Site(name, index, switch, n3, gnbs, dn, tuple(backends))


def parse(raw, source="topology"):
    """A Topology from the file's JSON object; TopologyError naming the field that is wrong."""
    if not isinstance(raw, dict):
        raise TopologyError("%s: not a JSON object" % source)
    try:
        mgmt = ipaddress.IPv4Network(_get(raw, "mgmtSubnet", source, str))
    except ValueError as e:
        raise TopologyError("%s.mgmtSubnet: %s" % (source, e)) from None
    if mgmt.prefixlen > 23:
        raise TopologyError("%s.mgmtSubnet: %s holds fewer than two /24 management links" % (source, mgmt))
    links = [(str(n.network_address + 1), str(n.network_address + 254)) for n in mgmt.subnets(new_prefix=24)]
    sites_raw = _get(raw, "sites", source, list)
    if not sites_raw:
        raise TopologyError("%s.sites: no site" % source)
    names = set()
    smf_name = _name(_get(raw, "smf", source, dict), source + ".smf", names)
    smf_mgmt = links.pop(0)
    sites = []
    for i, s in enumerate(sites_raw, start=1):
        sites.append(_site(s, i, names, links))
    grpc = [s.switch.grpc_port for s in sites]
    if len(set(grpc)) != len(grpc):
        raise TopologyError("%s.sites: two switches on gRPC port %s" % (source, grpc))
    router_mac = _get(raw, "routerMac", source, str)
    if not re.match(r"^([0-9a-f]{2}:){5}[0-9a-f]{2}$", router_mac):
        raise TopologyError("%s.routerMac: %r is not a lowercase MAC" % (source, router_mac))
    try:
        pool = str(ipaddress.IPv4Network(_get(raw, "uePool", source, str)))
    except ValueError as e:
        raise TopologyError("%s.uePool: %s" % (source, e)) from None
    return Topology(_get(raw, "name", source, str), tuple(sites), smf_name, smf_mgmt, router_mac, pool)


def load(path):
    """The topology in a file: a path, or the name of one in topologies/ (without .json)."""
    p = Path(path)
    if not p.exists() and (TOPOLOGIES / ("%s.json" % path)).exists():
        p = TOPOLOGIES / ("%s.json" % path)
    try:
        raw = json.loads(p.read_text())
    except OSError as e:
        raise TopologyError("topology %s: %s" % (path, e.strerror)) from None
    except ValueError as e:
        raise TopologyError("topology %s: not JSON: %s" % (p, e)) from None
    return parse(raw, p.name)


def argument_parser(doc):
    """A generator's command line: its doc as the help, the topology as the first argument."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("topology", help="a topology file, or the name of one in %s" % TOPOLOGIES)
    return ap


def load_or_exit(path, tool):
    """load() for a command line: a file that cannot be a fabric exits 2, naming the field."""
    try:
        return load(path)
    except TopologyError as e:
        print("%s: %s" % (tool, e), file=sys.stderr)
        raise SystemExit(2) from None
