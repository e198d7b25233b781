"""`tools/lab.sh tenants`: three VXLAN tenants through a congested egress port, with and without priority.

hupf-backend plays the switch (hw profile) with an egress scheduler on its DN port (`--port-rate 2=MBIT`,
strict priority by v1model priority); the lab runner writes the tenants (`HupfDataplane.setTenants`,
as hupf writes the netcfg's `tenants`) and `qos.queues` (class tc -> priority tc) with the routes, and pins
the UEs' sessions to the switch (offload policy), so that the switch does the UPF and the tenants' classes
decide the queues. The gNB sends each tenant's GTP-U uplink inside the tenant's VXLAN: gold (tc 3, DSCP 46)
a constant light load, silver (tc 2, DSCP 26) a medium one, bronze (tc 0) a load that starts low, then ramps
above the port's rate. Each packet carries its send time; the DN side's receive socket timestamps it in the
kernel, so the latency is generator -> veth -> switch (parse, VXLAN and GTP-U decapsulation, UPF, queue,
rate) -> veth -> receiver. Per tenant and window (baseline: bronze low; congested: bronze above the rate):
p50/p90/p99/p99.9/max and loss.

Slices (the default; --no-slices leaves them out): gold's and silver's traffic is two QoS flows each, their
QFIs in the G-PDUs' PDU Session Containers, and the tenants have slices (netcfg `slices`: QFI -> class, DSCP,
meter): gold's QFI 1 keeps gold's class 3, its QFI 9 is a bulk slice in class 0 (DSCP 8, CS1) that ramps from a
tenth of the port to 1.2 times it with bronze; silver's plain traffic (no PSC) keeps silver's class, its QFI 5 is a
video slice (class 2, DSCP 34) metered at a tenth of the port (VXLAN frames as received) while it sends 15 % of
it. Each stream is measured apart ("gold" is gold's QFI 1).

A/B: the run happens twice, once with the tenants' classes as configured ("priority") and once with every
tenant and slice in class 0 ("no priority": one queue); with slices a third time without the slices ("no
slices": the same traffic, gold's bulk QFI in gold's class). The checks (exit 1 when one fails): every session
established; gold and silver lose nothing with priority; gold's congested p99 with priority stays within a bound
derived from its own uncongested p99 (GOLD_P99_FACTOR x baseline + a tenth of a full bronze queue at the port
rate) and rises above that bound without priority (and without the slices); bronze (and gold's bulk slice),
congested, loses packets and waits longer than in its baseline; the switch's queue drops are all priority 0 with
priority but a stall's backlog, and no frame leaves below a full queue; the video slice's meter passes its rate and drops the excess; the switch's tenant and slice counters
count each tenant's and slice's packets and bytes as sent; every packet arrives decapsulated, well formed,
with its tenant's or slice's DSCP.

    sudo tools/lab.sh tenants [--port-mbps 5] [--duration 30] [--repeat 3] [--no-slices] [--json FILE]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

from hupf_tools.lab import accounting, processes, scenario, topo
from hupf_tools.lab import run as lab
from hupf_tools.lab.tenant_checks import PERCENTILES, checks, ms, tenant_figures
from hupf_tools.lab.tenant_plan import DN_PORT, QUEUES, RUNS, TENANTS, Plan
from hupf_tools.lab.smf import Smf









def label(stream):
    return stream["name"] if stream["qfi"] is None else "%s (QFI %d)" % (stream["name"], stream["qfi"])


def render(runs, results, sc, load):
    lines = ["== hupf tenants lab summary ==",
             "switch: %s, egress port %d at %g Mbit/s (strict priority); %d UEs per tenant, %g s; %s; "
             "load average at the start %s" % (lab.SWITCH_NAMES["backend"], DN_PORT, sc.port_mbps, sc.ues_per_tenant,
                                               sc.duration_s, "slices" if sc.sliced else "no slices", load),
             "latency: generator -> veth -> switch -> veth -> receiver's kernel timestamp, ms",
             "| run | tenant | window | sent | loss | p50 | p90 | p99 | p99.9 | max |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for run in sc.runs:
        for s in sc.streams:
            for w in ("baseline", "congested"):
                f = runs[run]["figures"][s["name"]][w]
                lines.append("| %s | %s | %s | %d | %.2f%% | %s | %s | %s | %s | %s |" % (
                    run, label(s), w, f["sent"], 100 * f["loss"], ms(f["p50"]), ms(f["p90"]), ms(f["p99"]),
                    ms(f["p99.9"]), ms(f["max"])))
    for name, ok, detail in results:
        lines.append("%s  %s (%s)" % ("PASS" if ok else "FAIL", name, detail))
    return lines


def spread(reps):
    """{run: {stream: {window: {figure: [min, median, max]}}}} over repetitions of the A/B (the runs and streams
    of the first)."""
    out = {}
    for run in [r for r in RUNS if r in reps[0]]:
        out[run] = {}
        for n in reps[0][run]["figures"]:
            out[run][n] = {}
            for w in ("baseline", "congested"):
                figs = {}
                for k in ["loss", "max"] + ["p%g" % p for p in PERCENTILES]:
                    vals = [r[run]["figures"][n][w][k] for r in reps]
                    vals = [v for v in vals if v is not None]
                    figs[k] = [min(vals), statistics.median(vals), max(vals)] if vals else None
                out[run][n][w] = figs
    return out


def render_spread(sp, n):
    def mmm(v, scale=1.0, fmt="%.2f"):
        return "-" if v is None else " / ".join(fmt % (x * scale) for x in v)
    lines = ["", "min / median / max over %d repetitions (ms; loss %%)" % n,
             "| run | tenant | window | loss | p50 | p90 | p99 | p99.9 | max |",
             "|---|---|---|---|---|---|---|---|---|"]
    for run, streams in sp.items():
        for name, windows in streams.items():
            for w in ("baseline", "congested"):
                f = windows[w]
                lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    run, name, w, mmm(f["loss"], 100), mmm(f["p50"]), mmm(f["p90"]), mmm(f["p99"]),
                    mmm(f["p99.9"]), mmm(f["max"])))
    return lines


def port_stats(log_path, port):
    """A port's figures in the last stats line the switch's SIGUSR1 logged ({} when none)."""
    found = {}
    with open(log_path) as f:
        for line in f:
            if '"msg":"stats"' not in line:
                continue
            for p in json.loads(line).get("ports") or []:
                if p.get("P4Port") == port:
                    found = p
    return found


def queue_drops(log_path, port):
    """The switch's queue drops by priority on a port, from the last stats line its SIGUSR1 logged."""
    return port_stats(log_path, port).get("QueueDropped")


