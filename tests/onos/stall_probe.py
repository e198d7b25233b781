"""A sampler of what a process and a few interfaces do, every `every_s` seconds, in a thread: per thread of
each watched process its state, CPU time, CPU and wait channel; per interface its kernel counters; a SIGUSR1
to hupf-backends (their stats line). For finding where packets wait (diagnostics, not assertions)."""
import json
import os
import signal
import threading
import time
from pathlib import Path


def _threads(pid):
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            stat = Path("/proc/%d/task/%s/stat" % (pid, tid)).read_text()
            wchan = Path("/proc/%d/task/%s/wchan" % (pid, tid)).read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        f = stat[stat.rindex(")") + 2:].split()
        # state, utime, stime (ticks), processor
        out[tid] = [comm, f[0], int(f[11]) + int(f[12]), int(f[36]), wchan]
    return out


def _iface(name):
    d = "/sys/class/net/%s/statistics/" % name
    try:
        return [int(Path(d + k).read_text()) for k in ("rx_packets", "tx_packets", "rx_dropped", "tx_dropped")]
    except OSError:
        return None


class Probe:
    def __init__(self, path, procs, ifaces, usr1=(), every_s=0.1, t0=None):
        self.path, self.procs, self.ifaces, self.usr1, self.every_s = Path(path), procs, ifaces, usr1, every_s
        self.t0 = t0 or time.time()
        self.events = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def mark(self, what):
        self.events.append([round(time.time() - self.t0, 3), what])

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        n = 0
        with open(self.path, "w") as out:
            while not self._stop.is_set():
                rec = {"t": round(time.time() - self.t0, 3), "load": os.getloadavg()[0]}
                for name, pid in self.procs.items():
                    try:
                        rec[name] = _threads(pid)
                    except OSError:
                        pass
                rec["if"] = {i: _iface(i) for i in self.ifaces}
                out.write(json.dumps(rec) + "\n")
                if n % 5 == 0:
                    for pid in self.usr1:
                        try:
                            os.kill(pid, signal.SIGUSR1)
                        except OSError:
                            pass
                n += 1
                self._stop.wait(self.every_s)

    def stop(self):
        self._stop.set()
        self._thread.join()
        Path(str(self.path) + ".events").write_text(json.dumps(self.events))
