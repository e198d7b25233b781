"""Recovery: kill -9 of the backend and of the core with 10,000 sessions, on the lab's backend-only
topology (network namespaces, the real hupf-backend on af_packet, the Java lab runner with its durable
store), while a probe forwards uplink traffic of a sample of UEs and counts it per 100 ms.

1. 10,000 sessions over PFCP; every one in the store and in the backend; the probe's UEs forward.
2. kill -9 the backend: the lab's supervisor restarts it, the runner reconnects, pushes the pipeline and
   puts every session back: all 10,000 in the backend and the probe forwarding again.
3. kill -9 the core (lab runner): the lab's supervisor starts it again; PFCP is answered again, all 10,000 in
   its store, the backend's pipeline kept (same cookie), nothing to write after the read-and-diff, the probe's
   packets never stop; the SMF sees the same Recovery Time Stamp and its association: a heartbeat and a
   deletion are answered as before.
4. kill -9 the core just after it answered an establishment: the SMF's retransmission of that request, after the
   supervised restart, gets the same bytes (TS 29.244 §6.4), and nothing is established twice.

Figures go to reports/recovery.json (docs/RELIABILITY.md). HUPF_RECOVERY_SESSIONS changes the count.
"""
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import types

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "pfcp"))
sys.path.insert(0, HERE)

from hupf_tools.lab import accounting, frames as lab_frames, run as lab, scenario, topo  # noqa: E402
import smf as emulator  # noqa: E402
import bulk_smf  # noqa: E402
from pfcp_spec import build_message  # noqa: E402

SESSIONS = int(os.environ.get("HUPF_RECOVERY_SESSIONS", "10000"))
PROBE_UES = 50
PROBE_PPS = 1000
# Every wait is on a condition; this bound only ends a run that hangs: a busy machine makes each step slower
# (at load 45 on this 2-vCPU VM the 10,000 sessions' status took over 30 s, a backend's recovery over 100 s).
BOUND_S = 900.0
ESTABLISHMENT_RESPONSE = 51
REPORT = os.path.join(ROOT, "reports", "recovery.json")
P4C_OUT = os.path.join(ROOT, "pipeconf", "src", "main", "resources", "p4c-out")
CLASSPATH = os.path.join(ROOT, "standalone", "target", "host-classpath.txt")


def _skip_reason():
    if os.geteuid() != 0:
        return "needs root (network namespaces, veth, af_packet)"
    if not os.path.exists(lab.BACKEND):
        return "hupf-backend not built (make backend)"
    if shutil.which("java") is None:
        return "java missing"
    return None


def _classpath():
    if not os.path.exists(CLASSPATH):
        subprocess.run(["mvn", "-B", "-q", "-pl", "standalone", "-am", "package", "-DskipTests",
                        "dependency:build-classpath", "-Dmdep.includeScope=runtime",
                        "-Dmdep.outputFile=${project.build.directory}/deps-classpath.txt"], cwd=ROOT, check=True)
        with open(os.path.join(ROOT, "standalone", "target", "deps-classpath.txt")) as f:
            deps = f.read().strip()
        with open(CLASSPATH, "w") as f:
            f.write(os.path.join(ROOT, "standalone", "target", "classes") + ":" + deps)
    with open(CLASSPATH) as f:
        return f.read().strip()


def wait(what, cond, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))


def wait_port(port, timeout=30):
    def up():
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", port)) == 0
    wait("port %d" % port, up, timeout)


