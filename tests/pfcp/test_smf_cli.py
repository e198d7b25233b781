"""The SMF emulator command against hupf's standalone runner, as an operator would run it."""
import pytest

from smf_cli import main


def test_command_establishes_holds_and_deletes_its_sessions(upf, capsys):
    rc = main(["--upf", "%s:%d" % upf.addr, "--bind", "127.0.0.1", "--sessions", "5",
               "--ue-pool", "10.250.251.0/24", "--hold", "0.2", "--heartbeat", "0.1"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "sessions established: 5 of 5" in out and "sessions deleted: 5 of 5" in out
    assert upf.get("/health")["sessions"] == 0


def test_command_without_hold_leaves_the_sessions_installed(upf, capsys):
    before = upf.get("/health")["sessions"]
    assert main(["--upf", "%s:%d" % upf.addr, "--bind", "127.0.0.1", "--sessions", "3",
                 "--ue-pool", "10.250.252.0/24"]) == 0
    assert upf.get("/health")["sessions"] == before + 3
    ues = {s["ueAddress"] for s in upf.get("/lab/entities")["session_downlink"]}
    assert {"10.250.252.1", "10.250.252.2", "10.250.252.3"} <= ues


def test_unreachable_upf_fails_loudly():
    with pytest.raises(AssertionError, match="no response"):
        main(["--upf", "127.0.0.1:9", "--bind", "127.0.0.1", "--sessions", "1"])
