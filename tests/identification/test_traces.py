"""Trace generator and pcap I/O: determinism, documented class envelopes, capture round trips."""
import struct

import numpy as np
import pytest
from scapy.all import IP, TCP, UDP, Ether, rdpcap, wrpcap
from scapy.contrib.gtp import GTP_U_Header, GTPPDUSessionContainer

from hupf_tools import pcapio, traces


def test_same_seed_same_trace_other_seed_other_trace():
    a, b, c = (traces.generate(s, flows_per_class=2, duration_s=2) for s in (7, 7, 8))
    for field in ("ts_us", "size", "uplink", "flow"):
        assert np.array_equal(getattr(a, field), getattr(b, field))
    assert a.flows == b.flows and a.labels == b.labels
    assert len(a) != len(c) or not np.array_equal(a.ts_us, c.ts_us)


@pytest.mark.parametrize("cls", traces.CLASSES)
def test_flows_stay_within_documented_envelope(cls):
    p = traces.PROFILES[cls]
    trace = traces.generate(11, flows_per_class=6, duration_s=10, classes=(cls,))
    assert np.all(np.diff(trace.ts_us) >= 0)
    for f, key in enumerate(trace.flows):
        assert (key.proto, key.app_port) == (p.proto, p.app_port)
        s = traces.flow_stats(trace, f)
        assert p.dn_mbps[0] <= s["dn_mbps"] <= p.dn_mbps[1], s
        assert p.up_mbps[0] <= s["up_mbps"] <= p.up_mbps[1], s
        dn = trace.size[(trace.flow == f) & ~trace.uplink]
        assert p.dn_size[0] <= np.median(dn) <= p.dn_size[1], s


def test_cloud_gaming_uplink_is_small_and_periodic():
    trace = traces.generate(3, flows_per_class=4, duration_s=5, classes=("cloud_gaming",))
    for f in range(len(trace.flows)):
        m = (trace.flow == f) & trace.uplink
        gaps = np.diff(trace.ts_us[m])
        assert trace.size[m].max() <= 180
        # Controller input at a steady rate: gaps within 25% of their median.
        assert np.percentile(np.abs(gaps - np.median(gaps)), 95) <= 0.25 * np.median(gaps)


def test_unknown_class_is_refused():
    with pytest.raises(ValueError, match="unknown classes"):
        traces.generate(1, classes=("telepathy",))


@pytest.mark.parametrize("gtpu", [False, True])
def test_pcap_round_trip(tmp_path, gtpu):
    trace = traces.generate(5, flows_per_class=1, duration_s=0.5)
    path = tmp_path / "t.pcap"
    pcapio.write_pcap(trace, path, gtpu=gtpu)
    back, skipped = pcapio.read_pcap(path, "10.0.0.0/8", label="x")
    assert skipped == {}
    assert np.array_equal(back.ts_us - back.ts_us[0], trace.ts_us - trace.ts_us[0])
    assert np.array_equal(back.size, trace.size) and np.array_equal(back.uplink, trace.uplink)
    assert [back.flows[i] for i in back.flow] == [trace.flows[i] for i in trace.flow]
    assert set(back.labels) == {"x"}


def test_written_packets_have_valid_headers_and_checksums(tmp_path):
    trace = traces.generate(2, flows_per_class=1, duration_s=0.2)
    path = tmp_path / "t.pcap"
    pcapio.write_pcap(trace, path, gtpu=True)
    frames = rdpcap(str(path))
    assert len(frames) == len(trace)
    saw_gtp = False
    for frame, size, up in zip(frames, trace.size, trace.uplink):
        user = frame[GTP_U_Header][IP] if up else frame[IP]
        saw_gtp |= bool(up)
        assert user.len == size
        rebuilt = Ether(bytes(frame))
        for layer in rebuilt.iterpayloads():
            if isinstance(layer, (IP, TCP)) or (isinstance(layer, UDP) and layer.chksum):
                del layer.chksum
        assert bytes(rebuilt) == bytes(frame)
    assert saw_gtp