def queue_service(log_path, port):
    """How the switch served a port's queues (QueueStallDropped, SentBelowFull, LongestGapUS: egress.h,
    egress_service), from the last stats line its SIGUSR1 logged; None when not logged."""
    p = port_stats(log_path, port)
    if "QueueStallDropped" not in p:
        return None
    return {"stall_dropped": p["QueueStallDropped"], "sent_below_full": p.get("SentBelowFull", 0),
            "longest_gap_us": p.get("LongestGapUS", 0)}


def final_counters(status_path, since, timeout=10.0):
    """The runner's tenant_counters once read after `since` (epoch s); after `timeout`, the latest (or None)."""
    deadline = time.time() + timeout
    while True:
        c = processes.read_json(status_path).get("tenant_counters")
        if (c and c.get("read_ms", 0) / 1000.0 >= since) or time.time() >= deadline:
            return c
        time.sleep(0.2)


def run_once(sc, run, say):
    """One lab run: the topology, backend, switch with the egress rate, runner, sessions, traffic; returns
    its result (see checks)."""
    t = topo.Topology(True, lab.lab_tag())
    workdir = tempfile.mkdtemp(prefix="hupf-tenants-")
    procs = processes.Procs(workdir)
    try:
        t.up()
        net = dict(t.addresses(), n3=lab.N3, gnb=lab.GNB, app=lab.APP)
        ports = {"backends": [processes.free_port()], "switch": processes.free_port(), "pfcp": processes.free_port()}
        backend_cmd = [processes.BACKEND, "--grpc-addr", "127.0.0.1:%d" % ports["backends"][0], "--device-id", "1",
                       "--sessions", "65536", "--mem", "1024", "--port", "1=%s" % t.backends[0][1],
                       "--local-writes", processes.local_writes(workdir, "backend")]
        procs.start("backend", processes.supervised(backend_cmd, os.path.join(workdir, "backend-supervisor.json")))
        procs.start("switch", processes.switch_command("backend", ports, t)
                    + ["--port-rate", "%d=%g" % (DN_PORT, sc.port_mbps)])
        cfg = lab.runner_config(True, net, workdir, scenario.Scenario(), ports)
        cfg["tenants"] = sc.tenants(run)
        cfg["queues"] = QUEUES
        # The switch carries every session (UPF, tenants, queues): none waits for an HH report.
        cfg["policy"]["pins"] = {"slices": {str(cfg["slice"]): "HARDWARE"}}
        cfg_path = os.path.join(workdir, "runner.json")
        with open(cfg_path, "w") as f:
            json.dump(cfg, f, indent=1)
        with open(lab.CLASSPATH) as f:
            cp = f.read().strip()
        processes.start_runner(procs, cp, cfg_path)
        processes.wait_ready(procs, cfg["status"])
        plan = sc.make(net, time.time() + 2.0)
        planned = len(plan["ues"])
        smf = Smf("127.0.0.1", ports["pfcp"], node_id=lab.SMF_NODE)
        established = smf.establish(plan)
        smf.close()
        say("%s: %d/%d sessions established over PFCP" % (run, established, planned))
        if not established:
            raise processes.LabError("no PFCP session established; runner log: %s" % procs.log_tail("runner"))
        plan["ues"] = [u for u in plan["ues"] if u["ul_teid"] is not None]
        wait_offloaded(cfg["status"], len(plan["ues"]))
        drops_before = accounting.collect(accounting.lab_devices(procs, cfg, "backend", t), t)
        plan_path = os.path.join(workdir, "plan.json")
        lab.write_plan(plan, plan_path, start=None)
        stats = {k: os.path.join(workdir, k + ".json") for k in ("tx", "rx")}
        py = [sys.executable, "-m", "hupf_tools.lab.tenant_traffic"]
        procs.start("recv-dn", py + ["recv", "--plan", plan_path, "--iface", topo.HOST_IF["dn"], "--stats",
                                  stats["rx"]], t.ns("dn"))
        processes.wait_listening(procs, [stats["rx"]])
        lab.write_plan(plan, plan_path, start=time.time() + 1.0)
        procs.start("send-gnb", py + ["send", "--plan", plan_path, "--iface", topo.HOST_IF["gnb"], "--stats",
                                  stats["tx"]], t.ns("gnb"))
        while time.time() < plan["start"] + sc.duration_s + 0.5:
            procs.check_alive()
            time.sleep(0.5)
        procs.stop("send-gnb")
        if not accounting.wait_settled(accounting.lab_devices(procs, cfg, "backend", t)):
            raise processes.LabError("the switch's and backends' counters still moved, or the switch's queues still "
                                     "held packets, %d s after the senders stopped" % accounting.SETTLE_TIMEOUT_S)
        procs.stop("recv-dn")
        counters = final_counters(cfg["status"], time.time())
        tx, rx = processes.read_json(stats["tx"]), processes.read_json(stats["rx"])
        if not tx.get("done") or not rx.get("done"):
            raise processes.LabError("the traffic's stats are missing (%s)" % workdir)
        drops = accounting.since(accounting.collect(accounting.lab_devices(procs, cfg, "backend", t), t,
                                                    [("receiver dn", rx["socket_drops"])]), drops_before)
        log = os.path.join(workdir, "switch.log")
        return {"established": [established, planned], "figures": tenant_figures(tx, rx),
                "queue_dropped": queue_drops(log, DN_PORT), "queue_service": queue_service(log, DN_PORT), "dscp": rx["dscp"], "bad": rx["bad"],
                "socket_drops": rx["socket_drops"], "workdir": workdir, "streams": sc.streams,
                "tenants": cfg["tenants"], "windows": sc.windows, "sent_total": tx["total"],
                "sent_bytes": tx["bytes"], "counters": counters, "rx_missed": port_stats(log, 1).get("RXMissed"),
                "drops": drops, "accounting": accounting.balance(
                    sum(tx["total"].values()),
                    sum(rx["total"].values()) + rx["no_kernel_timestamp"] + sum(rx["bad"].values()), drops)}
    finally:
        procs.stop()
        t.down()


