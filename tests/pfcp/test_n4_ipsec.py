"""N4 over IPsec (issue #34; TS 33.501 §9.9): the SMF and hupf's standalone host in network namespaces of their
own, N4 carried by an IKEv2/ESP tunnel (strongSwan, tools/hupf_tools/n4ipsec.py), a third namespace for a blind
spoofer that knows everything but the tunnel's keys: the SMF's N4 address and port, the session's SEID.

What is asserted: the SMF's requests really travel in ESP (the tunnel's packet counts grow with them); a spoofed
Heartbeat Request announcing an SMF restart and a spoofed Session Deletion with the right SEID, each in the SMF's
exact name, never reach hupf: the kernel counts one reverse-path drop per datagram, hupf's PFCP counters do not
move, the session is still there and still served. Without the tunnel the same deletion is accepted (the address
check alone is what tests/pfcp/test_hijack.py shows the limits of).
"""
import os
import sys
import tempfile
import time

import pytest
from scapy.all import IP, UDP, conf, send
from scapy.contrib import pfcp as P

from conftest import ROOT, start_upf, stop_upf
from smf import Smf, cause, ie

sys.path.insert(0, os.path.join(ROOT, "tools"))
from hupf_tools import n4ipsec  # noqa: E402
from hupf_tools.n4ipsec import N4Tunnel, Side, inside, reverse_path_drops, sh  # noqa: E402

SMF = Side("hupf-n4-smf", "172.31.40.1", "10.240.0.1", "smf.n4")
UPF = Side("hupf-n4-upf", "172.31.40.2", "10.240.0.2", "upf.n4")
SPOOFER = "hupf-n4-spoofer"
SPOOFER_LINK = ("172.31.41.1", "172.31.41.2")   # spoofer, UPF
UE = "10.250.7.1"
GNB = "192.168.1.10"


def _skip_reason():
    if os.geteuid() != 0:
        return "needs root (network namespaces, strongSwan)"
    return n4ipsec.available()


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason="N4 over IPsec: %s" % _skip_reason())


def _namespaces():
    for ns in (SMF.netns, UPF.netns, SPOOFER):
        sh("ip", "netns", "del", ns, check=False)
        sh("ip", "netns", "add", ns)
        sh("ip", "-n", ns, "link", "set", "lo", "up")
    sh("ip", "link", "add", "hupf-n4s", "netns", SMF.netns, "type", "veth", "peer", "name", "hupf-n4u",
       "netns", UPF.netns)
    sh("ip", "link", "add", "hupf-n4a", "netns", SPOOFER, "type", "veth", "peer", "name", "hupf-n4x",
       "netns", UPF.netns)
    for ns, dev, addr in ((SMF.netns, "hupf-n4s", SMF.outer), (UPF.netns, "hupf-n4u", UPF.outer),
                          (SPOOFER, "hupf-n4a", SPOOFER_LINK[0]), (UPF.netns, "hupf-n4x", SPOOFER_LINK[1])):
        sh("ip", "-n", ns, "addr", "add", addr + "/24", "dev", dev)
        sh("ip", "-n", ns, "link", "set", dev, "up")
    for side in (SMF, UPF):
        sh("ip", "-n", side.netns, "addr", "add", side.n4 + "/32", "dev", "lo")
    # The spoofer reaches hupf's N4 address through the UPF namespace as any router on the path would.
    sh("ip", "-n", SPOOFER, "route", "add", "default", "via", SPOOFER_LINK[1])


@pytest.fixture(scope="module")
def n4():
    """The three namespaces, the tunnel up, hupf listening on its N4 address, allowing the SMF's only."""
    _namespaces()
    tunnel = N4Tunnel(tempfile.mkdtemp(prefix="hupf-n4-ipsec-"), SMF, UPF)
    upf = None
    try:
        tunnel.start()
        upf = start_upf("--listen", UPF.n4, "--port", "8805", "--allow", SMF.n4, "--node-id", UPF.n4,
                        "--report-tick-ms", "200", prefix=("ip", "netns", "exec", UPF.netns), host=UPF.n4)
        yield tunnel, upf
    finally:
        if upf is not None:
            stop_upf(upf)
        tunnel.stop()
        for ns in (SMF.netns, UPF.netns, SPOOFER):
            sh("ip", "netns", "del", ns, check=False)


@pytest.fixture
def smf(n4):
    """The SMF, associated through the tunnel, holding one session."""
    _, upf = n4
    with inside(SMF.netns):
        s = Smf(upf.addr, node_id=SMF.n4, bind=SMF.n4)
    assert cause(s.request(s.association_setup())[0]) == 1
    resp, _ = s.request(s.establishment(4711, UE))
    assert cause(resp) == 1
    s.up_seid = ie(resp, P.IE_FSEID).seid
    yield s
    s.request(s.release())
    s.close()


def hupf_view(upf):
    """What a spoofed datagram must not change: hupf's sessions and every PFCP counter it keeps."""
    with inside(UPF.netns):
        return upf.get("/sessions"), upf.pfcp_stats()


def spoof(smf, pfcp):
    """One datagram in the SMF's exact name (N4 address and port) to hupf's N4 address, from the spoofer's
    namespace: plaintext, since the spoofer has no keys."""
    port = smf.sock.getsockname()[1]
    conf.verb = 0
    with inside(SPOOFER):
        send(IP(src=SMF.n4, dst=UPF.n4) / UDP(sport=port, dport=8805) / pfcp, iface="hupf-n4a")


def wait_for(condition, what, timeout=30):
    deadline = time.time() + timeout
    while not condition():
        assert time.time() < deadline, "not after %ds: %s" % (timeout, what)
        time.sleep(0.05)


def test_the_smfs_requests_travel_in_esp(n4, smf):
    tunnel, _ = n4
    before = tunnel.esp_packets()
    assert smf.request(smf.heartbeat())[0].message_type == 2
    after = tunnel.esp_packets()
    assert after["in"] > before["in"] and after["out"] > before["out"]


def test_a_spoofed_restart_heartbeat_and_deletion_never_reach_hupf(n4, smf):
    tunnel, upf = n4
    before, drops = hupf_view(upf), reverse_path_drops(UPF.netns)
    heartbeat = P.PFCP(version=1, S=0, seq=77, message_type=1) / P.PFCPHeartbeatRequest(
        IE_list=[P.IE_RecoveryTimeStamp(timestamp=smf.recovery + 1000)])
    deletion = P.PFCP(version=1, S=1, seid=smf.up_seid, seq=78, message_type=54) / P.PFCPSessionDeletionRequest()
    spoof(smf, heartbeat)
    spoof(smf, deletion)
    wait_for(lambda: reverse_path_drops(UPF.netns) >= drops + 2, "the kernel dropped both spoofed datagrams")
    # A round trip of the SMF's after the drops: anything that had reached hupf would have been handled by now.
    assert smf.request(smf.heartbeat())[0].message_type == 2
    sessions, stats = hupf_view(upf)
    assert sessions == before[0]
    assert stats["rx"] == before[1]["rx"] + 1   # the SMF's own heartbeat: nothing else reached the agent
    for counter in ("peer_restart", "peer_restart_unconfirmed", "reject.not_peer", "reject.header"):
        assert stats.get(counter, 0) == before[1].get(counter, 0), counter
    assert cause(smf.request(smf.modify_to_forward(smf.up_seid, GNB, 0x99))[0]) == 1
    assert cause(smf.request(smf.deletion(smf.up_seid))[0]) == 1
