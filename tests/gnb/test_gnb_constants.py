"""The gNB program's generated constants (gnb/src/gnb_p4const.h, tools/hupf_tools/gnb/p4const.py) are what
p4src/gnb/define.p4 generates (no p4c needed), the generator notices a stale file, and with a P4Info it names its
entities for Python and Java and refuses a size that disagrees with define.p4."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "p4src" / "gnb" / "gen_gnb_constants.py"
DEFINE = ROOT / "p4src" / "gnb" / "define.p4"


def gen(c, py, *extra):
    return subprocess.run([sys.executable, str(GEN), "--define", str(DEFINE), "--c", str(c), "--python", str(py),
                           *map(str, extra)], capture_output=True, text=True)


def test_committed_constants_are_current():
    """As make -C p4src/gnb check-constants: with the committed P4Info where there is one."""
    p4info = ROOT / "pipeconf" / "src" / "main" / "resources" / "p4c-out" / "gnb" / "bmv2" / "p4info.txt"
    java = ROOT / "pipeconf" / "src" / "main" / "java" / "org" / "hupf" / "pipeconf" / "gnb" / "GnbConstants.java"
    compiled = ["--p4info", p4info, "--java", java] if p4info.exists() else []
    out = gen(ROOT / "gnb" / "src" / "gnb_p4const.h", ROOT / "tools" / "hupf_tools" / "gnb" / "p4const.py", "--check",
              *compiled)
    assert out.returncode == 0, out.stderr


def test_a_stale_file_is_named(tmp_path):
    c, py = tmp_path / "c.h", tmp_path / "c.py"
    assert gen(c, py).returncode == 0
    assert "GNB_DROP_UNKNOWN_TEID = 4," in c.read_text() and "SVC_OP_RETX = 5" in py.read_text()
    c.write_text(c.read_text().replace("= 4,", "= 40,"))
    out = gen(c, py, "--check")
    assert out.returncode == 1 and str(c) in out.stderr and str(py) not in out.stderr


P4INFO = '''
tables {
  preamble { id: 1 name: "HupfGnbIngress.dl_ues" alias: "dl_ues" }
  match_fields { id: 1 name: "teid" bitwidth: 32 match_type: EXACT }
  action_refs { id: 2 }
  size: 1024
}
actions {
  preamble { id: 2 name: "HupfGnbIngress.set_dl_ue" alias: "set_dl_ue" }
  params { id: 1 name: "ue" bitwidth: 32 }
  params { id: 2 name: "sn18" bitwidth: 1 }
}
counters {
  preamble { id: 3 name: "HupfGnbIngress.drops" alias: "drops" }
  spec { unit: PACKETS }
  size: 10
}
'''


def test_with_the_p4info_python_and_java_get_its_names(tmp_path):
    c, py, java, info = tmp_path / "c.h", tmp_path / "c.py", tmp_path / "GnbConstants.java", tmp_path / "p4info.txt"
    info.write_text(P4INFO)
    assert gen(c, py, "--p4info", info, "--java", java).returncode == 0
    assert 'HUPF_GNB_INGRESS_DL_UES = "HupfGnbIngress.dl_ues"' in py.read_text()
    assert 'HDR_TEID = "teid"' in py.read_text() and 'SN18 = "sn18"' in py.read_text()
    text = java.read_text()
    assert "package org.hupf.pipeconf.gnb;" in text and "public static final int GNB_DROPS_SIZE = 10;" in text
    assert ('public static final PiTableId HUPF_GNB_INGRESS_DL_UES =\n'
            '            PiTableId.of("HupfGnbIngress.dl_ues");') in text
    assert gen(c, py, "--p4info", info, "--java", java, "--check").returncode == 0
    info.write_text(P4INFO.replace("size: 10", "size: 12"))
    out = gen(c, py, "--p4info", info, "--java", java, "--check")
    assert out.returncode == 1
    assert "counter HupfGnbIngress.drops has size 12, define.p4's GNB_DROPS_SIZE is 10" in out.stderr
