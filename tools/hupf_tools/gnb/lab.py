"""`tools/lab.sh gnb`: UE hosts -> the hybrid gNB (its P4 program on bmv2 where bmv2 is found, else the switch
stand-in gnb-switch; gnb-svc's crypto service and BaaS) -> N3 -> hupf's UPF (hupf-backend under the standalone lab runner, sessions over PFCP) -> N6, with a lossy
air link (netem on the gNB's side, downlink; where the kernel has no netem, the UE host's receiver drops the same
share, seeded) that makes BaaS's retransmissions visible (docs/GNB.md, "The lab").

    ue ns [ua]--air--[ga] (gnb-switch port 1)   gnb ns: gnb-switch port 2 [gc]--[sc] gnb-svc crypto port
                                                        gnb-switch port 3 [gb]--[sb] gnb-svc BaaS port
                      gnb0 (gnb-switch port 0, N3) -- backend port 1 | backend port 2 -- dn0 (dn ns)

Checks (exit 1 when one fails): every session established; every UE's downlink packets delivered deciphered,
complete and in order; every UE's uplink packets at the DN deciphered, complete and in order; the air lost
frames and BaaS resent at least as many (the switch counted each resend); BaaS's buffers drained; nothing
dropped by the switch or the services; no key in any log.

    sudo tools/lab.sh gnb [--switch bmv2|stand-in] [--ues 4] [--packets 400|100] [--pps 400|40] [--size 200] [--loss 5]
        [--seed 37] [--json FILE]
"""
import argparse
import glob
import json
import os
import re
import secrets
import signal
import sys
import tempfile
import time

from hupf_tools.gnb import bmv2_switch
from hupf_tools.gnb.ran_control import write_outputs
from hupf_tools.lab import processes, scenario, topo
from hupf_tools.lab import run as lab
from hupf_tools.lab.processes import LabError, Procs, free_port, read_json, say
from hupf_tools.lab.smf import Smf

GNB_BUILD = os.path.join(processes.REPO, "gnb", "build")
AIR_MAC = "02:67:6e:62:00:01"
SWITCH_PORTS = ("n3", "air", "crypto", "baas")   # gnb-switch's DPDK ports 0..3, as in the vectors
BAAS_TIMEOUT_MS = 200
MAX_RETX = 8
# The traffic's defaults, per UE and direction: bmv2, a software model, forwards a few hundred frames per second on
# a loaded 2-core machine, and each PDU crosses it two or three times (crypto, BaaS, air).
DEFAULTS = {"stand-in": {"packets": 400, "pps": 400}, "bmv2": {"packets": 100, "pps": 40}}
COUNTERS_TIMEOUT_S = 5
REPORTS_TIMEOUT_S = 10


def links(tag):
    """Interface names (15 characters at most) of this run's gNB-side veths."""
    return {"air": "ga%d" % tag, "ue": "ua%d" % tag, "crypto": "gc%d" % tag, "svc_crypto": "sc%d" % tag,
            "baas": "gb%d" % tag, "svc_baas": "sb%d" % tag}


def ue_ns(tag):
    return "hupf-ue-%d" % tag


def sh_ns(ns, *cmd, check=True):
    return topo.sh("ip", "netns", "exec", ns, *cmd, check=check)


