"""`tools/lab.sh tenants`: three VXLAN tenants through a congested egress port, with and without priority.

hupf-backend plays the switch (hw profile) with an egress scheduler on its DN port (`--port-rate 2=MBIT`,
rte_sched, strict priority by v1model priority); the lab runner writes the tenants (`HupfDataplane.setTenants`,
as hupf writes the netcfg's `tenants`) and `qos.queues` (class tc -> priority tc) with the routes, and pins
the UEs' sessions to the switch (offload policy), so that the switch does the UPF and the tenants' classes
decide the queues. The gNB sends each tenant's GTP-U uplink inside the tenant's VXLAN: gold (tc 3, DSCP 46)
a constant light load, silver (tc 2, DSCP 26) a medium one, bronze (tc 0) a load that starts low, then ramps
above the port's rate. Each packet carries its send time; the DN side's receive socket timestamps it in the
kernel, so the latency is generator -> veth -> switch (parse, VXLAN and GTP-U decapsulation, UPF, queue,
rate) -> veth -> receiver. Per tenant and window (baseline: bronze low; congested: bronze above the rate):
p50/p90/p99/p99.9/max and loss.

A/B: the run happens twice, once with the tenants' classes as configured ("priority") and once with every
tenant in class 0 ("no priority": one queue). The checks (exit 1 when one fails): every session established;
gold and silver lose nothing with priority; gold's congested p99 with priority stays within a bound derived
from its own uncongested p99 (GOLD_P99_FACTOR x baseline + a tenth of a full bronze queue at the port rate)
and rises above that bound without priority; bronze, congested, loses packets and waits longer than in its baseline; the
switch's queue drops are all bronze's priority 0 with priority; every packet arrives decapsulated, well formed,
with its tenant's DSCP.

    sudo tools/lab.sh tenants [--port-mbps 5] [--duration 30] [--repeat 3] [--json FILE]
"""
import argparse
import json
import math
import os
import signal
import statistics
import sys
import tempfile
import time

from hupf_tools.lab import run as lab
from hupf_tools.lab import scenario, topo
from hupf_tools.lab.smf import Smf

VTEP = "192.0.2.254"        # the switch's VTEP: the VXLAN frames' outer IPv4 destination
DN_PORT = 2                 # the switch's port towards the data network: the congested one
QUEUES = {str(tc): tc for tc in range(4)}   # qos.queues: class tc -> v1model priority tc
TENANTS = ({"name": "gold", "vni": 100, "tenant_id": 1, "tc": 3, "dscp": 46},
           {"name": "silver", "vni": 200, "tenant_id": 2, "tc": 2, "dscp": 26},
           {"name": "bronze", "vni": 300, "tenant_id": 3, "tc": 0, "dscp": 0})
PERCENTILES = (50, 90, 99, 99.9)
# Gold's congested p99 with priority may be this many times its baseline p99, plus a tenth of what a full queue
# of bronze frames takes at the port's rate (what gold waits in one queue shared with bronze): a bronze frame
# the scheduler released is not preempted, and the shared machine's scheduling noise grows with the congested
# phase's packets to send, forward and receive, not in proportion to the baseline's.
GOLD_P99_FACTOR = 2.0
QUEUE_PKTS = 64           # packets a priority's queue holds on the switch (backend/dp/egress.h)
RUNS = ("priority", "no priority")
WIRE_OVERHEAD = 14 + 24   # Ethernet header, and the framing the scheduler counts (preamble, FCS, gap)