def wait_offloaded(status_path, n, timeout=30.0):
    """Until the runner's status lists n UEs on the switch (pinned there: promoted at establishment)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if len(processes.read_json(status_path).get("targets", {}).get("switch", [])) >= n:
            return
        time.sleep(0.3)
    raise processes.LabError("the UEs' sessions were not on the switch after %.0f s" % timeout)


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def ab(args):
    """The A/B, args.repeat times: the summary of each, then the spread; exit status 0 when every check passed."""
    try:
        sc = Plan(args.port_mbps, args.duration, args.ues_per_tenant, slices=not args.no_slices)
    except ValueError as e:
        raise processes.LabError(str(e))
    if lab.preflight("backend") != "backend":
        raise processes.LabError("the tenants lab runs with hupf-backend as the switch")
    reps, ok = [], True
    for k in range(args.repeat):
        load = load_average()
        runs = {}
        for run in sc.runs:
            processes.say("tenants: repetition %d/%d, %s (load average %s)" % (k + 1, args.repeat, run, load_average()))
            runs[run] = run_once(sc, run, processes.say)
        results = checks(runs, sc.slack_ms)
        ok = ok and all(r[1] for r in results)
        print("\n".join(render(runs, results, sc, load)), flush=True)
        reps.append(dict(runs, checks=[{"name": n, "passed": p, "detail": d} for n, p, d in results], load=load))
    sp = spread(reps) if args.repeat > 1 else None
    if sp:
        print("\n".join(render_spread(sp, args.repeat)), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"port_mbps": sc.port_mbps, "duration_s": sc.duration_s, "windows": sc.windows,
                       "tenants": TENANTS, "slices": sc.sliced, "streams": sc.streams, "repetitions": reps,
                       "spread": sp}, f, indent=1)
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port-mbps", type=float, default=5.0, help="the switch's DN port rate, Mbit/s (default 5)")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of traffic per run (default 30)")
    ap.add_argument("--ues-per-tenant", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="A/B repetitions; more than one adds min/median/max")
    ap.add_argument("--no-slices", action="store_true",
                    help="the tenants without slices, their traffic without QFIs (the scenario before the slices)")
    ap.add_argument("--json", help="write every run's figures and the checks here")
    args = ap.parse_args(argv)
    return lab.exit_status(lambda: ab(args))


if __name__ == "__main__":
    raise SystemExit(main())
