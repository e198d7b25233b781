"""ONOS and hupf program a gNB switch (docs/GNB.md, "Control from ONOS"): bmv2 with no program on the PTF test bed
(tests/lib/dataplane.py; root), a netcfg with the device on the org.hupf.gnb.bmv2 pipeconf and hupf's gNB block (the
gNB vectors' site and UEs, tests/gnb/gnb_vectors.py, without keys); ONOS pushes the program, hupf's GnbComponent
writes the entries and the BaaS clone session; the vectors that leave the switch come out byte for byte, nothing
else does. Then the block goes and so do the entries: a downlink frame no longer leaves. Skipped (conftest's one
line) without bmv2 or root."""
import contextlib
import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

import dataplane
import onos_ready
from conftest import BMV2, DEVICE_TIMEOUT_S, GNB_WHY, free_port

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gnb"))
import gnb_vectors as V  # noqa: E402  (the gNB vectors of tests/gnb)

pytestmark = pytest.mark.skipif(GNB_WHY is not None, reason="missing %s" % GNB_WHY)

DEVICE = "device:gnb:g1"
PORTS = 5
FRAME_TIMEOUT_S = 10
QUIET_S = 0.5
KEYS = ("kUpEnc", "kUpInt")
# 4 port roles, the services' default action, 4 per UE
ENTRIES = 4 + 1 + 4 * len(V.UES)


def gnb_netcfg(grpc_addr):
    ues = [{k: v for k, v in u.items() if k not in KEYS} for u in V.UES]
    return {"devices": {DEVICE: {"basic": {"managementAddress": "grpc://%s?device_id=1" % grpc_addr,
                                           "driver": "bmv2", "pipeconf": "org.hupf.gnb.bmv2"}}},
            "apps": {"org.hupf.app": {"gnb": {"gnbs": [{"deviceId": DEVICE, "gnb": V.CONFIG["gnb"], "ues": ues}]}}}}


@contextlib.contextmanager
def gnb_bmv2(onos, log_dir):
    """bmv2 without a program: vector port p is bmv2 port p on the test bed's port p + 1. On the way out, the
    gNB's netcfg and device leave ONOS."""
    bed = dataplane.TestBed(PORTS, tag="og%d" % (os.getpid() % 100000))
    addr = "127.0.0.1:%d" % free_port()
    cmd = [BMV2, "--device-id", "1", "--no-p4"]
    for p in range(PORTS):
        cmd += ["-i", "%d@%s" % (p, bed.switch_ifname(p + 1))]
    log = Path(log_dir) / "bmv2-gnb.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd + ["--", "--grpc-server-addr", addr], stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        yield {"bed": bed, "addr": addr, "log": log}
    finally:
        onos.rest("DELETE", "/onos/v1/network/configuration/apps/org.hupf.app/gnb")
        onos.rest("DELETE", "/onos/v1/network/configuration/devices/%s" % DEVICE)
        onos.rest("DELETE", "/onos/v1/devices/%s" % DEVICE)
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        bed.close()


@pytest.fixture
def gnb_switch(onos, tmp_path):
    with gnb_bmv2(onos, tmp_path) as sw:
        yield sw


def program(onos, gnb):
    """Posts the gNB's netcfg; returns once ONOS holds hupf's rules and clone group on it, ADDED."""
    status, body = onos.rest("POST", "/onos/v1/network/configuration", gnb_netcfg(gnb["addr"]))
    assert status == 200, "netcfg refused: %s %s" % (status, body)
    onos.wait_ready(lambda: onos_ready.settled(onos, programmed), DEVICE_TIMEOUT_S, "hupf's gNB entries on %s" % DEVICE)


def no_frame_leaves(bed, frame):
    """A downlink G-PDU into the N3 port leaves no port (the switch has no entry for it)."""
    bed.send(V.N3 + 1, frame)
    for port in range(PORTS):
        extra = bed.recv(port + 1, QUIET_S)
        assert extra is None, "a frame left port %d: %s" % (port, extra.hex())


