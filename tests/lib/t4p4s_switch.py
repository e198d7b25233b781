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

from hupf_tools import t4p4s
from hupf_tools.t4p4s import MISSING, build_adapter  # noqa: F401 (the tests' imports)
from procs import free_port, stop_process

HOME = t4p4s.home()
START_TIMEOUT_S = 120


def compile_switch():
    """The tests' build of the program (T4P4S's debug log on): the executable's path."""
    return t4p4s.compile_switch(t4p4s.DEBUG_VARIANT)


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
        self.adapter = subprocess.Popen(t4p4s.adapter_command(adapter, self.grpc_addr), stdout=self.adapter_log,
                                        stderr=subprocess.STDOUT)
        self.switch = None
        try:
            self.wait(lambda: "serving P4Runtime" in (self.work / "adapter.log").read_text(), "the adapter to serve")
            with open(self.log, "w") as out:
                self.switch = subprocess.Popen(t4p4s.switch_command(executable, vdevs, self.prefix), stdout=out,
                                               stderr=subprocess.STDOUT)
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
