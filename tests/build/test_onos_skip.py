"""Where no ONOS runtime is found, the ONOS suite says so in the one line run_suite.sh reports SKIPPED
(and collects nothing: pytest exits 5), instead of failing or building anything."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_without_an_onos_runtime_the_onos_suite_prints_one_skipped_line(tmp_path):
    env = dict(os.environ, ONOS_HOME=str(tmp_path / "no-onos"))
    res = subprocess.run([sys.executable, "-m", "pytest", "tests/onos", "-p", "no:cacheprovider"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=120)
    skipped = [line for line in res.stdout.splitlines() if line.startswith("SKIPPED ")]
    assert res.returncode == 5, res.stdout + res.stderr
    assert skipped == ["SKIPPED onos: missing ONOS 2.7 runtime: no %s/apache-karaf-4.2.9 (set ONOS_HOME; "
                       "default /opt/hupf-onos/onos)" % (tmp_path / "no-onos")], res.stdout
