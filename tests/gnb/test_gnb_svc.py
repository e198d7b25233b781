"""gnb-svc end to end on DPDK pcap ports (no hugepages): frames in from a pcap file per service, out to
another; its JSON counters on exit. The crypto itself is checked against TS 33.401's vectors in
gnb/tests/test_crypto.c; here the binary's plumbing: ports, UE file, both services, counted drops."""
import json
import os
import struct
import subprocess
from pathlib import Path

import pytest
from scapy.layers.l2 import Ether
from scapy.utils import rdpcap, wrpcap

ROOT = Path(__file__).resolve().parents[2]
SVC = Path(os.environ.get("HUPF_GNB_SVC", ROOT / "gnb" / "build" / "gnb-svc"))
ETHERTYPE = 0x88B5
DL_PROTECT, UL_UNPROTECT, BUFFER, STATUS, RETX = 1, 2, 3, 4, 5


def frame(ue, count, op, pdu):
    return Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01", type=ETHERTYPE) / (
        struct.pack("!IIB3x", ue, count, op) + pdu)


def svc_fields(pkt):
    raw = bytes(pkt)[14:]
    ue, count, op = struct.unpack("!IIB", raw[:9])
    return ue, count, op, raw[12:]


def data_pdu_12(count, sdu):
    return struct.pack("!H", 0x8000 | (count & 0xFFF)) + sdu


def run_svc(tmp_path, crypto_in, baas_in):
    if not SVC.exists():
        pytest.skip(f"no {SVC} (make -C gnb)")
    ues = tmp_path / "ues.txt"
    ues.write_text("# UE BEARER SN_BITS K_UPenc [K_UPint]\n"
                   "1 4 12 000102030405060708090a0b0c0d0e0f 0f0e0d0c0b0a09080706050403020100\n"
                   "2 0 12 00112233445566778899aabbccddeeff\n")
    files = {name: tmp_path / f"{name}.pcap" for name in ("cin", "cout", "bin", "bout")}
    wrpcap(str(files["cin"]), crypto_in)
    wrpcap(str(files["bin"]), baas_in)
    cmd = [str(SVC), "--no-huge", "-m", "128", "--no-pci", "--no-shconf", "-l", "0", "--log-level=lib.*:error",
           f"--file-prefix=gnbsvc{os.getpid()}",
           f"--vdev=net_pcap0,rx_pcap={files['cin']},tx_pcap={files['cout']}",
           f"--vdev=net_pcap1,rx_pcap={files['bin']},tx_pcap={files['bout']}",
           "--", "--crypto-port", "0", "--baas-port", "1", "--ues", str(ues),
           "--timeout-ms", "600000", "--packets", str(len(crypto_in) + len(baas_in))]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "0f0e0d0c" not in out.stdout + out.stderr and "00112233" not in out.stdout + out.stderr  # keys never printed
    return json.loads(out.stdout), rdpcap(str(files["cout"])), rdpcap(str(files["bout"]))


def test_both_services_through_ports(tmp_path):
    sdu = bytes(range(64))
    crypto_in = [
        frame(2, 7, DL_PROTECT, data_pdu_12(7, sdu)),        # no integrity: same length, ciphered
        frame(1, 8, DL_PROTECT, data_pdu_12(8, sdu)),        # integrity: MAC-I appended, ciphered
        frame(3, 1, DL_PROTECT, data_pdu_12(1, sdu)),        # no UE 3
        frame(1, 9, DL_PROTECT, data_pdu_12(10, sdu)),       # SN is not COUNT's
        frame(1, 0, UL_UNPROTECT, data_pdu_12(0, sdu)),      # no valid MAC-I
        Ether(type=0x0800) / bytes(40),                     # not ours
    ]
    baas_in = [frame(1, c, BUFFER, data_pdu_12(c, sdu)) for c in range(4)]
    # Status report: FMC 1 (0 acknowledged), bitmap from COUNT 2: 0100 0000 (2 missing, 3 received).
    baas_in.append(frame(1, 0, STATUS, struct.pack("!BIB", 0, 1, 0x40)))
    baas_in.append(frame(1, 0, STATUS, b"\x00\x00"))         # truncated status report

    stats, cout, bout = run_svc(tmp_path, crypto_in, baas_in)

    c = stats["crypto"]
    assert (c["protected"], c["unprotected"], c["rx"]) == (2, 0, 6)
    assert {k: v for k, v in c["drops"].items() if v} == {"no_ue": 1, "sn_mismatch": 1, "mac_failed": 1,
                                                          "malformed": 1}
    assert len(cout) == 2
    (ue_a, count_a, _, pdu_a), (ue_b, count_b, _, pdu_b) = map(svc_fields, cout)
    assert (ue_a, count_a, len(pdu_a)) == (2, 7, 2 + len(sdu))
    assert pdu_a[:2] == data_pdu_12(7, b"") and pdu_a[2:] != sdu
    assert (ue_b, count_b, len(pdu_b)) == (1, 8, 2 + len(sdu) + 4)
    assert pdu_b[:2] == data_pdu_12(8, b"") and pdu_b[2:2 + len(sdu)] != sdu

    b = stats["baas"]
    assert (b["held"], b["acked"], b["status_reports"], b["retx_status"]) == (4, 2, 1, 2)
    assert (b["held_pdus"], b["drops"]["bad_status"]) == (2, 1)
    resent = sorted(svc_fields(p)[1:3] for p in bout)
    assert resent == [(1, RETX), (2, RETX)]
