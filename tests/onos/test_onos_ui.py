"""The hupf view in ONOS's legacy web GUI, in headless Chromium: form login as onos/rocks, the view opened
from its route, the suite's standing sessions found through the view's filter (the server sends one page of
sessions, never all) with their UE and TEIDs, the charts drawn from the samples hupf pushes at each offload poll
(the backend's bytes and packets over time), the summary panels and the event stream filled from the running
hupf. With the scale test's count of sessions the view pages and filters them on the server. The live view's
REST endpoints answer what the view shows. Screenshots are kept in reports/onos/."""
import json
import re

import pytest
from scapy.contrib import pfcp as P

import conftest
import smf as smf_mod
from headless_chromium import Chromium
from hupf_view import (EVENTS_JS, FILTER_JS, ROWS_JS, ROWS_SPAN_JS, SERIES_JS, UI, VIEW_TIMEOUT_S, login, open_view,
                       pick_site)
from test_scale import FIRST_UE, SESSIONS, pipelined

pytestmark = pytest.mark.skipif(conftest.GUI_WHY is not None, reason="missing %s" % conftest.GUI_WHY)

SCREENSHOT = conftest.REPORTS / "gui-hupf-view.png"
SESSIONS_SCREENSHOT = conftest.REPORTS / "gui-hupf-sessions.png"
PAGE = 50  # the view's page of sessions
IMPLICIT_SITE = "default"  # the site of a netcfg without a sites block


@pytest.fixture(scope="module")
def browser():
    b = Chromium()
    yield b
    b.close()


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
        up_seid, _, _, teid_up, teid_down, site, path, rate = by_ue[ue]
        assert up_seid == seid
        assert site == "-", "the suite's netcfg names no sites: %s" % by_ue[ue]
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
    # The stream: hupf took the backend over (it came up), and after test_onos_hybrid the offloads.
    kinds = ["BACKEND_UP"] + (["PROMOTED", "DEMOTED"] if metrics["promotions"] else [])
    events = browser.wait_for("(e => %s.every(k => e.some(x => x[0] == k)) ? e : null)(%s)" % (
        json.dumps(kinds), EVENTS_JS), VIEW_TIMEOUT_S, "%s in the event stream" % kinds)
    assert ["BACKEND_UP", deployed["device"]] in events, events
    # The charts: the backend's bytes and packets over time, drawn once the view has two samples of it.
    for chart in ("bytes", "packets"):
        series = browser.wait_for("(s => s && s[%s] >= 1 ? s : null)(%s)" % (
            json.dumps(deployed["device"]), SERIES_JS % chart), VIEW_TIMEOUT_S, "the %s chart drawn" % chart)
        assert deployed["device"] in series, series
    for chart in ("bytes", "packets"):
        assert "switch" in browser.wait_for(SERIES_JS % chart, VIEW_TIMEOUT_S, "the %s chart" % chart), \
            "the %s chart: the switch beside the backends" % chart
    moves = browser.wait_for(SERIES_JS % "moves", VIEW_TIMEOUT_S, "the promotions chart")
    assert set(moves) == {"HH reports", "promotions", "demotions"}, moves
    # One site's charts: the one implicit site of a netcfg without sites holds the backend.
    pick_site(browser, IMPLICIT_SITE)
    series = browser.wait_for("(s => s && s[%s] >= 1 ? s : null)(%s)" % (
        json.dumps(deployed["device"]), SERIES_JS % "bytes"), VIEW_TIMEOUT_S, "site %s's bytes" % IMPLICIT_SITE)
    assert "switch" in series, series
    sites = browser.evaluate("Array.from(document.querySelectorAll('#ov-hupf tr.hupf-event'))"
                             ".map(r => r.dataset.site)")
    assert sites and set(sites) == {IMPLICIT_SITE}, "the stream shows the site's events only: %s" % sites
    pick_site(browser, "")
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.screenshot(str(SCREENSHOT))


def assert_accepted(answers):
    """Every PFCP answer's cause is 1, else how many were refused with which causes (a short message: pytest's
    diff of two lists of 2,000 causes took minutes)."""
    refused = [smf_mod.cause(r) for r in answers.values() if smf_mod.cause(r) != 1]
    assert not refused, "%d of %d refused, causes %s" % (len(refused), len(answers), sorted(set(refused)))


