"""The fabric runner's traffic start (hupf_tools.fabric.run.start_traffic): the senders start only once both
receivers listen, with the plan's start set then; a receiver that ends before it listens fails the run."""
import json
import types

import pytest

from hupf_tools.fabric import run


class FakeProc:
    def __init__(self, ended=False):
        self.ended = ended

    def poll(self):
        return 1 if self.ended else None

    def terminate(self):
        self.ended = True

    def wait(self, timeout=None):
        return 0


class FakeFabric:
    """Starts nothing: records each traffic process with the plan's start as the process would read it; a receiver
    "listens" (writes its first stats) after `polls` looks at whether it ended, unless it is told to end instead."""

    def __init__(self, plan_path, polls=3, receiver_ends=False):
        self.plan_path, self.polls, self.receiver_ends = plan_path, polls, receiver_ends
        self.started = []

    def data_intf(self, host):
        return host.name + "-eth0"

    def python(self, host_name, module, mode, *args, **kw):
        stats = args[args.index("--stats") + 1]
        start = json.loads(self.plan_path.read_text())["start"]
        self.started.append((mode, host_name, start))
        fabric = self

        class Receiver(FakeProc):
            looked = 0

            def poll(self):
                self.looked += 1
                if self.looked >= fabric.polls and not fabric.receiver_ends:
                    stats.write_text("{}")
                return 1 if fabric.receiver_ends else None
        return Receiver() if mode == "recv" else FakeProc()


def site():
    host = types.SimpleNamespace
    return types.SimpleNamespace(gnbs=[host(name="gnb1")], dn=host(name="dn1"))


def test_senders_start_once_both_receivers_listen(tmp_path):
    plan_path = tmp_path / "plan.json"
    plan = {"start": None, "ues": []}
    plan_path.write_text(json.dumps(plan))
    fabric = FakeFabric(plan_path)
    procs, stats = run.start_traffic(fabric, site(), plan, plan_path, tmp_path, timeout_s=10)
    modes = [m for m, _, _ in fabric.started]
    assert modes == ["recv", "recv", "send", "send"]
    assert all(start is None for m, _, start in fabric.started if m == "recv")
    assert all(stats["recv", side].exists() for side in ("gnb", "dn"))
    assert all(start is not None and start == plan["start"] for m, _, start in fabric.started if m == "send")


def test_a_receiver_ending_before_it_listens_fails_and_no_sender_starts(tmp_path):
    plan_path = tmp_path / "plan.json"
    plan = {"start": None, "ues": []}
    plan_path.write_text(json.dumps(plan))
    fabric = FakeFabric(plan_path, receiver_ends=True)
    with pytest.raises(run.FabricRunError, match="did not listen"):
        run.start_traffic(fabric, site(), plan, plan_path, tmp_path, timeout_s=10)
    assert [m for m, _, _ in fabric.started] == ["recv", "recv"]
