"""The Tofino (TNA) hw profile, p4src/tna/hupf_hw.p4, built from the same include/ controls as v1model:
through p4c's frontend and midend where p4test and the Tofino p4include exist, and through p4c-barefoot
where the Tofino backend exists, whose P4Info must name the v1model hw profile's tables and actions
(docs/PIPELINE_CONTRACT.md). Each test skips with one line where its compiler is absent."""
import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
P4SRC = os.path.join(REPO, "p4src")
P4TEST = os.environ.get("P4TEST") or shutil.which("p4test")
P4C_TOFINO = os.environ.get("P4C_TOFINO") or shutil.which("p4c-barefoot")
TOFINO_P4INCLUDE = os.environ.get("TOFINO_P4INCLUDE") or (
    P4C_TOFINO and os.path.join(os.path.dirname(os.path.dirname(P4C_TOFINO)), "share", "p4c", "p4include"))
HW_P4INFO = os.path.join(REPO, "pipeconf", "src", "main", "resources", "p4c-out", "hw", "bmv2", "p4info.txt")

# Parameters the TNA program does not have, and why (p4src/include/tna/hh.p4, classifier.p4): the EWMAs
# are Tofino low-pass filters whose time constant the control plane sets.
TNA_ONLY_DIFFERENCES = {
    "action HupfIngress.hh.set_hh_params": {"alpha_shift"},
    "action HupfIngress.classifier.set_cls_params": {"alpha_shift"},
}

# In the v1model P4Info only: the v1model classifier's EWMA step is an action (include/classifier.p4); the
# TNA classifier uses Tofino low-pass filters (include/tna/classifier.p4).
V1MODEL_ONLY = {"action HupfIngress.classifier.ewma"}


def unprefixed(name):
    """A P4Info name without the pipeline instance name bf-p4c may put in front of it."""
    return name[len("pipe."):] if name.startswith("pipe.") else name


def names(p4info_path):
    """{'table X' | 'action X' | 'packet_metadata X': [match fields | params | (field, width)]} of a P4Info
    text file: what the contract fixes (names; ids are resolved by name from the P4Info)."""
    sys.path.insert(0, P4SRC)
    from gen_p4_constants import parse_p4info
    with open(p4info_path) as f:
        info = parse_p4info(f.read())
    view = {}
    for t in info.tables:
        view["table " + unprefixed(t.preamble.name)] = sorted(m.name for m in t.match_fields)
    for a in info.actions:
        view["action " + unprefixed(a.preamble.name)] = sorted(p.name for p in a.params)
    for m in info.controller_packet_metadata:
        view["packet_metadata " + m.preamble.name] = sorted((x.name, x.bitwidth) for x in m.metadata)
    return view


@pytest.mark.skipif(not (P4TEST and TOFINO_P4INCLUDE and os.path.isfile(os.path.join(TOFINO_P4INCLUDE, "tna.p4"))),
                    reason="tna: p4test or the Tofino p4include (TOFINO_P4INCLUDE=.../tna.p4) not found")
def test_tna_program_passes_the_p4c_frontend_and_midend():
    res = subprocess.run(["make", "-s", "-C", P4SRC, "check-tna-frontend", "P4TEST=%s" % P4TEST,
                          "TOFINO_P4INCLUDE=%s" % TOFINO_P4INCLUDE], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]


@pytest.mark.skipif(not P4C_TOFINO, reason="tna: p4c-barefoot (p4c's Tofino backend) not found")
def test_tofino_p4info_names_the_v1model_hw_tables_actions_and_packet_metadata(tmp_path):
    out = tmp_path / "tofino"
    res = subprocess.run(["make", "-s", "-C", P4SRC, "tna", "P4C_TOFINO=%s" % P4C_TOFINO,
                          "TOFINO_OUT=%s" % out], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    for artifact in ("p4info.txt", "bfrt.json", "context.json", "tofino.bin"):
        assert (out / artifact).stat().st_size > 0, artifact
    tna, v1 = names(str(out / "p4info.txt")), names(HW_P4INFO)
    missing = sorted(set(v1) - set(tna) - V1MODEL_ONLY)
    # The state-read path exists only on bmv2 (it has no P4Info table or action of its own).
    assert not missing, "in the v1model hw P4Info, not in the Tofino one: %s" % missing
    for name, fields in v1.items():
        expected = sorted(set(fields) - TNA_ONLY_DIFFERENCES.get(name, set()))
        assert tna[name] == expected, name
