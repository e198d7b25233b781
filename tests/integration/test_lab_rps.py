"""RPS end to end (issue #16 part 4): `tools/lab.sh --rps MODE` with a switch (hupf-backend in the hw profile on
every run, bmv2 where found), the lab's collector keeping the records the runner exported, then the verifier's
command line run on what it kept: delay samples per tenant, and the loss between IN and OUT that the switch itself
counted (`rps.events`, read by the lab) inside the verifier's interval."""
import json
import os
import subprocess
import sys

import pytest

from hupf_tools.lab import rps_check
from hupf_tools.rps import collector

from test_lab import LAB_TIMEOUT_S, REPO, missing

# Short: RPS needs a few thousand packets of the UE pool, not the offload scenario's full length.
UES, HEAVY, DURATION = 8, 1, 12
CONFIDENCE = rps_check.CHECK_CONFIDENCE


@pytest.fixture(scope="module", params=[("backend", "DATA_PLANE"), ("backend", "HYBRID"), ("bmv2", "DATA_PLANE")],
                ids=lambda p: "%s-%s" % p)
def rps_run(request, tmp_path_factory):
    switch, mode = request.param
    why = missing(switch)
    if why:
        pytest.skip("RPS in the lab with switch %s: missing %s" % (switch, why))
    out = tmp_path_factory.mktemp("lab-rps")
    cmd = [os.path.join(REPO, "tools", "lab.sh"), "--switch", switch, "--rps", mode, "--ues", str(UES),
           "--heavy", str(HEAVY), "--duration", str(DURATION), "--json", str(out / "summary.json")]
    res = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=LAB_TIMEOUT_S)
    print(res.stdout[-4000:])
    print(res.stderr[-2000:])
    if not (out / "summary.json").exists():
        pytest.fail("the lab produced no summary (exit %d): %s" % (res.returncode, res.stderr[-1500:]))
    with open(out / "summary.json") as f:
        summary = json.load(f)
    rps = summary["rps"]
    with open(out / "rps.json", "w") as f:
        json.dump(rps["block"], f)
    with open(out / "counters.json", "w") as f:
        json.dump({rps_check.TENANT: rps["observed"]}, f)
    verified = subprocess.run(
        [sys.executable, "-m", "hupf_tools.rps.verifier", "--records", rps["records"], "--config",
         str(out / "rps.json"), "--counters", str(out / "counters.json"), "--confidence", str(CONFIDENCE),
         "--json"], cwd=REPO, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH="tools"), timeout=120)
    print(verified.stderr[-2000:])
    return summary, res.returncode, json.loads(verified.stdout), verified.returncode


def test_the_lab_check_of_rps_passes(rps_run):
    summary, _, _, _ = rps_run
    c = [c for c in summary["checks"] if c["name"].startswith("RPS disclosures")]
    assert c and c[0]["passed"], c


def test_both_points_disclosed_and_every_record_parses(rps_run):
    summary, _, _, _ = rps_run
    records = collector.load(summary["rps"]["records"])
    kinds = {(r.point, r.kind) for r in records}
    assert {(0, 1), (1, 1), (0, 2), (1, 2)} <= kinds, kinds   # direct and delayed disclosures at IN and OUT


def test_the_tenant_has_delay_percentiles_from_matched_disclosures(rps_run):
    _, _, report, _ = rps_run
    delay = report["tenants"][rps_check.TENANT]["delay"]
    print("delay: %s" % delay)
    assert delay["samples"] > 0
    assert 0 <= delay["min_us"] <= delay["p50_us"] <= delay["p90_us"] <= delay["p99_us"] <= delay["max_us"]
    lo, hi = delay["p50_interval_us"]
    assert lo <= delay["p50_us"] <= hi


def test_the_loss_interval_holds_the_loss_the_switch_counted_between_in_and_out(rps_run):
    summary, _, report, rc = rps_run
    observed = summary["rps"]["observed"]
    # Every packet OUT saw, IN saw first; both saw at least the packets the receivers got through hupf.
    received = sum(c["pkts"] for r in summary["rx"] for c in r["rx"].values())
    assert received <= observed["out"] <= observed["in"], (received, observed)
    [row] = report["counter_check"]
    loss = report["tenants"][rps_check.TENANT]["loss"]
    print("counted %s, sampled %s" % (row, loss))
    assert loss["samples"] > 0 and row["consistent"] is True and rc == 0, row


def test_the_lab_exits_zero(rps_run):
    summary, rc, _, _ = rps_run
    assert rc == 0, [c for c in summary["checks"] if not c["passed"]]
