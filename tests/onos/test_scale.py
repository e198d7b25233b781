"""hupf's backend at scale through ONOS (issue 18, "Scale in ONOS"): sessions over PFCP from the SMF emulator,
kept in flight a window at a time so that ONOS's hupf writes them to the backend in P4Runtime batches; the
backend's tables (read over P4Runtime from the backend itself) hold exactly what hupf's session store implies,
none of them is an ONOS flow rule, and nothing is written or reconciled while nothing changes."""
import ipaddress
import os
import re
import sys
import time
from pathlib import Path

from scapy.contrib import pfcp as P

from test_onos import BackendTables, device_flows

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pfcp"))
import smf as smf_mod  # noqa: E402  (the SMF emulator of tests/pfcp)
from pfcp_spec import build_message  # noqa: E402

APP = "org.hupf.app"
SESSIONS = int(os.environ.get("HUPF_ONOS_SCALE_SESSIONS", "2000"))
WINDOW = 64
# An unanswered request is sent again after T1_S (the SMF emulator's own timeout); the run fails when no answer
# at all came for STALL_S.
T1_S = 3.0
STALL_S = 180
FIRST_UE = ipaddress.IPv4Address("10.250.128.0")


def pipelined(smf, specs, stall=STALL_S):
    """Sends PFCP requests with up to WINDOW unanswered, each sent again every T1_S until answered, as an SMF
    does (TS 29.244 §6.4: PFCP runs over UDP, and a starved host drops datagrams; hupf's agent answers a
    retransmission with its original's answer); returns {seq: response} once all are answered. Fails when no
    answer came for `stall` seconds, naming how many were unanswered."""
    answers, in_flight, sent_at, i = {}, {}, {}, 0
    last_answer = time.monotonic()
    while len(answers) < len(specs):
        while i < len(specs) and len(in_flight) < WINDOW:
            seq = specs[i]["seq"]
            in_flight[seq] = specs[i]
            smf.send_raw(bytes(build_message(specs[i])))
            sent_at[seq] = time.monotonic()
            i += 1
        now = time.monotonic()
        for seq in [q for q, t in sent_at.items() if now - t >= T1_S]:
            smf.send_raw(bytes(build_message(in_flight[seq])))
            sent_at[seq] = now
        resp, _ = smf.recv(T1_S / 3)
        if resp is None:
            assert time.monotonic() - last_answer < stall, "%d of %d PFCP requests unanswered, none for %d s" % (
                len(specs) - len(answers), len(specs), stall)
            continue
        # Only the answer to a request: hupf's own requests (heartbeats) number their sequence apart.
        if resp.seq in in_flight and resp.message_type == in_flight[resp.seq]["type"] + 1:
            answers[resp.seq] = resp
            del in_flight[resp.seq]
            del sent_at[resp.seq]
            last_answer = time.monotonic()
    return answers


def store_view(onos):
    """(UEs, uplink TEIDs) of every session in hupf's store (GET /onos/hupf/sessions)."""
    status, body = onos.rest("GET", "/onos/hupf/sessions")
    assert status == 200, body
    ues, teids = set(), set()
    for s in body["sessions"]:
        for p in s["pdrs"]:
            pdi = p["pdi"]
            if pdi.get("ueIpAddress"):
                ues.add(int(ipaddress.IPv4Address(pdi["ueIpAddress"])))
            if pdi["sourceInterface"] == "ACCESS" and pdi.get("fTeid"):
                teids.add(pdi["fTeid"]["teid"])
    return ues, teids


def backend_view(tables):
    """(UEs of downlink sessions, TEIDs of uplink sessions) on the backend, each a list (duplicates show)."""
    entries = tables.entries()
    return ([m["ue_addr"] for t, m in entries if t == "downlink_sessions"],
            [m["teid"] for t, m in entries if t == "uplink_sessions"])


def assert_backend_is_the_store(onos, tables, timeout=60):
    """Waits until the backend holds one downlink and one uplink session entry per session of the store."""
    def same():
        ues, teids = store_view(onos)
        b_ues, b_teids = backend_view(tables)
        return sorted(b_ues) == sorted(ues) and sorted(b_teids) == sorted(teids)
    onos.wait(same, timeout, "the backend's session entries are the store's")


def no_backend_flow_rules(onos, device):
    status, body = onos.rest("GET", "/onos/v1/flows/application/%s" % APP)
    flows = body["flows"] if status == 200 else []
    assert not [f for f in flows if f["deviceId"] == device], "backend entries as ONOS flow rules"
    assert device_flows(onos, device) == []


def test_sessions_over_pfcp_reach_the_backend_in_batches_exactly(onos, deployed, backend, standing_smf,
                                                                 standing_sessions):
    tables = BackendTables(backend.addr)
    smf = standing_smf
    try:
        ues = [str(FIRST_UE + i) for i in range(SESSIONS)]
        specs = [smf.establishment(900000 + i, ue) for i, ue in enumerate(ues)]
        t0 = time.monotonic()
        answers = pipelined(smf, specs)
        took = time.monotonic() - t0
        causes = [smf_mod.cause(r) for r in answers.values()]
        assert causes == [1] * SESSIONS, "refused: %s" % sorted(
            {"%s cause %s" % (type(r).__name__, c) for r, c in zip(answers.values(), causes) if c != 1})
        print("%d PFCP establishments through ONOS to the backend in %.1f s: %.0f sessions/s"
              % (SESSIONS, took, SESSIONS / took))
        up_seids = [smf_mod.ie(answers[s["seq"]], P.IE_FSEID).seid for s in specs]
        assert_backend_is_the_store(onos, tables)
        b_ues, _ = backend_view(tables)
        assert {int(ipaddress.IPv4Address(u)) for u in ues} <= set(b_ues)
        no_backend_flow_rules(onos, deployed["device"])

        t0 = time.monotonic()
        answers = pipelined(smf, [smf.deletion(seid) for seid in up_seids])
        took = time.monotonic() - t0
        assert [smf_mod.cause(r) for r in answers.values()] == [1] * SESSIONS
        print("%d PFCP deletions in %.1f s: %.0f sessions/s" % (SESSIONS, took, SESSIONS / took))
        assert_backend_is_the_store(onos, tables)
        b_ues, _ = backend_view(tables)
        assert not {int(ipaddress.IPv4Address(u)) for u in ues} & set(b_ues), "deleted sessions left"
    finally:
        tables.close()


def test_nothing_is_written_while_nothing_changes(onos, deployed, backend, standing_sessions):
    """With the store and the backend in line, a reconciliation (on demand, or the periodic one every
    reconcileIntervalS) reads the tables and writes nothing."""
    tables = BackendTables(backend.addr)
    try:
        assert_backend_is_the_store(onos, tables)
        before = sorted(map(repr, tables.entries()))
        log_start = len(onos.karaf_log.read_text(errors="replace"))
        status, body = onos.rest("POST", "/onos/hupf/reconcile")
        assert status == 200 and body["operations"] == 0, body
        time.sleep(2 * deployed["cfg"]["apps"][APP]["hupf"]["reconcileIntervalS"] + 1)
        log = onos.karaf_log.read_text(errors="replace")[log_start:]
        assert not re.findall(r"reconciliation: \d+ device operations", log), "a periodic reconciliation wrote"
        assert not re.findall(r"Reconciled the hybrid's devices.*: [1-9]\d* device operations", log)
        assert sorted(map(repr, tables.entries())) == before, "the backend's entries changed"
        no_backend_flow_rules(onos, deployed["device"])
    finally:
        tables.close()
