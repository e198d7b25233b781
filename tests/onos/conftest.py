"""hupf in a running ONOS 2.7 (issue 18): fixtures that boot ONOS from the runtime found on this machine,
install the freshly built .oar, run hupf's backend as a P4Runtime device and push netcfg/deployment.json
(ports rewritten to free ones) exactly as the README's "Deployment with ONOS" does by hand.

Bounded: the whole suite is aborted after SUITE_TIMEOUT_S (the fixtures' teardown still stops ONOS and the
backend); ONOS's logs and the backend's are kept in reports/onos/ when a test failed."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from scapy.contrib import pfcp as P

import cluster as cluster_mod
import headless_chromium
import onos_ready
import onos_runtime
from hupf_tools import p4tools
from hupf_tools.lab import accounting, bmv2_log as bmv2_log_mod

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pfcp"))
import smf as smf_mod  # noqa: E402  (the SMF emulator of tests/pfcp)

REPO = Path(__file__).resolve().parents[2]
REPORTS = REPO / "reports" / "onos"
BACKEND = Path(os.environ.get("HUPF_BACKEND") or REPO / "backend" / "build" / "hupf-backend")
NETCFG = REPO / "netcfg" / "deployment.json"
# A bound on a hung suite, not on a slow one: with bmv2 on a loaded machine (load 15-37, 6 Dec 2026) the whole suite
# took 41 min; cut at 30 min, it failed the test it was in though none had hung.
SUITE_TIMEOUT_S = 3600
BOOT_TIMEOUT_S = 600
# A device's connection, pipeline and takeover: a starved backend took 90 s to commit the pipeline ONOS pushed (its
# data plane allocating the tables while GetForwardingPipelineConfig waited; 6 Dec 2026, load 16, the suite niced).
DEVICE_TIMEOUT_S = 300
# An app's install and start: ONOS's answers "not ready" (503) while a loaded machine starts it slowly.
APP_TIMEOUT_S = 300

WHY = onos_runtime.missing()
if WHY is None and not BACKEND.exists():
    WHY = "hupf-backend %s (make backend)" % BACKEND
if WHY:
    collect_ignore_glob = ["test_*.py"]
# The switch of the hybrid test: bmv2 where it is found (hupf_tools.p4tools).
BMV2 = p4tools.bmv2()
# What plays the switch in the hybrid test: bmv2 where it is found, else hupf-backend running the hw profile
# (the lab's choice); HUPF_ONOS_SWITCH=bmv2|backend chooses.
SWITCH_TARGET = os.environ.get("HUPF_ONOS_SWITCH") or ("bmv2" if BMV2 else "backend")
HYBRID_WHY = None
if WHY is None:
    if SWITCH_TARGET not in ("bmv2", "backend"):
        HYBRID_WHY = "a known switch (HUPF_ONOS_SWITCH=%s: bmv2 or backend)" % SWITCH_TARGET
    elif SWITCH_TARGET == "bmv2" and BMV2 is None:
        HYBRID_WHY = p4tools.BMV2_HINT
    elif os.geteuid() != 0:
        HYBRID_WHY = "root (network namespaces and veth for the hybrid's traffic)"
CLUSTER_WHY = cluster_mod.missing() if WHY is None else None
# The gNB switch ONOS programs (test_onos_gnb.py): bmv2 on veth pairs.
GNB_WHY = None
if WHY is None:
    if BMV2 is None:
        GNB_WHY = p4tools.BMV2_HINT
    elif os.geteuid() != 0:
        GNB_WHY = "root (network namespaces and veth for the gNB's frames)"
GUI_OAR = onos_runtime.gui_oar(onos_runtime.onos_home()) if WHY is None else None
GUI_WHY = None
if WHY is None:
    if GUI_OAR is None:
        GUI_WHY = "ONOS web GUI app %s (python3 ../shared/onos/gui.py --work %s)" % (
            onos_runtime.onos_home().parent / "pkg" / "onos-web-gui.oar", onos_runtime.onos_home().parent)
    elif headless_chromium.chromium_path() is None:
        GUI_WHY = "chromium (make setup installs Debian's chromium)"


def pytest_collection_finish(session):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if WHY:
        # run_suite.sh reports the suite SKIPPED on this line (pytest exits 5: nothing collected).
        reporter.write_line("SKIPPED onos: missing %s" % WHY)
    else:
        if GUI_WHY:
            reporter.write_line("SKIPPED onos gui: missing %s" % GUI_WHY)
        if HYBRID_WHY:
            reporter.write_line("SKIPPED onos hybrid: missing %s" % HYBRID_WHY)
        if CLUSTER_WHY:
            reporter.write_line("SKIPPED onos cluster: missing %s" % CLUSTER_WHY)
        if GNB_WHY:
            reporter.write_line("SKIPPED onos gnb: missing %s" % GNB_WHY)


def pytest_runtest_makereport(item, call):
    if call.excinfo is not None:
        item.session.onos_failed = True


def _suite_timeout(signum, frame):
    raise TimeoutError("the ONOS suite ran longer than %d s" % SUITE_TIMEOUT_S)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _oar():
    """app/target/hupf-app-*.oar, rebuilt by the reactor when missing or older than a source."""
    oars = sorted((REPO / "app" / "target").glob("hupf-app-*.oar"))
    newest = max((p.stat().st_mtime for d in ("api/src", "core/src", "app/src", "pipeconf/src", "pom.xml",
                                              "api/pom.xml", "core/pom.xml", "app/pom.xml", "pipeconf/pom.xml")
                  for p in ([REPO / d] if (REPO / d).is_file() else (REPO / d).rglob("*")) if p.is_file()),
                 default=0)
    if not oars or oars[-1].stat().st_mtime < newest:
        res = subprocess.run(["mvn", "-B", "-q", "package", "-DskipTests"], cwd=REPO,
                             capture_output=True, text=True, timeout=900)
        assert res.returncode == 0, "building the .oar failed:\n" + (res.stdout + res.stderr)[-4000:]
        oars = sorted((REPO / "app" / "target").glob("hupf-app-*.oar"))
    assert oars, "no app/target/hupf-app-*.oar after the build"
    return oars[-1]


@pytest.fixture(scope="session")
def oar():
    return _oar()


@pytest.fixture(scope="session")
def onos(request, oar, tmp_path_factory):
    """ONOS booted from a private copy of the runtime, with the hupf .oar installed and activated."""
    signal.signal(signal.SIGALRM, _suite_timeout)
    signal.alarm(SUITE_TIMEOUT_S)
    o = onos_runtime.Onos(tmp_path_factory.mktemp("onos"))
    try:
        t0 = time.monotonic()
        o.start(BOOT_TIMEOUT_S)
        print("ONOS ready in %.0f s" % (time.monotonic() - t0))
        if GUI_OAR is not None:
            # Before hupf: its view registers when the GUI's service appears. Installing the GUI restarts
            # ONOS's REST: hupf's install waits until it answers again.
            gui = o.install_app(GUI_OAR)
            o.wait_ready(lambda: onos_ready.settled(o, onos_ready.apps_active([gui]), onos_ready.rest_codecs),
                         APP_TIMEOUT_S, "ONOS's GUI app running")
        o.install_app(oar, APP_TIMEOUT_S)
        o.wait_ready(lambda: onos_ready.settled(o, onos_ready.hupf_running, onos_ready.rest_codecs), APP_TIMEOUT_S,
                     "hupf running in ONOS")
    except BaseException:
        request.session.onos_failed = True  # a boot or install that fails keeps its logs too
        raise
    else:
        yield o
    finally:
        signal.alarm(0)
        o.stop()
        if getattr(request.session, "onos_failed", False) or os.environ.get("HUPF_KEEP_ONOS_LOGS"):
            o.keep_logs(REPORTS)
            print("ONOS logs kept in %s" % REPORTS)
        o.remove()


class Backend:
    """hupf-backend as a P4Runtime device on a free port of `host` (loopback unless ONOS runs elsewhere): port 1
    on the hybrid topology's backend link (or another interface) when there is one, else null ports; in the
    hw profile with more ports, it plays the switch."""

    def __init__(self, log, port1="null", host="127.0.0.1", profile="sw", more_ports=None, args=()):
        self.port = free_port()
        self.addr = "%s:%d" % (host, self.port)
        self.log = log
        ports = {1: port1, 2: "null"}
        ports.update(more_ports or {})
        cmd = [str(BACKEND), "--profile", profile, "--grpc-addr", self.addr, "--device-id", "1"]
        for p, dev in sorted(ports.items()):
            cmd += ["--port", "%d=%s" % (p, dev)]
        cmd += list(args)
        with open(log, "w") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, "hupf-backend exited: %s" % Path(log).read_text()[-2000:]
            with socket.socket() as s:
                if s.connect_ex((host, self.port)) == 0:
                    return
            assert time.monotonic() < deadline, "hupf-backend does not serve P4Runtime on %s" % self.addr
            time.sleep(0.2)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="session")
def hybrid_net():
    """The lab's hybrid namespace topology with two backends (gNB - switch port 1, DN - switch port 2, switch
    port 3 - backend port 1, switch port 4 - second backend's port 1), up for the whole suite because the
    backend's port 1 is on it; None where the hybrid test skips."""
    if WHY or HYBRID_WHY:
        yield None
        return
    from hupf_tools.lab import topo
    t = topo.Topology(True, os.getpid() % (topo.MAX_TAG + 1), backends=2)
    t.up()
    try:
        yield t
    finally:
        t.down()


