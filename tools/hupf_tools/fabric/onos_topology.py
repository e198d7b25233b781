"""ONOS's topology of a fabric, as hupf puts it there from its config (the app's WiringProvider: hupf's pipelines
have no LLDP path, so nothing else reports them): the netcfg's links (each backend on its switch port, both ways,
ACTIVE) and hosts (the gNB and DN hosts at their switch ports, with their addresses), exactly, while the devices
are up; none once the netcfg is gone."""
import re

TOPOLOGY_TIMEOUT_S = 120
_LINK_KEY = re.compile(r"^(.+/\d+)-(.+/\d+)$")


def _host_id(key):
    mac, vlan = key.split("/")
    return "%s/%s" % (mac.upper(), vlan)


def wanted(cfg):
    """(links, hosts) the netcfg describes, in the form of got()."""
    links = set()
    for key, value in cfg["links"].items():
        src, dst = _LINK_KEY.match(key).groups()
        links.add("%s-%s ACTIVE" % (src, dst))
        if value["basic"].get("bidirectional"):
            links.add("%s-%s ACTIVE" % (dst, src))
    hosts = {_host_id(k): (sorted(v["basic"]["locations"]), sorted(v["basic"]["ips"]))
             for k, v in cfg["hosts"].items()}
    return links, hosts


def got(onos):
    """(links, hosts) as ONOS's REST answers: each link "src-dst STATE", each host id -> (locations, IPs)."""
    status, body = onos.rest("GET", "/onos/v1/links")
    links = {"%s/%s-%s/%s %s" % (l["src"]["device"], l["src"]["port"], l["dst"]["device"], l["dst"]["port"],
                                 l["state"]) for l in (body.get("links", []) if status == 200 else [])}
    status, body = onos.rest("GET", "/onos/v1/hosts")
    hosts = {h["id"]: (sorted("%s/%s" % (at["elementId"], at["port"]) for at in h["locations"]),
                       sorted(h["ipAddresses"])) for h in (body.get("hosts", []) if status == 200 else [])}
    return links, hosts


def differences(want, have):
    """What ONOS's topology lacks and has beyond the wanted one; None when they are equal."""
    (want_links, want_hosts), (links, hosts) = want, have
    out = []
    if links != want_links:
        out.append("links missing %s, extra %s" % (sorted(want_links - links), sorted(links - want_links)))
    for host in sorted(set(want_hosts) | set(hosts)):
        if want_hosts.get(host) != hosts.get(host):
            out.append("host %s: %s, want %s" % (host, hosts.get(host, "absent"), want_hosts.get(host, "absent")))
    return "; ".join(out) or None


def wait_for(onos, cfg, what):
    """Until ONOS's links and hosts are exactly the netcfg's; raises naming what differs after the timeout."""
    want = wanted(cfg)
    onos.wait_ready(lambda: differences(want, got(onos)), TOPOLOGY_TIMEOUT_S, what)


def wait_gone(onos, what):
    """Until ONOS's topology holds no link and no host (the netcfg removed)."""
    onos.wait_ready(lambda: differences((set(), {}), got(onos)), TOPOLOGY_TIMEOUT_S, what)
