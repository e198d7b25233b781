"""The gNB program's generated constants (gnb/src/gnb_p4const.h, tools/hupf_tools/gnb/p4const.py) are what
p4src/gnb/define.p4 generates (no p4c needed), and the generator notices a stale file."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "p4src" / "gnb" / "gen_gnb_constants.py"
DEFINE = ROOT / "p4src" / "gnb" / "define.p4"


def gen(c, py, *extra):
    return subprocess.run([sys.executable, str(GEN), "--define", str(DEFINE), "--c", str(c), "--python", str(py),
                           *extra], capture_output=True, text=True)


def test_committed_constants_are_current():
    out = gen(ROOT / "gnb" / "src" / "gnb_p4const.h", ROOT / "tools" / "hupf_tools" / "gnb" / "p4const.py", "--check")
    assert out.returncode == 0, out.stderr


def test_a_stale_file_is_named(tmp_path):
    c, py = tmp_path / "c.h", tmp_path / "c.py"
    assert gen(c, py).returncode == 0
    assert "GNB_DROP_UNKNOWN_TEID = 4," in c.read_text() and "SVC_OP_RETX = 5" in py.read_text()
    c.write_text(c.read_text().replace("= 4,", "= 40,"))
    out = gen(c, py, "--check")
    assert out.returncode == 1 and str(c) in out.stderr and str(py) not in out.stderr