class Lab:
    """The lab's pieces, kept between the steps; figures collected in `report`."""

    def __init__(self):
        self.workdir = tempfile.mkdtemp(prefix="hupf-recovery-")
        self.topo = topo.Topology(False, os.getpid() % (topo.MAX_TAG + 1))
        self.procs = lab.Procs(self.workdir)
        self.report = {"sessions": SESSIONS, "probe_ues": PROBE_UES, "probe_pps": PROBE_PPS}

    def status(self):
        return lab.read_json(self.cfg["status"])

    def backend_sessions(self):
        return len([u for u in self.status().get("targets", {}).get("backend", []) if not u.startswith("read")])

    def supervisor(self, name="backend"):
        return lab.read_json(os.path.join(self.workdir, name + "-supervisor.json"))

    def log(self, name):
        with open(os.path.join(self.workdir, name + ".log")) as f:
            return f.read()

    def probe_counts(self):
        return lab.read_json(os.path.join(self.workdir, "probe.json"), {"buckets": {}, "per_ue": {}})

    def sent_and_received(self, t0, t1, flight=0.3):
        """Probe packets sent from t0 to t1, and received from t0 to t1 + flight (in flight at t1)."""
        return (counted(os.path.join(self.workdir, "sent.json"), t0, t1),
                counted(os.path.join(self.workdir, "probe.json"), t0, t1 + flight))


@pytest.fixture(scope="module")
def rig():
    why = _skip_reason()
    if why:
        pytest.skip("SKIPPED recovery: " + why)
    r = Lab()
    try:
        r.cp = _classpath()
        r.topo.up()
        net = dict(r.topo.addresses())
        ports = {"backend": lab.free_port(), "pfcp": lab.free_port()}
        backend = [lab.BACKEND, "--grpc-addr", "127.0.0.1:%d" % ports["backend"], "--device-id", "1",
                   "--sessions", "65536", "--mem", "1024", "--local-writes", lab.local_writes(r.workdir, "backend")]
        for p, ifname in sorted(r.topo.backend_ports.items()):
            backend += ["--port", "%d=%s" % (p, ifname)]
        r.procs.start("backend", lab.supervised(backend, os.path.join(r.workdir, "backend-supervisor.json")))
        wait_port(ports["backend"])
        r.cfg = lab.runner_config(False, net, r.workdir, types.SimpleNamespace(threshold_bps=10 ** 12), ports)
        r.cfg["poll_ms"] = 2000  # the offload poll reads every counter: less often, with 10,000 sessions
        # Answers kept for retransmissions longer than any restart of a loaded machine takes: step 4 asserts
        # what is answered, not how fast the core came back.
        r.cfg["pfcp"]["retransmission_window_ms"] = 3_600_000
        if os.environ.get("HUPF_RECOVERY_SYNC_MS"):
            r.cfg["state_sync_ms"] = int(os.environ["HUPF_RECOVERY_SYNC_MS"])
        r.cfg_path = os.path.join(r.workdir, "runner.json")
        with open(r.cfg_path, "w") as f:
            json.dump(r.cfg, f)
        lab.start_runner(r.procs, r.cp, r.cfg_path)
        lab.wait_ready(r.procs, r.cfg["status"], BOUND_S)
        # Ready means PFCP is answered; a backend whose first arbitration a starved machine let time out is still
        # DOWN (it reconnects in the background) and session requests are refused with cause 77 until it is UP.
        wait("the runner's backend UP", lambda: devices_up(r), BOUND_S)
        r.net = net
        yield r
    finally:
        r.procs.stop()
        r.topo.down()
        os.makedirs(os.path.dirname(REPORT), exist_ok=True)
        with open(REPORT, "w") as f:
            json.dump(r.report, f, indent=1)
        print("recovery figures: " + json.dumps(r.report))


def devices_up(r):
    devices = r.status().get("devices", {})
    return devices and all(d.get("state") == "UP" for d in devices.values())


