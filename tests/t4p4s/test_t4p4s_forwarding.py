"""hupf's sw profile on T4P4S, programmed by hupf (issue #36): the contract's P4Runtime writes of a UPF with one
session (tests/lib/upf_setup.py, as every backend test writes them) go to hupf-t4p4s, which gives them to the
switch over T4P4S's controller protocol; then a GTP-U uplink frame must leave decapsulated on the core port and a
downlink frame encapsulated on the access port, each with the route's MACs. The switch's ports are veths (DPDK
net_pcap on live interfaces), the test's ends in a private namespace. Every frame the test sends is accounted
for: markers until the last entry is in, then each case's frame out of the port it must leave, and nothing else."""
import os

import pytest
from scapy.contrib.gtp import GTP_U_Header
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

import dataplane
import hupf_p4const as C
import targets as T
import upf_setup as U
from p4rt import Client
from packets import gtpu, user_packet
from t4p4s_switch import Running, build_adapter, compile_switch, port_vdevs

UE = U.Ue("172.16.0.1", teid_ul=0x11223344, teid_dl=0x55667788, ctr=10)
APP = "8.8.8.8"
MARKER = "192.0.2.2"   # routed to the core port last: once a marker leaves there, every entry is in
MARKER_TRIES = 100
RECV_TIMEOUT_S = 5.0


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    work = tmp_path_factory.mktemp("t4p4s")
    executable = compile_switch()
    adapter = build_adapter(work)
    bed = dataplane.TestBed(2, tag="t4s%d" % (os.getpid() % 10000))
    running = None
    try:
        running = Running(executable, adapter, port_vdevs(bed, work), work)
        client = Client(running.grpc_addr, timeout=20)
        client.set_pipeline(T.artifacts("sw")[0])
        yield running, client, bed
        client.close()
    finally:
        if running is not None:
            running.close()
        bed.close()


def program(client, bed):
    U.base(client)
    U.session(client, UE)
    U.route(client, MARKER, 32, U.PORT_CORE, U.DN_MAC)
    marker = Ether(src=U.GNB_MAC, dst=U.SWITCH_MAC) / IP(src="192.0.2.1", dst=MARKER, ttl=64) / UDP(
        sport=1, dport=9) / (b"m" * 18)
    for tries in range(1, MARKER_TRIES + 1):
        bed.send(U.PORT_ACCESS, marker)
        if bed.recv(U.PORT_CORE, 0.5, is_marker) is not None:
            return tries
    raise AssertionError("no marker left the core port after %d tries" % MARKER_TRIES)


def is_marker(frame):
    return IP in Ether(frame) and Ether(frame)[IP].dst == MARKER


def header_checksum_ok(ip):
    """The IPv4 header's one's complement sum is all ones."""
    hdr = bytes(ip)[:ip.ihl * 4]
    total = sum(int.from_bytes(hdr[i:i + 2], "big") for i in range(0, len(hdr), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return total == 0xFFFF


@pytest.fixture(scope="module")
def forwarded(device):
    """The session programmed, one uplink and one downlink frame sent: (uplink frame out, downlink frame out, the
    user packets sent up and down, what else left the ports)."""
    running, client, bed = device
    program(client, bed)
    inner = user_packet(UE.addr, APP, sport=4000, dport=80)
    bed.send(U.PORT_ACCESS, gtpu(inner, UE.teid_ul, U.GNB_ADDR, U.N3_ADDR, eth_src=U.GNB_MAC, eth_dst=U.SWITCH_MAC))
    # A marker sent before the one that came out may still come out first (one port's packets keep their order).
    up = bed.recv(U.PORT_CORE, RECV_TIMEOUT_S, lambda f: not is_marker(f))
    assert up is not None, "uplink: nothing left the core port\n%s" % running.per_packet()[-1][-3000:]
    down_in = user_packet(APP, UE.addr, sport=80, dport=4000)
    bed.send(U.PORT_CORE, Ether(src=U.DN_MAC, dst=U.SWITCH_MAC) / down_in)
    down = bed.recv(U.PORT_ACCESS, RECV_TIMEOUT_S)
    assert down is not None, "downlink: nothing left the access port\n%s" % running.per_packet()[-1][-3000:]
    others = bed.recv_all(U.PORT_CORE, 1.0, lambda f: not is_marker(f)) + bed.recv_all(U.PORT_ACCESS, 1.0)
    return Ether(up), Ether(down), inner, down_in, others


def test_t4p4s_programmed_over_p4runtime_forwards_a_session(forwarded):
    up, down, inner, down_in, others = forwarded
    # Uplink: decapsulated, routed to the data network with the route's MACs, TTL down by one.
    assert (up.src, up.dst) == (U.SWITCH_MAC, U.DN_MAC)
    assert (up[IP].src, up[IP].dst, up[IP].ttl) == (UE.addr, APP, inner.ttl - 1)
    assert bytes(up[IP].payload).hex() == bytes(inner.payload).hex(), bytes(up).hex()
    # Downlink: encapsulated towards the gNB with the session's TEID, from the N3 address.
    assert (down.src, down.dst) == (U.SWITCH_MAC, U.GNB_MAC)
    assert (down[IP].src, down[IP].dst) == (U.N3_ADDR, U.GNB_ADDR)
    assert (down[UDP].sport, down[UDP].dport) == (U.TUN_SPORT, 2152)
    gtp = down[GTP_U_Header]
    assert (gtp.gtp_type, gtp.teid) == (255, UE.teid_dl)
    user = IP(bytes(gtp.payload))
    assert (user.src, user.dst, user.ttl) == (APP, UE.addr, down_in.ttl - 1)
    assert bytes(user.payload) == bytes(down_in.payload)
    assert others == [], "other frames out: %s" % [bytes(f).hex() for f in others]


def test_t4p4s_ipv4_checksums(forwarded):
    up, down, _, _, _ = forwarded
    assert header_checksum_ok(up[IP]), "uplink IPv4 checksum %#06x" % up[IP].chksum
    assert header_checksum_ok(down[IP]), "outer IPv4 checksum %#06x" % down[IP].chksum
    assert header_checksum_ok(IP(bytes(down[GTP_U_Header].payload)))


def test_t4p4s_counts_each_termination_as_hupf_backend_reads_them(device, forwarded):
    """The session's counter cells read over P4Runtime (hupf-t4p4s asks the switch): the uplink termination's cell
    counted the G-PDU, the downlink's the downlink packet, each one packet of the frame's length before and
    after QoS; the markers (routed, no session) counted nowhere."""
    _, client, _ = device
    up, down, inner, down_in, _ = forwarded
    gpdu_len = len(Ether() / IP() / UDP() / GTP_U_Header()) + len(inner)
    for name in (C.HUPF_INGRESS_UPF_PRE_QOS_COUNTER, C.HUPF_EGRESS_UPF_POST_QOS_COUNTER):
        assert client.counter(name, UE.ctr) == (1, gpdu_len), name
        assert client.counter(name, UE.ctr + 1) == (1, len(Ether() / down_in)), name
        assert client.counter(name, UE.ctr + 2) == (0, 0), name
