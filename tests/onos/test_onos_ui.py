"""The hupf view in ONOS's legacy web GUI, in headless Chromium: form login as onos/rocks, the view opened
from its route, the suite's standing sessions found through the view's filter (the server sends one page of
sessions, never all) with their UE and TEIDs, the charts drawn from the samples hupf takes every 2 s (the
backend's bytes and packets over time), the summary panels filled from the running hupf: its devices, and
after test_onos_hybrid (which runs before this file) the switch's tables and the offload events. The live
view's REST endpoints answer what the view shows. A screenshot is kept in reports/onos/."""
import json
import re
from pathlib import Path

import pytest

import conftest
from headless_chromium import Chromium

pytestmark = pytest.mark.skipif(conftest.GUI_WHY is not None, reason="missing %s" % conftest.GUI_WHY)

UI = "http://localhost:8181/onos/ui/"
SCREENSHOT = conftest.REPORTS / "gui-hupf-view.png"
VIEW_TIMEOUT_S = 60
PAGE = 50  # the view's page of sessions
# The texts of the sessions table's cells, row by row (empty until angular rendered the rows).
ROWS_JS = ("Array.from(document.querySelectorAll('#ov-hupf tr.hupf-session'))"
           ".map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
# Types into the view's filter as a user would (angular listens to the input event); false until the view (its
# controller and template) is there to type into.
FILTER_JS = ("(f => f ? (f.value = %s, f.dispatchEvent(new Event('input')), true) : false)"
             "(document.getElementById('hupf-filter'))")
# Samples drawn by a chart's series ({name: samples}; empty until the view drew two samples).
SERIES_JS = ("(s => Object.keys(s).length ? s : null)(Object.fromEntries(Array.from(document.querySelectorAll("
             "'#hupf-chart-%s polyline.hupf-series')).map(p => [p.dataset.name, +p.dataset.samples])))")


@pytest.fixture(scope="module")
def browser():
    b = Chromium()
    yield b
    b.close()


def login(browser):
    browser.navigate(UI)
    browser.wait_for("document.getElementById('username') !== null", VIEW_TIMEOUT_S, "ONOS's login form")
    browser.evaluate("document.getElementById('username').value = 'onos';"
                     "document.getElementById('password').value = 'rocks';"
                     "document.getElementById('submit').click(); true")
    browser.wait_for("document.getElementById('username') === null && document.querySelector('#view') !== null",
                     VIEW_TIMEOUT_S, "the GUI's main page after login")


def test_hupf_view_lists_the_sessions(onos, deployed, standing_sessions, browser):
    # The view is registered once the GUI's service bound hupf's component.
    onos.wait(lambda: "hupf view registered" in onos.karaf_log.read_text(errors="replace"), 60,
              "hupf's view registered with the GUI")
    login(browser)
    browser.navigate(UI + "#/hupf")
    want = {ue: str(seid) for ue, seid in standing_sessions.items()}
    by_ue = {}
    for ue in want:
        browser.wait_for(FILTER_JS % json.dumps(ue), VIEW_TIMEOUT_S, "the hupf view's filter")
        rows = browser.wait_for("(r => r.length == 1 && r[0][2] == %s ? r : null)(%s)" % (json.dumps(ue), ROWS_JS),
                                VIEW_TIMEOUT_S, "the hupf view filtered down to UE %s" % ue)
        by_ue[ue] = rows[0]
    browser.wait_for(FILTER_JS % json.dumps(""), VIEW_TIMEOUT_S, "the hupf view's filter")
    rows = browser.wait_for("(r => r.length >= %d ? r : null)(%s)" % (len(want), ROWS_JS), VIEW_TIMEOUT_S,
                            "the hupf view lists the sessions again without a filter")
    assert len(rows) <= PAGE, "one page of sessions, not all: %d rows" % len(rows)
    for ue, seid in want.items():
        assert ue in by_ue, "UE %s not listed: %s" % (ue, rows)
        up_seid, _, _, teid_up, teid_down, path, rate = by_ue[ue]
        assert up_seid == seid
        assert re.fullmatch(r"0x[0-9a-f]+", teid_up), "the UPF chose an uplink F-TEID: %s" % by_ue[ue]
        assert path == "SW", "no traffic, nothing offloaded: %s" % by_ue[ue]
        assert rate == "0"
    pfcp = by_ue[conftest.STANDING_PFCP_UE]
    assert pfcp[4] == "0x60", "the downlink FAR's gNB TEID: %s" % pfcp
    assert by_ue[conftest.STANDING_REST_UE][4] == "-", "a buffering downlink has no gNB TEID"

    devices = browser.wait_for(
        "(t => t.length ? t : null)(Array.from(document.querySelectorAll('#ov-hupf tr.hupf-device'))"
        ".map(r => Array.from(r.cells).map(c => c.textContent.trim())))", VIEW_TIMEOUT_S, "the devices panel")
    assert [deployed["device"], "backend", "org.hupf.backend", "yes"] in devices, devices
    offload = browser.wait_for("(e => e && e.textContent)(document.getElementById('hupf-offload'))",
                               VIEW_TIMEOUT_S, "the offload panel")
    metrics = onos.rest("GET", "/onos/hupf/offload")[1]
    # The panel shows the offload manager's metrics, as GET /onos/hupf/offload does.
    assert re.search(r"Sessions\s*%d" % metrics["sessions"], offload), (offload, metrics)
    if metrics["occupancy"]:  # a switch joined (test_onos_hybrid): its tables and the offload events show
        assert ["device:bmv2:s1", "switch", "org.hupf.bmv2", "yes"] in devices, devices
        tables = browser.wait_for("(e => e && e.textContent)(document.getElementById('hupf-occupancy'))",
                                  VIEW_TIMEOUT_S, "the switch tables panel")
        assert "session_uplink" in tables, tables
    if metrics["promotions"]:
        events = browser.wait_for("(e => e && e.textContent)(document.getElementById('hupf-events'))",
                                  VIEW_TIMEOUT_S, "the offload events panel")
        for kind in ("HH_REPORT", "PROMOTED", "DEMOTED"):
            assert kind in events, "%s not in the events panel: %s" % (kind, events)
    # The charts: the backend's bytes and packets over time, drawn once the view has two samples of it.
    for chart in ("bytes", "packets"):
        series = browser.wait_for("(s => s && s[%s] >= 1 ? s : null)(%s)" % (
            json.dumps(deployed["device"]), SERIES_JS % chart), VIEW_TIMEOUT_S, "the %s chart drawn" % chart)
        assert deployed["device"] in series, series
    assert "switch" in browser.wait_for(SERIES_JS % "bytes", VIEW_TIMEOUT_S, "the bytes chart"), "switch vs backends"
    moves = browser.wait_for(SERIES_JS % "moves", VIEW_TIMEOUT_S, "the promotions chart")
    assert set(moves) == {"promotions", "demotions"}, moves
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.screenshot(str(SCREENSHOT))


def test_live_rest_answers_what_the_view_shows(onos, deployed, standing_sessions):
    """GET /onos/hupf/live: the samples of the last minutes (the backend's counts in each); GET
    /onos/hupf/live/sessions: one filtered page; a page larger than 500 is refused."""
    def two_samples():
        status, body = onos.rest("GET", "/onos/hupf/live")
        assert status == 200, body
        mine = [s for s in body["samples"] if deployed["device"] in s["backends"]]
        return body if len(mine) >= 2 else None
    onos.wait(two_samples, VIEW_TIMEOUT_S, "two samples of the backend in GET /onos/hupf/live")
    body = two_samples()
    assert body["intervalMs"] == 2000
    last = body["samples"][-1]
    assert last["driving"] is True and set(last["backends"][deployed["device"]]) == {"packets", "bytes"}, last
    status, later = onos.rest("GET", "/onos/hupf/live?after=%d" % last["time"])
    assert status == 200 and all(s["time"] > last["time"] for s in later["samples"]), later

    ue = conftest.STANDING_PFCP_UE
    status, page = onos.rest("GET", "/onos/hupf/live/sessions?filter=%s&limit=10" % ue)
    assert status == 200, page
    assert page["matched"] == 1 and page["total"] >= len(standing_sessions), page
    assert page["sessions"][0]["ue"] == ue and page["sessions"][0]["id"] == str(standing_sessions[ue]), page
    status, body = onos.rest("GET", "/onos/hupf/live/sessions?limit=501")
    assert status == 400 and "limit" in body["error"], (status, body)
