"""What `make lab` and `make test` wait on runs at the caller's priority. A niced step shares the CPU with every busy
process at nice 0 in its scheduling group (a CPU hog, another suite) at about a tenth of their weight: beside
`stress-ng --cpu 4` on 2 vCPUs the lab's niced backend build compiled one C file every 16-180 s (tests/README.md,
"Beside a CPU hog"). Benchmarks may still nice themselves: nobody waits on them for a verdict."""
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NICE = re.compile(r"(^|[\s;&|(\"'\[])nice\b")


def test_the_labs_build_steps_are_not_niced():
    steps = [line for line in (REPO / "tools" / "lab.sh").read_text().splitlines()
             if line.strip().startswith("build_step ") or line.strip().startswith("nice ")]
    assert len(steps) >= 4, steps
    assert [line for line in steps if NICE.search(line)] == []


def test_the_suites_commands_are_not_niced():
    waited_on = {
        "tools/hupf_tools/Makefile": "RUN  :=",         # the identification suite
        "p4src/Makefile": "$(P4C) --arch v1model",      # the PTF suite's recompile of every profile
        "p4src/gnb/Makefile": "$(P4C) --arch v1model",
        "tests/onos/conftest.py": '"mvn", "-B"',          # the ONOS suite's .oar build
    }
    for path, marker in waited_on.items():
        lines = [line for line in (REPO / path).read_text().splitlines() if marker in line]
        assert lines, "%s: no line with %r" % (path, marker)
        assert [line for line in lines if NICE.search(line)] == [], path
