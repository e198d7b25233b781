"""The gNB switch's vectors (gnb_vectors.py) on its stand-in, gnb-switch, on DPDK pcap ports (no hugepages,
no root): every frame in, every frame out compared byte for byte per port, every drop counted by its reason.
bmv2 runs them once the program is compiled (docs/GNB.md, "Left")."""
import collections
import json
import os
import subprocess
from pathlib import Path

import pytest
from scapy.utils import rdpcap, wrpcap
from scapy.layers.l2 import Ether

import gnb_vectors as V
from hupf_tools.gnb import p4const as C
from hupf_tools.gnb.ran_control import ConfigError, compile_config

ROOT = Path(__file__).resolve().parents[2]
SWITCH = Path(os.environ.get("HUPF_GNB_SWITCH", ROOT / "gnb" / "build" / "gnb-switch"))
PORTS = 5
DROP_NAMES = {C.GNB_DROP_UNKNOWN_PORT: "unknown_port", C.GNB_DROP_PARSER_ERROR: "parser_error",
              C.GNB_DROP_NOT_GPDU: "not_gpdu", C.GNB_DROP_UNKNOWN_TEID: "unknown_teid",
              C.GNB_DROP_UNKNOWN_UE: "unknown_ue", C.GNB_DROP_NOT_AIR: "not_air",
              C.GNB_DROP_PDCP_CONTROL: "pdcp_control", C.GNB_DROP_BAD_SVC_OP: "bad_svc_op",
              C.GNB_DROP_NO_UE_CONTEXT: "no_ue_context"}


def run_switch(tmp_path, entries, inputs):
    """inputs: {port: [frame bytes]}; (JSON counters, {port: [frame bytes out]})."""
    if not SWITCH.exists():
        pytest.skip(f"no {SWITCH} (make -C gnb)")
    (tmp_path / "entries.txt").write_text("\n".join(entries) + "\n")
    vdevs = []
    for p in range(PORTS):
        wrpcap(str(tmp_path / f"in{p}.pcap"), [Ether(f) for f in inputs.get(p, [])])
        vdevs.append(f"--vdev=net_pcap{p},rx_pcap={tmp_path}/in{p}.pcap,tx_pcap={tmp_path}/out{p}.pcap")
    cmd = [str(SWITCH), "--no-huge", "-m", "128", "--no-pci", "--no-shconf", "-l", "0", "--log-level=lib.*:error",
           f"--file-prefix=gnbsw{os.getpid()}", *vdevs, "--", "--entries", str(tmp_path / "entries.txt"),
           "--packets", str(sum(len(v) for v in inputs.values()))]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout), {p: [bytes(f) for f in rdpcap(str(tmp_path / f"out{p}.pcap"))]
                                     for p in range(PORTS)}


def test_vectors_on_the_stand_in(tmp_path):
    vectors = V.vectors()
    inputs = collections.defaultdict(list)
    expected = collections.defaultdict(list)
    drops = collections.Counter()
    for v in vectors:
        inputs[v["port"]].append(v["frame"])
        for port, frame in v["out"]:
            expected[port].append(frame)
        if v["drop"]:
            drops[DROP_NAMES[v["drop"]]] += 1
        assert bool(v["out"]) != bool(v["drop"]), v["name"]
    stats, out = run_switch(tmp_path, V.ENTRIES, inputs)
    for port in range(PORTS):
        names = [v["name"] for v in vectors if any(p == port for p, _ in v["out"])]
        assert sorted(out[port]) == sorted(expected[port]), f"port {port}: {names}"
    assert {k: v for k, v in stats["drops"].items() if v} == dict(drops)
    assert stats["rx"] == len(vectors)
    assert stats["tx"] == sum(len(v["out"]) for v in vectors)
    assert (stats["tx_full"], stats["tx_no_port"], stats["copy_failed"]) == (0, 0, 0)
    for ue, counts in V.UE_COUNTS.items():
        got = stats["ues"][str(ue)]
        assert {k: got[k] for k in counts} == counts, ue


def test_sn_wraps_into_the_hfn(tmp_path):
    """4,097 PDUs of a 12-bit UE: COUNT goes on past 4,095 while the SN wraps to 0."""
    n = 4097
    stats, out = run_switch(tmp_path, V.ENTRIES, {V.N3: [V.n3_in(0x100)] * n})
    assert stats["ues"]["0"]["tx_next"] == n
    last = out[V.CRYPTO][-1]
    assert last[14:26] == bytes.fromhex("00000000") + (n - 1).to_bytes(4, "big") + bytes([1, 0, 0, 0])
    assert last[26:28] == bytes([0x80, 0x00])   # SN 4096 & 0xfff = 0


def test_entry_errors_name_the_line(tmp_path):
    for bad, reason in [("dl_ues set_dl_ue teid=1 ue=0", "missing field sn18"),
                        ("dl_ues set_dl_ue teid=1 ue=0 sn18=2", "sn18 is not a number of its width"),
                        ("air set_air ue=0 port=1 ue_mac=zz gnb_mac=02:00:00:00:00:01 lcid=4", "ue_mac"),
                        ("ul_tunnels drop ue=0", "no action drop"),
                        ("ports set_port_role port=1 role=1 extra=3", "no field extra"),
                        ("ul_ues set_ul_ue port=1 ue_mac=02:00:00:00:00:01 ue=5000 lcid=4", "out of range")]:
        (tmp_path / "e.txt").write_text("# comment\n" + bad + "\n")
        cmd = [str(SWITCH), "--no-huge", "-m", "64", "--no-pci", "--no-shconf", "-l", "0", "--log-level=lib.*:error",
               f"--file-prefix=gnbswe{os.getpid()}", "--", "--entries", str(tmp_path / "e.txt")]
        if not SWITCH.exists():
            pytest.skip(f"no {SWITCH} (make -C gnb)")
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert out.returncode == 1 and f"e.txt:2: " in out.stderr and reason in out.stderr, (bad, out.stderr)


def test_ran_control_refuses_bad_configs_without_keys():
    secret = "5e" * 16
    good = {"gnb": dict(V.CONFIG["gnb"]), "ues": [dict(V.UES[0], kUpEnc=secret)]}
    assert compile_config(good)[1] == [f"0 0 12 {secret} {'11' * 16}"]
    for change, reason in [({"snBits": 7}, "ues[0].snBits"), ({"kUpInt": secret[:-1]}, "ues[0].kUpInt"),
                           ({"port": V.CRYPTO}, "ues[0].port"), ({"lcid": 2}, "ues[0].lcid")]:
        cfg = {"gnb": good["gnb"], "ues": [dict(good["ues"][0], **change)]}
        with pytest.raises(ConfigError) as e:
            compile_config(cfg)
        assert reason in str(e.value) and secret[:8] not in str(e.value)
    twice = {"gnb": good["gnb"], "ues": [good["ues"][0], dict(good["ues"][0], ue=9)]}
    with pytest.raises(ConfigError, match=r"ues\[1\].dlTeid: given to another UE"):
        compile_config(twice)

