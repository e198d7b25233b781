"""hupf's lab runner with a T4P4S backend (issue #36): the runner (PFCP agent, session core, usage polls every
500 ms) programs hupf's sw profile on T4P4S through hupf-t4p4s, as it programs hupf-backend (backend_chain.py);
sessions established over PFCP carry known uplink traffic on veths, and every Usage Report of their deletion is
exact to the byte: the counters read from T4P4S. Run by `make test-t4p4s`, which names this file (test-pfcp's
conftest leaves it out of its own run); without T4P4S it is deselected there (one SKIPPED line: tests/t4p4s)."""
import os

from backend_chain import (GNB, N3, USAGE_REPORT_DELETION, Chain, cause_of, deletion, ies, up_seid_of,
                           uplink_teid, volumes)
from bench_control_plane import pipelined
from bench_pfcp import patch, template, ue_address
from smf import Smf, cause

import dataplane
from packets import gtpu, user_packet
from t4p4s_switch import Running, build_adapter, compile_switch, port_vdevs

ACCEPTED = 1
SESSIONS = 12
WINDOW = 8
SERVER = "198.51.100.10"
# The switch's MAC as the runner's config names it (backend_chain.py).
ROUTER_MAC = "02:68:75:70:66:01"
UNANSWERED_S = 120
CONDITION_S = 120
PROBE_TRIES = 100


def uplink_frames(i, teid):
    """Session i's uplink G-PDUs: i % 3 + 1 of them, of sizes that differ between sessions."""
    ue = str(ue_address(i))
    return [bytes(gtpu(user_packet(ue, SERVER, size=64 + 7 * i + k), teid, GNB, N3, eth_dst=ROUTER_MAC))
            for k in range(i % 3 + 1)]


def is_ipv4(frame):
    return frame[12:14] == b"\x08\x00"


def test_runner_programs_t4p4s_and_reports_exact_usage(tmp_path):
    bed = dataplane.TestBed(2, tag="t4c%d" % (os.getpid() % 10000))
    running = chain = smf = None
    try:
        running = Running(compile_switch(), build_adapter(tmp_path), port_vdevs(bed, tmp_path), tmp_path)
        chain = Chain(serving=running.grpc_addr)
        smf = Smf(chain.pfcp)
        assert cause(smf.request(smf.association_setup(), timeout=10)[0]) == ACCEPTED
        raw, seid_at, ue_at = template(smf)
        # One more session than measured: the last, written last, is probed until its uplink leaves, and then
        # every entry before it is in (T4P4S takes its controller's messages in order and acknowledges none).
        reqs = [(1000 + i, patch(raw, seid_at, ue_at, 1000 + i, i)) for i in range(SESSIONS + 1)]
        _, _, resp, lost = pipelined(smf.sock, chain.pfcp, reqs, WINDOW, stall_s=UNANSWERED_S)
        assert lost == 0 and [cause_of(r) for r in resp] == [ACCEPTED] * (SESSIONS + 1)
        assert chain.wait_sessions(SESSIONS + 1, CONDITION_S) == SESSIONS + 1
        resp.sort(key=lambda m: int.from_bytes(m[12:15], "big"))
        probe = uplink_frames(SESSIONS, uplink_teid(resp[SESSIONS]))[0]
        for _ in range(PROBE_TRIES):
            bed.send(1, probe)
            if bed.recv(2, 0.5, is_ipv4) is not None:
                break
        else:
            raise AssertionError("the last session's uplink never left T4P4S\n%s" % running.per_packet()[-1][-2000:])
        sent = {i: uplink_frames(i, uplink_teid(resp[i])) for i in range(SESSIONS)}
        for frames in sent.values():
            for f in frames:
                bed.send(1, f)
        n_sent = sum(len(f) for f in sent.values())
        # Probes sent before the one that came out may still come out: each measured frame has its own size.
        sizes = sorted(len(f) - 36 for frames in sent.values() for f in frames)  # less Ethernet, outer IP/UDP/GTP-U
        out = [f for f in bed.recv_all(2, 3.0, is_ipv4) if len(f) != len(probe) - 36]
        assert sorted(len(f) for f in out) == sizes, "%d of %d uplink packets forwarded" % (len(out), n_sent)
        dels = [(5_000 + i, deletion(up_seid_of(r), 5_000 + i)) for i, r in enumerate(resp[:SESSIONS])]
        _, _, dresp, lost = pipelined(smf.sock, chain.pfcp, dels, WINDOW, stall_s=UNANSWERED_S)
        assert lost == 0 and [cause_of(r) for r in dresp] == [ACCEPTED] * SESSIONS
        dresp.sort(key=lambda m: int.from_bytes(m[12:15], "big"))
        reported = [volumes(ies(r)[USAGE_REPORT_DELETION][0]) for r in dresp]
        # A session's usage is its uplink frames as the UPF received them (the uplink termination's pre-QoS cell).
        expected = [(sum(len(f) for f in sent[i]),) * 2 + (0,) for i in range(SESSIONS)]
        assert reported == expected
    finally:
        if smf is not None:
            smf.close()
        if chain is not None:
            chain.stop()
        if running is not None:
            running.close()
        bed.close()
