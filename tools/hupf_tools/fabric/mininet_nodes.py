"""hupf's Mininet nodes: P4Runtime switches in the root namespace (bmv2's simple_switch_grpc with no program,
Stratum-bmv2, or hupf-backend's hw profile as the switch's stand-in: ONOS pushes the pipeline to any of them),
quiet hosts for raw-frame traffic, and backend hosts running hupf-backend on their own namespace's ports.

Mininet is Debian's (python3-mininet); it is imported from Debian's site-packages, alone, so that a virtualenv
with other packages can drive it."""
import importlib.machinery
import importlib.util
import os
import shutil
import socket
import sys
import time
from pathlib import Path

from hupf_tools import p4tools
from hupf_tools.lab import bmv2_log

DEBIAN_SITE = "/usr/lib/python3/dist-packages"
START_TIMEOUT_S = 60
STRATUM_HINT = ("stratum_bmv2 (STRATUM_BMV2=<binary> or PATH; building it needs Bazel 4.2.3 (Debian 12's "
                "bazel-bootstrap), Stratum's sources, the 36 repositories its WORKSPACE downloads and gRPC's and "
                "PI's (offline: each given by --override_repository), and a bmv2 built --with-pi --with-stratum: "
                "`BMV2_INSTALL=<its prefix> bazel build //stratum/hal/bin/bmv2:stratum_bmv2`; docs/FABRIC.md)")


