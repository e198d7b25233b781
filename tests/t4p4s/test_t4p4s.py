"""hupf's sw profile on T4P4S (issue #36), the vectors whose outcome needs no table entry: p4src/t4p4s/hupf_sw.p4
compiled by T4P4S, run on two net_pcap ports with hupf-t4p4s as its controller (it writes nothing here), and each
packet accounted for in the switch's debug log: dropped by hupf's ingress with its drop reason, or by T4P4S's
parser; none leaves a port."""
import re

import pytest
from scapy.all import Ether, IP, UDP, Raw, rdpcap, wrpcap

import hupf_p4const as C
from packets import gpdu_header, gtpu, raw_gtpu, user_packet
from t4p4s_switch import Running, build_adapter, compile_switch

RUN_TIMEOUT_S = 120
N3 = "192.168.1.1"
GNB = "192.168.1.10"
# How a packet's end shows in T4P4S's debug log: hupf's ingress drops it (mark_to_drop) with a drop reason, or
# T4P4S's parser drops it itself (a header past the frame's end: on bmv2 the ingress counts it, DROP_MALFORMED_GTPU).
PARSER_DROP = "parser"


@pytest.fixture(scope="module")
def switch(tmp_path_factory):
    return compile_switch(), build_adapter(tmp_path_factory.mktemp("adapter"))


def vectors():
    """(name, frame, how it ends) for packets whose outcome needs no table entry: no interface, no route."""
    inner = user_packet("10.250.0.1", "8.8.8.8")
    return [
        ("uplink G-PDU, no interface or session", gtpu(inner, 0x1234, GNB, N3), C.DROP_ROUTING_MISS),
        ("GTP-U header cut short", raw_gtpu(gpdu_header(0x1234, 0)[:3], GNB, N3), PARSER_DROP),
        ("IPv4 with no route", Ether(src="00:00:00:00:00:01", dst="00:00:00:00:00:02")
         / IP(src="10.0.0.1", dst="10.9.9.9") / UDP(sport=1000, dport=2000) / Raw(b"x" * 32), C.DROP_ROUTING_MISS),
    ]


def ended(packet_log):
    return "Packet is set to be dropped" in packet_log or "Parsing failed, dropping packet" in packet_log


def outcome(packet_log):
    """hupf's drop reason for the packet, PARSER_DROP, or None (not dropped)."""
    if "Parsing failed, dropping packet" in packet_log:
        return PARSER_DROP
    if "Packet is set to be dropped" not in packet_log:
        return None
    reasons = re.findall(r"_drop_reason\d*/4B = (\d+)", packet_log)
    return int(reasons[-1]) if reasons else None


def test_t4p4s_takes_in_and_drops_every_vector(switch, tmp_path):
    executable, adapter = switch
    cases = vectors()
    rx0, rx1 = tmp_path / "rx0.pcap", tmp_path / "rx1.pcap"
    tx = [tmp_path / "tx0.pcap", tmp_path / "tx1.pcap"]
    wrpcap(str(rx0), [frame for _, frame, _ in cases])
    wrpcap(str(rx1), [])
    running = Running(executable, adapter, ["rx_pcap=%s,tx_pcap=%s" % (rx0, tx[0]),
                                            "rx_pcap=%s,tx_pcap=%s" % (rx1, tx[1])], tmp_path)
    try:
        running.wait(lambda: sum(map(ended, running.per_packet())) >= len(cases), "every packet to end")
        packets = running.per_packet()
    finally:
        running.close()
    sent = [rdpcap(str(p)) if p.exists() and p.stat().st_size > 0 else [] for p in tx]
    assert len(packets) == len(cases), "the switch took in %d of %d packets" % (len(packets), len(cases))
    for (name, _, expected), packet_log in zip(cases, packets):
        assert outcome(packet_log) == expected, "%s:\n%s" % (name, packet_log[-3000:])
    assert [len(s) for s in sent] == [0, 0], "sent on ports 0 and 1: %s" % [len(s) for s in sent]
