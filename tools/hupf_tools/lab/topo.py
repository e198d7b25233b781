"""The lab's network-namespace topology.

Hosts are namespaces without IP addresses (the lab's traffic is raw frames: no ARP, no ICMP
replies that would leak into the UPF). Switch and backend ports stay in the root namespace.
Every name carries the run's tag, so labs (and test runs) on one machine do not collide.

    backend-only:  hupf-gnb-T[gnb0] -- hbT-1 [backend port 1]   [backend port 2] hbT-2 -- hupf-dn-T[dn0]
    hybrid:        hupf-gnb-T[gnb0] -- hsT-1 [switch 1]   [switch 2] hsT-2 -- hupf-dn-T[dn0]
                                             [switch 3] hsT-3 -- hbT-1 [backend port 1]
    hybrid, 2-4 backends, also:              [switch 4] hsT-4 -- hcT-1 [second backend's port 1]
                                             [switch 5] hsT-5 -- hdT-1 [third's], [switch 6] hsT-6 -- heT-1
"""
import subprocess

HOST_IF = {"gnb": "gnb0", "dn": "dn0"}
MAX_TAG = 9_999_999  # interface names stay within 15 characters
# Root-side interface prefixes: the switch's ports, then each backend's (hybrid: one port each).
BACKEND_PREFIXES = ("hb", "hc", "hd", "he")


class TopologyError(RuntimeError):
    pass


def sh(*cmd, check=True):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if check and res.returncode != 0:
        raise TopologyError("%s: %s" % (" ".join(cmd), res.stderr.strip() or "exit %d" % res.returncode))
    return res.stdout.strip()


class Topology:
    def __init__(self, hybrid, tag, backends=1):
        if not 0 <= int(tag) <= MAX_TAG:
            raise ValueError("lab tag must be in 0..%d, got %r" % (MAX_TAG, tag))
        if not 1 <= backends <= (len(BACKEND_PREFIXES) if hybrid else 1):
            raise ValueError("%d backends: a hybrid topology has 1..%d, a backend-only one 1"
                             % (backends, len(BACKEND_PREFIXES)))
        self.hybrid = hybrid
        self.tag = int(tag)
        sw, bk = "hs%d-" % self.tag, "hb%d-" % self.tag
        self.namespaces = {"gnb": "hupf-gnb-%d" % self.tag, "dn": "hupf-dn-%d" % self.tag}
        if hybrid:
            self.links = [("gnb", sw + "1"), ("dn", sw + "2")]
            self.switch_ports = {1: sw + "1", 2: sw + "2"}
            # Backend k (from 0) is on switch port 3 + k, on its own port 1.
            self.backends = []
            for k in range(backends):
                port, ifname = 3 + k, "%s%d-1" % (BACKEND_PREFIXES[k], self.tag)
                self.links.append((None, sw + str(port), ifname))
                self.switch_ports[port] = sw + str(port)
                self.backends.append({1: ifname})
            self.backend_ports = self.backends[0]
        else:
            self.links = [("gnb", bk + "1"), ("dn", bk + "2")]
            self.switch_ports = {}
            self.backend_ports = {1: bk + "1", 2: bk + "2"}
            self.backends = [self.backend_ports]

    def ns(self, host):
        return self.namespaces[host]

    def cleanup(self):
        """Removes what a run with this tag left behind (namespaces and root-side veths)."""
        for ns in self.namespaces.values():
            sh("ip", "netns", "del", ns, check=False)
        for prefix in ("hs",) + BACKEND_PREFIXES:
            for port in (1, 2, 3, 4):
                sh("ip", "link", "del", "%s%d-%d" % (prefix, self.tag, port), check=False)

    def up(self):
        self.cleanup()
        try:
            for ns in self.namespaces.values():
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
                ns, host_if = self.ns(host), HOST_IF[host]
                # The host end is born in its namespace: gnb0/dn0 never exist in the shared root.
                sh("ip", "link", "add", root_if, "type", "veth", "peer", "name", host_if, "netns", ns)
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

    def mac(self, ifname, host=None):
        cmd = ("cat", "/sys/class/net/%s/address" % ifname)
        return sh("ip", "netns", "exec", self.ns(host), *cmd) if host else sh(*cmd)

    def addresses(self):
        """MACs the plan and the runner need: each host's own, and the port it is attached to."""
        gnb_peer = self.links[0][1]
        dn_peer = self.links[1][1]
        net = {"gnb_mac": self.mac("gnb0", "gnb"), "dn_mac": self.mac("dn0", "dn"),
               "gnb_peer_mac": self.mac(gnb_peer), "dn_peer_mac": self.mac(dn_peer)}
        if self.hybrid:
            # Each backend's: the switch port it hangs off (3, 4, ...) and its own port 1.
            net["switch_backend_macs"] = [self.mac(self.switch_ports[3 + k]) for k in range(len(self.backends))]
            net["backend_macs"] = [self.mac(b[1]) for b in self.backends]
            net["switch_backend_mac"], net["backend_mac"] = net["switch_backend_macs"][0], net["backend_macs"][0]
        return net

    def down(self):
        self.cleanup()
