"""Running hupf's sw profile on T4P4S: the program compiled by T4P4S (its cache makes a repeat quick), hupf's
adapter (backend/agent/cmd/hupf-t4p4s: the contract's P4Runtime in front, T4P4S's controller protocol behind) and
the switch on DPDK net_pcap ports. The switch is built with T4P4S's debug output, which logs every packet it takes
in and every entry the adapter gives it."""
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

from scapy.all import wrpcap

from procs import free_port, stop_process

DEFAULT_HOME = Path("/opt/t4p4s")


def t4p4s_home():
    """The T4P4S checkout to use (HUPF_T4P4S, default /opt/t4p4s: t4p4s.sh and hupf-env.sh, the environment its
    build steps write, docs/BACKENDS.md "T4P4S"), or None."""
    home = Path(os.environ.get("HUPF_T4P4S") or DEFAULT_HOME)
    if (home / "t4p4s.sh").is_file() and (home / "hupf-env.sh").is_file():
        return home
    return None


HOME = t4p4s_home()
MISSING = "T4P4S (set HUPF_T4P4S=<T4P4S checkout with t4p4s.sh and hupf-env.sh>, docs/BACKENDS.md \"T4P4S\")"
REPO = Path(__file__).resolve().parents[2]
PROGRAM = REPO / "p4src" / "t4p4s" / "hupf_sw.p4"
# T4P4S names its build directory after the program and variant.
EXECUTABLE = HOME / "build" / "hupf_sw@std-v1model" / "build" / "hupf_sw" if HOME else None
# The switch connects to its controller on this loopback port, compiled into it.
CONTROLLER_PORT = 52761
# Its debug build (every packet logged); VETH_MODE: no RSS or checksum offload, which net_pcap lacks.
COMPILE_OPTS = ["arch=dpdk", "model=v1model", "variant=std", "^run", "dbg", "cflags+=-DT4P4S_VETH_MODE",
                "T4P4S_CTL_PORT=%d" % CONTROLLER_PORT]
COMPILE_TIMEOUT_S = 1200
# hupf's sw table sizes need about 1 GB of DPDK memory (T4P4S's LPM tables); no hugepages.
EAL_MEMORY_MB = 1024
START_TIMEOUT_S = 120


def compile_switch():
    """Compiles the program with T4P4S; the executable's path."""
    cmd = ". ./hupf-env.sh && nice -n 10 ./t4p4s.sh %s %s" % (PROGRAM, " ".join("'%s'" % o for o in COMPILE_OPTS))
    done = subprocess.run(["bash", "-c", cmd], cwd=HOME, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    assert done.returncode == 0, "T4P4S failed to compile %s:\n%s" % (PROGRAM, done.stdout[-4000:] + done.stderr[-2000:])
    assert EXECUTABLE.is_file()
    return EXECUTABLE


def build_adapter(out_dir):
    """hupf-t4p4s built from the worktree (pure Go: no DPDK)."""
    exe = Path(out_dir) / "hupf-t4p4s"
    subprocess.run(["go", "build", "-o", str(exe), "./cmd/hupf-t4p4s"], cwd=REPO / "backend" / "agent",
                   check=True, capture_output=True, timeout=600)
    return exe


def port_vdevs(bed, work):
    """The switch's DPDK ports for a TestBed: DPDK port i is P4 port i, the bed's ports from 1; port 0, no port of
    hupf's, a pcap file that sends nothing."""
    empty = Path(work) / "empty.pcap"
    wrpcap(str(empty), [])
    return ["rx_pcap=%s,tx_pcap=%s" % (empty, Path(work) / "port0.pcap")] + [
        "iface=%s" % bed.switch_ifname(p) for p in bed.ports]


class Running:
    """The adapter, then the switch on `vdevs` (DPDK port i = vdevs[i]); its log at work/switch.log."""

    def __init__(self, executable, adapter, vdevs, work):
        self.work = Path(work)
        self.log = self.work / "switch.log"
        self.grpc_addr = "127.0.0.1:%d" % free_port()
        self.prefix = "hupf-t4p4s-%d" % os.getpid()
        self.adapter_log = open(self.work / "adapter.log", "w")
        self.adapter = subprocess.Popen([str(adapter), "--grpc-addr", self.grpc_addr, "--controller-addr",
                                         "127.0.0.1:%d" % CONTROLLER_PORT], stdout=self.adapter_log,
                                        stderr=subprocess.STDOUT)
        self.switch = None
        try:
            self.wait(lambda: "serving P4Runtime" in (self.work / "adapter.log").read_text(), "the adapter to serve")
            eal = ["-c", "0x1", "-n", "1", "--no-huge", "-m", str(EAL_MEMORY_MB), "--no-pci", "--file-prefix",
                   self.prefix]
            for i, spec in enumerate(vdevs):
                eal += ["--vdev", "net_pcap%d,%s" % (i, spec)]
            ports = ",".join("(%d,0,0)" % i for i in range(len(vdevs)))
            with open(self.log, "w") as out:
                # Line-buffered: the log is read while the switch runs.
                self.switch = subprocess.Popen(["stdbuf", "-oL", str(executable)] + eal + ["--", "-p", hex((1 << len(vdevs)) - 1),
                                                                           "--config", ports],
                                               stdout=out, stderr=subprocess.STDOUT)
            self.wait(lambda: "switch connected" in (self.work / "adapter.log").read_text(),
                       "the switch to connect to the adapter")
        except Exception:
            self.close()
            raise

    def wait(self, cond, what):
        """Until cond() holds; fails at once if the adapter or the switch has ended."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while not cond():
            for p in (self.adapter, self.switch):
                if p is not None and p.poll() is not None:
                    raise RuntimeError("waiting for %s: %s exited %d; logs in %s" % (what, p.args[0], p.returncode,
                                                                                   self.work))
            if time.monotonic() > deadline:
                raise TimeoutError("waiting for %s; logs in %s" % (what, self.work))
            time.sleep(0.1)

    def text(self):
        """The switch's log, T4P4S's colours removed."""
        return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", self.log.read_text(errors="replace"))

    def per_packet(self):
        """The log cut at each "Handling packet" line."""
        return self.text().split("Handling packet ")[1:]

    def close(self):
        if self.switch is not None:
            # SIGINT: DPDK's ports are closed on the way out.
            self.switch.send_signal(signal.SIGINT)
            stop_process(self.switch, timeout=20)
            # DPDK's runtime directory of this run (EAL leaves it behind).
            shutil.rmtree(Path("/var/run/dpdk") / self.prefix, ignore_errors=True)
        stop_process(self.adapter)
        self.adapter_log.close()
