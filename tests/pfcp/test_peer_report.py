"""The benchmark against eUPF without eUPF: CPU of a whole process tree, ratios taken within a round, the
data-plane table check and its table, the Heartbeat answer, the eUPF sizing and the patched modifications."""
import subprocess
import sys
import textwrap

import pytest
from scapy.contrib import pfcp as P

from backend_chain import GNB
from bench_control_plane import modifications
from eupf_peer import heartbeat_response, map_sizes
from peer_report import (_stat, EXITED, TICKS, busiest, compare, jit_ms, markdown, mismatches, table_check,
                         thread_breakdown, thread_cpu_seconds, threads_markdown, tree_cpu_seconds, warmup_notes)
from pfcp_spec import build_message
from smf import Smf

# A child that starts a grandchild burning >= 0.3 s of CPU in a second thread, then both wait for stdin to close.
TREE = textwrap.dedent("""
    import subprocess, sys
    burn = '''
    import sys, threading, time
    def spin():
        t = time.process_time()
        while time.process_time() - t < 0.3:
            pass
    th = threading.Thread(target=spin); th.start(); th.join()
    print("burnt", flush=True)
    sys.stdin.read()
    '''
    g = subprocess.Popen([sys.executable, "-c", burn], stdin=subprocess.PIPE)
    sys.stdin.read()
    g.stdin.close(); g.wait()
""")


