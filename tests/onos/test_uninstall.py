"""Last in the suite: uninstalling hupf takes its entries with it. The switch's entries are flow rules owned by
the app org.hupf.app (not by its pipeconf); the backend's are no flow rules at all (hupf writes them in
P4Runtime batches). The app removes both when it is deactivated or uninstalled (not when one node of a cluster
stops): after DELETE /onos/v1/applications/org.hupf.app, ONOS lists no flow rule of it, the backend's tables
hold none of the standing sessions' entries and the switch's none of hupf's (both read over P4Runtime), nor a gNB
switch hupf programmed (test_onos_gnb.py; where bmv2 and root are found) its entries or clone session, in ONOS's
group store or on the device. Then
hupf comes back, and goes again while an association's sessions are being released: no session outlives it in
the store, no thread of hupf's outlives its components."""
import contextlib
import ipaddress
import re

import conftest
import onos_ready
import onos_runtime
import smf as smf_mod
from pfcp_spec import build_message
import test_onos_gnb as gnb_test
from test_onos import HW_P4INFO, BackendTables, device_flows
from test_scale import pipelined

APP = "org.hupf.app"
# hupf's components wait up to 30 s each for a thread blocked on a device that does not answer (Shutdowns): a
# starved backend made one uninstall take 70 s (29 Nov 2026, load 30-48).
UNINSTALL_TIMEOUT_S = 180


def app_flows(onos):
    status, body = onos.rest("GET", "/onos/v1/flows/application/%s" % APP)
    return body["flows"] if status == 200 else []


def switch_tables(onos, flows):
    """BackendTables of each switch holding hupf's flow rules (the hybrid test's)."""
    out = []
    for device in sorted({f["deviceId"] for f in flows}):
        status, cfg = onos.rest("GET", "/onos/v1/network/configuration/devices/%s" % device)
        assert status == 200, (status, cfg)
        addr = re.match(r"grpc://([^?]+)", cfg["basic"]["managementAddress"]).group(1)
        out.append(BackendTables(addr, HW_P4INFO))
    return out


def test_uninstalling_hupf_removes_its_entries(onos, deployed, backend, standing_sessions, tmp_path):
    with contextlib.ExitStack() as stack:
        gnb = None
        if conftest.GNB_WHY is None:
            gnb = stack.enter_context(gnb_test.gnb_bmv2(onos, tmp_path))
            gnb_test.program(onos, gnb)
        uninstall_and_check(onos, deployed, backend, standing_sessions)
        if gnb is not None:
            # hupf's deactivation returns once the device's read (or ONOS's group poll) confirmed the clone group's
            # removal: with its bundles gone, neither ONOS's store nor the device holds the group.
            onos.wait_ready(lambda: onos_ready.settled(onos, hupf_uninstalled), UNINSTALL_TIMEOUT_S,
                            "%s uninstalled" % APP)
            _, groups = onos.rest("GET", "/onos/v1/groups/%s" % gnb_test.DEVICE)
            assert not [g for g in (groups or {}).get("groups", []) if g.get("appId") == APP], groups
            assert gnb_test.clone_sessions(gnb["addr"]) == [], "the gNB switch keeps a clone session"
            gnb_test.no_frame_leaves(gnb["bed"], gnb_test.V.n3_in(0x100))
            confirmed = re.compile(r"Removed the 1 gNB clone groups of \[%s\] in (\d+) ms$"
                                   % re.escape(gnb_test.DEVICE), re.M)
            log = onos.karaf_log.read_text(errors="replace")
            removal = confirmed.search(log)
            assert removal, "hupf removed its clone group and its device or ONOS's group poll confirmed it (not purged)"
            stopped = re.findall(r"GnbComponent .*Stopped in (\d+) ms", log)
            print("the gNB's deactivation: clone group removed in %s ms, GnbComponent stopped in %s ms"
                  % (removal.group(1), stopped[-1] if stopped else "?"))


def uninstall_and_check(onos, deployed, backend, standing_sessions):
    flows = [f for f in app_flows(onos) if f["deviceId"] != gnb_test.DEVICE]
    # The switch's where the hybrid test added one; none on the backend.
    assert deployed["device"] not in {f["deviceId"] for f in flows}, flows[:3]
    foreign = [f for f in device_flows(onos, deployed["device"]) if f["appId"] not in (APP, "org.onosproject.core")]
    assert not foreign, "hupf's entries under another app: %s" % foreign[:3]
    switches = switch_tables(onos, flows)
    tables = BackendTables(backend.addr)
    try:
        ue = conftest.STANDING_PFCP_UE
        status, s = onos.rest("GET", "/onos/hupf/sessions/%d" % standing_sessions[ue])
        teid = next(p["pdi"]["fTeid"]["teid"] for p in s["pdrs"] if p["pdi"]["sourceInterface"] == "ACCESS")
        tables.wait_session(ue, teid, present=True)

        status, body = onos.rest("DELETE", "/onos/v1/applications/%s" % APP)
        assert status == 204, (status, body)
        onos.wait(lambda: not app_flows(onos), UNINSTALL_TIMEOUT_S, "no flow rule of %s left" % APP)
        tables.wait_session(ue, teid, present=False)
        assert tables.entries() == [], "entries left on the backend: %s" % tables.entries()[:5]
        for switch in switches:
            # ONOS's store forgetting them is not enough: the switch holds none of them either.
            assert switch.entries() == [], "entries left on the switch: %s" % switch.entries()[:5]
    finally:
        for t in [tables] + switches:
            t.close()
    log = onos.karaf_log.read_text(errors="replace")
    # The app removed them itself on deactivation, before hupf's pipeconf bundle took ONOS's drivers for them.
    assert re.search(r"Removed the \d+ flow rules of %s" % APP, log), "hupf removed its flow rules"
    assert "Removed hupf's entries from backend %s" % deployed["device"] in log, "hupf cleared its backend"


