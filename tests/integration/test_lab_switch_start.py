"""The lab's switch start: hupf-backend is waited for until it serves P4Runtime; an exit before that fails the lab
at once, with the switch's log (an af_packet fanout clash with another process, which it once restarted the switch
for, no longer stops hupf-backend: backend/README.md, afp_fanout.c)."""
import pytest

from hupf_tools.lab import processes as run

SERVING = '{"level":"INFO","msg":"serving P4Runtime"}'


def fake_switch(monkeypatch, tmp_path, line):
    """The switch's command becomes a shell line."""
    monkeypatch.setattr(run, "switch_command", lambda *_: ["sh", "-c", line])
    return run.Procs(str(tmp_path))


def test_the_switch_serving_is_left_running(monkeypatch, tmp_path):
    procs = fake_switch(monkeypatch, tmp_path, "echo '%s'; sleep 30" % SERVING)
    run.start_switch(procs, "backend", {}, None)
    assert [name for name, _, _ in procs.procs] == ["switch"]
    procs.check_alive()
    procs.stop()


def test_an_exit_before_serving_fails_the_lab_with_its_log(monkeypatch, tmp_path):
    procs = fake_switch(monkeypatch, tmp_path, "echo 'cannot bind'; exit 1")
    with pytest.raises(run.LabError, match="(?s)switch exited with status 1.*cannot bind"):
        run.start_switch(procs, "backend", {}, None)
