"""The gNB's user plane through its three stages on pcap ports, in both directions: gnb-switch (N3 and air in)
-> gnb-svc's crypto service -> gnb-switch (the services' frames in). What the UE gets deciphers, with the UE's
key through libcrypto (hupf_tools.gnb.nr_sec), to the user packet the UPF tunnelled; what the UE ciphered leaves
on N3 as the user packet in the UE's uplink tunnel."""
import json
import os
import subprocess

import pytest
from scapy.layers.l2 import Ether
from scapy.utils import rdpcap, wrpcap

import gnb_vectors as V
from test_gnb_switch import run_switch
from hupf_tools.gnb import frames as F
from hupf_tools.gnb import p4const as C
from hupf_tools.gnb.nr_sec import DOWNLINK, UPLINK, nea2
from hupf_tools.gnb.ran_control import compile_config
from test_gnb_svc import SVC


def run_svc(tmp_path, ue_lines, crypto_in):
    if not SVC.exists():
        pytest.skip(f"no {SVC} (make -C gnb)")
    (tmp_path / "ues.txt").write_text("\n".join(ue_lines) + "\n")
    wrpcap(str(tmp_path / "cin.pcap"), [Ether(f) for f in crypto_in])
    wrpcap(str(tmp_path / "bin.pcap"), [])
    cmd = [str(SVC), "--no-huge", "-m", "128", "--no-pci", "--no-shconf", "-l", "0", "--log-level=lib.*:error",
           f"--file-prefix=gnbchain{os.getpid()}",
           f"--vdev=net_pcap0,rx_pcap={tmp_path}/cin.pcap,tx_pcap={tmp_path}/cout.pcap",
           f"--vdev=net_pcap1,rx_pcap={tmp_path}/bin.pcap,tx_pcap={tmp_path}/bout.pcap",
           "--", "--crypto-port", "0", "--baas-port", "1", "--ues", str(tmp_path / "ues.txt"),
           "--packets", str(len(crypto_in))]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout), [bytes(p) for p in rdpcap(str(tmp_path / "cout.pcap"))]


def test_both_directions_through_switch_crypto_switch(tmp_path):
    entries, ue_lines = compile_config(V.CONFIG)
    ue0, ue1 = V.UES
    key1 = bytes.fromhex(ue1["kUpEnc"])
    dl = [V.n3_in(0x100), V.n3_in(0x101), V.n3_in(0x100)]
    ul_sdu = nea2(key1, 0, ue1["drb"] - 1, UPLINK, V.USER)   # UE 1 (no integrity), its first uplink COUNT
    ul = [F.air_frame(V.AIR_MAC, ue1["mac"], ue1["lcid"], F.pdcp_data(0, ul_sdu, 18))]

    (tmp_path / "a").mkdir()
    stats_a, out_a = run_switch(tmp_path / "a", entries, {V.N3: dl, V.AIR: ul})
    assert len(out_a[V.CRYPTO]) == 4 and not any(stats_a["drops"].values())
    svc_stats, protected = run_svc(tmp_path, ue_lines, out_a[V.CRYPTO])
    assert (svc_stats["crypto"]["protected"], svc_stats["crypto"]["unprotected"]) == (3, 1)
    (tmp_path / "b").mkdir()
    stats_b, out_b = run_switch(tmp_path / "b", entries, {V.CRYPTO: protected})

    # downlink: to the UE behind its MAC subheader, deciphered with its key = the user packet; BaaS holds a copy
    got = {}
    for frame in out_b[V.AIR]:
        dst, src, lcid, pdu = F.parse_air(frame)
        ue = next(u for u in V.UES if F.mac_bytes(u["mac"]) == dst)
        assert (src, lcid) == (F.mac_bytes(V.AIR_MAC), ue["lcid"])
        sn = F.pdcp_sn(pdu, ue["snBits"])
        hdr = 2 if ue["snBits"] == 12 else 3
        plain = nea2(bytes.fromhex(ue["kUpEnc"]), sn, ue["drb"] - 1, DOWNLINK, pdu[hdr:])
        mac_len = 4 if "kUpInt" in ue else 0    # NIA2's MAC-I, ciphered with the SDU (checked in test_crypto.c)
        assert plain[:len(plain) - mac_len] == V.USER
        got.setdefault(ue["ue"], []).append(sn)
    assert got == {0: [0, 1], 1: [0]}
    assert [f[14 + 8] for f in out_b[V.BAAS]] == [C.SVC_OP_BUFFER] * 3   # the service header's op
    # uplink: deciphered by the service, in UE 1's tunnel on N3
    assert out_b[V.N3] == [F.n3_frame(V.UPF_N3_MAC, V.GNB_N3_MAC, V.GNB_N3, V.UPF_N3, 0x201, V.USER, qfi=5,
                                      pdu_type=1)]
    assert not any(stats_b["drops"].values())
