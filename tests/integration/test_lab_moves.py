"""A backend moved under traffic (tools/hupf_tools/lab/moves.py) is timed by the runner's steering changes, not by
the status it happens to read: a backend killed and back between two status writes still moved and came back."""
import time

import pytest

from hupf_tools.lab.moves import BackendMove


def kill_move():
    move = BackendMove("kill", 1, 0.5, "/nonexistent", procs=None)
    move.left_at = time.time() - 5.0
    return move


def status(*changes):
    return {"steered_to": list(changes[-1][1]) if changes else [],
            "steerings": [{"at_ms": int(at * 1000), "to": list(to)} for at, to in changes]}


def test_a_departure_and_return_between_two_reads_are_both_seen():
    move = kill_move()
    t0 = move.left_at
    move.tick(3.0, 10.0, status((t0 - 60, ["backend-1", "backend-2"]), (t0 + 0.4, ["backend-1"]),
                                (t0 + 0.9, ["backend-1", "backend-2"])))
    assert move.moved_s == pytest.approx(0.4, abs=0.01) and move.back_s == pytest.approx(0.9, abs=0.01)
    assert move.check()[1]


def test_a_backend_never_steered_away_fails_its_check():
    move = kill_move()
    t0 = move.left_at
    move.tick(3.0, 10.0, status((t0 - 60, ["backend-1", "backend-2"])))
    assert move.moved_s is None and not move.check()[1]


def test_an_added_backend_reports_when_it_joined_once():
    move = BackendMove("add", 1, 0.5, "/nonexistent", procs=None)
    move.left_at = time.time() - 5.0
    joined = []
    move.on_joined = lambda: joined.append(True)
    t0 = move.left_at
    s = status((t0 + 1.0, ["backend-1"]), (t0 + 2.0, ["backend-1", "backend-2"]))
    move.tick(3.0, 10.0, s)
    move.tick(3.5, 10.0, s)
    assert move.moved_s == pytest.approx(2.0, abs=0.01) and joined == [True]


def test_a_killed_backend_reports_when_it_is_steered_to_again():
    move = kill_move()
    back = []
    move.on_joined = lambda: back.append(True)
    t0 = move.left_at
    move.tick(3.0, 10.0, status((t0 + 0.1, ["backend-1"])))
    assert back == []
    move.tick(3.5, 10.0, status((t0 + 0.1, ["backend-1"]), (t0 + 1.2, ["backend-1", "backend-2"])))
    assert back == [True] and move.back_s == pytest.approx(1.2, abs=0.01)
