"""The fabric's topology file as a Mininet Topo for `mn --custom` (docker-compose.yml's mininet service, where
mn-stratum's own --switch stratum-bmv2 runs the switches):

    mn --custom /hupf-tools/hupf_tools/fabric/mininet_topo.py --topo hupf-fabric,/hupf-tools/.../one-site.json \\
       --switch stratum-bmv2 --host no-offload-host --controller none

mn executes this file without __file__: the tools directory comes from HUPF_TOOLS (default /hupf-tools, the
service's mount). The backend hosts stay in the service's namespace, where docker-compose's backend service (which
shares it) runs hupf-backend on their interfaces; hupf_tools.fabric.mininet_net builds the same network with every
host in its own namespace."""
import os
import sys

sys.path.insert(0, os.environ.get("HUPF_TOOLS", "/hupf-tools"))
from hupf_tools.fabric import topology as topo  # noqa: E402
from mininet.topo import Topo  # noqa: E402


class FabricTopo(Topo):
    def build(self, path="one-site"):
        t = topo.load(path)
        for site in t.sites:
            sw = self.addSwitch(site.switch.name, cpuport=topo.CPU_PORT, grpcport=site.switch.grpc_port)
            for h in sorted(site.hosts(), key=lambda h: h.port):
                host = self.addHost(h.name, ip=None, mac=h.mac, inNamespace=h.kind != "backend")
                self.addLink(host, sw, port2=h.port, addr2=site.switch.port_mac(h.port))


topos = {"hupf-fabric": FabricTopo}