def start_probe(r, ues, tag=""):
    """The probe on these UEs, counting into probe{tag}.json and sent{tag}.json."""
    spec = {"eth_dst": r.net["gnb_peer_mac"], "eth_src": r.net["gnb_mac"], "gnb": lab.GNB, "n3": lab.N3,
            "app": lab.APP, "ues": [[u["idx"], u["addr"], u["ul_teid"]] for u in ues]}
    spec_path = os.path.join(r.workdir, "probe-spec.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f)
    py = [sys.executable, os.path.join(HERE, "probe.py")]
    received = os.path.join(r.workdir, "probe%s.json" % tag)
    if os.path.exists(received):
        os.remove(received)  # a stopped receiver's: the new one's file says it listens
    r.procs.start("probe-recv", py + ["recv", "--iface", topo.HOST_IF["dn"], "--out", received], r.topo.ns("dn"))
    wait("the probe's receiver", lambda: os.path.exists(received), BOUND_S)
    r.procs.start("probe-send", py + ["send", "--iface", topo.HOST_IF["gnb"], "--spec", spec_path,
                                      "--pps", str(PROBE_PPS), "--out", os.path.join(r.workdir, "sent%s.json" % tag)],
                  r.topo.ns("gnb"))


def stop_probe(r):
    """Stops the probe's sender, then its receiver once it drained what is queued (both write their final counts)."""
    r.procs.stop("probe-send", timeout=BOUND_S)
    r.procs.stop("probe-recv", timeout=BOUND_S)


def counted_drops(r):
    """Every drop the backend and the kernel counted so far (accounting.collect)."""
    b = r.cfg["backends"][0]
    device = accounting.Device("backend", r.supervisor()["pid"], os.path.join(r.workdir, "backend.log"), b["grpc"],
                               b["p4info"])
    return accounting.collect([device], r.topo, [])


class ProbeWindow:
    """The probe alone on the path from open to close, on files of its own: the rig's probe is stopped (drained)
    before and started again after, so that the drops counted in between are the window's packets' alone."""

    def __init__(self, r, tag):
        self.r, self.tag = r, tag
        stop_probe(r)
        self.before = counted_drops(r)
        start_probe(r, r.probe_ues, tag)

    def close(self):
        """accounting.balance of the window's packets, with their drops by place and reason under "drops"."""
        r = self.r
        stop_probe(r)
        drops = accounting.since(counted_drops(r), self.before)
        got = lab.read_json(os.path.join(r.workdir, "probe%s.json" % self.tag))
        if got["socket_drops"]:
            drops["room"]["kernel"]["probe receiver socket"] = got["socket_drops"]
        sent = sum(lab.read_json(os.path.join(r.workdir, "sent%s.json" % self.tag))["per_ue"].values())
        start_probe(r, r.probe_ues)
        return dict(accounting.balance(sent, sum(got["per_ue"].values()), drops), drops=drops)


def counted(path, t0, t1):
    """Packets a probe file counted in 100 ms slots from t0 to t1."""
    b = lab.read_json(path, {"buckets": {}})["buckets"]
    return sum(n for slot, n in b.items() if t0 <= int(slot) * 0.1 < t1)


def forwarding_ues_since(r, t, before):
    """UEs of the probe with packets counted after `before` was taken (per-UE counts then)."""
    now = r.probe_counts()["per_ue"]
    return {k for k, n in now.items() if n > before.get(k, 0)}


def test_10k_sessions_established_stored_and_forwarding(rig):
    r = rig
    r.smf = emulator.Smf(("127.0.0.1", r.cfg["pfcp"]["port"]), node_id=lab.SMF_NODE)
    resp, _ = r.smf.request(r.smf.association_setup())
    assert emulator.cause(resp) == 1
    r.recovery_ts = emulator.ie(resp, emulator.P.IE_RecoveryTimeStamp).timestamp
    r.ues = [{"idx": i, "addr": scenario.ue_addr(i), "dl_teid": scenario.DL_TEID_BASE + i}
             for i in range(1, SESSIONS + 1)]
    t0 = time.time()
    accepted = bulk_smf.establish(r.smf, r.ues, lab.GNB)
    r.report["establish_s"] = round(time.time() - t0, 1)
    assert accepted == SESSIONS
    wait("%d sessions in the store" % SESSIONS, lambda: r.status().get("pfcp_sessions") == SESSIONS, BOUND_S)
    wait("%d sessions in the backend" % SESSIONS, lambda: r.backend_sessions() == SESSIONS, BOUND_S)
    r.probe_ues = r.ues[:: SESSIONS // PROBE_UES][:PROBE_UES]
    start_probe(r, r.probe_ues)
    wait("the probe's UEs forwarding", lambda: len(r.probe_counts()["per_ue"]) == PROBE_UES, BOUND_S)


def test_backend_kill9_is_restarted_and_gets_every_session_back(rig):
    r = rig
    victim = r.supervisor()["pid"]
    killed = time.time()
    os.kill(victim, signal.SIGKILL)
    wait("the supervisor's restart", lambda: r.supervisor().get("restarts") == 1 and r.supervisor().get("pid"), BOUND_S)
    r.report["backend_restarted_s"] = round(time.time() - killed, 1)
    wait("the runner to see the backend down", lambda: r.status().get("devices", {}).get("backend", {})
         .get("reconnects", 0) >= 1 or r.status().get("devices", {}).get("backend", {}).get("state") != "UP", BOUND_S)
    wait("the backend UP again", lambda: r.status().get("devices", {}).get("backend", {}).get("state") == "UP"
         and r.status()["devices"]["backend"]["reconnects"] >= 1, BOUND_S)
    wait("all %d sessions back in the backend" % SESSIONS, lambda: r.backend_sessions() == SESSIONS,
         BOUND_S)
    r.report["backend_sessions_back_s"] = round(time.time() - killed, 1)
    before = r.probe_counts()["per_ue"]
    wait("every probe UE forwarding again", lambda: len(forwarding_ues_since(r, killed, before)) == PROBE_UES,
         BOUND_S)
    r.report["backend_forwarding_back_s"] = round(time.time() - killed, 1)
    sent, received = r.sent_and_received(killed, time.time() - 0.5)
    r.report["backend_outage_probe_sent_received"] = [sent, received]
    assert r.status()["pfcp_sessions"] == SESSIONS, "the store lost sessions while the backend was away"


def pfcp_answers(smf):
    try:
        return smf.request(smf.heartbeat(), timeout=1.0)[0]
    except AssertionError:
        return None


def test_core_kill9_is_restarted_answers_pfcp_and_keeps_every_session_and_forwarding(rig):
    r = rig
    window = ProbeWindow(r, "-core-kill")
    victim = r.supervisor("runner")["pid"]
    killed = time.time()
    os.kill(victim, signal.SIGKILL)
    wait("the supervisor's restart of the core", lambda: r.supervisor("runner").get("restarts") == 1
         and r.supervisor("runner").get("pid"), BOUND_S)
    os.remove(r.cfg["status"])  # the dead runner's; the new one writes its own every half second
    answer = wait("PFCP answered again", lambda: pfcp_answers(r.smf), BOUND_S)
    r.report["core_pfcp_answered_s"] = round(time.time() - killed, 1)
    # The SMF's view: same Recovery Time Stamp, same association (bound to its address and port).
    assert emulator.ie(answer, emulator.P.IE_RecoveryTimeStamp).timestamp == r.recovery_ts
    wait("the restarted core's status", lambda: r.status().get("ready"), BOUND_S)
    ready = time.time()
    r.report["core_restart_ready_s"] = round(ready - killed, 1)
    assert r.status()["pfcp_sessions"] == SESSIONS, "sessions lost across the core's kill -9"
    started = [ln for ln in r.log("runner").splitlines() if "stored sessions, devices reconciled" in ln]
    assert len(started) == 2, started
    assert "restored state" in started[1], started
    assert "reconciled with 0 writes" in started[1], "the read-and-diff found differences: " + started[1]
    r.report["core_restart_log"] = started[1]
    wait("the backend listed", lambda: r.backend_sessions() == SESSIONS, BOUND_S)
    # Forwarding never stopped: each probe packet sent from before the kill to the restarted core's readiness
    # arrived or was counted dropped for want of room (a busy machine's drops); hupf decided no drop.
    account = window.close()
    r.report["core_restart_probe"] = account
    assert account["sent"] > 0, "the probe sent nothing during the core's restart"
    assert account["uncounted"] == 0 and account["verdicts"] == 0, (
        "during the core's restart %d probe packets sent, %d delivered, %d dropped for want of room (%s), %d by "
        "hupf's decision (%s), %d counted by nobody" % (
            account["sent"], account["delivered"], account["dropped"], accounting.describe(account["drops"]["room"]),
            account["verdicts"], accounting.describe(account["drops"]["verdicts"]), account["uncounted"]))
    u = r.ues[-1]
    resp, _ = r.smf.request(r.smf.deletion(u["up_seid"]), timeout=30)
    assert emulator.cause(resp) == 1
    wait("the deletion in the store", lambda: r.status().get("pfcp_sessions") == SESSIONS - 1, BOUND_S)
    r.report["sessions_lost"] = SESSIONS - r.status()["pfcp_sessions"] - 1


def kill9_core_until_answering(r):
    """kill -9 of the lab runner under its supervisor; returns once the new one answers PFCP with its status up."""
    before = r.supervisor("runner")
    os.kill(before["pid"], signal.SIGKILL)
    wait("the supervisor's restart of the core", lambda: r.supervisor("runner").get("restarts", 0)
         == before.get("restarts", 0) + 1 and r.supervisor("runner").get("pid") not in (None, before["pid"]), BOUND_S)
    if os.path.exists(r.cfg["status"]):
        os.remove(r.cfg["status"])  # the dead runner's
    wait("PFCP answered again", lambda: pfcp_answers(r.smf), BOUND_S)
    wait("the restarted core's status", lambda: r.status().get("ready"), BOUND_S)


def test_a_retransmission_after_the_cores_kill9_gets_the_same_answer_and_nothing_twice(rig):
    r = rig
    stored = r.status()["pfcp_sessions"]
    idx = SESSIONS + 1
    ue = scenario.ue_addr(idx)
    spec = r.smf.establishment(idx, ue, dl_far_action=0x02, gnb=lab.GNB, gnb_teid=scenario.DL_TEID_BASE + idx,
                               urr=False)
    request = bytes(build_message(spec))
    resp, answered = r.smf.request(spec)
    assert emulator.cause(resp) == 1
    kill9_core_until_answering(r)
    assert r.status()["pfcp_sessions"] == stored + 1
    r.smf.send_raw(request)  # the SMF's retransmission: same bytes, same sequence number
    again, data = r.smf.wait_for(ESTABLISHMENT_RESPONSE, 120)
    assert again is not None, "the retransmission went unanswered"
    assert data == answered, "a different answer: %s, first %s" % (data.hex(), answered.hex())
    wait("the backend listed", lambda: r.backend_sessions() == stored + 1, BOUND_S)
    assert r.status()["pfcp_sessions"] == stored + 1, "the retransmission established a second session"
    assert r.status()["targets"]["backend"].count(ue) == 1
    r.report["retransmission_after_core_kill9"] = "same bytes, nothing twice"


def fragments(frame, first_payload=1480):
    """The frame's outer IPv4 packet as two fragments (MF, then offset), each with its own checksum."""
    eth, hdr, payload = frame[:14], bytearray(frame[14:34]), frame[34:]
    out = []
    for part, off, more in ((payload[:first_payload], 0, True), (payload[first_payload:], first_payload, False)):
        h = bytearray(hdr)
        struct.pack_into("!H", h, 2, 20 + len(part))
        struct.pack_into("!H", h, 6, (0x2000 if more else 0) | off // 8)
        struct.pack_into("!H", h, 10, 0)
        struct.pack_into("!H", h, 10, lab_frames.checksum(bytes(h)))
        out.append(eth + bytes(h) + part)
    return out


def backend_stats(r):
    """The backend's data-plane counters: SIGUSR1 makes it log a stats line."""
    log_path = os.path.join(r.workdir, "backend.log")
    before = os.path.getsize(log_path)
    os.kill(r.supervisor()["pid"], signal.SIGUSR1)

    def line():
        with open(log_path) as f:
            f.seek(before)
            for ln in f:
                if '"msg":"stats"' in ln:
                    return json.loads(ln)
        return None
    return wait("the backend's stats line", line, BOUND_S)


def kernel_reassembled():
    """IPv4 packets the kernel reassembled (IpReasmOKs of /proc/net/snmp, this network namespace)."""
    with open("/proc/net/snmp") as f:
        rows = [line.split() for line in f if line.startswith("Ip:")]
    return int(rows[1][rows[0].index("ReasmOKs")])


def test_jumbo_frames_forwarded_and_fragments_reassembled_below_the_data_plane(rig):
    """MTU 9000 ports: an 8,000-byte uplink packet is forwarded whole. An uplink G-PDU in two IPv4 fragments
    is reassembled by the kernel before the backend sees it (DPDK's af_packet joins a fanout group with the
    defrag flag) and forwarded once; the data plane's own fragment drop counter (for PMDs that deliver
    fragments) stays where it was."""
    r = rig
    jumbo_ue, frag_ue = r.ues[1], r.ues[2]  # not among the probe's UEs (every SESSIONS/PROBE_UES-th)
    build = lambda u, size: bytes(lab_frames.uplink_frame(r.net["gnb_peer_mac"], r.net["gnb_mac"], lab.GNB, lab.N3,
                                                          u["ul_teid"], u["addr"], lab.APP, u["idx"], size).buf)
    fragments_before = backend_stats(r)["ipv4_fragments_dropped"]
    reassembled_before = kernel_reassembled()
    spec = os.path.join(r.workdir, "frames.json")
    with open(spec, "w") as f:
        json.dump([build(jumbo_ue, 8000).hex()] + [x.hex() for x in fragments(build(frag_ue, 3000))], f)
    subprocess.run(["ip", "netns", "exec", r.topo.ns("gnb"), sys.executable, os.path.join(HERE, "probe.py"),
                    "frames", "--iface", topo.HOST_IF["gnb"], "--spec", spec], check=True)
    wait("the 8,000-byte packet at the DN", lambda: r.probe_counts()["per_ue"].get(str(jumbo_ue["idx"])) == 1, BOUND_S)
    wait("the reassembled packet at the DN", lambda: r.probe_counts()["per_ue"].get(str(frag_ue["idx"])) == 1, BOUND_S)
    assert kernel_reassembled() > reassembled_before
    assert backend_stats(r)["ipv4_fragments_dropped"] == fragments_before


def test_core_and_backend_kill9_together_pfcp_answered_and_every_session_back(rig):
    """Both die at once (the issue's worst case): the supervisors restart both; the core answers PFCP without
    waiting for its backend, reconnects to it when it serves, and puts every session back."""
    r = rig
    held = r.status()["pfcp_sessions"]
    backend, core = r.supervisor()["pid"], r.supervisor("runner")["pid"]
    backend_restarts, core_restarts = r.supervisor()["restarts"], r.supervisor("runner")["restarts"]
    killed = time.time()
    os.kill(backend, signal.SIGKILL)
    os.kill(core, signal.SIGKILL)
    wait("both restarted", lambda: r.supervisor().get("restarts") == backend_restarts + 1 and r.supervisor()["pid"]
         and r.supervisor("runner").get("restarts") == core_restarts + 1 and r.supervisor("runner")["pid"], BOUND_S)
    os.remove(r.cfg["status"])
    answer = wait("PFCP answered again", lambda: pfcp_answers(r.smf), BOUND_S)
    r.report["both_pfcp_answered_s"] = round(time.time() - killed, 1)
    assert emulator.ie(answer, emulator.P.IE_RecoveryTimeStamp).timestamp == r.recovery_ts
    wait("the restarted core's status", lambda: r.status().get("ready"), BOUND_S)
    assert r.status()["pfcp_sessions"] == held, "sessions lost across the kill -9 of both"
    wait("every session back in the backend", lambda: r.backend_sessions() == held, BOUND_S)
    r.report["both_sessions_back_s"] = round(time.time() - killed, 1)
    before = r.probe_counts()["per_ue"]
    wait("every probe UE forwarding again", lambda: len(forwarding_ues_since(r, killed, before)) == PROBE_UES,
         BOUND_S)
    r.report["both_forwarding_back_s"] = round(time.time() - killed, 1)