class Plan:
    """The scenario's rates and windows, from the port rate (Mbit/s) and the duration (s)."""

    # Shares of the port's rate (user packets) and user packet bytes: gold light, silver medium, bronze from
    # BRONZE_LOW before the ramp to BRONZE_HIGH at its end (above the rate with the others: congested).
    GOLD, SILVER = (0.05, 200), (0.25, 500)
    BRONZE_SIZE = 1000
    BRONZE_LOW, BRONZE_HIGH = 0.2, 1.5

    def __init__(self, port_mbps=5.0, duration_s=30.0, ues_per_tenant=2):
        if not 0.5 <= port_mbps <= 50:
            raise ValueError("port rate must be in 0.5..50 Mbit/s (a Python sender), got %g" % port_mbps)
        if duration_s < 12:
            raise ValueError("duration must be at least 12 s (baseline, ramp, congestion), got %g" % duration_s)
        self.port_mbps, self.duration_s, self.ues_per_tenant = port_mbps, duration_s, ues_per_tenant
        self.ramp = (duration_s / 3, duration_s / 2)
        self.windows = {"baseline": (1.0, self.ramp[0]), "congested": (self.ramp[1] + 1.0, duration_s)}
        self.slack_ms = QUEUE_PKTS * (self.BRONZE_SIZE + WIRE_OVERHEAD) * 8 / (port_mbps * 1e3) / 10

    def pps(self, share, size):
        return round(share * self.port_mbps * 1e6 / (8 * size), 1)

    def phases(self, name):
        d, (r0, r1) = self.duration_s, self.ramp
        if name == "bronze":
            lo, hi = self.pps(self.BRONZE_LOW, self.BRONZE_SIZE), self.pps(self.BRONZE_HIGH, self.BRONZE_SIZE)
            return [[0.0, r0, lo, lo, self.BRONZE_SIZE], [r0, r1, lo, hi, self.BRONZE_SIZE],
                    [r1, d, hi, hi, self.BRONZE_SIZE]]
        share, size = self.GOLD if name == "gold" else self.SILVER
        pps = self.pps(share, size)
        return [[0.0, d, pps, pps, size]]

    def tenants(self, with_priority):
        """The tenants as the runner writes them: their classes, or all in class 0 without priority."""
        return [{"vni": t["vni"], "vtep": VTEP, "tenant_id": t["tenant_id"], "tc": t["tc"] if with_priority else 0,
                 "dscp": t["dscp"]} for t in TENANTS]

    def make(self, net, start):
        ues, i = [], 0
        for t in TENANTS:
            for _ in range(self.ues_per_tenant):
                i += 1
                ues.append({"idx": i, "addr": scenario.ue_addr(i), "ul_teid": None,
                            "dl_teid": scenario.DL_TEID_BASE + i, "tenant": t["name"]})
        tenants = [{"name": t["name"], "vni": t["vni"], "sport": 49152 + t["vni"], "phases": self.phases(t["name"])}
                   for t in TENANTS]
        return dict(net, vtep=VTEP, start=start, duration=self.duration_s, ues=ues, tenants=tenants,
                    windows=self.windows)


def percentile(values, p):
    """Nearest-rank percentile of a list (None when empty)."""
    if not values:
        return None
    s = sorted(values)
    # Rounded first: 99.9 / 100 x 1000 is 999.0000000000001 in floating point, and its rank 999.
    return s[max(0, math.ceil(round(p / 100.0 * len(s), 9)) - 1)]


def tenant_figures(tx, rx):
    """{tenant: {window: {"sent", "received", "loss", "p50", ..., "max" (ms)}}} from the sender's and receiver's
    stats."""
    out = {}
    for t in TENANTS:
        n = t["name"]
        out[n] = {}
        for w, sent in tx["sent"][n].items():
            got = rx["received"][n].get(w, 0)
            lat = [v / 1000.0 for v in rx["latency_us"][n].get(w, [])]
            f = {"sent": sent, "received": got, "loss": (1 - got / sent) if sent else 0.0,
                 "max": max(lat) if lat else None}
            for p in PERCENTILES:
                f["p%g" % p] = percentile(lat, p)
            out[n][w] = f
    return out


def gold_bound_ms(figures, slack_ms):
    """The congested p99 gold may reach with priority: derived from its uncongested (baseline) p99."""
    base = figures["gold"]["baseline"]["p99"]
    return None if base is None else GOLD_P99_FACTOR * base + slack_ms


