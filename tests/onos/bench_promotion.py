"""Benchmark: how long a promotion (a heavy UE's session moved to the switch) and a demotion take through ONOS.
The suite's switch (bmv2 where found, else hupf-backend's hw profile) joins the backend with PROMOTIONS UEs pinned
to it (netcfg offload.pins); sessions are made over PFCP for them and, alternated, for as many unpinned UEs. hupf
promotes a pinned session as it takes it, and demotes it as it is deleted. Reported, min/median/max:

- each promotion's and demotion's switch writes, as hupf logs them (SwitchPlacement: "Offloaded UE ... written in
  X ms", "Took UE ... removed in X ms"): the waits for ONOS's confirmations of the switch's flow rules;
- the PFCP establishment and deletion round trips of pinned and unpinned sessions (what the SMF sees).

Run under the ONOS lock, as a suite test (its fixtures boot ONOS and the devices):
  flock /work/locks/onos.lock bash tools/run_suite.sh onos .venv/bin/python -m pytest -s tests/onos/bench_promotion.py
PROMOTIONS (default 20) sets the number of pinned UEs."""
import ipaddress
import os
import re
import statistics
import time

import pytest

import conftest
from hupf_tools.lab.smf import Smf as LabSmf
from test_onos_hybrid import join_switch, offload_state

pytestmark = pytest.mark.skipif(conftest.HYBRID_WHY is not None, reason="missing %s" % conftest.HYBRID_WHY)

PROMOTIONS = int(os.environ.get("PROMOTIONS", "20"))
FIRST_UE = ipaddress.IPv4Address("10.250.32.1")
PROMOTED = re.compile(r"Offloaded UE (\S+) to the switch: (\d+) entities written in ([\d.]+) ms")
DEMOTED = re.compile(r"Took UE (\S+) off the switch \([a-z ]+\): (\d+) entities removed in ([\d.]+) ms")


def spread(values):
    return "n=%d min %.1f median %.1f max %.1f" % (len(values), min(values), statistics.median(values), max(values))


def test_promotion_and_demotion_times_through_onos(onos, deployed, backend, hybrid_net, switch):
    ues = [{"idx": 100 + i, "addr": str(FIRST_UE + i), "dl_teid": 0x3000 + i, "pinned": i % 2 == 0}
           for i in range(2 * PROMOTIONS)]
    net = join_switch(onos, deployed, hybrid_net, switch,
                      pins={u["addr"]: "HARDWARE" for u in ues if u["pinned"]})
    log_start = len(onos.karaf_log.read_text(errors="replace"))
    smf = LabSmf("127.0.0.1", deployed["pfcp_port"])
    rtt = {("establish", True): [], ("establish", False): [], ("delete", True): [], ("delete", False): []}
    try:
        for u in ues:
            t0 = time.monotonic()
            assert smf.establish({"gnb": net["gnb"], "ues": [u]}) == 1, u
            rtt["establish", u["pinned"]].append(1000 * (time.monotonic() - t0))
        pinned = {u["addr"] for u in ues if u["pinned"]}
        onos.wait(lambda: set(offload_state(onos)["offloaded_ues"]) == pinned, 60,
                  "every pinned UE, and no other, on the switch")
        for u in ues:
            t0 = time.monotonic()
            resp, _ = smf.request(smf.em.deletion(u["up_seid"]))
            rtt["delete", u["pinned"]].append(1000 * (time.monotonic() - t0))
        onos.wait(lambda: not offload_state(onos)["offloaded_ues"], 60, "no UE left on the switch")
    finally:
        smf.close()
    log = onos.karaf_log.read_text(errors="replace")[log_start:]
    promoted = [(m.group(1), int(m.group(2)), float(m.group(3))) for m in PROMOTED.finditer(log)]
    demoted = [(m.group(1), int(m.group(2)), float(m.group(3))) for m in DEMOTED.finditer(log)]
    print("\nload average at the end: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    print("entities per promotion: %s" % sorted({p[1] for p in promoted}))
    print("promotion switch writes ms: %s" % spread([p[2] for p in promoted]))
    print("demotion switch writes ms: %s" % spread([d[2] for d in demoted]))
    for (what, pin), values in sorted(rtt.items()):
        print("PFCP %s round trip ms, %s: %s" % (what, "pinned" if pin else "unpinned", spread(values)))
    # A pinned session's deletion takes it off the switch first; a counter poll in between may put it back
    # (it is still tracked and pinned): a UE can be promoted and demoted more than once.
    assert {p[0] for p in promoted} == pinned, promoted
    assert {d[0] for d in demoted} == pinned, demoted