def test_tree_cpu_counts_descendants_and_their_threads():
    child = subprocess.Popen([sys.executable, "-c", TREE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "burnt"  # the grandchild's thread has spun and ended
        own = _stat(child.pid)[1] / TICKS
        tree = tree_cpu_seconds(child.pid)
        assert tree >= 0.28, tree  # tick granularity
        assert tree - own >= 0.28, (own, tree)  # the grandchild's, not the child's own
    finally:
        child.stdin.close()
        child.wait(10)
    with pytest.raises(ProcessLookupError):
        tree_cpu_seconds(child.pid)


def test_thread_breakdown_puts_ended_threads_apart():
    child = subprocess.Popen([sys.executable, "-c", TREE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "burnt"
        live = thread_cpu_seconds({"tree": child.pid})
        assert live and all(k.startswith("tree/") for k in live)
        # The spinning thread has ended: its CPU is the tree's but no live thread's.
        out = thread_breakdown({}, live, tree_cpu_seconds(child.pid), 1)
        assert out[EXITED] >= 280, out
    finally:
        child.stdin.close()
        child.wait(10)


def test_thread_breakdown_is_per_request_largest_first():
    before = {"runner/rx": 1.0, "runner/gc": 0.5}
    after = {"runner/rx": 1.2, "runner/gc": 0.5, "backend/agent": 0.3}
    out = thread_breakdown(before, after, 0.6, 100)
    assert list(out.items()) == [("backend/agent", 3.0), ("runner/rx", 2.0), (EXITED, 1.0)]
    rows = [dict(row("hupf", 1, "establish", 100, 6.0), threads=out)]
    assert "backend/agent 3.0, runner/rx 2.0" in threads_markdown(rows)


def row(upf, rnd, phase, rate, cpu, tables=None, expected=100, n=100):
    tables = {"dl": expected} if tables is None else tables
    return {"upf": upf, "round": rnd, "phase": phase, "sessions_asked": n, "per_second": rate,
            "cpu_ms_per_request": cpu, "p50_ms": 1, "p99_ms": 2, "max_ms": 3, "within_t1": n, "lost": 0,
            "accepted": n, "tables": tables, "tables_expected": expected, "tables_ok": table_check(tables, expected)}


def test_ratios_are_taken_within_each_round_and_missing_peers_give_none():
    rows = [row("eupf", 2, "establish", 300, 0.2), row("hupf", 1, "establish", 100, 1.0),
            row("eupf", 1, "establish", 400, 0.25), row("hupf", 2, "establish", 300, 0.5),
            row("hupf", 1, "delete", 50, 2.0, {"dl": 0}, 0), row("eupf", 1, "delete", 0, 0.0, {"dl": 0}, 0),
            row("hupf", 1, "establish", 80, 1.5, n=1000, expected=1000)]
    out = compare(rows)
    assert [(c["sessions"], c["round"], c["phase"]) for c in out] == [
        (100, 1, "establish"), (100, 1, "delete"), (100, 2, "establish"), (1000, 1, "establish")]
    assert (out[0]["rate_ratio"], out[0]["cpu_ratio"]) == (0.25, 4.0)
    assert (out[2]["rate_ratio"], out[2]["cpu_ratio"]) == (1.0, 2.5)
    assert (out[1]["rate_ratio"], out[1]["cpu_ratio"]) == (None, None)  # eUPF's 0: no infinite ratio
    assert out[3]["eupf"] is None and out[3]["rate_ratio"] is None


def test_tables_must_hold_exactly_the_accepted_sessions():
    assert table_check({"dl": 10, "ul": 10}, 10)
    assert not table_check({"dl": 10, "ul": 9}, 10)
    assert not table_check({"dl": None}, 0)  # unreadable is a mismatch, not a pass
    assert not table_check({}, 0)


def test_markdown_flags_a_mismatch_and_says_skipped():
    rows = [row("hupf", 1, "establish", 100, 1.0), row("hupf", 1, "delete", 50, 2.0, {"dl": 3}, 0)]
    rows[0]["write_rpcs_per_request"] = 0.075
    assert [r["phase"] for r in mismatches(rows)] == ["delete"]
    text = markdown(compare(rows), ["SKIPPED: eUPF not found"])
    lines = text.splitlines()
    assert lines[0] == "SKIPPED: eUPF not found"
    body = [line for line in lines if line.startswith("| 100 |")]
    assert len(body) == 2 and "MISMATCH" not in body[0] and "**MISMATCH** dl 3 (expected 0)" in body[1]
    assert "| 0.075 |" in body[0] and "0.075" not in body[1]  # hupf's Writes per request, per row
    assert all(line.count("|") == 21 for line in lines if line.startswith("|"))


def test_the_cold_round_is_a_row_of_its_own_before_the_steady_one():
    cold = dict(row("hupf", 1, "establish", 50, 3.0, n=1000), stage="cold", sessions=200, jit_ms_per_request=1.2)
    steady = dict(row("hupf", 1, "establish", 100, 1.0, n=1000), stage="steady", sessions=1000)
    peer_cold = dict(row("eupf", 1, "establish", 100, 0.5, n=1000), stage="cold", sessions=200)
    out = compare([steady, peer_cold, cold])
    assert [(c["stage"], c["requests"], c["rate_ratio"]) for c in out] == [("cold", 200, 0.5), ("steady", 1000, None)]
    body = [line for line in markdown(out).splitlines() if line.startswith("| 200 |") or line.startswith("| 1000 |")]
    assert "| establish (cold) |" in body[0] and "| 1.2 |" in body[0]
    assert "| establish |" in body[1]


def test_the_jit_and_the_busiest_thread_are_read_from_the_breakdown():
    threads = {"runner/C2 CompilerThre": 0.2, "runner/C1 CompilerThre": 0.05, "runner/hupf-pfcp-rx": 0.4,
               EXITED: 0.9}
    assert jit_ms(threads) == 0.25
    assert busiest(threads, 2000) == {"thread": "runner/hupf-pfcp-rx", "cores": 0.8}  # 0.4 ms x 2,000/s
    assert busiest({}, 100) is None


def test_heartbeat_response_answers_the_request():
    req = bytes(build_message({"type": 1, "seq": 0x123456, "seid": None, "ies": [
        {"t": 96, "kind": "uint", "v": 3900000001}]}))
    resp = P.PFCP(heartbeat_response(req, 3900000000))
    assert (resp.message_type, resp.seq) == (2, 0x123456)
    assert resp.payload.IE_list[0].timestamp == 3900000000


def test_eupf_maps_hold_n_sessions_with_spare():
    assert map_sizes(10000) == (65536, 131072)
    assert map_sizes(100000) == (131072, 262144)  # the README's figures for 100k
    assert map_sizes(200000)[0] >= 250000


def test_patched_modifications_equal_the_built_ones():
    smf = Smf(("127.0.0.1", 9))
    try:
        seids = [5, 0x123456789A, 65535 * 3 + 7]
        for (seq, data), s in zip(modifications(smf, seids, 700), seids):
            built = bytearray(bytes(build_message(smf.modify_to_forward(s, GNB, 0x100 + s % 0xFFFF))))
            built[12:15] = seq.to_bytes(3, "big")
            assert data == bytes(built)
    finally:
        smf.close()


def test_warmup_rounds_stay_out_of_the_table_and_note_their_jit():
    warm = [dict(row("hupf", 1, phase, 100, 1.0), stage="warmup", sessions=100, jit_ms_per_request=jit)
            for phase, jit in (("establish", 0.3), ("modify", 0.0), ("delete", 0.0),
                               ("establish", 0.03), ("modify", 0.0), ("delete", 0.0))]
    steady = dict(row("hupf", 1, "establish", 100, 1.0), stage="steady", sessions=100)
    assert [c["stage"] for c in compare(warm + [steady])] == ["steady"]
    assert warmup_notes(warm + [steady]) == [
        "hupf round 1, 100 sessions: the JIT's CPU ms per request in warm-up rounds 2..3: 0.1, 0.01"]