def checks(runs, slack_ms):
    """[(name, passed, detail)] over the A/B. runs: {"priority": result, "no priority": result}, each with
    "established" [accepted, planned], "figures" (tenant_figures), "queue_dropped" (the switch's drops on the
    congested port by priority, or None when not read), "dscp" ({tenant: {dscp: packets}}) and "bad" (malformed
    frames the receiver saw, by reason); slack_ms: what
    gold's bound adds to GOLD_P99_FACTOR x its baseline p99 (Plan.slack_ms)."""
    a, b = runs["priority"], runs["no priority"]
    fa, fb = a["figures"], b["figures"]
    out = []
    est = [r["established"] for r in (a, b)]
    out.append(("all sessions established over PFCP, both runs", all(e[0] == e[1] > 0 for e in est),
                ", ".join("%d/%d" % tuple(e) for e in est)))
    lost = {n: fa[n]["congested"]["sent"] - fa[n]["congested"]["received"] + fa[n]["baseline"]["sent"]
            - fa[n]["baseline"]["received"] for n in ("gold", "silver")}
    out.append(("with priority, gold and silver lose nothing", all(v == 0 for v in lost.values()),
                "lost: gold %d, silver %d" % (lost["gold"], lost["silver"])))
    bound = gold_bound_ms(fa, slack_ms)
    p99a, p99b = fa["gold"]["congested"]["p99"], fb["gold"]["congested"]["p99"]
    out.append(("with priority, gold's congested p99 stays within %g x its baseline p99 + %.2f ms"
                % (GOLD_P99_FACTOR, slack_ms),
                None not in (bound, p99a) and p99a <= bound,
                "baseline p99 %s ms, congested p99 %s ms, bound %s ms" % (ms(fa["gold"]["baseline"]["p99"]),
                                                                         ms(p99a), ms(bound))))
    out.append(("without priority, gold's congested p99 rises above that bound",
                None not in (bound, p99b) and p99b > bound,
                "congested p99 %s ms (bound %s ms), loss %.2f%%" % (ms(p99b), ms(bound),
                                                                    100 * fb["gold"]["congested"]["loss"])))
    br = fa["bronze"]
    out.append(("with priority, bronze (congested) loses packets and waits longer than in its baseline",
                br["congested"]["loss"] > 0 and None not in (br["congested"]["p50"], br["baseline"]["p99"])
                and br["congested"]["p50"] > br["baseline"]["p99"],
                "loss %.2f%%, p50 %s ms against a baseline p99 of %s ms" % (
                    100 * br["congested"]["loss"], ms(br["congested"]["p50"]), ms(br["baseline"]["p99"]))))
    qd = a.get("queue_dropped")
    out.append(("with priority, the switch's queue drops on port %d are all priority 0 (bronze)" % DN_PORT,
                qd is not None and qd[0] > 0 and not any(qd[1:]),
                "by priority 0..7: %s" % (qd if qd is not None else "not read")))
    marked = {t["name"]: set(a["dscp"].get(t["name"], {})) for t in TENANTS}
    want = {t["name"]: {str(t["dscp"])} for t in TENANTS}
    bad = {}
    for r in (a, b):
        for reason, n in r["bad"].items():
            bad[reason] = bad.get(reason, 0) + n
    seen = ", ".join("%s %s" % (n, "/".join(sorted(v)) or "-") for n, v in marked.items())
    out.append(("every packet arrives decapsulated and well formed, with its tenant's DSCP",
                marked == want and not bad, "DSCP %s; malformed %s" % (seen, bad or "none")))
    return out


def ms(v):
    return "-" if v is None else "%.2f" % v


