"""hupf's sw profile on T4P4S (issue #36): p4src/t4p4s/hupf_sw.p4 compiled by T4P4S into a DPDK switch, then run
on two net_pcap ports with the backend vectors it can run without table entries. T4P4S is not yet programmed by
hupf (no adapter between the contract's P4Runtime and T4P4S's controller protocol, docs/BACKENDS.md "T4P4S"), so
the vectors are those whose outcome needs no entry: each packet is dropped. The switch is built with T4P4S's
debug output, which logs every packet it takes in and drops: each is accounted for, and none leaves a port."""
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from scapy.all import Ether, IP, UDP, Raw, rdpcap, wrpcap

import hupf_p4const as C
from conftest import HOME
from packets import gpdu_header, gtpu, raw_gtpu, user_packet

REPO = Path(__file__).resolve().parents[2]
PROGRAM = REPO / "p4src" / "t4p4s" / "hupf_sw.p4"
# T4P4S names its build directory after the program and variant.
EXECUTABLE = HOME / "build" / "hupf_sw@std-v1model" / "build" / "hupf_sw" if HOME else None
# Its debug build (every packet logged); VETH_MODE: no RSS or checksum offload, which net_pcap lacks.
COMPILE_OPTS = ["arch=dpdk", "model=v1model", "variant=std", "^run", "dbg", "cflags+=-DT4P4S_VETH_MODE"]
COMPILE_TIMEOUT_S = 1200
# hupf's sw table sizes need about 1 GB of DPDK memory (T4P4S's LPM tables); no hugepages.
EAL_MEMORY_MB = 1024
RUN_TIMEOUT_S = 120
N3 = "192.168.1.1"
GNB = "192.168.1.10"


@pytest.fixture(scope="module")
def switch():
    """Compiles the program with T4P4S (its cache makes a repeat quick); the executable's path."""
    cmd = ". ./hupf-env.sh && nice -n 10 ./t4p4s.sh %s %s" % (PROGRAM, " ".join("'%s'" % o for o in COMPILE_OPTS))
    done = subprocess.run(["bash", "-c", cmd], cwd=HOME, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    assert done.returncode == 0, "T4P4S failed to compile %s:\n%s" % (PROGRAM, done.stdout[-4000:] + done.stderr[-2000:])
    assert EXECUTABLE.is_file()
    return EXECUTABLE


# How a packet's end shows in T4P4S's debug log: hupf's ingress drops it (mark_to_drop) with a drop reason, or
# T4P4S's parser drops it itself (a header past the frame's end: on bmv2 the ingress counts it, DROP_MALFORMED_GTPU).
PARSER_DROP = "parser"


def vectors():
    """(name, frame, how it ends) for packets whose outcome needs no table entry: no interface, no route."""
    inner = user_packet("10.250.0.1", "8.8.8.8")
    return [
        ("uplink G-PDU, no interface or session", gtpu(inner, 0x1234, GNB, N3), C.DROP_ROUTING_MISS),
        ("GTP-U header cut short", raw_gtpu(gpdu_header(0x1234, 0)[:3], GNB, N3), PARSER_DROP),
        ("IPv4 with no route", Ether(src="00:00:00:00:00:01", dst="00:00:00:00:00:02")
         / IP(src="10.0.0.1", dst="10.9.9.9") / UDP(sport=1000, dport=2000) / Raw(b"x" * 32), C.DROP_ROUTING_MISS),
    ]


def run_switch(executable, frames, work):
    """Runs the switch with frames on port 0 until its log shows every one ended; the log of each packet, in order,
    and the frames each port sent."""
    rx0, rx1 = work / "rx0.pcap", work / "rx1.pcap"
    tx = [work / "tx0.pcap", work / "tx1.pcap"]
    wrpcap(str(rx0), frames)
    wrpcap(str(rx1), [])
    log = work / "switch.log"
    prefix = "hupf-t4p4s-%d" % os.getpid()
    eal = ["-c", "0x1", "-n", "1", "--no-huge", "-m", str(EAL_MEMORY_MB), "--no-pci", "--file-prefix", prefix,
           "--vdev", "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (rx0, tx[0]),
           "--vdev", "net_pcap1,rx_pcap=%s,tx_pcap=%s" % (rx1, tx[1])]
    with open(log, "w") as out:
        proc = subprocess.Popen([str(executable)] + eal + ["--", "-p", "0x3", "--config", "(0,0,0),(1,0,0)"],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while time.monotonic() < deadline and proc.poll() is None:
            if sum(map(ended, per_packet(log))) >= len(frames):
                break
            time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        # DPDK's runtime directory of this run (EAL leaves it behind).
        shutil.rmtree(Path("/var/run/dpdk") / prefix, ignore_errors=True)
    sent = [rdpcap(str(p)) if p.exists() and p.stat().st_size > 0 else [] for p in tx]
    return per_packet(log), sent


def per_packet(log):
    """The debug log cut at each "Handling packet" line (T4P4S's colours removed)."""
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", log.read_text(errors="replace"))
    return text.split("Handling packet ")[1:]


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
    cases = vectors()
    packets, sent = run_switch(switch, [frame for _, frame, _ in cases], tmp_path)
    assert len(packets) == len(cases), "the switch took in %d of %d packets" % (len(packets), len(cases))
    for (name, _, expected), packet_log in zip(cases, packets):
        assert outcome(packet_log) == expected, "%s:\n%s" % (name, packet_log[-3000:])
    assert [len(s) for s in sent] == [0, 0], "sent on ports 0 and 1: %s" % [len(s) for s in sent]