RELEASE_SESSIONS = 400
FIRST_RELEASE_UE = ipaddress.IPv4Address("10.250.64.0")
# What a node must never log when it stops on its own: it withdrew, nobody else took over.
WRONG_LEADER = re.compile(r"another node leads|is no longer this node's|node \S+ leads hupf")


def hupf_threads(onos):
    """{id: name} of the JVM's threads that are hupf's or named after its maps (Karaf's threads --list:
    "id | name |")."""
    found = re.findall(r"^\s*(\d+)\s*[|\u2502]\s*(\S+)", onos.cli("threads --list | grep hupf"), re.M)
    return {int(i): n for i, n in found if "hupf" in n}


def thread_stacks(onos, threads):
    """Karaf's account of each thread (state, locks, stack): what a thread left behind is blocked on."""
    out = []
    for i in sorted(threads):
        try:
            out.append(onos.cli("threads --locks --monitors %d" % i))
        except onos_runtime.OnosError as e:
            out.append("thread %d: %s" % (i, e))
    return "\n".join(out)


def hupf_uninstalled(onos):
    """onos_ready probe: Karaf holds no hupf bundle any more (ONOS's REST forgets the app before Karaf is done)."""
    left = {b: s for b, s in onos.bundles().items() if b.startswith("org.hupf.")}
    return "hupf's bundles uninstalled from Karaf: %s" % left if left else None


def reinstall(onos, oar, deployed):
    """hupf installed again (once Karaf is done with the last uninstall), its netcfg pushed again (the same),
    running and driving its backend."""
    onos.wait_ready(lambda: onos_ready.settled(onos, hupf_uninstalled), UNINSTALL_TIMEOUT_S, "%s uninstalled" % APP)
    onos.install_app(oar, conftest.APP_TIMEOUT_S)
    onos.wait_ready(lambda: onos_ready.settled(onos, onos_ready.hupf_running), conftest.APP_TIMEOUT_S,
                    "hupf reinstalled")
    conftest.deploy(onos, None, deployed["cfg"])


def test_uninstall_during_a_release_leaves_no_session_and_no_thread(onos, oar, deployed, backend):
    """Issue 35: uninstalling while an association's sessions are being released left ~400 sessions in the
    distributed store, found again after a reinstall with no association; a writer thread outlived its component;
    a single node said another node led. The uninstall here follows the Association Release at once."""
    reinstall(onos, oar, deployed)
    smf = smf_mod.Smf(("127.0.0.1", deployed["pfcp_port"]))
    try:
        # A loaded machine may take the agent longer than the emulator's default 3 s to answer.
        assert smf_mod.cause(smf.request(smf.association_setup(), timeout=30)[0]) == 1
        specs = [smf.establishment(700000 + i, str(FIRST_RELEASE_UE + i)) for i in range(RELEASE_SESSIONS)]
        causes = [smf_mod.cause(r) for r in pipelined(smf, specs).values()]
        assert causes == [1] * RELEASE_SESSIONS, "refused: %s" % sorted(set(causes))
        log_start = len(onos.karaf_log.read_text(errors="replace"))
        smf.send_raw(bytes(build_message(smf.release())))
        status, body = onos.rest("DELETE", "/onos/v1/applications/%s" % APP)
        assert status == 204, (status, body)
    finally:
        smf.close()
    onos.wait_ready(lambda: onos_ready.settled(onos, hupf_uninstalled), UNINSTALL_TIMEOUT_S, "%s uninstalled" % APP)
    left = hupf_threads(onos)
    assert not left, "hupf's threads outlive its components: %s\n%s" % (sorted(left.values()), thread_stacks(onos, left))
    log = onos.karaf_log.read_text(errors="replace")[log_start:]
    assert not WRONG_LEADER.findall(log), "a single node spoke of another leader: %s" % WRONG_LEADER.findall(log)
    assert "RejectedExecutionException" not in log

    reinstall(onos, oar, deployed)
    status, body = onos.rest("GET", "/onos/hupf/sessions")
    assert status == 200 and body["sessions"] == [], "sessions outlived the uninstall: %d" % len(body["sessions"])
    tables = BackendTables(backend.addr)
    try:
        assert [t for t, _ in tables.entries() if t.endswith("_sessions")] == [], "session entries on the backend"
    finally:
        tables.close()
