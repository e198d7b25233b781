"""`make lab`: the hybrid UPF on one machine.

Creates the namespace topology, starts the backend (DPDK on af_packet, under the lab's supervisor:
restarted when it dies, as the runner is) and the switch running the hw profile (CPU port 255): bmv2 simple_switch_grpc
when it is found, else a second hupf-backend with `--profile hw` (the same P4Runtime contract), or none
with `--switch none`; starts the Java lab runner (PFCP agent, durable session store in the run's directory, translator
and offload manager over direct P4Runtime), establishes the
UE sessions over PFCP with the SMF emulator, runs the heavy-tailed traffic with a live view,
deletes the sessions over PFCP, checks, prints the summary, and tears everything down (also on
Ctrl-C or failure). Exit status 0 when every check passed.
"""
import argparse
import json
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time

from hupf_tools import p4tools, t4p4s
from hupf_tools.lab import (accounting, backend_tables, latency, rps_check, scenario, summary, t4p4s_backend, topo,
                            view)
from hupf_tools.lab.moves import BackendMove, backend_name
from hupf_tools.lab.processes import (BACKEND, CPU_PORT, REPO, LabError, Procs, bmv2_binary, counted_status,
                                      free_port, local_writes, read_json, say, start_runner, start_switch,
                                      supervised, wait_listening, wait_ready)
from hupf_tools.lab.smf import LabSmfError, Smf
from hupf_tools.rps.collector import Collector

P4C_OUT = os.path.join(REPO, "pipeconf", "src", "main", "resources", "p4c-out")
CLASSPATH = os.path.join(REPO, "standalone", "target", "host-classpath.txt")
N3, GNB, APP, APP_NET = "192.0.2.1", "192.0.2.2", "198.51.100.10", "198.51.100.0/24"
SMF_NODE = "127.0.0.1"
ROUTER_MAC = "02:68:75:70:66:01"


def lab_tag():
    """This run's tag in every topology name: tools/lab.sh's pid (its exit trap cleans up by it), else ours."""
    return int(os.environ.get("HUPF_LAB_TAG", os.getpid())) % (topo.MAX_TAG + 1)


SWITCHES = ("bmv2", "backend", "none")
# The default scenario: the thesis's heavy-hitter rates (2-20 Mbit/s) among a thousand UEs for a minute; bmv2, a
# software model forwarding a few hundred packets per second here, gets a scaled one (all traffic crosses the
# switch, mice included).
THESIS_SCENARIO = {"ues": 1000, "heavy": 4, "duration": 60.0, "heavy_mbps": [2, 5, 10, 20]}
SCALED_FOR_BMV2 = {"ues": 20, "heavy": 2, "duration": 30.0, "heavy_mbps": [1.2]}
# What the live view and the summary call each switch.
SWITCH_NAMES = {"bmv2": "bmv2 simple_switch_grpc (hw profile)", "backend": "hupf-backend --profile hw",
                None: "none"}


def preflight(want_switch):
    """Fails with one clear line on what is missing; returns the switch that will run: "bmv2", "backend"
    (hupf-backend in the hw profile) or None (backend-only). want_switch: one of SWITCHES, or None for
    bmv2 where it is found, else the backend."""
    if os.geteuid() != 0:
        raise LabError("the lab needs root (network namespaces, veth, raw sockets, DPDK af_packet): "
                       "run `sudo make lab`")
    if not os.path.exists(BACKEND):
        raise LabError("backend binary %s missing: `make -C backend` (needs DPDK: libdpdk-dev)" % BACKEND)
    if not os.path.exists(CLASSPATH):
        raise LabError("runner classpath %s missing: run the lab through tools/lab.sh" % CLASSPATH)
    if not shutil.which("java"):
        raise LabError("java not found (JDK 17)")
    p4info = os.path.join(P4C_OUT, "sw", "bmv2", "p4info.txt")
    if not os.path.exists(p4info):
        raise LabError("P4 artifacts missing (%s): run `make p4` where p4c is installed" % p4info)
    if want_switch == "none":
        return None
    if want_switch == "bmv2" and bmv2_binary() is None:
        raise LabError("--switch bmv2 asked for, but it was not found: %s" % p4tools.BMV2_HINT)
    if want_switch is None and bmv2_binary() is None:
        say("no %s: hupf-backend plays the switch (hw profile)" % p4tools.BMV2_HINT)
    return want_switch or ("bmv2" if bmv2_binary() else "backend")








