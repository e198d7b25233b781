"""`tools/lab.sh fabric`: hupf as operators deploy it, on one machine. ONOS booted from the runtime found here
(a throwaway copy: ONOS_HOME or /opt/hupf-onos/onos), hupf's .oar installed, the Mininet fabric of a topology file
(tools/hupf_tools/fabric/topologies/) with its P4 switches and hupf-backends under ONOS, and the lab's scenario
through it (hupf_tools.fabric.run); the checks and a summary are printed, exit status 0 when every check passed.
Everything it started is stopped on the way out."""
import argparse
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from hupf_tools.fabric import onos_topology, run as fabric_run, topology as topo
from hupf_tools.fabric.mininet_nodes import mininet_missing, switch_binary
from hupf_tools.lab import scenario

REPO = fabric_run.REPO
BACKEND = Path(os.environ.get("HUPF_BACKEND") or REPO / "backend" / "build" / "hupf-backend")
import onos_ready  # noqa: E402 (tests/lib, on the path through fabric_run)
import onos_runtime  # noqa: E402

# A 2-vCPU machine at load 16-19 (a p4c build and other suites beside) had not finished ONOS's boot in 600 s.
BOOT_TIMEOUT_S = 1200
APP_TIMEOUT_S = 300
# bmv2 forwards a few hundred packets per second on a shared 2-vCPU machine: one heavy UE among three.
DEFAULTS = {"ues": 3, "heavy": 1, "duration": 24.0}


def scenario_of(args):
    d = args.duration
    return scenario.Scenario(ues=args.ues, heavy=args.heavy, duration_s=d, heavy_on_s=d * 0.15,
                             heavy_off_s=d * 0.55)


def missing(target):
    """What the fabric needs and this machine lacks (one phrase), or None."""
    if os.geteuid() != 0:
        return "root (Mininet's namespaces and links)"
    why = mininet_missing() or onos_runtime.missing()
    if why:
        return why
    if not BACKEND.exists():
        return "hupf-backend %s (make backend)" % BACKEND
    found, what = switch_binary(target, str(BACKEND))
    return None if found else what


def newest_oar():
    oars = sorted((REPO / "app" / "target").glob("hupf-app-*.oar"))
    if not oars:
        raise fabric_run.FabricRunError("no app/target/hupf-app-*.oar (make oar)")
    return oars[-1]


def boot_onos(workdir, oar, logs, gui_oar=None):
    """ONOS booted from a copy of the runtime in workdir with the .oar installed (ONOS's web GUI app before it where
    gui_oar is given: hupf's view registers when the GUI's service appears); an ONOS that does not get there is
    stopped (its logs kept in logs) before the error goes up."""
    onos = onos_runtime.Onos(workdir)
    try:
        t0 = time.monotonic()
        onos.start(BOOT_TIMEOUT_S)
        print("fabric: ONOS ready in %.0f s" % (time.monotonic() - t0), flush=True)
        if gui_oar is not None:
            # Installing the GUI restarts ONOS's REST: hupf's install waits until it answers again.
            gui = onos.install_app(gui_oar)
            onos.wait_ready(lambda: onos_ready.settled(onos, onos_ready.apps_active([gui]), onos_ready.rest_codecs),
                            APP_TIMEOUT_S, "ONOS's GUI app running")
        onos.install_app(oar, APP_TIMEOUT_S)
        onos.wait_ready(lambda: onos_ready.settled(onos, onos_ready.hupf_running, onos_ready.rest_codecs),
                        APP_TIMEOUT_S, "hupf running in ONOS")
    except BaseException:
        stop_onos(onos, logs)
        raise
    return onos


def stop_onos(onos, logs):
    onos.stop()
    onos.keep_logs(logs)
    onos.remove()


def main(argv=None):
    from hupf_tools.fabric.mininet_net import Fabric
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--topology", default="one-site", help="a topology file, or one of %s" % sorted(
        p.stem for p in topo.TOPOLOGIES.glob("*.json")))
    ap.add_argument("--switch", choices=("bmv2", "stratum-bmv2", "backend"), default="bmv2",
                    help="the switches: bmv2 simple_switch_grpc (default), Stratum-bmv2, or hupf-backend's hw "
                         "profile as their stand-in")
    ap.add_argument("--ues", type=int, default=DEFAULTS["ues"])
    ap.add_argument("--heavy", type=int, default=DEFAULTS["heavy"])
    ap.add_argument("--duration", type=float, default=DEFAULTS["duration"])
    ap.add_argument("--pfcp-port", type=int, default=8805)
    ap.add_argument("--logs", default=str(REPO / "reports" / "fabric"), help="switch and backend logs")
    args = ap.parse_args(argv)
    why = missing(args.switch)
    if why:
        print("fabric: FAILED: missing %s" % why, file=sys.stderr)
        return 2
    try:
        t = topo.load(args.topology)
        sc = scenario_of(args)
    except ValueError as e:  # topo.TopologyError, or a scenario out of range
        print("fabric: FAILED: %s" % e, file=sys.stderr)
        return 2
    # SIGTERM unwinds as Ctrl-C does: the fabric and ONOS are stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = Path(tempfile.mkdtemp(prefix="hupf-fabric-"))
    onos = fabric = None
    try:
        onos = boot_onos(work, newest_oar(), Path(args.logs) / "onos")
        fabric = Fabric(t, args.switch, switch_binary(args.switch, str(BACKEND))[0], BACKEND, args.logs).up()
        print("fabric: Mininet up: %s" % fabric.describe(), flush=True)
        cfg = fabric_run.deploy(onos, t, args.switch, args.pfcp_port)
        onos_topology.wait_for(onos, cfg, "ONOS's topology holding the fabric's links and hosts")
        links, hosts = onos_topology.wanted(cfg)
        print("fabric: ONOS drives %d switches and %d backends; its topology holds their %d links and %d hosts"
              % (len(t.sites), len(t.backends()), len(links), len(hosts)), flush=True)
        passed = True
        for site in t.sites:
            results, lines = fabric_run.run_site(onos, fabric, t, site, sc, args.pfcp_port, args.switch,
                                                 work / site.name)
            print("\n".join(lines))
            passed = passed and all(ok for _, ok, _ in results)
        return 0 if passed else 1
    except (fabric_run.FabricRunError, onos_runtime.OnosError, RuntimeError) as e:
        print("fabric: FAILED: %s" % e, file=sys.stderr)
        return 1
    finally:
        if fabric is not None:
            fabric.down()
        if onos is not None:
            stop_onos(onos, Path(args.logs) / "onos")


if __name__ == "__main__":
    sys.exit(main())
