"""A backend joining, dying, stopping or drained under the lab's traffic, timed by the runner's steering."""
import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request

from hupf_tools.lab.processes import read_json, say


def backend_name(k):
    """The runner's, the status's and the summary's name of backend k (from 0)."""
    return "backend" if k == 0 else "backend-%d" % (k + 1)


class BackendMove:
    """A backend joining or leaving under traffic, at a share `at` of it: "add" starts its process (the runner,
    told it joins later, gives it the pipeline, routes and every session once it answers, and only then a
    share of the UEs), "kill" sends its process SIGKILL (the lab's supervisor starts it again: it comes back
    with empty tables and counters, is reconciled and steered to again), "stop" stops it for good, "drain" asks
    the runner to drain it (POST /lab/backends/NAME/drain: its UEs steered to the others, its counts read until
    quiet, then it leaves the backends written and read) and stops it once the runner answered. The runner
    steers UEs to it or away once its connection is up (reconciled) or drops, or when asked to drain it; the
    move is timed by the runner's status ("steered_at_ms")."""

    VERBS = {"add": "added", "kill": "killed", "stop": "stopped", "drain": "drained"}

    def __init__(self, how, k, at, workdir, procs, command=None, control=None):
        self.how, self.name, self.at = how, backend_name(k), at
        self.supervisor_state = os.path.join(workdir, "%s-supervisor.json" % self.name)
        self.procs, self.command, self.control = procs, command, control
        self.left_at = None
        self.moved_s = self.back_s = None
        self.drain, self.drained_s, self.stopped = None, None, False
        self.seen = set()         # the steering changes read: (at_ms, backends)
        self.on_joined = None     # called once an added backend is steered to, or a killed one back to

    def _ask_drain(self):
        """The runner's drain, on its own thread (it answers once the backend is quiet): its report, or the error."""
        req = urllib.request.Request("http://127.0.0.1:%d/lab/backends/%s/drain" % (self.control["port"], self.name),
                                     method="POST", headers={"Authorization": "Bearer " + self.control["token"]})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                self.drain = json.load(r)
        except urllib.error.HTTPError as e:
            self.drain = {"error": "HTTP %d: %s" % (e.code, e.read().decode(errors="replace"))}
        except (OSError, ValueError) as e:
            self.drain = {"error": str(e)}
        self.drained_s = time.time() - self.left_at

    def tick(self, elapsed, duration, status):
        """Called from the live loop: acts at its time, then watches the steering."""
        if self.left_at is None:
            if elapsed >= self.at * duration:
                self.left_at = time.time()
                if self.how == "add":
                    self.procs.start(self.name, self.command)
                elif self.how == "kill":
                    os.kill(read_json(self.supervisor_state)["pid"], signal.SIGKILL)
                elif self.how == "drain":
                    threading.Thread(target=self._ask_drain, daemon=True).start()
                else:
                    self.procs.stop(self.name)
                say("%s %s %.1f s into the traffic" % (self.name, "drain asked" if self.how == "drain"
                                                        else self.VERBS[self.how], elapsed))
            return
        if self.how == "drain" and self.drained_s is not None and not self.stopped:
            # Stopped here, not on the drain's thread: the live loop checks the processes it holds.
            self.procs.stop(self.name)
            self.stopped = True
            say("%s drained %.2f s after it was asked (%s), stopped" % (self.name, self.drained_s, self.drain))
        # Steering changes since the move, in order: a departure and return between two status writes count too.
        for change in status.get("steerings", []):
            at_s = change["at_ms"] / 1000.0
            steered = change["to"]
            key = (change["at_ms"], tuple(steered))
            if at_s < self.left_at or key in self.seen:
                continue
            self.seen.add(key)
            if self.how == "add":
                if self.moved_s is None and self.name in steered:
                    self.moved_s = at_s - self.left_at
                    if self.on_joined:
                        self.on_joined()
            elif self.moved_s is None and self.name not in steered and steered:
                self.moved_s = at_s - self.left_at
            elif self.moved_s is not None and self.back_s is None and self.name in steered:
                self.back_s = at_s - self.left_at
                if self.on_joined:
                    self.on_joined()

    def check(self):
        """(name, passed, detail): its UEs moved to the others (and, killed, it came back), or, added, to it."""
        ok = self.moved_s is not None and (self.how != "kill" or self.back_s is not None)
        if self.how == "add":
            return ("a backend added under traffic takes its share", ok,
                    "%s started at %.0f%% of the traffic: %s" % (
                        self.name, 100 * self.at, "never steered to" if self.moved_s is None
                        else "steered to, with every session, %.2f s later" % self.moved_s))
        detail = "%s %s at %.0f%% of the traffic: %s" % (
            self.name, self.VERBS[self.how], 100 * self.at,
            "never left the steering" if self.moved_s is None else "UEs steered to the others %.2f s later" % self.moved_s)
        if self.how == "kill":
            detail += ", " + ("not back" if self.back_s is None else "back in the steering %.2f s after the kill"
                              % self.back_s)
        if self.how == "drain":
            d = self.drain or {}
            ok = ok and self.stopped and d.get("quiet") is True
            if not d:
                detail += ", no answer from the runner"
            elif "quiet" not in d:
                detail += ", drain failed: %s" % d.get("error")
            else:
                detail += ", quiet %s after the drain was asked (%s packets counted after the steering), " \
                          "then stopped" % ("%.2f s" % self.drained_s if d["quiet"] else "NOT reached",
                                            d.get("after_steering"))
            return ("a backend drained under traffic leaves once quiet", ok, detail)
        return ("a backend's UEs move when it %s" % ("dies" if self.how == "kill" else "stops"), ok, detail)

    def gap_s(self, poll_ms):
        """How long its UEs' packets may have been lost or counted unread: until the steering moved them, plus
        the runner's two counter polls (what the backend counted after its last read dies with it); none for
        a backend added (it holds every session before it is steered to) or drained (it was read a last time
        once nothing reached it any more)."""
        if self.how in ("add", "drain"):
            return 0.0
        return (self.moved_s or 0.0) + 2 * poll_ms / 1000.0

    def result(self):
        return {"how": self.how, "backend": self.name, "at": self.at, "moved_s": self.moved_s,
                "back_s": self.back_s, "drained_s": self.drained_s, "drain": self.drain}