def runner_config(hybrid, net, workdir, sc, ports, weights=None):
    """The runner's config. ports: "pfcp", "switch", and "backends" (each backend's gRPC port, the hybrid's
    first) or "backend" (one), and optionally "control" (the runner's control API); weights: each backend's share
    of the UEs (hybrid, default 1 each)."""
    from hupf_tools.model import hkipg
    grpc = ports.get("backends", [ports.get("backend")])
    weights = weights or [1] * len(grpc)
    cfg = {
        "pfcp": {"address": "127.0.0.1", "port": ports["pfcp"]},
        "backends": [{"name": backend_name(k), "grpc": "127.0.0.1:%d" % p, "device_id": 1,
                      "p4info": os.path.join(P4C_OUT, "sw", "bmv2", "p4info.txt"),
                      "local_writes": local_writes(workdir, backend_name(k))} for k, p in enumerate(grpc)],
        "smf_node_id": SMF_NODE, "router_mac": ROUTER_MAC, "n3": N3, "gnb": GNB, "app_net": APP_NET,
        "ue_pool": str(scenario.UE_POOL), "slice": 1,
        "policy": {"threshold_bps": sc.threshold_bps, "hold_ms": 2000, "hysteresis": 0.2},
        "poll_ms": 500, "status": os.path.join(workdir, "status.json"),
        # Each change written before the answer (kill -9 safe); fsync batched every 100 ms (power loss).
        "state_dir": os.path.join(workdir, "state"), "state_sync_ms": 100,
    }
    if "control" in ports:
        # The runner's control API on loopback (a backend's drain); changes need this run's token.
        cfg["control"] = {"port": ports["control"], "token": secrets.token_hex(16)}
    if hybrid:
        params = hkipg.HHParams()
        cfg["switch"] = {"grpc": "127.0.0.1:%d" % ports["switch"], "device_id": 1, "cpu_port": CPU_PORT,
                         "p4info": os.path.join(P4C_OUT, "hw", "bmv2", "p4info.txt"),
                         "config": os.path.join(P4C_OUT, "hw", "bmv2", "bmv2.json")}
        # Switch ports: 1 gNB, 2 DN, 3 + k backend k; each backend answers on its only port.
        cfg["routes"] = {"switch": [[GNB + "/32", 1, net["gnb_mac"]], [APP_NET, 2, net["dn_mac"]]]}
        for k, b in enumerate(cfg["backends"]):
            back = net["switch_backend_macs"][k]
            cfg["routes"][b["name"]] = [[GNB + "/32", 1, back], [APP_NET, 1, back]]
            b.update(port=3 + k, mac=net["backend_macs"][k], weight=weights[k])
        # HK-IPG with the thesis's tau_th, k and alpha; the runner (HhConfig) derives IPG_init = IPG_th,
        # the timeslot and the tau table (Eq. 4.9) from the offload threshold, a one-second window and the
        # heavy UEs' packet size.
        cfg["hh"] = {"tau_th": params.tau_th, "decay_k": params.decay_k, "alpha_shift": params.alpha_shift,
                     "key_mode": hkipg.KEY_UE_ADDR, "tw_us": 1_000_000, "packet_bytes": scenario.HEAVY_SIZE}
    else:
        cfg["routes"] = {"backend": [[GNB + "/32", 1, net["gnb_mac"]], [APP_NET, 2, net["dn_mac"]]]}
    return cfg


def t4p4s_indexes(args, how, moving, ues):
    """The indexes (from 0) of the backends T4P4S runs: --t4p4s-backend K, checked against the other options."""
    k = args.t4p4s_backend
    if k is None:
        return []
    if not 2 <= k <= args.backends:
        raise LabError("--t4p4s-backend %d: one of backends 2..%d (the first, the hybrid's index, is hupf-backend)"
                       % (k, args.backends))
    if ues > t4p4s.EXACT_TABLE_ENTRIES:
        raise LabError("--t4p4s-backend with %d UEs: T4P4S's exact tables hold %d entries (its HASH_ENTRIES), one "
                       "per UE in each session table" % (ues, t4p4s.EXACT_TABLE_ENTRIES))
    if moving == k and how != "drain":
        raise LabError("--%s-backend %d: the T4P4S backend is not under the lab's supervisor; of the moves, only "
                       "--drain-backend is open to it" % (how, k))
    return [k - 1]