def render(runs, results, sc, load):
    lines = ["== hupf tenants lab summary ==",
             "switch: %s, egress port %d at %g Mbit/s (rte_sched, strict priority); %d UEs per tenant, %g s; "
             "load average at the start %s" % (lab.SWITCH_NAMES["backend"], DN_PORT, sc.port_mbps, sc.ues_per_tenant,
                                               sc.duration_s, load),
             "latency: generator -> veth -> switch -> veth -> receiver's kernel timestamp, ms",
             "| run | tenant | window | sent | loss | p50 | p90 | p99 | p99.9 | max |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for run in RUNS:
        for t in TENANTS:
            for w in ("baseline", "congested"):
                f = runs[run]["figures"][t["name"]][w]
                lines.append("| %s | %s | %s | %d | %.2f%% | %s | %s | %s | %s | %s |" % (
                    run, t["name"], w, f["sent"], 100 * f["loss"], ms(f["p50"]), ms(f["p90"]), ms(f["p99"]),
                    ms(f["p99.9"]), ms(f["max"])))
    for name, ok, detail in results:
        lines.append("%s  %s (%s)" % ("PASS" if ok else "FAIL", name, detail))
    return lines


def spread(reps):
    """{run: {tenant: {window: {figure: [min, median, max]}}}} over repetitions of the A/B."""
    out = {}
    for run in RUNS:
        out[run] = {}
        for t in TENANTS:
            out[run][t["name"]] = {}
            for w in ("baseline", "congested"):
                figs = {}
                for k in ["loss", "max"] + ["p%g" % p for p in PERCENTILES]:
                    vals = [r[run]["figures"][t["name"]][w][k] for r in reps]
                    vals = [v for v in vals if v is not None]
                    figs[k] = [min(vals), statistics.median(vals), max(vals)] if vals else None
                out[run][t["name"]][w] = figs
    return out


def render_spread(sp, n):
    def mmm(v, scale=1.0, fmt="%.2f"):
        return "-" if v is None else " / ".join(fmt % (x * scale) for x in v)
    lines = ["", "min / median / max over %d repetitions (ms; loss %%)" % n,
             "| run | tenant | window | loss | p50 | p90 | p99 | p99.9 | max |",
             "|---|---|---|---|---|---|---|---|---|"]
    for run in RUNS:
        for t in TENANTS:
            for w in ("baseline", "congested"):
                f = sp[run][t["name"]][w]
                lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    run, t["name"], w, mmm(f["loss"], 100), mmm(f["p50"]), mmm(f["p90"]), mmm(f["p99"]),
                    mmm(f["p99.9"]), mmm(f["max"])))
    return lines


def queue_drops(log_path, port):
    """The switch's queue drops by priority on a port, from the last stats line its SIGUSR1 logged."""
    found = None
    with open(log_path) as f:
        for line in f:
            if '"msg":"stats"' not in line:
                continue
            for p in json.loads(line).get("ports") or []:
                if p.get("P4Port") == port:
                    found = p.get("QueueDropped")
    return found


