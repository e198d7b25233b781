"""The hybrid lab with one backend of each kind (issue #36), run through tools/lab.sh as `make lab` runs it:
`--backends 2 --t4p4s-backend 2`, backend 1 hupf-backend, backend 2 hupf's sw profile compiled by T4P4S (its build
without the debug log) behind hupf-t4p4s; the switch (hupf-backend in the hw profile here; bmv2 where it is found)
steers the UEs by hash across both, the heavy UE moves to the switch and back, every packet is delivered or counted
dropped (T4P4S's own drops from its veth's counters and its pipeline's counter: lab/t4p4s_backend.py), usage is
exact where nothing was dropped, and every session is deleted from both backends and the switch; the lab's latency
percentiles per backend kind. Then the same lab with the T4P4S backend drained under traffic."""
import json
import os
import subprocess

import pytest

from hupf_tools.lab import run as lab
from hupf_tools.lab import summary as lab_summary

# Ends a lab run that hangs, no timing assert (a compile of the switch at load 20 took 8 minutes).
LAB_TIMEOUT_S = 2400
UES, HEAVY, DURATION = 20, 1, 24


def run_lab(tmp_path_factory, *extra):
    if os.geteuid() != 0:
        pytest.skip("the lab needs root (network namespaces, veth, raw sockets)")
    out = str(tmp_path_factory.mktemp("lab") / "summary.json")
    cmd = [os.path.join(lab.REPO, "tools", "lab.sh"), "--backends", "2", "--t4p4s-backend", "2", "--ues", str(UES),
           "--heavy", str(HEAVY), "--duration", str(DURATION), "--json", out, *extra]
    res = subprocess.run(cmd, cwd=lab.REPO, capture_output=True, text=True, timeout=LAB_TIMEOUT_S)
    print(res.stdout[-6000:])
    print(res.stderr[-3000:])
    if not os.path.exists(out):
        pytest.fail("the lab produced no summary (exit %d): %s" % (res.returncode, res.stderr[-1500:]))
    with open(out) as f:
        return json.load(f), res.returncode


@pytest.fixture(scope="module")
def lab_run(tmp_path_factory):
    return run_lab(tmp_path_factory)


def test_every_check_of_the_lab_passes_with_a_t4p4s_backend(lab_run):
    summary, rc = lab_run
    failed = [c for c in summary["checks"] if not c["passed"]]
    assert not failed and rc == 0, failed
    assert summary["switch"] is not None and summary["metrics"]["hw_bytes"] > 0


def test_the_switch_steers_ues_to_both_kinds_of_backend(lab_run):
    shares = lab_run[0]["backend_packets"]
    print("packets the switch sent each backend: %s" % shares)
    assert sorted(shares) == ["backend", "backend-2"] and all(n > 0 for n in shares.values()), shares


def test_t4p4s_drops_are_counted_and_usage_is_exact_without_drops(lab_run):
    """The T4P4S backend is among the devices whose drops count (its pipeline's verdicts were read from it); where
    no packet was dropped for want of room, every UE's usage is exactly what it sent."""
    summary = lab_run[0]
    assert "backend-2" in summary["drops"]["pids"], summary["drops"]
    print("drops for want of room: %s" % summary["drops"]["room"])
    wrong = lab_summary.usage_mismatches(summary)
    assert not wrong, wrong


def test_latency_percentiles_are_taken_per_backend_kind(lab_run):
    """Each backend's mice (their packets' send time to the kernel's receive time, both ways) have p50 and p99."""
    per_backend = lab_run[0]["latency"]
    for name, b in per_backend.items():
        print("%s (%s, %d mice): uplink %s, downlink %s" % (name, b["kind"], b["ues"], b["uplink"], b["downlink"]))
    assert {n: b["kind"] for n, b in per_backend.items()} == {"backend": "hupf-backend", "backend-2": "T4P4S"}
    for b in per_backend.values():
        for way in ("uplink", "downlink"):
            f = b[way]
            assert f["samples"] > 0 and 0 < f["p50_us"] <= f["p99_us"] <= f["max_us"], (b["kind"], way, f)


def test_the_t4p4s_backend_drained_under_traffic_hands_its_ues_over_with_exact_usage(tmp_path_factory):
    """`--drain-backend 2`: 40 % into the traffic the runner steers the T4P4S backend's UEs to hupf-backend, reads
    T4P4S's counts (through hupf-t4p4s) until they stay still and lets it go; then the lab stops the switch. Nothing
    is lost but what is counted dropped for want of room, every UE's usage is exact where nothing was (the ledger
    keeps T4P4S's final counts), and every check of the lab passes."""
    summary, rc = run_lab(tmp_path_factory, "--drain-backend", "2")
    print("backend-2 drain: %s, packets %s" % (summary["move"], summary["backend_packets"]))
    print("drops for want of room: %s" % summary["drops"]["room"])
    wrong = lab_summary.drain_failures(summary, rc, "backend-2")
    assert not wrong, wrong
