"""The lab's final usages come from a runner status whose counter poll started after the traffic's end: with
thousands of UEs a status write lags the polls by seconds, and an older status misses the last packets."""
import json
import threading
import time

from hupf_tools.lab import processes as run


def write(path, polled_from_s, pkts):
    with open(path, "w") as f:
        json.dump({"polled_from_ms": int(polled_from_s * 1000), "ues": {"10.250.0.1": {"pkts": pkts}}}, f)


def test_a_status_polled_before_the_end_is_waited_past(tmp_path):
    status = str(tmp_path / "status.json")
    end = time.time()
    write(status, end - 3, 10)
    later = threading.Timer(0.5, write, (status, end + 0.2, 12))
    later.start()
    got = run.counted_status(status, end, timeout=10)
    later.join()
    assert got["ues"]["10.250.0.1"]["pkts"] == 12


def test_without_a_later_poll_the_last_status_is_taken_after_the_timeout(tmp_path, monkeypatch):
    said = []
    monkeypatch.setattr(run, "say", said.append)
    status = str(tmp_path / "status.json")
    write(status, time.time() - 3, 10)
    t0 = time.monotonic()
    got = run.counted_status(status, time.time(), timeout=0.4)
    assert time.monotonic() - t0 >= 0.4
    assert got["ues"]["10.250.0.1"]["pkts"] == 10 and "no counter poll" in said[0]
