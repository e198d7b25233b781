"""Starts hupf's standalone runner (PFCP agent + session core, in-memory device) for the SMF emulator.

Needs java and the compiled app (see README.md). HUPF_CLASSPATH overrides the computed classpath.
"""
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

MAIN = "org.hupf.app.standalone.HupfStandalone"
CP_FILE = os.path.join(ROOT, "app", "target", "standalone.classpath")


def _classpath():
    if os.environ.get("HUPF_CLASSPATH"):
        return os.environ["HUPF_CLASSPATH"]
    classes = os.path.join(ROOT, "app", "target", "classes")
    pipeconf = os.path.join(ROOT, "pipeconf", "target", "classes")
    if not os.path.exists(os.path.join(classes, *MAIN.split(".")) + ".class"):
        if shutil.which("mvn") is None:
            pytest.skip("hupf app classes are not built and mvn is missing: run `make oar` first")
        subprocess.run(["mvn", "-B", "-q", "-pl", "pipeconf,app", "compile"], cwd=ROOT, check=True)
    if not os.path.exists(CP_FILE):
        if shutil.which("mvn") is None:
            pytest.skip("mvn is missing: cannot compute the app's dependency classpath")
        # Both modules in the reactor, so the pipeconf dependency and the parent pom resolve locally.
        subprocess.run(["mvn", "-B", "-q", "-pl", "pipeconf,app", "dependency:build-classpath",
                        "-Dmdep.includeScope=test", "-Dmdep.outputFile=${project.build.directory}/standalone.classpath"],
                       cwd=ROOT, check=True)
    with open(CP_FILE) as f:
        deps = [p for p in f.read().strip().split(os.pathsep) if "hupf-pipeconf" not in p]
    return os.pathsep.join([classes, pipeconf] + deps)


class Upf:
    def __init__(self, proc, pfcp_port, control_port):
        self.proc = proc
        self.addr = ("127.0.0.1", pfcp_port)
        self.control = "http://127.0.0.1:%d" % control_port

    def get(self, path):
        with urllib.request.urlopen(self.control + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path):
        req = urllib.request.Request(self.control + path, data=b"", method="POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())


def start_upf(*extra):
    if shutil.which("java") is None:
        pytest.skip("java is missing: the PFCP tests need a JDK to run hupf's standalone runner")
    cmd = ["java", "-cp", _classpath(), MAIN, "--port", "0", "--control-port", "0",
           "--allow", "127.0.0.1,smf.hupf.test", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("hupf standalone exited: " + proc.stderr.read())
        if line.startswith("hupf-standalone ready"):
            kv = dict(p.split("=") for p in line.split()[2:])
            return Upf(proc, int(kv["pfcp"]), int(kv["control"]))
    proc.kill()
    raise RuntimeError("hupf standalone did not start within 60 s")


def stop_upf(upf):
    upf.proc.terminate()
    try:
        upf.proc.wait(10)
    except subprocess.TimeoutExpired:
        upf.proc.kill()


@pytest.fixture(scope="module")
def upf():
    u = start_upf("--report-tick-ms", "200")
    yield u
    stop_upf(u)
