"""The gNB lab (`tools/lab.sh gnb`, issue #37) end to end, as an operator runs it: UE hosts -> the hybrid gNB
(p4src/gnb/gnb.p4 on bmv2 where bmv2 is found, and its stand-in gnb-switch; gnb-svc's crypto service and BaaS)
-> N3 -> hupf's UPF -> N6, over an air link that loses frames; every check of its summary must pass."""
import json
import os
import subprocess

import pytest

from hupf_tools.gnb import bmv2_switch
from test_lab import LAB_TIMEOUT_S, REPO, missing


@pytest.mark.parametrize("switch", ["stand-in", "bmv2"])
def test_gnb_lab(tmp_path, switch):
    why = missing("none") or (bmv2_switch.missing() if switch == "bmv2" else None)
    if why:
        pytest.skip("gNB lab with switch %s: missing %s" % (switch, why))
    out = str(tmp_path / "summary.json")
    res = subprocess.run([os.path.join(REPO, "tools", "lab.sh"), "gnb", "--switch", switch, "--json", out],
                         cwd=REPO, capture_output=True, text=True, timeout=LAB_TIMEOUT_S)
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
    assert summary["switch_target"] == switch