def run_once(sc, with_priority, say):
    """One lab run: the topology, backend, switch with the egress rate, runner, sessions, traffic; returns
    its result (see checks)."""
    t = topo.Topology(True, lab.lab_tag())
    workdir = tempfile.mkdtemp(prefix="hupf-tenants-")
    procs = lab.Procs(workdir)
    try:
        t.up()
        net = dict(t.addresses(), n3=lab.N3, gnb=lab.GNB, app=lab.APP)
        ports = {"backends": [lab.free_port()], "switch": lab.free_port(), "pfcp": lab.free_port()}
        backend_cmd = [lab.BACKEND, "--grpc-addr", "127.0.0.1:%d" % ports["backends"][0], "--device-id", "1",
                       "--sessions", "65536", "--mem", "1024", "--port", "1=%s" % t.backends[0][1]]
        procs.start("backend", lab.supervised(backend_cmd, os.path.join(workdir, "backend-supervisor.json")))
        switch = procs.start("switch", lab.switch_command("backend", ports, t)
                             + ["--port-rate", "%d=%g" % (DN_PORT, sc.port_mbps)])
        cfg = lab.runner_config(True, net, workdir, scenario.Scenario(), ports)
        cfg["tenants"] = sc.tenants(with_priority)
        cfg["queues"] = QUEUES
        # The switch carries every session (UPF, tenants, queues): none waits for an HH report.
        cfg["policy"]["pins"] = {"slices": {str(cfg["slice"]): "HARDWARE"}}
        cfg_path = os.path.join(workdir, "runner.json")
        with open(cfg_path, "w") as f:
            json.dump(cfg, f, indent=1)
        with open(lab.CLASSPATH) as f:
            cp = f.read().strip()
        procs.start("runner", ["java", "-cp", cp, lab.RUNNER_MAIN, cfg_path])
        lab.wait_ready(procs, cfg["status"])
        plan = sc.make(net, time.time() + 2.0)
        planned = len(plan["ues"])
        smf = Smf("127.0.0.1", ports["pfcp"], node_id=lab.SMF_NODE)
        established = smf.establish(plan)
        smf.close()
        say("%s: %d/%d sessions established over PFCP" % (RUNS[0] if with_priority else RUNS[1], established,
                                                         planned))
        if not established:
            raise lab.LabError("no PFCP session established; runner log: %s" % procs.log_tail("runner"))
        plan["ues"] = [u for u in plan["ues"] if u["ul_teid"] is not None]
        wait_offloaded(cfg["status"], len(plan["ues"]))
        plan["start"] = time.time() + 1.0
        plan_path = os.path.join(workdir, "plan.json")
        with open(plan_path, "w") as f:
            json.dump(plan, f)
        stats = {k: os.path.join(workdir, k + ".json") for k in ("tx", "rx")}
        py = [sys.executable, "-m", "hupf_tools.lab.tenant_traffic"]
        procs.start("recv-dn", py + ["recv", "--plan", plan_path, "--iface", topo.HOST_IF["dn"], "--stats",
                                  stats["rx"]], t.ns("dn"))
        procs.start("send-gnb", py + ["send", "--plan", plan_path, "--iface", topo.HOST_IF["gnb"], "--stats",
                                  stats["tx"]], t.ns("gnb"))
        while time.time() < plan["start"] + sc.duration_s + 0.5:
            procs.check_alive()
            time.sleep(0.5)
        procs.stop("send-gnb")
        time.sleep(1.0)   # what the queues still hold leaves at the port's rate
        procs.stop("recv-dn")
        switch.send_signal(signal.SIGUSR1)
        time.sleep(0.5)
        tx, rx = lab.read_json(stats["tx"]), lab.read_json(stats["rx"])
        if not tx.get("done") or not rx.get("done"):
            raise lab.LabError("the traffic's stats are missing (%s)" % workdir)
        return {"established": [established, planned], "figures": tenant_figures(tx, rx),
                "queue_dropped": queue_drops(os.path.join(workdir, "switch.log"), DN_PORT), "dscp": rx["dscp"],
                "bad": rx["bad"], "socket_drops": rx["socket_drops"], "workdir": workdir}
    finally:
        procs.stop()
        t.down()


def wait_offloaded(status_path, n, timeout=30.0):
    """Until the runner's status lists n UEs on the switch (pinned there: promoted at establishment)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if len(lab.read_json(status_path).get("targets", {}).get("switch", [])) >= n:
            return
        time.sleep(0.3)
    raise lab.LabError("the UEs' sessions were not on the switch after %.0f s" % timeout)


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def ab(args):
    """The A/B, args.repeat times: the summary of each, then the spread; exit status 0 when every check passed."""
    try:
        sc = Plan(args.port_mbps, args.duration, args.ues_per_tenant)
    except ValueError as e:
        raise lab.LabError(str(e))
    if lab.preflight("backend") != "backend":
        raise lab.LabError("the tenants lab runs with hupf-backend as the switch")
    reps, ok = [], True
    for k in range(args.repeat):
        load = load_average()
        runs = {}
        for run in RUNS:
            lab.say("tenants: repetition %d/%d, %s (load average %s)" % (k + 1, args.repeat, run, load_average()))
            runs[run] = run_once(sc, run == RUNS[0], lab.say)
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
                       "tenants": TENANTS, "repetitions": reps, "spread": sp}, f, indent=1)
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port-mbps", type=float, default=5.0, help="the switch's DN port rate, Mbit/s (default 5)")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of traffic per run (default 30)")
    ap.add_argument("--ues-per-tenant", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="A/B repetitions; more than one adds min/median/max")
    ap.add_argument("--json", help="write every run's figures and the checks here")
    args = ap.parse_args(argv)
    return lab.exit_status(lambda: ab(args))


if __name__ == "__main__":
    raise SystemExit(main())
