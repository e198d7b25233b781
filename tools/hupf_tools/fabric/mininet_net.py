"""The fabric's Mininet network, built from a topology file: per site a P4Runtime switch (mininet_nodes), its gNB
and data-network hosts and its backend hosts (hupf-backend on the host's data port, P4Runtime on its management
link to the root namespace), and the SMF host (N4 to hupf over its management link).

    gnbK-eth0 --- [port] sN [port] --- dnN-eth0
                         sN [port] --- bK-eth0 (hupf-backend port 1)    bK-mgmt 172.31.k.1 --- mg-bK 172.31.k.254 (root)
    smf-mgmt 172.31.0.1 --- mg-smf 172.31.0.254 (root: hupf's N4)
"""
import functools
import json
import os
import sys
from pathlib import Path

from hupf_tools.fabric import mininet_nodes as nodes
from hupf_tools.fabric import topology as topo
from mininet.net import Mininet  # noqa: E402 (mininet_nodes imported Debian's mininet)

REPO = Path(__file__).resolve().parents[3]


def mgmt_names(name):
    """(host side, root side) interface names of a node's management link."""
    return "%s-mgmt" % name, "mg-%s" % name


class Fabric:
    """The Mininet network of topology `t`, its switches of `switch_target` ("bmv2", "stratum-bmv2", "backend")
    running `switch_binary`, its backends running `backend_binary`; logs in log_dir."""

    def __init__(self, t, switch_target, switch_binary, backend_binary, log_dir):
        self.t = t
        self.target = switch_target
        self.switch_binary = switch_binary
        self.backend_binary = str(backend_binary)
        self.log_dir = Path(log_dir)
        self.net = None
        self.root = None

    def node(self, name):
        return self.net.get(name)

    def build(self):
        self.log_dir.mkdir(parents=True, exist_ok=True)
        net = self.net = Mininet(topo=None, build=False, controller=None, autoSetMacs=False, autoStaticArp=False)
        self.root = nodes.RootNode("root")
        switch_cls = functools.partial(nodes.SWITCHES[self.target], binary=self.switch_binary,
                                       log_dir=self.log_dir)
        for site in self.t.sites:
            sw = net.addSwitch(site.switch.name, cls=switch_cls, grpc_port=site.switch.grpc_port)
            for h in site.hosts():
                cls = nodes.BackendHost if h.kind == "backend" else nodes.QuietHost
                host = net.addHost(h.name, cls=cls, ip=None, mac=None)
                net.addLink(host, sw, port1=0, port2=h.port, addr1=h.mac, addr2=site.switch.port_mac(h.port))
                if h.kind == "backend":
                    self._mgmt_link(host, h.mgmt)
        smf = net.addHost(self.t.smf_name, cls=nodes.QuietHost, ip=None, mac=None)
        self._mgmt_link(smf, self.t.smf_mgmt)

    def _mgmt_link(self, host, addrs):
        host_if, root_if = mgmt_names(host.name)
        prefix = "/%d" % self.t.mgmt_prefix
        self.net.addLink(host, self.root, intfName1=host_if, intfName2=root_if,
                         params1={"ip": addrs[0] + prefix}, params2={"ip": addrs[1] + prefix})

    def up(self):
        """Builds and starts the network (switches serving P4Runtime), then each backend; tears down what it
        started if a step fails."""
        try:
            self.build()
            self.net.start()
            for b in self.t.backends():
                self.node(b.name).start_backend(self.backend_binary, "%s-eth0" % b.name,
                                                "%s:%d" % (b.mgmt[0], topo.BACKEND_GRPC_PORT), self.log_dir)
        except BaseException:
            self.down()
            raise
        return self

    def down(self):
        if self.net is None:
            return
        for b in self.t.backends():
            if b.name in self.net.nameToNode:
                self.node(b.name).stop_backend()
        self.net.stop()
        if self.root is not None:
            self.root.terminate()
        self.net = self.root = None

    def data_intf(self, host):
        return "%s-eth0" % host.name

    def popen(self, host_name, args, **kw):
        """A process in a host's namespace (the repository's tools importable)."""
        env = dict(os.environ, PYTHONPATH=str(REPO / "tools"))
        return self.node(host_name).popen(args, env=env, **kw)

    def python(self, host_name, module, *args, **kw):
        return self.popen(host_name, [sys.executable, "-m", module] + [str(a) for a in args], **kw)

    def site_addresses(self, site):
        """What the lab's traffic plan needs of a site: MACs on both sides of its first gNB's and its DN's links,
        its N3 address, the gNB's and the DN's."""
        gnb = site.gnbs[0]
        return {"gnb_mac": gnb.mac, "dn_mac": site.dn.mac, "gnb_peer_mac": site.switch.port_mac(gnb.port),
                "dn_peer_mac": site.switch.port_mac(site.dn.port), "n3": site.n3, "gnb": gnb.ip,
                "app": site.dn.ip}

    def describe(self):
        return json.dumps({"switches": {s.name: s.grpc_port for s in self.t.switches()},
                           "backends": {b.name: b.mgmt[0] for b in self.t.backends()},
                           "smf": self.t.smf_mgmt[0]})