def import_mininet():
    """Debian's mininet package (already imported, importable, or loaded from DEBIAN_SITE)."""
    if "mininet" in sys.modules:
        return sys.modules["mininet"]
    spec = importlib.util.find_spec("mininet") or importlib.machinery.PathFinder.find_spec("mininet", [DEBIAN_SITE])
    if spec is None:
        raise ImportError("Mininet (Debian's mininet package in %s)" % DEBIAN_SITE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["mininet"] = module
    spec.loader.exec_module(module)
    return module


def mininet_missing():
    """What running the fabric's Mininet needs and this machine lacks (a phrase), or None."""
    try:
        import_mininet()
    except ImportError as e:
        return str(e)
    if not shutil.which("mnexec"):
        return "mnexec (Debian's mininet package)"
    return None


import_mininet()
from mininet.node import Host, Node, Switch  # noqa: E402
from mininet.log import info  # noqa: E402


def quiet_interface(node, intf):
    """No IPv6 (router solicitations), no ARP, software checksums (veth offload would leave them wrong)."""
    node.cmd("sysctl -qw net.ipv6.conf.%s.disable_ipv6=1" % intf)
    node.cmd("ip link set %s arp off mtu 9000" % intf)
    node.cmd("ethtool -K %s tx off rx off sg off" % intf)


def wait_listening(proc, addr, log, what):
    """Until a TCP connect to addr (host, port) succeeds; RuntimeError with the log's tail if proc exits first or
    START_TIMEOUT_S passes."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        if proc.poll() is not None:
            raise RuntimeError("%s exited (%d): %s" % (what, proc.returncode, Path(log).read_text()[-2000:]))
        with socket.socket() as s:
            if s.connect_ex(addr) == 0:
                return
        if time.monotonic() > deadline:
            raise RuntimeError("%s serves no P4Runtime on %s:%d after %d s" % (what, *addr, START_TIMEOUT_S))
        time.sleep(0.2)


def stop_process(proc):
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except Exception:  # subprocess.TimeoutExpired
            proc.kill()
            proc.wait()


class P4RuntimeSwitch(Switch):
    """A switch whose ports are its Mininet interfaces (port numbers from the topology) and whose P4Runtime server
    listens on 127.0.0.1:grpc_port as device 1; ONOS pushes its pipeline. Subclasses give the command."""
    target = None

    def __init__(self, name, binary, grpc_port, log_dir, cpu_port=255, **params):
        # In the root namespace, where ONOS reaches its gRPC port; dpid only for Mininet's bookkeeping (no OpenFlow).
        params.update(inNamespace=False, dpid="%016x" % grpc_port)
        Switch.__init__(self, name, **params)
        self.binary = binary
        self.grpc_port = grpc_port
        self.cpu_port = cpu_port
        self.log = Path(log_dir) / ("%s-%s.log" % (name, self.target))
        self.proc = None

    def data_ports(self):
        return {port: intf.name for port, intf in sorted(self.intfs.items()) if intf.name != "lo"}

    def command(self):
        raise NotImplementedError

    def start(self, controllers):
        for intf in self.data_ports().values():
            quiet_interface(self, intf)
        with open(self.log, "w") as out:
            self.proc = self.popen(self.command(), stdout=out, stderr=out)
        wait_listening(self.proc, ("127.0.0.1", self.grpc_port), self.log, "%s (%s)" % (self.name, self.target))
        info("%s: %s pid %d on gRPC %d\n" % (self.name, self.target, self.proc.pid, self.grpc_port))

    def stop(self, deleteIntfs=True):
        stop_process(self.proc)
        self.proc = None
        Switch.stop(self, deleteIntfs)


class Bmv2Switch(P4RuntimeSwitch):
    """bmv2's simple_switch_grpc, started with no program (--no-p4), its log read for its drops (packets_log)."""
    target = "bmv2"

    def packets_base(self):
        return str(self.log.parent / ("%s-packets" % self.name))

    def packets_log(self):
        return bmv2_log.Bmv2Log(self.packets_base(), self.data_ports(), self.name, self.proc.pid)

    def command(self):
        cmd = [self.binary, "--device-id", "1", "--no-p4"] + bmv2_log.fresh_log_args(self.packets_base())
        for port, intf in self.data_ports().items():
            cmd += ["-i", "%d@%s" % (port, intf)]
        return cmd + ["--", "--grpc-server-addr", "127.0.0.1:%d" % self.grpc_port, "--cpu-port", str(self.cpu_port)]


class StratumBmv2Switch(P4RuntimeSwitch):
    """Stratum's bmv2 target: its chassis config names each Mininet interface as a singleton port."""
    target = "stratum-bmv2"

    def chassis_config(self):
        lines = ['description: "hupf fabric %s"' % self.name,
                 'chassis { platform: PLT_P4_SOFT_SWITCH name: "%s" }' % self.name,
                 'nodes { id: 1 name: "%s" slot: 1 index: 1 }' % self.name]
        for port, intf in self.data_ports().items():
            lines.append('singleton_ports { id: %d name: "%s" slot: 1 port: %d channel: 1 speed_bps: 10000000000 '
                         'config_params { admin_state: ADMIN_STATE_ENABLED } node: 1 }' % (port, intf, port))
        return "\n".join(lines) + "\n"

    def command(self):
        state = self.log.parent / ("%s-stratum" % self.name)
        state.mkdir(exist_ok=True)
        chassis = state / "chassis_config.pb.txt"
        chassis.write_text(self.chassis_config())
        return [self.binary, "-device_id=1", "-chassis_config_file=%s" % chassis,
                "-forwarding_pipeline_configs_file=%s" % (state / "pipeline_config.pb.txt"),
                "-persistent_config_dir=%s" % state, "-cpu_port=%d" % self.cpu_port,
                "-external_stratum_urls=127.0.0.1:%d" % self.grpc_port, "-local_stratum_url=localhost:0",
                "-bmv2_log_level=warn", "-logtostderr=true"]


class BackendAsSwitch(P4RuntimeSwitch):
    """hupf-backend running the hw profile: the switch's stand-in where bmv2 is not built (README)."""
    target = "backend"

    def command(self):
        cmd = [self.binary, "--profile", "hw", "--grpc-addr", "127.0.0.1:%d" % self.grpc_port, "--device-id", "1"]
        for port, intf in self.data_ports().items():
            cmd += ["--port", "%d=%s" % (port, intf)]
        return cmd


SWITCHES = {"bmv2": Bmv2Switch, "stratum-bmv2": StratumBmv2Switch, "backend": BackendAsSwitch}


def switch_binary(target, backend_binary):
    """The program of a switch target found on this machine, or (None, what is missing)."""
    if target == "bmv2":
        return p4tools.bmv2(), p4tools.BMV2_HINT
    if target == "stratum-bmv2":
        return os.environ.get("STRATUM_BMV2") or shutil.which("stratum_bmv2"), STRATUM_HINT
    if target == "backend":
        found = backend_binary if backend_binary and os.access(backend_binary, os.X_OK) else None
        return found, "hupf-backend %s (make backend)" % backend_binary
    raise ValueError("switch target %r: one of %s" % (target, ", ".join(SWITCHES)))


class QuietHost(Host):
    """A host without IP on its data port: the lab's traffic is raw frames, and nothing of the host's own (ARP,
    ICMP, IPv6) may reach the UPF."""

    def config(self, **params):
        r = Host.config(self, **params)
        self.cmd("sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1")
        for intf in self.intfNames():
            if intf != "lo" and not self.intf(intf).IP():
                quiet_interface(self, intf)
        return r


class BackendHost(QuietHost):
    """hupf-backend on a Mininet host: its port 1 the host's data interface (af_packet in the host's namespace),
    P4Runtime on the host's management address, which ONOS reaches over the management link."""

    def start_backend(self, binary, data_intf, grpc_addr, log_dir):
        self.log = Path(log_dir) / ("%s-hupf-backend.log" % self.name)
        cmd = [binary, "--profile", "sw", "--grpc-addr", grpc_addr, "--device-id", "1",
               "--port", "1=%s" % data_intf, "--port", "2=null"]
        with open(self.log, "w") as out:
            self.proc = self.popen(cmd, stdout=out, stderr=out)
        host, port = grpc_addr.rsplit(":", 1)
        wait_listening(self.proc, (host, int(port)), self.log, "hupf-backend on %s" % self.name)

    def stop_backend(self):
        stop_process(getattr(self, "proc", None))
        self.proc = None


class RootNode(Node):
    """The root namespace (where ONOS runs), for the management links' other ends."""

    def __init__(self, name, **params):
        Node.__init__(self, name, inNamespace=False, **params)
