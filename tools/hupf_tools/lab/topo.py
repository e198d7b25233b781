"""The lab's network-namespace topology.

Hosts are namespaces without IP addresses (the lab's traffic is raw frames: no ARP, no ICMP
replies that would leak into the UPF). Switch and backend ports stay in the root namespace.

    backend-only:  hupf-gnb[gnb0] -- hupfb1 [backend port 1]   [backend port 2] hupfb2 -- hupf-dn[dn0]
    hybrid:        hupf-gnb[gnb0] -- hupfs1 [switch 1]   [switch 2] hupfs2 -- hupf-dn[dn0]
                                           [switch 3] hupfs3 -- hupfb1 [backend port 1]
"""
import subprocess

GNB_NS, DN_NS = "hupf-gnb", "hupf-dn"
HOST_IF = {"gnb": "gnb0", "dn": "dn0"}


class TopologyError(RuntimeError):
    pass


def sh(*cmd, check=True):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if check and res.returncode != 0:
        raise TopologyError("%s: %s" % (" ".join(cmd), res.stderr.strip() or "exit %d" % res.returncode))
    return res.stdout.strip()


def ns_of(host):
    return GNB_NS if host == "gnb" else DN_NS


class Topology:
    def __init__(self, hybrid):
        self.hybrid = hybrid
        if hybrid:
            self.links = [("gnb", "hupfs1"), ("dn", "hupfs2"), (None, "hupfs3", "hupfb1")]
            self.switch_ports = {1: "hupfs1", 2: "hupfs2", 3: "hupfs3"}
            self.backend_ports = {1: "hupfb1"}
        else:
            self.links = [("gnb", "hupfb1"), ("dn", "hupfb2")]
            self.switch_ports = {}
            self.backend_ports = {1: "hupfb1", 2: "hupfb2"}

    @staticmethod
    def cleanup():
        """Removes what a previous lab left behind (namespaces and root-side veths)."""
        for ns in (GNB_NS, DN_NS):
            sh("ip", "netns", "del", ns, check=False)
        for ifname in ("hupfs1", "hupfs2", "hupfs3", "hupfb1", "hupfb2"):
            sh("ip", "link", "del", ifname, check=False)

    def up(self):
        self.cleanup()
        try:
            for ns in (GNB_NS, DN_NS):
                sh("ip", "netns", "add", ns)
                sh("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
            for link in self.links:
                if link[0] is None:
                    _, a, b = link
                    sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
                    for ifname in (a, b):
                        self._root_if_up(ifname)
                    continue
                host, root_if = link
                ns, host_if = ns_of(host), HOST_IF[host]
                sh("ip", "link", "add", root_if, "type", "veth", "peer", "name", host_if)
                sh("ip", "link", "set", host_if, "netns", ns)
                self._root_if_up(root_if)
                sh("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % host_if)
                sh("ip", "netns", "exec", ns, "ip", "link", "set", host_if, "arp", "off", "mtu", "9000", "up")
        except Exception:
            self.cleanup()
            raise

    @staticmethod
    def _root_if_up(ifname):
        sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % ifname)
        sh("ip", "link", "set", ifname, "arp", "off", "mtu", "9000", "up")
        # veth drops frames with a bad checksum when it thinks it offloads them: compute in software.
        sh("ethtool", "-K", ifname, "tx", "off", check=False)

    @staticmethod
    def mac(ifname, host=None):
        cmd = ("cat", "/sys/class/net/%s/address" % ifname)
        return sh("ip", "netns", "exec", ns_of(host), *cmd) if host else sh(*cmd)

    def addresses(self):
        """MACs the plan and the runner need: each host's own, and the port it is attached to."""
        gnb_peer = self.links[0][1]
        dn_peer = self.links[1][1]
        net = {"gnb_mac": self.mac("gnb0", "gnb"), "dn_mac": self.mac("dn0", "dn"),
               "gnb_peer_mac": self.mac(gnb_peer), "dn_peer_mac": self.mac(dn_peer)}
        if self.hybrid:
            net["switch_backend_mac"] = self.mac("hupfs3")
            net["backend_mac"] = self.mac("hupfb1")
        else:
            net["backend_dn_mac"] = self.mac("hupfb2")
        return net

    def down(self):
        self.cleanup()
