"""bmv2 running the gNB's P4 program (p4src/gnb/gnb.p4, the pipeconf's p4c-out/gnb/bmv2) as the gNB lab's switch,
in place of its C stand-in gnb-switch: the same ports (0 N3, 1 air, 2 crypto, 3 BaaS), the RAN control's entries
written over P4Runtime (p4rt_entries), and the program's counters read over P4Runtime into the stand-in's counter
shape, which the lab's checks read. Its P4Runtime server listens on a unix socket in the run's directory, reachable
from the root namespace while bmv2 runs in the gNB's."""
import os
import time

import grpc

from hupf_tools import p4tools
from hupf_tools.gnb import p4const as G
from hupf_tools.gnb.p4rt_entries import P4C_OUT, Controller, load_p4info, updates
from hupf_tools.lab.processes import LabError

P4INFO = os.path.join(P4C_OUT, "p4info.txt")
BMV2_JSON = os.path.join(P4C_OUT, "bmv2.json")
START_TIMEOUT_S = 60
# The program's drop reasons (the drops counter's indexes), named as the stand-in names them.
DROP_REASONS = {getattr(G, n): n[len("GNB_DROP_"):].lower() for n in dir(G) if n.startswith("GNB_DROP_")}
NAME = "bmv2 simple_switch_grpc running p4src/gnb/gnb.p4"


def missing():
    """What running the gNB program on bmv2 needs and this machine lacks, or None."""
    if not p4tools.bmv2():
        return p4tools.BMV2_HINT
    if not os.path.exists(BMV2_JSON):
        return "the gNB program's artifacts %s (make -C p4src/gnb)" % BMV2_JSON
    return None


class Bmv2GnbSwitch:
    def __init__(self, procs, netns, ifaces, entries_path):
        self.procs = procs
        sock = os.path.join(procs.workdir, "gnb-bmv2.sock")
        cmd = [p4tools.bmv2(), "--device-id", "1", "--no-p4",
               "--notifications-addr", "ipc://%s" % os.path.join(procs.workdir, "gnb-bmv2-notifications.ipc")]
        for port, ifname in enumerate(ifaces):
            cmd += ["-i", "%d@%s" % (port, ifname)]
        procs.start("gnb-switch", cmd + ["--", "--grpc-server-addr", "unix:" + sock], netns)
        self.p4info = load_p4info(P4INFO)
        self.ctl = self._connect("unix:" + sock)
        with open(BMV2_JSON, "rb") as f:
            self.ctl.set_pipeline(self.p4info, f.read())
        with open(entries_path) as f:
            self.ctl.write(updates(f.read().splitlines(), self.p4info, entries_path))

    def _connect(self, addr):
        """The primary controller, once bmv2 serves P4Runtime (a loaded machine starts it slowly)."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                return Controller(addr)
            except grpc.FutureTimeoutError:
                if time.monotonic() > deadline:
                    raise LabError("bmv2 served no P4Runtime on %s in %d s; log: %s"
                                   % (addr, START_TIMEOUT_S, self.procs.log_tail("gnb-switch")))
            proc = next(p for n, p, _ in self.procs.procs if n == "gnb-switch")
            if proc.poll() is not None:
                raise LabError("bmv2 exited with status %s; log: %s" % (proc.returncode, self.procs.log_tail("gnb-switch")))

    def counters(self):
        """The counters in the stand-in's shape: per UE, the drops by reason; bmv2 has no TX ring, so nothing
        is ever refused for want of room or copy (tx_full, copy_failed)."""
        per_ue = {name: self.ctl.read_counter(self._counter_id(name)) for name in ("status_reports", "retransmissions")}
        ues = sorted(set().union(*per_ue.values()))
        drops = self.ctl.read_counter(self._counter_id("drops"))
        return {"ues": {str(ue): {name: cells.get(ue, 0) for name, cells in per_ue.items()} for ue in ues},
                "drops": {DROP_REASONS.get(i, str(i)): n for i, n in drops.items()}, "tx_full": 0, "copy_failed": 0}

    def _counter_id(self, name):
        full = "%s.%s" % (G.HUPF_GNB_INGRESS_DROPS.split(".")[0], name)
        return next(c.preamble.id for c in self.p4info.counters if c.preamble.name == full)

    def close(self):
        self.ctl.close()
