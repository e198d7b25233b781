"""The P4 toolchain is found one way everywhere (hupf_tools/p4tools.py, tools/run_suite.sh): the tool's variable,
else PATH, else the prefix P4_PREFIX, whose lib/ run_suite.sh puts on LD_LIBRARY_PATH for the suite it runs."""
import os
import subprocess
from pathlib import Path

from hupf_tools import p4tools

REPO = Path(__file__).resolve().parents[2]


def fake_prefix(root):
    (root / "bin").mkdir(parents=True)
    (root / "lib").mkdir()
    for program in ("simple_switch_grpc", "p4c-bm2-ss"):
        tool = root / "bin" / program
        tool.write_text("#!/bin/sh\n")
        tool.chmod(0o755)
    return root


def test_the_prefix_is_looked_in_after_the_variable_and_path(tmp_path, monkeypatch):
    prefix = fake_prefix(tmp_path / "p4")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    monkeypatch.delenv("BMV2", raising=False)
    monkeypatch.delenv("P4C", raising=False)
    monkeypatch.setenv("P4_PREFIX", str(prefix))
    assert p4tools.bmv2() == str(prefix / "bin" / "simple_switch_grpc")
    assert p4tools.p4c() == str(prefix / "bin" / "p4c-bm2-ss")
    monkeypatch.setenv("BMV2", "/elsewhere/simple_switch_grpc")
    assert p4tools.bmv2() == "/elsewhere/simple_switch_grpc"
    monkeypatch.setenv("P4_PREFIX", str(tmp_path / "empty"))
    assert p4tools.p4c() is None


def suite_environment(tmp_path, prefix):
    env = dict(os.environ, P4_PREFIX=str(prefix), LD_LIBRARY_PATH="/caller/lib")
    res = subprocess.run([str(REPO / "tools" / "run_suite.sh"), "p4tools-probe", "sh", "-c",
                          'echo "PATH=$PATH"; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"'],
                         cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    return dict(line.split("=", 1) for line in res.stdout.splitlines() if line.startswith(("PATH=", "LD_")))


def test_run_suite_puts_the_prefix_on_path_and_its_libraries_on_the_loader_path(tmp_path):
    prefix = fake_prefix(tmp_path / "p4")
    env = suite_environment(tmp_path, prefix)
    assert env["PATH"].split(":")[-1] == str(prefix / "bin")
    assert env["LD_LIBRARY_PATH"] == "%s:/caller/lib" % (prefix / "lib")


def test_run_suite_leaves_both_alone_without_a_toolchain(tmp_path):
    (tmp_path / "empty").mkdir()
    env = suite_environment(tmp_path, tmp_path / "empty")
    assert str(tmp_path / "empty") not in env["PATH"]
    assert env["LD_LIBRARY_PATH"] == "/caller/lib"