def test_the_view_pages_and_filters_many_sessions(onos, deployed, standing_smf, standing_sessions, browser):
    """The scale test's count of sessions over PFCP: the view shows the first 50 of them all, turns to the next
    page, filters a /24 of UEs on the server and pages through it to its end, and finds one UE among them."""
    smf = standing_smf
    ues = [str(FIRST_UE + i) for i in range(SESSIONS)]
    specs = [smf.establishment(800000 + i, ue) for i, ue in enumerate(ues)]
    answers = pipelined(smf, specs)
    assert_accepted(answers)
    # A retransmission carried out again instead of answered from the cache is refused with cause 64 (its CP
    # F-SEID in use): its answer may be one the emulator no longer reads, so ONOS's own count says.
    status, health = onos.rest("GET", "/onos/hupf/health")
    assert status == 200 and health.get("pfcp.reject.cause_64", 0) == 0, {
        k: v for k, v in health.items() if k.startswith(("pfcp.reject", "pfcp.rx.retransmission"))}
    up_seids = [smf_mod.ie(answers[s["seq"]], P.IE_FSEID).seid for s in specs]
    try:
        status, first = onos.rest("GET", "/onos/hupf/live/sessions?offset=50&limit=1")
        assert status == 200 and first["total"] >= SESSIONS, first
        total = first["total"]
        open_view(browser)
        browser.wait_for("(t => t == %s ? t : null)(%s)" % (json.dumps("1–50 of %d matching" % total),
                                                         ROWS_SPAN_JS), VIEW_TIMEOUT_S, "the first page of all")
        browser.evaluate("document.getElementById('hupf-next').click(); true")
        rows = browser.wait_for("(t => t == %s ? %s : null)(%s)" % (
            json.dumps("51–100 of %d matching" % total), ROWS_JS, ROWS_SPAN_JS), VIEW_TIMEOUT_S, "the second page")
        assert len(rows) == PAGE and rows[0][0] == str(first["sessions"][0]["id"]), (rows[0], first)

        block = ues[256].rsplit(".", 1)[0] + "."
        in_block = sorted((u for u in ues if u.startswith(block)), key=lambda u: int(u.rsplit(".", 1)[1]))
        browser.wait_for(FILTER_JS % json.dumps(block), VIEW_TIMEOUT_S, "the hupf view's filter")
        browser.wait_for("(t => t == %s ? t : null)(%s)" % (json.dumps("1–50 of %d matching" % len(in_block)),
                                                         ROWS_SPAN_JS), VIEW_TIMEOUT_S, "the block filtered")
        last_first = (len(in_block) - 1) // PAGE * PAGE
        for _ in range(last_first // PAGE):
            browser.evaluate("document.getElementById('hupf-next').click(); true")
        want = "%d–%d of %d matching" % (last_first + 1, len(in_block), len(in_block))
        rows = browser.wait_for("(t => t == %s ? %s : null)(%s)" % (json.dumps(want), ROWS_JS, ROWS_SPAN_JS),
                                VIEW_TIMEOUT_S, "the filtered block's last page")
        assert len(rows) == len(in_block) - last_first and all(r[2].startswith(block) for r in rows), rows
        status, page = onos.rest("GET", "/onos/hupf/live/sessions?filter=%s&offset=%d&limit=50" % (
            block, last_first))
        assert status == 200 and page["matched"] == len(in_block), page
        assert [str(r["id"]) for r in page["sessions"]] == [r[0] for r in rows], "REST's page is the view's"
        SESSIONS_SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        browser.screenshot(str(SESSIONS_SCREENSHOT))

        one = in_block[123]
        browser.wait_for(FILTER_JS % json.dumps(one), VIEW_TIMEOUT_S, "the hupf view's filter")
        rows = browser.wait_for("(r => r.length == 1 && r[0][2] == %s ? r : null)(%s)" % (json.dumps(one), ROWS_JS),
                                VIEW_TIMEOUT_S, "the view filtered down to UE %s" % one)
        assert rows[0][0] == str(up_seids[ues.index(one)]), rows
    finally:
        browser.wait_for(FILTER_JS % json.dumps(""), VIEW_TIMEOUT_S, "the hupf view's filter")
        assert_accepted(pipelined(smf, [smf.deletion(seid) for seid in up_seids]))


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
    assert body["intervalMs"] == 1000, "one sample per offload poll"
    last = body["samples"][-1]
    assert last["driving"] is True and set(last["backends"][deployed["device"]]) == {"packets", "bytes"}, last
    assert deployed["device"] in last["sites"][IMPLICIT_SITE]["backends"], "the site's own series: %s" % last
    status, later = onos.rest("GET", "/onos/hupf/live?after=%d" % last["time"])
    assert status == 200 and all(s["time"] > last["time"] for s in later["samples"]), later
    status, stream = onos.rest("GET", "/onos/hupf/live/events")
    assert status == 200, stream
    up = [e for e in stream["events"] if e["kind"] == "BACKEND_UP" and e["subject"] == deployed["device"]]
    assert up and up[0]["time"] > 0, stream
    status, later = onos.rest("GET", "/onos/hupf/live/events?after=%d" % up[-1]["seq"])
    assert status == 200 and all(e["seq"] > up[-1]["seq"] for e in later["events"]), later

    ue = conftest.STANDING_PFCP_UE
    status, page = onos.rest("GET", "/onos/hupf/live/sessions?filter=%s&limit=10" % ue)
    assert status == 200, page
    assert page["matched"] == 1 and page["total"] >= len(standing_sessions), page
    assert page["sessions"][0]["ue"] == ue and page["sessions"][0]["id"] == str(standing_sessions[ue]), page
    status, body = onos.rest("GET", "/onos/hupf/live/sessions?limit=501")
    assert status == 400 and "limit" in body["error"], (status, body)
