"""The hupf view under the lab's traffic through the switch and the backend, in headless Chromium: the bytes and
packets charts draw both paths, the heavy UE's promotion and then its demotion come into the event stream, pushed
without a reload, and every packet sent is delivered or counted dropped (the lab's checks). After test_onos_ui:
its SMF has a Node ID and address of its own (conftest.TRAFFIC_SMF, allowed by the suite's netcfg), since the
standing SMF's Node ID from another association would be, to hupf, that SMF restarted. The screenshot is kept in
reports/onos/."""
import json
import time

import pytest

import conftest
from headless_chromium import Chromium
from hupf_tools.lab import accounting, scenario, summary
from hupf_tools.lab.smf import Smf as LabSmf
from hupf_view import EVENTS_JS, LAST_JS, PEAK_JS, VIEW_TIMEOUT_S, login, open_view
from test_onos_hybrid import (HOLD_MS, counted_by_ue, finish_traffic, join_switch, offload_state, start_traffic,
                              stop_all, traffic_stats)

pytestmark = [pytest.mark.skipif(conftest.GUI_WHY is not None, reason="missing %s" % conftest.GUI_WHY),
              pytest.mark.skipif(conftest.HYBRID_WHY is not None, reason="missing %s" % conftest.HYBRID_WHY)]

TRAFFIC_SCREENSHOT = conftest.REPORTS / "gui-hupf-traffic.png"
# The heavy UE is heavy from 15 % to 55 % of the run: 16 s, for a promotion that waits on a counter poll of a
# backend a CPU hog starves (hupf confirms a report by the rate the poll measured).
DURATION_S = 40.0


@pytest.fixture(scope="module")
def browser():
    b = Chromium()
    yield b
    b.close()


def offload_summary(onos):
    """What tells a missing HH report from a starved backend, for a failure's message."""
    state = offload_state(onos)
    return {k: state.get(k) for k in ("sessions", "offloaded", "hh_reports", "promotions", "demotions",
                                      "unconfirmed", "failed_counter_polls")}


def test_the_view_follows_the_hybrid_under_traffic(onos, deployed, backend, hybrid_net, switch, browser,
                                                   tmp_path):
    net = join_switch(onos, deployed, hybrid_net, switch)
    login(browser)
    open_view(browser)
    # The stream as it stands (the hybrid test's moves among them) once the view's first push filled it.
    before = browser.wait_for("(e => e.length ? e : null)(%s)" % EVENTS_JS, VIEW_TIMEOUT_S,
                              "the event stream filled by the view's first push")
    promoted_before = len([e for e in before if e[0] == "PROMOTED"])
    sc = scenario.Scenario(ues=3, heavy=1, duration_s=DURATION_S, heavy_on_s=DURATION_S * 0.15,
                           heavy_off_s=DURATION_S * 0.55)
    plan = scenario.make_plan(sc, net, 0)
    heavy = next(u["addr"] for u in plan["ues"] if u["heavy"])
    smf = LabSmf("127.0.0.1", deployed["pfcp_port"], node_id=conftest.TRAFFIC_SMF, bind=conftest.TRAFFIC_SMF)
    procs = {}
    try:
        assert smf.establish(plan) == 3
        drops_before = conftest.counted_drops({"b1": backend}, switch, hybrid_net)
        procs, stats = start_traffic(plan, hybrid_net, tmp_path)
        try:
            events = browser.wait_for("(e => e.filter(x => x[0] == 'PROMOTED').length > %d ? e : null)(%s)" % (
                promoted_before, EVENTS_JS), DURATION_S + VIEW_TIMEOUT_S,
                "the heavy UE's promotion in the event stream")
        except Exception as e:
            raise AssertionError("no promotion in the view; hupf's offload: %s" % offload_summary(onos)) from e
        assert ["PROMOTED", heavy] in events, events
        # Each path's rate drawn at some point of the traffic (the view shows 5 minutes: a peak stays).
        for chart in ("bytes", "packets"):
            peaks = browser.wait_for("(l => l['switch'] > 0 && l[%s] > 0 ? l : null)(%s)" % (
                json.dumps(deployed["device"]), PEAK_JS % chart), DURATION_S + VIEW_TIMEOUT_S,
                "the %s chart drawing the switch's and the backend's traffic" % chart)
            print("peak %s/s drawn under traffic: %s" % (chart, peaks))
        TRAFFIC_SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        browser.screenshot(str(TRAFFIC_SCREENSHOT))
        for side in ("gnb", "dn"):
            # The senders run the plan to its end (finish_traffic then waits for what is still in flight).
            procs["send", side].wait(timeout=plan["start"] + DURATION_S + VIEW_TIMEOUT_S - time.time())
        finish_traffic(procs)
        browser.wait_for("(e => e.some(x => x[0] == 'DEMOTED' && x[1] == %s) ? e : null)(%s)" % (
            json.dumps(heavy), EVENTS_JS), HOLD_MS / 1000 + VIEW_TIMEOUT_S, "the heavy UE's demotion")
        browser.wait_for("(l => l[%s] === 0 ? l : null)(%s)" % (json.dumps(deployed["device"]), LAST_JS % "bytes"),
                         VIEW_TIMEOUT_S, "the backend's bytes back to 0 once the traffic stopped")
        tx, rx = traffic_stats(stats)
        onos.wait(lambda: not summary.uncounted(plan, counted_by_ue(onos, plan), rx), VIEW_TIMEOUT_S,
                  "hupf's usage counting what arrived of every UE")
        counted = counted_by_ue(onos, plan)
        drops = accounting.since(conftest.counted_drops({"b1": backend}, switch, hybrid_net, rx), drops_before)
    finally:
        stop_all(procs)
        smf.delete_all(plan, lambda: {})
        smf.close()
    for name, ok, detail in (summary.delivery(plan, tx, rx, drops=drops), summary.usage(plan, counted, tx, rx)):
        assert ok, "%s: %s" % (name, detail)
