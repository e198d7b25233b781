"""The committed P4 artifacts and generated constants are what `make -C p4src` produces: byte for byte
with the p4c recorded in p4c-out/p4c-version.txt, what matters with another (p4src/check_artifacts.py;
the failure message names both compilers)."""
import os
import shutil
import subprocess

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
P4C = os.environ.get("P4C") or shutil.which("p4c-bm2-ss")


@pytest.mark.skipif(not P4C, reason="p4c: p4c-bm2-ss not found (set P4C=...)")
def test_committed_artifacts_equal_a_fresh_compile():
    res = subprocess.run(["make", "-s", "-C", os.path.join(REPO, "p4src"), "check", "P4C=%s" % P4C],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
