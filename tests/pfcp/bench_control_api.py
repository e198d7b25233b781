"""Benchmark (not a test): the standalone host's REST API from a client's side. Starts the host as the PFCP
suite does (HUPF_CLASSPATH selects another build), then times its start-up (process start to the ready line)
and N sequential GET /health requests over one loopback connection each (urllib), and prints min / median /
max in milliseconds as JSON. Run: .venv/bin/python tests/pfcp/bench_control_api.py [--requests N]"""
import argparse
import json
import statistics
import time
import urllib.request

import conftest


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=500)
    args = ap.parse_args()
    t0 = time.perf_counter()
    upf = conftest.start_upf()
    startup_ms = (time.perf_counter() - t0) * 1000
    try:
        lat = []
        for _ in range(args.requests):
            t = time.perf_counter()
            with urllib.request.urlopen(upf.control + "/health", timeout=10) as r:
                assert json.loads(r.read())["status"] == "ok"
            lat.append((time.perf_counter() - t) * 1000)
    finally:
        conftest.stop_upf(upf)
    print(json.dumps({"startup_ms": round(startup_ms, 1), "requests": args.requests,
                      "first_request_ms": round(lat[0], 2),
                      "health_ms": {"min": round(min(lat), 3), "median": round(statistics.median(lat), 3),
                                    "max": round(max(lat), 3)}}))


if __name__ == "__main__":
    main()
