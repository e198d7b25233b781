"""The lab's processes. The switch's start: hupf-backend is waited for until it serves P4Runtime; an exit before
that fails the lab at once, with the switch's log (an af_packet fanout clash with another process, which it once
restarted the switch for, no longer stops hupf-backend: backend/README.md, afp_fanout.c). The backends' forwarding
lcores: round the CPUs when there are several."""
import pytest

from hupf_tools.lab import run

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


def test_several_backends_forward_round_the_cpus():
    placed = [run.backend_lcores(k, 4, cpus=[0, 1]) for k in range(4)]
    assert placed == [["--eal", "--lcores=0@(0,1),1@%d" % cpu] for cpu in (0, 1, 0, 1)]
    assert run.backend_lcores(2, 3, cpus=[0, 1, 2, 3]) == ["--eal", "--lcores=0@(0,1,2,3),1@2"]


def test_one_backend_or_one_cpu_keeps_the_backends_own_placement():
    assert run.backend_lcores(0, 1, cpus=[0, 1]) == []
    assert run.backend_lcores(1, 2, cpus=[3]) == []
