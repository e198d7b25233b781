"""The hupf view of the two-site fabric in headless Chromium (docs/GUI.md), once each site ran the lab's traffic:
the site selector lists both sites; each site's bytes chart draws its switch and its own backends only, the
switch's bytes there (its heavy UE was offloaded to it) and its backends'; the event stream shows each site's
promotion with that site. Screenshots of every site and of each site go into reports/fabric/."""
import json

from headless_chromium import Chromium
from hupf_view import PEAK_JS, SITE_EVENTS_JS, SITES_JS, VIEW_TIMEOUT_S, login, open_view, pick_site

from hupf_tools.fabric import topology as topo


def screenshot_path(reports, site):
    return reports / ("gui-two-sites%s.png" % ("-" + site if site else ""))


def view_shows_each_site(t, reports):
    """Returns what the view does not show as it should (empty when it does)."""
    names = [s.name for s in t.sites]
    browser = Chromium()
    failed = []
    try:
        login(browser)
        open_view(browser)
        browser.wait_for("(s => %s.every(n => s.includes(n)) ? s : null)(%s)" % (json.dumps(names), SITES_JS),
                         VIEW_TIMEOUT_S, "sites %s in the view's site selector" % names)
        reports.mkdir(parents=True, exist_ok=True)
        browser.screenshot(str(screenshot_path(reports, "")))
        for site in t.sites:
            pick_site(browser, site.name)
            own = sorted(topo.backend_device_id(b) for b in site.backends)
            peaks = browser.wait_for("(p => Object.keys(p).length ? p : null)(%s)" % (PEAK_JS % "bytes"),
                                     VIEW_TIMEOUT_S, "site %s's bytes chart" % site.name)
            if sorted(peaks) != sorted(["switch"] + own):
                failed.append("site %s's bytes chart draws %s, want its switch and backends %s"
                              % (site.name, sorted(peaks), own))
            if not peaks.get("switch") or not any(peaks.get(b) for b in own):
                failed.append("site %s's bytes chart drew no traffic on its switch or backends: %s"
                              % (site.name, peaks))
            events = browser.evaluate(SITE_EVENTS_JS)
            if not any(e[0] == "PROMOTED" for e in events) or any(e[2] != site.name for e in events):
                failed.append("site %s's events: %s, want its own with its promotion" % (site.name, events))
            browser.screenshot(str(screenshot_path(reports, site.name)))
            print("GUI site %s: bytes/s peaks %s, %d events" % (site.name, peaks, len(events)))
        pick_site(browser, "")
    finally:
        browser.close()
    return ["GUI: " + f for f in failed]
