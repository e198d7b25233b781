"""Mininet topology of the hupf deployment for the mn-stratum container (docker-compose.yml):
one Stratum-bmv2 switch running the hw profile (pushed by ONOS through the org.hupf.bmv2 pipeconf),
a gNB host on port 1, a data-network host on port 2, and the backend host on port 3.

    mn --custom hupf_topo.py --topo hupf --switch stratum-bmv2 --controller none

The backend host runs hupf-backend (DPDK af_packet on its interface); ONOS reaches it over P4Runtime.
"""
from mininet.topo import Topo

CPU_PORT = 255
PORT_GNB, PORT_DN, PORT_BACKEND = 1, 2, 3


class HupfTopo(Topo):
    def build(self):
        # The switch class comes from mn-stratum's --switch stratum-bmv2; cpuport matches the contract.
        s1 = self.addSwitch("s1", cpuport=CPU_PORT)
        gnb = self.addHost("gnb", ip="192.0.2.2/24", mac="00:00:00:00:0a:01")
        dn = self.addHost("dn", ip="198.51.100.10/24", mac="00:00:00:00:0b:01")
        backend = self.addHost("backend", ip=None, mac="00:00:00:00:bb:01")
        self.addLink(gnb, s1, port2=PORT_GNB)
        self.addLink(dn, s1, port2=PORT_DN)
        self.addLink(backend, s1, port2=PORT_BACKEND)


topos = {"hupf": HupfTopo}
