"""The gNB program's Tofino variant, p4src/gnb/tna/gnb.p4 (docs/GNB.md, "TNA"): through p4c's frontend and midend for
Tofino 1 and 2 where p4test and the Tofino p4include are found; compiled by p4c-barefoot for both where it is found,
its P4Info naming the v1model program's tables, match fields, actions, parameters, counters and register (what the
controller writes: GnbEntries, hupf_tools.gnb.p4rt_entries). Each test skips with one line where its tool is absent.
P4TEST, P4C_TOFINO and TOFINO_P4INCLUDE name the tools and the include directory (as for tests/ptf/test_tna.py)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GNB_P4 = ROOT / "p4src" / "gnb"
V1MODEL_P4INFO = ROOT / "pipeconf" / "src" / "main" / "resources" / "p4c-out" / "gnb" / "bmv2" / "p4info.txt"
P4TEST = os.environ.get("P4TEST") or shutil.which("p4test")
P4C_TOFINO = os.environ.get("P4C_TOFINO") or shutil.which("p4c-barefoot")
TOFINO_P4INCLUDE = os.environ.get("TOFINO_P4INCLUDE") or (
    P4C_TOFINO and str(Path(P4C_TOFINO).resolve().parents[1] / "share" / "p4c" / "p4include"))
HAS_TNA_INCLUDE = bool(TOFINO_P4INCLUDE) and (Path(TOFINO_P4INCLUDE) / "tna.p4").is_file()


def contract(p4info_path):
    """{'table X': match fields, 'action X': params, 'counter X': size, 'register X': size} of a P4Info, without
    the pipeline instance's prefix p4c-barefoot may put before a name."""
    sys.path.insert(0, str(ROOT / "p4src"))
    from gen_p4_constants import parse_p4info
    info = parse_p4info(Path(p4info_path).read_text())

    def name(n):
        return n[len("pipe."):] if n.startswith("pipe.") else n

    view = {}
    for t in info.tables:
        view["table " + name(t.preamble.name)] = sorted((m.name, m.bitwidth) for m in t.match_fields)
    for a in info.actions:
        view["action " + name(a.preamble.name)] = sorted((p.name, p.bitwidth) for p in a.params)
    for c in info.counters:
        view["counter " + name(c.preamble.name)] = c.size
    for r in info.registers:
        view["register " + name(r.preamble.name)] = r.size
    return view


@pytest.mark.skipif(not (P4TEST and HAS_TNA_INCLUDE),
                    reason="gnb tna: p4test or the Tofino p4include (TOFINO_P4INCLUDE=.../tna.p4) not found")
def test_tna_variant_passes_the_p4c_frontend_and_midend():
    res = subprocess.run(["make", "-s", "-C", str(GNB_P4), "check-tna-frontend", "P4TEST=%s" % P4TEST,
                          "TOFINO_P4INCLUDE=%s" % TOFINO_P4INCLUDE], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]


@pytest.mark.skipif(not P4C_TOFINO, reason="gnb tna: p4c-barefoot (p4c's Tofino backend) not found")
@pytest.mark.parametrize("target", ["tofino", "tofino2"])
def test_tna_variant_compiles_with_the_v1model_programs_names(target, tmp_path):
    res = subprocess.run(["make", "-s", "-C", str(GNB_P4), "tna", "TNA_TARGETS=%s" % target,
                          "P4C_TOFINO=%s" % P4C_TOFINO, "TNA_OUT=%s" % tmp_path], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert contract(tmp_path / target / "p4info.txt") == contract(V1MODEL_P4INFO)
