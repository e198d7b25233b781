"""The committed P4 artifacts and generated constants are what `make -C p4src` produces: byte for byte
with the p4c recorded in p4c-out/p4c-version.txt, what matters with another (p4src/check_artifacts.py;
the failure message names both compilers)."""
import os
import subprocess

import pytest

from hupf_tools import p4tools

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
P4C = p4tools.p4c()


@pytest.mark.skipif(not P4C, reason="missing " + p4tools.P4C_HINT)
def test_committed_artifacts_equal_a_fresh_compile():
    res = subprocess.run(["make", "-s", "-C", os.path.join(REPO, "p4src"), "check", "P4C=%s" % P4C],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