def tx_packets(ifname):
    with open("/sys/class/net/%s/statistics/tx_packets" % ifname) as f:
        return int(f.read())


def backend_shares(t, before):
    """Packets the switch sent each backend since `before` (its ports' tx counters), by backend name."""
    return {backend_name(k): tx_packets(t.switch_ports[3 + k]) - before[k] for k in range(len(t.backends))}


def write_plan(plan, path, start):
    """The plan the traffic processes read. Its start, when the senders begin, is set once the receivers listen
    (None before): the receivers read it again at their end for their reports' times."""
    plan["start"] = start
    with open(path + ".tmp", "w") as f:
        json.dump(plan, f)
    os.replace(path + ".tmp", path)


def traffic_count(stats, way):
    """Packets both senders sent (way "tx") or both receivers received ("rx") so far, from their stats files."""
    return sum(c.get("pkts", 0) for side in ("gnb", "dn")
               for c in read_json(stats["%s-%s" % (way, side)]).get(way, {}).values())


def sent_when_done(stats):
    """Packets the senders sent once both stopped (their final stats), else infinity."""
    done = all(read_json(stats["tx-" + side]).get("done") for side in ("gnb", "dn"))
    return traffic_count(stats, "tx") if done else float("inf")


def run(args):
    switch = preflight(args.switch)
    hybrid = switch is not None
    mode = "hybrid, switch: %s" % SWITCH_NAMES[switch] if hybrid else "backend-only"
    defaults = SCALED_FOR_BMV2 if switch == "bmv2" else THESIS_SCENARIO
    ues, heavy, duration, mbps = (defaults[k] if getattr(args, k) is None else getattr(args, k)
                                  for k in ("ues", "heavy", "duration", "heavy_mbps"))
    sc = scenario.Scenario(ues=ues, heavy=heavy, duration_s=duration, heavy_on_s=duration * 0.15,
                           heavy_off_s=duration * 0.55, heavy_mbps=tuple(mbps), seed=args.seed,
                           **({} if args.mouse_pps is None else {"mouse_mean_pps": args.mouse_pps}))
    workdir = tempfile.mkdtemp(prefix="hupf-lab-")
    say("%s lab, %d UEs (%d heavy at %s Mbit/s each way%s), %.0f s; logs in %s"
        % (mode, sc.ues, sc.heavy, "/".join("%g" % r for r in sc.heavy_mbps),
           ", bmv2 scaled rates" if defaults is SCALED_FOR_BMV2 else "", sc.duration_s, workdir))
    if args.rps and not hybrid:
        raise LabError("--rps: RPS runs on the switch; backend-only has none")
    if args.backends > 1 and not hybrid:
        raise LabError("--backends %d: several backends need a switch to steer to them" % args.backends)
    weights = args.weights or [1] * args.backends
    if len(weights) != args.backends:
        raise LabError("--weights: %d weights for %d backends" % (len(weights), args.backends))
    if args.backends > 1:
        say("%d backends, UE shares by weight %s" % (args.backends, ":".join(map(str, weights))))
    how, moving = next(((h, getattr(args, h + "_backend")) for h in ("add", "kill", "stop", "drain")
                        if getattr(args, h + "_backend") is not None), (None, None))
    if moving is not None and not 2 <= moving <= args.backends:
        raise LabError("--%s-backend %d: one of backends 2..%d (the first is the hybrid's index)"
                       % (how, moving, args.backends))
    t4p4s_ks = t4p4s_indexes(args, how, moving, sc.ues)
    t4p4s_built = None
    if t4p4s_ks:
        say("compiling hupf's sw profile with T4P4S (a repeat takes a minute or two) and building hupf-t4p4s")
        t4p4s_built = t4p4s_backend.prepare(workdir)
    t = topo.Topology(hybrid, lab_tag(), backends=args.backends)
    procs = Procs(workdir)

    def devices_now():
        return accounting.lab_devices(procs, cfg, switch, t) + t4p4s_backend.devices(procs, cfg, t, t4p4s_ks)
    try:
        t.up()
        net = dict(t.addresses(), n3=N3, gnb=GNB, app=APP)
        ports = {"backends": [free_port() for _ in t.backends], "switch": free_port(), "pfcp": free_port(),
                 "control": free_port()}
        backend_cmds = {}
        for k, (grpc, backend_ports) in enumerate(zip(ports["backends"], t.backends)):
            # The lab needs thousands of sessions, not the sw profile's millions: a light backend.
            name = backend_name(k)
            if k in t4p4s_ks:
                t4p4s_backend.start(procs, k, grpc, backend_ports[1], t4p4s_built, t.tag)
                continue
            backend_cmd = [BACKEND, "--grpc-addr", "127.0.0.1:%d" % grpc, "--device-id", "1",
                           "--sessions", "65536", "--mem", "1024", "--local-writes", local_writes(workdir, name)]
            for p, ifname in sorted(backend_ports.items()):
                backend_cmd += ["--port", "%d=%s" % (p, ifname)]
            backend_cmds[name] = supervised(backend_cmd, os.path.join(workdir, "%s-supervisor.json" % name))
            if not (how == "add" and k == moving - 1):
                procs.start(name, backend_cmds[name])
        if hybrid:
            start_switch(procs, switch, ports, t)
        cfg = runner_config(hybrid, net, workdir, sc, ports, weights)
        for k in t4p4s_ks:
            # The runner writes to T4P4S's adapter over gRPC: it has no local write channel.
            del cfg["backends"][k]["local_writes"]
        collector = None
        if args.rps:
            rps_out = open(os.path.join(workdir, "rps.jsonl"), "w")
            collector = Collector("127.0.0.1", 0, rps_out).start()
            cfg["rps"] = rps_check.block(args.rps, collector.address[1])
            say("RPS %s: records to the collector on 127.0.0.1:%d (%s)"
                % (args.rps, collector.address[1], os.path.join(workdir, "rps.jsonl")))
        if how == "add":
            cfg["backends"][moving - 1]["joins_later"] = True
        cfg_path = os.path.join(workdir, "runner.json")
        with open(cfg_path, "w") as f:
            json.dump(cfg, f, indent=1)
        with open(CLASSPATH) as f:
            cp = f.read().strip()
        start_runner(procs, cp, cfg_path)
        wait_ready(procs, cfg["status"])
        say("runner ready: PFCP agent on 127.0.0.1:%d" % ports["pfcp"])

        plan = scenario.make_plan(sc, net, time.time() + 2.0)
        smf = Smf("127.0.0.1", ports["pfcp"], node_id=SMF_NODE)
        t_establish = time.monotonic()
        established = smf.establish(plan)
        establish_s = time.monotonic() - t_establish
        planned = len(plan["ues"])
        say("%d/%d sessions established over PFCP" % (established, planned))
        plan["ues"] = [u for u in plan["ues"] if u["ul_teid"] is not None]
        drops_before = accounting.collect(devices_now(), t)
        shares_before = [tx_packets(t.switch_ports[3 + k]) for k in range(len(t.backends))] if hybrid else None
        plan_path = os.path.join(workdir, "plan.json")
        stats = {k: os.path.join(workdir, k + ".json") for k in ("rx-gnb", "rx-dn", "tx-gnb", "tx-dn")}
        py = [sys.executable, "-m", "hupf_tools.lab.traffic"]
        write_plan(plan, plan_path, start=None)
        for side in ("gnb", "dn"):
            procs.start("recv-" + side, py + ["recv", "--plan", plan_path, "--side", side, "--iface",
                                              topo.HOST_IF[side], "--stats", stats["rx-" + side]], t.ns(side))
        wait_listening(procs, [stats["rx-gnb"], stats["rx-dn"]])
        write_plan(plan, plan_path, start=time.time() + 1.0)
        for side in ("gnb", "dn"):
            procs.start("send-" + side, py + ["send", "--plan", plan_path, "--side", side, "--iface",
                                              topo.HOST_IF[side], "--stats", stats["tx-" + side]], t.ns(side))
        move = BackendMove(how, moving - 1, args.move_at, workdir, procs,
                           backend_cmds.get(backend_name(moving - 1)), cfg["control"]) if moving else None
        if move and how in ("add", "kill"):
            move.on_joined = lambda: accounting.rebase(drops_before, accounting.collect(
                [d for d in devices_now() if d.name == move.name], t))
        live(plan, mode, cfg["status"], stats, procs, move)
        devices = devices_now()
        # A backend that left under traffic: what its UEs sent in the gap may be lost uncounted (summary.delivery).
        gap_share = move.gap_s(cfg["poll_ms"]) / plan["duration"] if move else 0.0
        if not accounting.wait_accounted(lambda: sent_when_done(stats), lambda: traffic_count(stats, "rx"),
                                         lambda: accounting.since(accounting.collect(devices, t, [
                                             (k, read_json(stats[k]).get("socket_drops", 0))
                                             for k in ("rx-gnb", "rx-dn")]), drops_before),
                                         gap_share * traffic_count(stats, "tx") + (len(plan["ues"]) if move else 0)):
            say("packets sent not all delivered or counted dropped %d s after the senders stopped"
                % accounting.SETTLE_TIMEOUT_S)
        procs.stop("recv-gnb")
        procs.stop("recv-dn")
        final = counted_status(cfg["status"], time.time())
        tx = [read_json(stats["tx-gnb"]), read_json(stats["tx-dn"])]
        rx = [read_json(stats["rx-gnb"]), read_json(stats["rx-dn"])]
        drops = accounting.since(accounting.collect(devices, t, [
            ("receiver " + r["side"], r.get("socket_drops", 0)) for r in rx]), drops_before)
        deleted = smf.delete_all(plan, lambda: read_json(cfg["status"]))
        running = {name for name, p, _ in procs.procs if p.poll() is None}
        backend_tables.add_backends(deleted, [(b["name"], b["grpc"], b["p4info"]) for b in cfg["backends"]
                                              if b["name"] in running])
        smf.close()
        results = summary.checks(plan, switch, (established, planned), final, deleted, tx, rx,
                                 move.gap_s(cfg["poll_ms"]) if move else 0.0, drops)
        shares = backend_shares(t, shares_before) if hybrid else {}
        if len(shares) > 1:
            results.append(("every backend took its share of the UEs' misses", all(n > 0 for n in shares.values()),
                            ", ".join("%s %d packets" % kv for kv in shares.items())))
        if move:
            results.append(move.check())
        rps_summary = None
        if collector:
            observed = rps_check.point_counts(cfg["switch"]["grpc"], cfg["switch"]["p4info"])
            results.append(rps_check.check(collector.records(), cfg["rps"], final, tx, rx, observed))
            collector.close()
            rps_out.close()
            rps_summary = {"records": rps_out.name, "block": cfg["rps"], "observed": observed}
        # Per backend only while the UEs stay on their backends throughout: no backend joins or leaves.
        per_backend = latency.by_backend(plan, rx, weights, [
            (b["name"], "T4P4S" if k in t4p4s_ks else "hupf-backend") for k, b in enumerate(cfg["backends"])]) \
            if not move else None
        lines = summary.render(results, final, tx, rx, SWITCH_NAMES[switch]) + latency.lines(per_backend or {})
        print("\n".join(lines), flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"mode": mode, "switch": switch, "checks": [{"name": n, "passed": ok, "detail": d} for n, ok, d in results],
                           "metrics": final.get("metrics", {}), "events": final.get("events", []),
                           "ues": final.get("ues", {}), "tx": tx, "plan": plan,
                           # Each packet's latency stays in the receivers' files: "latency" holds the figures.
                           "rx": [{k: v for k, v in r.items() if k != "latency_us"} for r in rx],
                           "backend_packets": shares, "weights": weights if hybrid else [1],
                           "established": [established, planned], "establish_s": establish_s,
                           "move": move.result() if move else None, "rps": rps_summary, "drops": drops,
                           "latency": per_backend},
                          f, indent=1)
        return 0 if all(ok for _, ok, _ in results) else 1
    finally:
        procs.stop()
        t.down()
        t4p4s_backend.cleanup(t.tag)