def test_capture_skips_are_counted_by_reason(tmp_path):
    ue, app = "10.1.2.3", "203.0.113.9"
    frames = [
        Ether() / IP(src=ue, dst=app) / UDP(sport=1000, dport=2000) / (b"x" * 10),
        Ether() / IP(src="192.0.2.2", dst="192.0.2.1") / UDP(sport=2152, dport=2152)
        / GTP_U_Header(gtp_type=255, teid=1) / IP(src=ue, dst=app) / TCP(sport=1, dport=443),
        Ether() / IP(src="192.0.2.2", dst="192.0.2.1") / UDP(sport=2152, dport=2152) / b"\x30\xff",
        Ether() / IP(src="192.0.2.2", dst="192.0.2.1") / UDP(sport=2152, dport=2152)
        / GTP_U_Header(gtp_type=1, teid=0),
        Ether(type=0x86DD) / (b"\x60" + b"\0" * 39),
        Ether() / IP(src="192.0.2.2", dst="192.0.2.1") / UDP(sport=2152, dport=2152)
        / GTP_U_Header(gtp_type=255, teid=1) / (b"\x00" * 20),
        Ether() / IP(src="192.0.2.2", dst="192.0.2.1") / UDP(sport=2152, dport=2152)
        / GTP_U_Header(gtp_type=255, teid=1, E=1, next_ex=0x85) / GTPPDUSessionContainer(type=1, QFI=9)
        / IP(src=ue, dst=app) / UDP(sport=7, dport=8),
        Ether() / IP(src=app, dst="198.51.100.1") / UDP(),
    ]
    for i, f in enumerate(frames):
        f.time = 100 + i
    path = tmp_path / "mixed.pcap"
    wrpcap(str(path), frames)
    trace, skipped = pcapio.read_pcap(path, "10.0.0.0/8")
    assert skipped == {"malformed GTP-U": 1, "GTP-U signalling (not a G-PDU)": 1, "not IPv4": 1,
                       "G-PDU without inner IPv4": 1, "no single UE side in 10.0.0.0/8": 1}
    assert list(trace.uplink) == [True, True, True]
    assert [(k.ue_port, k.app_port, k.proto) for k in trace.flows] == [(1000, 2000, 17), (1, 443, 6), (7, 8, 17)]
    assert list(trace.ts_us - trace.ts_us[0]) == [0, 1_000_000, 6_000_000]


def test_downlink_orientation_and_vlan(tmp_path):
    from scapy.all import Dot1Q
    f = Ether() / Dot1Q(vlan=5) / IP(src="203.0.113.9", dst="10.0.0.7") / UDP(sport=443, dport=5555)
    wrpcap(str(tmp_path / "v.pcap"), [f])
    trace, _ = pcapio.read_pcap(tmp_path / "v.pcap", "10.0.0.0/24")
    k = trace.flows[0]
    assert not trace.uplink[0]
    assert (k.ue_addr, k.ue_port, k.app_port) == (0x0A000007, 5555, 443)


def test_not_a_capture_is_a_precise_error(tmp_path):
    bad = tmp_path / "bad.pcap"
    bad.write_bytes(struct.pack("<I", 0xDEADBEEF) + b"\0" * 20)
    with pytest.raises(ValueError, match="not a readable pcap"):
        pcapio.read_pcap(bad, "10.0.0.0/8")


def test_raw_ip_captures_and_ipv6_skips(tmp_path):
    from scapy.all import IPv6
    from scapy.utils import PcapWriter
    with PcapWriter(str(tmp_path / "raw.pcap"), linktype=101) as w:
        w.write(IP(src="10.0.0.9", dst="203.0.113.1") / TCP(sport=5, dport=443))
        w.write(IPv6() / UDP())
    trace, skipped = pcapio.read_pcap(tmp_path / "raw.pcap", "10.0.0.0/8")
    assert len(trace) == 1 and trace.uplink[0] and skipped == {"not IPv4": 1}
