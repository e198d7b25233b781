"""The lab's switch start: hupf-backend, exiting at start because its af_packet socket met another process's
fanout group, is started again (another pid, another group); any other early exit fails the lab at once."""
import pytest

from hupf_tools.lab import run

SERVING = '{"level":"INFO","msg":"serving P4Runtime"}'
CLASH = ("rte_pmd_init_internals(): net_af_packet2: could not set PACKET_FANOUT on AF_PACKET socket for hs1-3:"
         "Invalid argument")


def fake_switch(monkeypatch, tmp_path, outcomes):
    """The switch's command becomes a shell line per start, taken in order from outcomes."""
    starts = iter(outcomes)
    monkeypatch.setattr(run, "switch_command", lambda *_: ["sh", "-c", next(starts)])
    monkeypatch.setattr(run, "say", lambda *_: None)
    return run.Procs(str(tmp_path))


def test_a_fanout_clash_starts_the_switch_again(monkeypatch, tmp_path):
    procs = fake_switch(monkeypatch, tmp_path, ["echo '%s'; exit 1" % CLASH, "echo '%s'; sleep 30" % SERVING])
    run.start_switch(procs, "backend", {}, None)
    assert [name for name, _, _ in procs.procs] == ["switch"]
    procs.check_alive()
    procs.stop()


def test_other_exits_and_a_clash_every_time_fail_the_lab(monkeypatch, tmp_path):
    procs = fake_switch(monkeypatch, tmp_path, ["echo 'cannot bind'; exit 1"])
    with pytest.raises(run.LabError, match="(?s)switch exited with status 1.*cannot bind"):
        run.start_switch(procs, "backend", {}, None)
    procs = fake_switch(monkeypatch, tmp_path, ["echo '%s'; exit 1" % CLASH] * run.SWITCH_STARTS)
    with pytest.raises(run.LabError, match="PACKET_FANOUT"):
        run.start_switch(procs, "backend", {}, None)
