"""Collects the control plane's RPS records (UDP "HRPS" datagrams) and keeps them, in memory and, with --out,
as JSON lines for the verifier. A datagram that is not one is counted (and its reason kept), never fatal.

  PYTHONPATH=tools .venv/bin/python -m hupf_tools.rps.collector --listen 127.0.0.1:9700 --out rps.jsonl [--duration S]
"""
import argparse
import collections
import json
import socket
import sys
import threading
import time

from hupf_tools.rps import records as rec


class Collector:
    """A UDP listener on its own thread; records() returns what arrived so far, in arrival order."""

    def __init__(self, host="127.0.0.1", port=0, out=None):
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind((host, port))
        self._sock.settimeout(0.2)
        self._out = out
        self._lock = threading.Lock()
        self._records = []
        self.datagrams = 0
        self.malformed = 0
        self.malformed_reasons = collections.Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rps-collector", daemon=True)

    @property
    def address(self):
        return self._sock.getsockname()

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        while not self._stop.is_set():
            try:
                data, _ = self._sock.recvfrom(65535)
            except socket.timeout:
                continue
            except OSError:
                return
            try:
                got = rec.parse_datagram(data)
            except ValueError as e:
                with self._lock:
                    self.malformed += 1
                    self.malformed_reasons[str(e).split(":")[0]] += 1
                continue
            if self._out is not None:
                for r in got:
                    self._out.write(json.dumps(r.to_json()) + "\n")
                self._out.flush()
            with self._lock:
                self.datagrams += 1
                self._records.extend(got)

    def records(self):
        with self._lock:
            return list(self._records)

    def wait_for(self, n, timeout_s=5.0):
        """Waits until n records arrived; returns whether they did."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if len(self.records()) >= n:
                return True
            time.sleep(0.01)
        return len(self.records()) >= n

    def stats(self):
        with self._lock:
            return {"datagrams": self.datagrams, "records": len(self._records), "malformed": self.malformed,
                    "malformed_reasons": dict(self.malformed_reasons)}

    def close(self):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2)
        self._sock.close()


def load(path):
    """The records a collector wrote (JSON lines)."""
    with open(path) as f:
        return [rec.Record.from_json(json.loads(line)) for line in f if line.strip()]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--listen", default="127.0.0.1:9700", help="host:port to receive on")
    p.add_argument("--out", required=True, help="JSON lines file the records are appended to")
    p.add_argument("--duration", type=float, default=0, help="seconds to run (0: until interrupted)")
    a = p.parse_args(argv)
    host, _, port = a.listen.rpartition(":")
    with open(a.out, "a") as out:
        c = Collector(host, int(port), out).start()
        print(f"rps collector on {c.address[0]}:{c.address[1]}", flush=True)
        try:
            if a.duration:
                time.sleep(a.duration)
            else:
                while True:
                    time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            c.close()
    print(json.dumps(c.stats()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