def clone_sessions(addr):
    """The gNB switch's clone sessions, read over P4Runtime (a Read needs no arbitration: ONOS stays primary)."""
    channel = grpc.insecure_channel(addr)
    try:
        req = p4runtime_pb2.ReadRequest(device_id=1)
        req.entities.add().packet_replication_engine_entry.clone_session_entry.session_id = 0  # every session
        stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
        return [e.packet_replication_engine_entry.clone_session_entry for resp in stub.Read(req, timeout=30)
                for e in resp.entities]
    finally:
        channel.close()


def gnb_state(onos):
    """(flow states, group states) of hupf's rules and groups on the gNB device, as ONOS's stores have them."""
    _, flows = onos.rest("GET", "/onos/v1/flows/%s" % DEVICE)
    _, groups = onos.rest("GET", "/onos/v1/groups/%s" % DEVICE)
    return ([f["state"] for f in (flows or {}).get("flows", []) if f.get("appId") == "org.hupf.app"],
            [g["state"] for g in (groups or {}).get("groups", []) if g.get("appId") == "org.hupf.app"])


def programmed(onos):
    status, dev = onos.rest("GET", "/onos/v1/devices/%s" % DEVICE)
    if status != 200 or not dev.get("available"):
        return "device %s available in ONOS (%s %s)" % (DEVICE, status, str(dev)[:200])
    flows, groups = gnb_state(onos)
    if flows.count("ADDED") == ENTRIES and groups == ["ADDED"]:
        return None
    return "hupf's gNB rules %s, groups %s" % (sorted(flows), groups)


def cleared(onos):
    flows, groups = gnb_state(onos)
    return None if not flows and not groups else "hupf's gNB rules %s, groups %s left" % (flows, groups)


def test_hupf_programs_the_gnb_from_netcfg_and_removes_it(onos, gnb_switch):
    bed = gnb_switch["bed"]
    program(onos, gnb_switch)
    assert len(clone_sessions(gnb_switch["addr"])) == 1, "the BaaS clone session on the switch"

    sent = 0
    for v in V.vectors():
        if not v["out"]:
            continue
        bed.send(v["port"] + 1, v["frame"])
        sent += 1
        for port, frame in sorted(v["out"], key=lambda o: o[0]):
            got = bed.recv(port + 1, FRAME_TIMEOUT_S)
            assert got is not None, "%s: nothing on port %d (log %s)" % (v["name"], port, gnb_switch["log"])
            assert got == frame, "%s: port %d\n got %s\nwant %s" % (v["name"], port, got.hex(), frame.hex())
    assert sent == 9
    for port in range(PORTS):
        extra = bed.recv(port + 1, QUIET_S)
        assert extra is None, "an extra frame on port %d: %s" % (port, extra.hex())

    status, body = onos.rest("DELETE", "/onos/v1/network/configuration/apps/org.hupf.app/gnb")
    assert status in (200, 204), body
    onos.wait_ready(lambda: cleared(onos), DEVICE_TIMEOUT_S, "hupf's gNB entries gone from %s" % DEVICE)
    assert clone_sessions(gnb_switch["addr"]) == [], "the clone session left on the switch"
    no_frame_leaves(bed, V.n3_in(0x100))


def test_a_gnb_block_with_a_key_is_refused_without_echoing_it(onos):
    cfg = gnb_netcfg("127.0.0.1:1")
    del cfg["devices"]
    key = V.UES[0]["kUpEnc"]
    cfg["apps"]["org.hupf.app"]["gnb"]["gnbs"][0]["ues"][0]["kUpEnc"] = key
    status, body = onos.rest("POST", "/onos/v1/network/configuration", cfg)
    assert status != 200, body
    assert key not in str(body)
    _, stored = onos.rest("GET", "/onos/v1/network/configuration/apps/org.hupf.app")
    assert "gnb" not in (stored or {}), stored