# The switch's CPU port (HH reports reach hupf by it).
SWITCH_CPU_PORT = 255


def switch_command(target, ports, grpc_addr, bmv2_log):
    """bmv2 with no program (its log at bmv2_log, for its drops), or hupf-backend's hw profile: ONOS pushes the
    pipeconf's pipeline to either."""
    if target == "bmv2":
        cmd = [BMV2, "--device-id", "1", "--no-p4"] + bmv2_log_mod.fresh_log_args(str(bmv2_log))
        for p, ifname in sorted(ports.items()):
            cmd += ["-i", "%d@%s" % (p, ifname)]
        return cmd + ["--", "--grpc-server-addr", grpc_addr, "--cpu-port", str(SWITCH_CPU_PORT)]
    cmd = [str(BACKEND), "--profile", "hw", "--grpc-addr", grpc_addr, "--device-id", "1"]
    for p, ifname in sorted(ports.items()):
        cmd += ["--port", "%d=%s" % (p, ifname)]
    return cmd


@pytest.fixture(scope="session")
def switch(tmp_path_factory, hybrid_net):
    """The switch on the topology's switch ports. Up until the suite ends (ONOS can remove the switch's flow
    rules, when hupf is uninstalled, only from a running switch)."""
    port = free_port()
    log = tmp_path_factory.mktemp("switch") / ("%s.log" % SWITCH_TARGET)
    packets_log = log.parent / "bmv2-packets"
    with open(log, "w") as out:
        proc = subprocess.Popen(switch_command(SWITCH_TARGET, hybrid_net.switch_ports,
                                               "127.0.0.1:%d" % port, packets_log),
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    print("the switch: %s" % SWITCH_TARGET)
    try:
        yield {"addr": "127.0.0.1:%d" % port, "log": log, "proc": proc,
               "bmv2_log": bmv2_log_mod.Bmv2Log(str(packets_log), hybrid_net.switch_ports, pid=proc.pid)
               if SWITCH_TARGET == "bmv2" else None}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


P4C_OUT = REPO / "pipeconf" / "src" / "main" / "resources" / "p4c-out"


def backend_drops(backends):
    """The drops each backend ({name: Backend}, each with its pipeline) counted so far: its stats and pipeline."""
    return accounting.collect([accounting.Device(name, b.proc.pid, b.log, b.addr,
                                                 str(P4C_OUT / "sw" / "bmv2" / "p4info.txt"))
                               for name, b in backends.items()], None)


def pipelined(b):
    """Whether a Backend runs a pipeline (its drop counters can be read)."""
    try:
        backend_drops({"b": b})
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.FAILED_PRECONDITION:
            return False
        raise
    return True


def counted_drops(backends, switch, net, rx=()):
    """Every drop counted so far, in accounting.collect's shape: each backend's ({name: Backend}, their stats and
    pipeline), the switch's (bmv2's from its log, hupf-backend's as a backend's), the topology's veths' and the
    receivers' sockets (rx: their stats)."""
    devices = [accounting.Device(name, b.proc.pid, b.log, b.addr, str(P4C_OUT / "sw" / "bmv2" / "p4info.txt"))
               for name, b in backends.items()]
    if switch["bmv2_log"] is None:
        devices.append(accounting.Device("switch", switch["proc"].pid, switch["log"], switch["addr"],
                                         str(P4C_OUT / "hw" / "bmv2" / "p4info.txt")))
    out = accounting.collect(devices, net, [("receiver " + r["side"], r.get("socket_drops", 0)) for r in rx])
    return accounting.merge(out, switch["bmv2_log"].collect()) if switch["bmv2_log"] else out


@pytest.fixture(scope="session")
def backend(request, tmp_path_factory, hybrid_net):
    b = Backend(tmp_path_factory.mktemp("backend") / "hupf-backend.log",
                port1=hybrid_net.backend_ports[1] if hybrid_net else "null")
    yield b
    b.stop()
    if getattr(request.session, "onos_failed", False):
        REPORTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(b.log, REPORTS / "hupf-backend.log")


def deployment_netcfg(backend_addr, pfcp_port, reconcile_s=5):
    """netcfg/deployment.json with the backend's gRPC address and the PFCP port of this run; the periodic
    reconciliation every reconcile_s seconds (None: deployment.json's)."""
    cfg = json.loads(NETCFG.read_text())
    devices = cfg["devices"]
    assert list(devices) == ["device:backend:b1"], "deployment.json: one backend device expected"
    devices["device:backend:b1"]["basic"]["managementAddress"] = "grpc://%s?device_id=1" % backend_addr
    hupf = cfg["apps"]["org.hupf.app"]["hupf"]
    hupf["pfcp"]["port"] = pfcp_port
    # The GUI's traffic test has an SMF of its own beside the standing one (test_onos_ui_traffic).
    hupf["pfcp"]["allowedPeers"] = hupf["pfcp"]["allowedPeers"] + [TRAFFIC_SMF]
    if reconcile_s is not None:
        hupf["reconcileIntervalS"] = reconcile_s
    return cfg


def deploy(onos, backend, cfg=None):
    """Pushes netcfg (default: deployment_netcfg's for this backend on a free PFCP port); returns once ONOS
    pushed the pipeline and hupf took the backend over, with {"cfg", "pfcp_port", "device"}."""
    cfg = cfg or deployment_netcfg(backend.addr, free_port())
    status, body = onos.rest("POST", "/onos/v1/network/configuration", cfg)
    assert status == 200, "netcfg refused: %s %s" % (status, body)
    device = next(iter(cfg["devices"]))
    onos.wait_ready(lambda: onos_ready.settled(onos, onos_ready.pipeline_pushed(device),
                                               onos_ready.hupf_took_backend),
                    DEVICE_TIMEOUT_S, "hupf took backend %s over" % device)
    return {"cfg": cfg, "pfcp_port": cfg["apps"]["org.hupf.app"]["hupf"]["pfcp"]["port"], "device": device}


@pytest.fixture(scope="session")
def deployed(onos, backend):
    """The netcfg pushed; returns once ONOS pushed the pipeline and hupf took the backend over."""
    return deploy(onos, backend)


# UEs of the sessions that stay up from their creation to the end of the suite (the GUI lists them).
# A second SMF's Node ID and address, allowed beside the standing SMF's (127.0.0.1): a test's SMF of its own.
TRAFFIC_SMF = "127.0.0.2"
STANDING_PFCP_UE = "10.250.0.60"
STANDING_REST_UE = "10.250.0.61"


@pytest.fixture(scope="session")
def standing_smf(deployed):
    """The SMF emulator associated (Node ID 127.0.0.1) for the whole suite. Tests that need an SMF with that
    Node ID use this one: a second Association Setup from the same Node ID would be a restarted peer, whose
    sessions hupf deletes (the standing ones among them)."""
    smf = smf_mod.Smf(("127.0.0.1", deployed["pfcp_port"]))
    try:
        assert smf_mod.cause(smf.request(smf.association_setup())[0]) == 1
        yield smf
    finally:
        smf.close()


@pytest.fixture(scope="session")
def standing_sessions(onos, standing_smf):
    """Two sessions kept until the end of the suite: one from the SMF emulator over PFCP (downlink forwarded
    to a gNB), one over REST (downlink buffering). Returns {UE: upSeid}."""
    smf = standing_smf
    resp, _ = smf.request(smf.establishment(6001, STANDING_PFCP_UE, dl_far_action=smf_mod.FORW,
                                            gnb="10.0.1.1", gnb_teid=0x60))
    assert smf_mod.cause(resp) == 1
    sessions = {STANDING_PFCP_UE: smf_mod.ie(resp, P.IE_FSEID).seid}
    status, s = onos.rest("POST", "/onos/hupf/sessions", {
        "cpSeid": 6002, "nodeId": "controller", "pdrs": [
            {"pdrId": 1, "precedence": 10, "farId": 1, "pdi": {
                "sourceInterface": "ACCESS", "fTeid": {"choose": True}, "ueIpAddress": STANDING_REST_UE}},
            {"pdrId": 2, "precedence": 10, "farId": 2, "pdi": {
                "sourceInterface": "CORE", "ueIpAddress": STANDING_REST_UE}}],
        "fars": [{"farId": 1, "applyAction": ["FORW"], "forwardingParameters": {"destinationInterface": "CORE"}},
                 {"farId": 2, "applyAction": ["BUFF", "NOCP"]}]})
    assert status == 201, s
    sessions[STANDING_REST_UE] = s["upSeid"]
    yield sessions
    for seid in sessions.values():
        onos.rest("DELETE", "/onos/hupf/sessions/%d" % seid)
