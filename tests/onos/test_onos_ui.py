"""The hupf view in ONOS's legacy web GUI, in headless Chromium: form login as onos/rocks, the view opened
from its route, the suite's standing sessions listed with their UE and TEIDs, the summary panels filled
from the running hupf: its devices, and after test_onos_hybrid (which runs before this file) the switch's
tables and the offload events. A screenshot is kept in reports/onos/."""
import re
from pathlib import Path

import pytest

import conftest
from headless_chromium import Chromium

pytestmark = pytest.mark.skipif(conftest.GUI_WHY is not None, reason="missing %s" % conftest.GUI_WHY)

UI = "http://localhost:8181/onos/ui/"
SCREENSHOT = conftest.REPORTS / "gui-hupf-view.png"
VIEW_TIMEOUT_S = 60
# The texts of the sessions table's cells, row by row (empty until angular rendered the rows).
ROWS_JS = ("Array.from(document.querySelectorAll('#ov-hupf tr.hupf-session'))"
           ".map(r => Array.from(r.cells).map(c => c.textContent.trim()))")


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
    rows = browser.wait_for("(r => r.length >= %d ? r : null)(%s)" % (len(want), ROWS_JS), VIEW_TIMEOUT_S,
                            "the hupf view lists %d sessions" % len(want))
    by_ue = {r[2]: r for r in rows}
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
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.screenshot(str(SCREENSHOT))