def gnb_topology(t, loss):
    """The UE namespace and the gNB's inner links in the gNB namespace; the air's loss: netem on its gNB side
    ("netem"), or where the kernel has no netem the UE host's receiver ("ue-host"); None without loss."""
    names, gnb_ns, ue = links(t.tag), t.ns("gnb"), ue_ns(t.tag)
    topo.sh("ip", "netns", "del", ue, check=False)
    topo.sh("ip", "netns", "add", ue)
    pairs = [("air", "ue", ue), ("crypto", "svc_crypto", gnb_ns), ("baas", "svc_baas", gnb_ns)]
    for a, b, b_ns in pairs:
        topo.sh("ip", "link", "add", names[a], "netns", gnb_ns, "type", "veth", "peer", "name", names[b],
                "netns", b_ns)
    for ns, ifname in [(gnb_ns, names[k]) for k in ("air", "crypto", "svc_crypto", "baas", "svc_baas")] + [
            (ue, names["ue"])]:
        sh_ns(ns, "sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % ifname)
        sh_ns(ns, "ip", "link", "set", ifname, "arp", "off", "mtu", "9000", "up")
        sh_ns(ns, "ethtool", "-K", ifname, "tx", "off", check=False)
    if loss <= 0:
        return None
    try:
        sh_ns(gnb_ns, "tc", "qdisc", "add", "dev", names["air"], "root", "netem", "loss", "%g%%" % loss)
        return "netem"
    except topo.TopologyError as e:
        if "unknown" not in str(e):
            raise
        return "ue-host"   # a kernel without sch_netem: the UE host's receiver drops the share


def netem_drops(t):
    out = sh_ns(t.ns("gnb"), "tc", "-s", "qdisc", "show", "dev", links(t.tag)["air"])
    m = re.search(r"dropped (\d+)", out)
    return int(m.group(1)) if m else 0


def dpdk_eal(prefix, ifaces):
    return ["--no-huge", "-m", "256", "--no-pci", "--no-shconf", "-l", "0", "--log-level=lib.*:error",
            "--file-prefix=%s" % prefix] + ["--vdev=net_af_packet%d,iface=%s" % (i, f) for i, f in enumerate(ifaces)]


def check_running(procs, finishing):
    """Every process still runs, but those in finishing, which may have ended well (exit 0) once done."""
    for name, p, _ in procs.procs:
        if p.poll() is not None and not (name in finishing and p.returncode == 0):
            raise LabError("%s exited with status %s; log: %s" % (name, p.returncode, procs.log_tail(name)))


def wait_serving(procs, name, timeout=processes.READY_TIMEOUT_S):
    """Until a gNB binary says it serves: its line naming what it loaded ("gnb-switch: N entries, ..."; "gnb-svc:
    N UEs; ..."), printed once its entries or UEs are loaded and its ports started, just before its loop."""
    log, head = os.path.join(procs.workdir, name + ".log"), name + ": "
    deadline = time.time() + timeout
    while time.time() < deadline:
        check_running(procs, ())
        with open(log) as f:
            if any(line.startswith(head) and re.match(r"\d+ (entries|UEs)", line[len(head):]) for line in f):
                return
        time.sleep(0.05)
    raise LabError("%s did not start serving in %d s; log: %s" % (name, timeout, procs.log_tail(name)))


def counters(procs, name, after):
    """A gNB binary's counters printed on SIGUSR1 after the `after`-th JSON line of its log."""
    log = os.path.join(procs.workdir, name + ".log")
    next(p for n, p, _ in procs.procs if n == name).send_signal(signal.SIGUSR1)
    deadline = time.time() + COUNTERS_TIMEOUT_S
    while time.time() < deadline:
        with open(log) as f:
            lines = [line for line in f if line.startswith("{")]
        if len(lines) > after:
            return json.loads(lines[after]), after + 1
        time.sleep(0.05)
    raise LabError("%s printed no counters on SIGUSR1; log: %s" % (name, procs.log_tail(name)))


class StandInCounters:
    """gnb-switch's counters, printed on SIGUSR1 (and at exit, once stopped)."""

    def __init__(self, procs):
        self.procs, self.seen = procs, 0

    def __call__(self):
        sw, self.seen = counters(self.procs, "gnb-switch", self.seen)
        return sw

    def final(self):
        self.procs.stop("gnb-switch")
        return last_json(os.path.join(self.procs.workdir, "gnb-switch.log"))


class Bmv2Counters:
    """bmv2's counters, read over P4Runtime."""

    def __init__(self, switch):
        self.switch = switch

    def __call__(self):
        return self.switch.counters()

    def final(self):
        sw = self.switch.counters()
        self.switch.close()
        return sw


def reports_reached_baas(procs, sent, switch_counters):
    """Waits until the switch forwarded every status report the UEs sent and BaaS took them all (the last one
    acknowledges every PDU); after REPORTS_TIMEOUT_S the checks say what is left."""
    seen = {"gnb-svc": 0}
    deadline = time.time() + REPORTS_TIMEOUT_S
    while time.time() < deadline:
        sw = switch_counters()
        svc, seen["gnb-svc"] = counters(procs, "gnb-svc", seen["gnb-svc"])
        if sum(u["status_reports"] for u in sw["ues"].values()) >= sent and svc["baas"]["status_reports"] >= sent:
            return
        time.sleep(0.1)


def last_json(path):
    """The last JSON object line of a log (the gNB binaries' counters at exit)."""
    with open(path) as f:
        lines = [line for line in f if line.startswith("{")]
    if not lines:
        raise LabError("no counters in %s" % path)
    return json.loads(lines[-1])


def ran_config(net, plan, snbits):
    ues = []
    for k, u in enumerate(plan["ues"]):
        ues.append({"ue": u["idx"], "port": 1, "mac": "02:75:65:00:%02x:%02x" % (k >> 8, k & 0xFF), "lcid": 4,
                    "drb": 1, "snBits": snbits[k % len(snbits)], "dlTeid": u["dl_teid"], "ulTeid": u["ul_teid"],
                    "qfi": 9, "upfAddr": lab.N3, "kUpEnc": secrets.token_hex(16)})
        if k % 4 in (1, 2):   # with the SN lengths alternating: 12 and 18 bits, each with and without NIA2
            ues[-1]["kUpInt"] = secrets.token_hex(16)
    return {"gnb": {"n3": {"port": 0, "addr": lab.GNB, "mac": net["gnb_mac"], "upfMac": net["gnb_peer_mac"]},
                    "cryptoPort": 2, "baasPort": 3, "airMac": AIR_MAC}, "ues": ues}


def checks(plan, established, ue_stats, dn_stats, sw, svc, air_drops, keys, workdir):
    n, results = plan["packets"], []
    results.append(("every session established", established == len(plan["ues"]),
                    "%d/%d" % (established, len(plan["ues"]))))
    dl = ue_stats.get("ues", {})
    results.append(("every UE's downlink delivered deciphered, complete and in order",
                    len(dl) == len(plan["ues"]) and all(s["delivered"] == n and s["in_order"] and not s["bad"]
                                                        for s in dl.values()),
                    "; ".join("UE %s: %d/%d, bad %d" % (k, s["delivered"], n, s["bad"]) for k, s in sorted(dl.items()))))
    ul = dn_stats.get("ues", {})
    results.append(("every UE's uplink at the DN deciphered, complete and in order",
                    len(ul) == len(plan["ues"]) and not dn_stats.get("bad") and
                    all(s["received"] == n and s["in_order"] for s in ul.values()),
                    "; ".join("UE %s: %d/%d" % (k, s["received"], n) for k, s in sorted(ul.items()))
                    + ", bad %d" % dn_stats.get("bad", 0)))
    baas = svc["baas"]
    resent = baas["retx_status"] + baas["retx_timeout"]
    switch_retx = sum(u["retransmissions"] for u in sw["ues"].values())
    results.append(("the air lost frames, BaaS resent at least as many, the switch counted each resend",
                    air_drops > 0 and resent >= air_drops and switch_retx == resent,
                    "the air lost %d; BaaS resent %d (%d on status reports, %d on timeouts); switch %d; "
                    "UEs filled %d gaps" % (air_drops, resent, baas["retx_status"], baas["retx_timeout"], switch_retx,
                                           sum(s["recovered_out_of_order"] for s in dl.values()))))
    results.append(("BaaS's buffers drained", baas["held_pdus"] == 0 and baas["held_bytes"] == 0
                    and baas["drops"]["retx_exhausted"] == 0,
                    "held %d PDUs, %d bytes; held in all %d, acknowledged %d" % (
                        baas["held_pdus"], baas["held_bytes"], baas["held"], baas["acked"])))
    dropped = {"switch " + k: v for k, v in sw["drops"].items() if v}
    dropped.update({"crypto " + k: v for k, v in svc["crypto"]["drops"].items() if v})
    dropped.update({"baas " + k: v for k, v in baas["drops"].items() if v and k != "stale"})
    results.append(("nothing dropped in the gNB", not dropped and not sw["tx_full"] and not sw["copy_failed"],
                    json.dumps(dropped) if dropped else "none"))
    leaked = [p for p in glob.glob(os.path.join(workdir, "*.log")) if any(k in open(p).read() for k in keys)]
    results.append(("no key in any log", not leaked, ", ".join(leaked) or "%d logs read" % len(
        glob.glob(os.path.join(workdir, "*.log")))))
    return results


def run(args):
    for binary in ("gnb-switch", "gnb-svc"):
        if not os.access(os.path.join(GNB_BUILD, binary), os.X_OK):
            raise LabError("gnb/build/%s missing: make -C gnb" % binary)
    bmv2_missing = bmv2_switch.missing()
    if args.switch == "bmv2" and bmv2_missing:
        raise LabError("--switch bmv2 asked for, but missing %s" % bmv2_missing)
    on_bmv2 = args.switch == "bmv2" or (args.switch is None and not bmv2_missing)
    for name, value in DEFAULTS["bmv2" if on_bmv2 else "stand-in"].items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    switch_name = bmv2_switch.NAME if on_bmv2 else "gnb-switch (stand-in for p4src/gnb/gnb.p4)"
    tag = int(lab.lab_tag())
    t = topo.Topology(False, tag)
    workdir = tempfile.mkdtemp(prefix="hupf-gnb-lab-")
    procs = Procs(workdir)
    say("gNB lab: %s; %d UEs, %d packets each way per UE at %d pps, %g %% loss on the air; logs in %s"
        % (switch_name, args.ues, args.packets, args.pps, args.loss, workdir))
    try:
        t.up()
        lossy = gnb_topology(t, args.loss)
        if lossy == "ue-host":
            say("no netem in this kernel (sch_netem): the UE host drops %g %% of the air's downlink frames" % args.loss)
        net = dict(t.addresses(), n3=lab.N3, gnb=lab.GNB, app=lab.APP)
        ports = {"backend": free_port(), "pfcp": free_port()}
        procs.start("backend", [processes.BACKEND, "--grpc-addr", "127.0.0.1:%d" % ports["backend"], "--device-id",
                                "1", "--sessions", "65536", "--mem", "1024", "--port", "1=%s" % t.backend_ports[1],
                                "--port", "2=%s" % t.backend_ports[2],
                                "--local-writes", processes.local_writes(workdir, "backend")])
        cfg = lab.runner_config(False, net, workdir, scenario.Scenario(), ports)
        cfg_path = os.path.join(workdir, "runner.json")
        with open(cfg_path, "w") as f:
            json.dump(cfg, f, indent=1)
        with open(lab.CLASSPATH) as f:
            processes.start_runner(procs, f.read().strip(), cfg_path)
        processes.wait_ready(procs, cfg["status"])
        plan = {"gnb": lab.GNB, "ues": [{"idx": i, "addr": scenario.ue_addr(i), "dl_teid": 0x1000 + i}
                                        for i in range(args.ues)]}
        smf = Smf("127.0.0.1", ports["pfcp"], node_id=lab.SMF_NODE)
        established = smf.establish(plan)
        smf.close()
        say("%d/%d sessions established over PFCP" % (established, args.ues))
        if established != args.ues:
            raise LabError("sessions refused; runner log: %s" % procs.log_tail("runner"))
        ran = ran_config(net, plan, (12, 18))
        entries, keys_svc = os.path.join(workdir, "switch-entries.txt"), os.path.join(workdir, "ue-keys.txt")
        write_outputs(ran, entries, keys_svc)
        keys_ue = os.path.join(workdir, "ue-keys.json")
        fd = os.open(keys_ue, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump([dict(u, idx=u["ue"], addr=plan["ues"][k]["addr"]) for k, u in enumerate(ran["ues"])], f)
        names = links(tag)
        procs.start("gnb-svc", [os.path.join(GNB_BUILD, "gnb-svc")] + dpdk_eal(
            "gnbsvc%d" % tag, [names["svc_crypto"], names["svc_baas"]]) + [
            "--", "--crypto-port", "0", "--baas-port", "1", "--ues", keys_svc, "--timeout-ms", str(BAAS_TIMEOUT_MS),
            "--max-retx", str(MAX_RETX), "--idle-sleep-us", "50"], t.ns("gnb"))
        switch_ports = [topo.HOST_IF["gnb"], names["air"], names["crypto"], names["baas"]]
        if on_bmv2:
            switch_counters = Bmv2Counters(bmv2_switch.Bmv2GnbSwitch(procs, t.ns("gnb"), switch_ports, entries))
        else:
            procs.start("gnb-switch", [os.path.join(GNB_BUILD, "gnb-switch")] + dpdk_eal("gnbsw%d" % tag, switch_ports)
                        + ["--", "--entries", entries, "--idle-sleep-us", "50"], t.ns("gnb"))
            switch_counters = StandInCounters(procs)
        hosts = dict(plan, app=lab.APP, air_mac=AIR_MAC, dn_mac=net["dn_mac"], dn_peer_mac=net["dn_peer_mac"],
                     packets=args.packets, pps=args.pps, size=args.size,
                     air_loss=args.loss / 100.0 if lossy == "ue-host" else 0.0, seed=args.seed,
                     timeout_s=args.packets / args.pps * 4 + 20)
        plan_path = os.path.join(workdir, "plan.json")
        lab.write_plan(hosts, plan_path, start=None)
        stats = {k: os.path.join(workdir, "%s-stats.json" % k) for k in ("ue", "dn")}
        py = [sys.executable, "-m", "hupf_tools.gnb.lab_hosts"]
        procs.start("ue-host", py + ["ue", "--plan", plan_path, "--keys", keys_ue, "--iface", names["ue"],
                                     "--stats", stats["ue"]], ue_ns(tag))
        procs.start("dn-host", py + ["dn", "--plan", plan_path, "--iface", topo.HOST_IF["dn"], "--stats",
                                     stats["dn"]], t.ns("dn"))
        processes.wait_listening(procs, list(stats.values()))
        for name in ("gnb-svc", "gnb-switch") if not on_bmv2 else ("gnb-svc",):
            wait_serving(procs, name)
        lab.write_plan(hosts, plan_path, start=time.time() + 1.0)
        deadline = hosts["start"] + hosts["timeout_s"] + 10
        while time.time() < deadline and not all(read_json(p).get("done") for p in stats.values()):
            check_running(procs, ("ue-host", "dn-host"))
            time.sleep(0.3)
        reports_reached_baas(procs, read_json(stats["ue"]).get("status_reports", 0), switch_counters)
        air_drops = netem_drops(t) if lossy == "netem" else read_json(stats["ue"]).get("air_lost", 0)
        sw = switch_counters.final()
        procs.stop("gnb-switch")
        procs.stop("gnb-svc")
        svc = last_json(os.path.join(workdir, "gnb-svc.log"))
        keys = [u[k] for u in ran["ues"] for k in ("kUpEnc", "kUpInt") if k in u]
        results = checks(hosts, established, read_json(stats["ue"]), read_json(stats["dn"]), sw, svc, air_drops,
                         keys, workdir)
        lines = ["== hupf gNB lab summary ==", "switch: %s; load average at the end %s" % (
            switch_name, " ".join(open("/proc/loadavg").read().split()[:3]))]
        lines += ["%s  %s (%s)" % ("PASS" if ok else "FAIL", name, detail) for name, ok, detail in results]
        print("\n".join(lines), flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"checks": [{"name": n, "passed": ok, "detail": d} for n, ok, d in results],
                           "switch": sw, "switch_target": "bmv2" if on_bmv2 else "stand-in", "services": svc, "air_drops": air_drops, "air_loss_by": lossy, "ue": read_json(stats["ue"]),
                           "dn": read_json(stats["dn"])}, f, indent=1)
        return 0 if all(ok for _, ok, _ in results) else 1
    finally:
        procs.stop()
        topo.sh("ip", "netns", "del", ue_ns(tag), check=False)
        t.down()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--switch", choices=("bmv2", "stand-in"),
                    help="the gNB switch: bmv2 running the gNB program (default where found) or gnb-switch")
    ap.add_argument("--ues", type=int, default=4)
    ap.add_argument("--packets", type=int, help="per UE and direction (default 400; 100 on bmv2)")
    ap.add_argument("--pps", type=int, help="per direction, all UEs together (default 400; 40 on bmv2)")
    ap.add_argument("--size", type=int, default=200, help="user payload bytes")
    ap.add_argument("--loss", type=float, default=5.0, help="percent of the air's downlink frames netem drops")
    ap.add_argument("--seed", type=int, default=37, help="the UE host's losses, where the kernel has no netem")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    try:
        return run(args)
    except (LabError, topo.TopologyError, OSError) as e:
        say("FAILED: %s" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