def live(plan, mode, status_path, stats, procs, move=None):
    tty = sys.stdout.isatty()
    last_print = 0.0
    while True:
        now = time.time()
        t = now - plan["start"]
        procs.check_alive()
        if move:
            move.tick(t, plan["duration"], read_json(status_path))
        if t > plan["duration"] + 0.5:
            return
        if tty or now - last_print >= 5:
            status = read_json(status_path)
            tx = [read_json(stats["tx-gnb"]), read_json(stats["tx-dn"])]
            rx = [read_json(stats["rx-gnb"]), read_json(stats["rx-dn"])]
            lines = view.render(plan, t, mode, status, tx, rx)
            if tty:
                sys.stdout.write("\x1b[H\x1b[J" + "\n".join(lines) + "\n")
            else:
                sys.stdout.write("\n".join(lines) + "\n\n")
            sys.stdout.flush()
            last_print = now
        time.sleep(0.1 if move else 0.5)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ues", type=int, help="UE sessions (default 1,000; 20 with bmv2 as the switch)")
    ap.add_argument("--heavy", type=int, help="heavy UEs among them (default 4; 2 with bmv2)")
    ap.add_argument("--duration", type=float, help="seconds of traffic (default 60; 30 with bmv2)")
    ap.add_argument("--heavy-mbps", type=float, nargs="+",
                    help="heavy UEs' rates each way, Mbit/s, in turn (default 2 5 10 20; 1.2 with bmv2)")
    ap.add_argument("--mouse-pps", type=float,
                    help="the mice's mean rate each way, packets/s (default 4; Pareto, capped at 25): fewer with many "
                         "UEs keeps the packet rate within what the traffic generator and the machine carry")
    ap.add_argument("--seed", type=int, default=1)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--switch", choices=SWITCHES, default=None,
                   help="what plays the switch: bmv2, hupf-backend in the hw profile, or none "
                        "(default: bmv2 when found, else the backend)")
    g.add_argument("--backend-only", dest="switch", action="store_const", const="none",
                   help="the same as --switch none")
    ap.add_argument("--backends", type=int, default=1,
                    help="backend processes behind the switch, 1..%d (default 1); each holds every session, the "
                         "switch splits the UEs among them by hash" % len(topo.BACKEND_PREFIXES))
    ap.add_argument("--weights", type=int, nargs="+",
                    help="each backend's share of the UEs, 1..64 (default 1 each)")
    ap.add_argument("--t4p4s-backend", type=int, metavar="K",
                    help="backend K (2..--backends) runs hupf's sw profile compiled by T4P4S, programmed through "
                         "hupf-t4p4s (T4P4S found through HUPF_T4P4S, default /opt/t4p4s; docs/BACKENDS.md)")
    mv = ap.add_mutually_exclusive_group()
    mv.add_argument("--add-backend", type=int, metavar="K",
                    help="start backend K (2..--backends) under traffic: it gets every session, then its share")
    mv.add_argument("--kill-backend", type=int, metavar="K",
                    help="kill backend K (2..--backends) under traffic: its UEs move to the others, it restarts "
                         "and takes them back; usage stays whole")
    mv.add_argument("--stop-backend", type=int, metavar="K", help="stop backend K under traffic, for good")
    mv.add_argument("--drain-backend", type=int, metavar="K",
                    help="drain backend K under traffic (the runner steers its UEs to the others, reads its counts "
                         "until quiet, lets it go), then stop it: no loss, usage exact")
    ap.add_argument("--move-at", type=float, default=0.4,
                    help="when the backend leaves, as a share of the traffic's duration (default 0.4)")
    ap.add_argument("--rps", choices=("DATA_PLANE", "HYBRID"),
                    help="sample the UE pool with Retroactive Packet Sampling (a switch needed): the runner exports "
                         "to a collector here, the summary checks what it received (docs/RPS.md)")
    ap.add_argument("--json", help="write the summary, events and counters here")
    ap.add_argument("--cleanup", action="store_true", help="only remove a previous lab's topology")
    args = ap.parse_args(argv)
    if args.cleanup:
        topo.Topology(False, lab_tag()).cleanup()
        return 0
    return exit_status(lambda: run(args))


def exit_status(work):
    """work()'s exit status, as every lab command ends: a lab failure is one line and 2, an interruption (Ctrl-C,
    SIGTERM) 130, after work's own teardown."""
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        return work()
    except (LabError, LabSmfError) as e:
        print("lab: FAILED: %s" % e, file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt:
        print("lab: interrupted, torn down", file=sys.stderr, flush=True)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
