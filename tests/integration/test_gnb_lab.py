"""The gNB lab (`tools/lab.sh gnb`, issue #37) end to end, as an operator runs it: UE hosts -> the hybrid gNB
(gnb-switch standing in for p4src/gnb/gnb.p4, gnb-svc's crypto service and BaaS) -> N3 -> hupf's UPF -> N6,
over an air link that loses frames; every check of its summary must pass."""
import json
import os
import subprocess

import pytest

from test_lab import LAB_TIMEOUT_S, REPO, missing


def test_gnb_lab(tmp_path):
    why = missing("none")
    if why:
        pytest.skip("gNB lab: missing %s" % why)
    out = str(tmp_path / "summary.json")
    res = subprocess.run([os.path.join(REPO, "tools", "lab.sh"), "gnb", "--json", out], cwd=REPO,
                         capture_output=True, text=True, timeout=LAB_TIMEOUT_S)
    print(res.stdout[-6000:])
    print(res.stderr[-3000:])
    if not os.path.exists(out):
        pytest.fail("the gNB lab produced no summary (exit %d): %s" % (res.returncode, res.stderr[-1500:]))
    with open(out) as f:
        summary = json.load(f)
    names = [c["name"] for c in summary["checks"]]
    assert len(names) == 7 and any(n.startswith("BaaS's buffers drained") for n in names)
    failed = [c for c in summary["checks"] if not c["passed"]]
    assert not failed, failed
    assert res.returncode == 0
    assert summary["air_drops"] > 0 and summary["services"]["baas"]["held_pdus"] == 0
