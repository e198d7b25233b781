"""The hupf view of the two-site fabric in headless Chromium (docs/GUI.md) while both sites carry the lab's traffic,
a heavy UE at each on its own site's switch for 10 samples already: the site selector lists both sites; each site's
bytes and packets charts draw its switch and its own backends only, their last points non-zero on the switch and on
every backend of the site at once; its event stream shows its heavy UE's promotion, at that site only. Screenshots
of every site and of each site, taken while the charts' last points show that traffic, go into reports/fabric/,
with what each showed (gui-two-sites.json: UTC time, load average, last points, events)."""
import json
import os
import time

from headless_chromium import Chromium, ChromiumError
from hupf_view import LAST_JS, SITE_EVENTS_JS, SITES_JS, VIEW_TIMEOUT_S, login, open_view, pick_site

from hupf_tools.fabric import run as fabric_run, topology as topo

CHARTS = ("bytes", "packets")
# Samples taken with both heavy UEs on their switches before the view is checked: the charts draw a stretch of
# that traffic, not one point.
OFFLOADED_SAMPLES = 10
# The last point of every series of the charts by path: {chart: {series: value}}.
LAST_BY_PATH_JS = "({%s})" % ", ".join("%s: %s" % (c, LAST_JS % c) for c in CHARTS)


def screenshot_path(reports, site):
    return reports / ("gui-two-sites%s.png" % ("-" + site if site else ""))


def with_traffic(last, groups):
    """Whether, in both charts, some series of every group drew a non-zero last point."""
    return all(any(last.get(c, {}).get(s) for s in g) for g in groups for c in CHARTS)


def photograph_with_traffic(browser, groups, path, timeout_s):
    """Screenshots the view once the charts' last points show traffic on some series of every group, and reads them
    again after: returns those last points, or the last ones read if no screenshot had them within timeout_s."""
    condition = "(l => %s.every(g => %s.every(c => g.some(s => l[c][s] > 0))) ? l : null)(%s)" % (
        json.dumps(groups), json.dumps(CHARTS), LAST_BY_PATH_JS)
    deadline = time.monotonic() + timeout_s
    last = {}
    while time.monotonic() < deadline:
        try:
            browser.wait_for(condition, max(1.0, deadline - time.monotonic()), "traffic on %s" % groups)
        except ChromiumError:
            break
        browser.screenshot(str(path))
        # A push between the wait and the screenshot may have drawn a quieter point: the picture must show traffic.
        last = browser.evaluate(LAST_BY_PATH_JS) or {}
        if with_traffic(last, groups):
            return last, True
    return last or browser.evaluate(LAST_BY_PATH_JS), False


def view_under_traffic(onos, fabric, t, plans, work, reports):
    """Starts the lab's traffic at every site at once (plans: each site's established (path, plan), a heavy UE
    among its mice), waits until every heavy UE is on its site's switch, then checks and photographs the view.
    Returns what the view does not show as it should (empty when it does)."""
    heavy = {name: next(u["addr"] for u in plan["ues"] if u["heavy"]) for name, (_, plan) in plans.items()}
    heavy_s = max(plan["heavy_off"] for _, plan in plans.values())
    browser = Chromium()
    procs, failed, seen = [], [], {}
    try:
        login(browser)
        open_view(browser)
        names = [s.name for s in t.sites]
        browser.wait_for("(s => %s.every(n => s.includes(n)) ? s : null)(%s)" % (json.dumps(names), SITES_JS),
                         VIEW_TIMEOUT_S, "sites %s in the view's site selector" % names)
        for site in t.sites:
            path, plan = plans[site.name]
            (work / site.name).mkdir(parents=True, exist_ok=True)
            procs.append(fabric_run.start_traffic(fabric, site, plan, path, work / site.name)[0])
        started = time.time()
        if not fabric_run.until(lambda: set(heavy.values()) <= set(fabric_run.offload(onos).get("offloaded_ues", [])),
                                heavy_s):
            return ["GUI: the heavy UEs %s not all on their switches within %d s: hupf's offload %s"
                    % (heavy, heavy_s, fabric_run.offload(onos))]
        seen["offloaded"] = dict(moment(), heavy=heavy, after_s=round(time.time() - started, 1))
        since_ms = int(time.time() * 1000)
        if not fabric_run.until(lambda: samples_after(onos, since_ms) >= OFFLOADED_SAMPLES, heavy_s):
            return ["GUI: fewer than %d samples in GET /onos/hupf/live within %d s" % (OFFLOADED_SAMPLES, heavy_s)]
        still = set(fabric_run.offload(onos).get("offloaded_ues", []))
        if not set(heavy.values()) <= still:
            return ["GUI: the heavy UEs %s left their switches with the traffic on: on them %s" % (heavy, still)]
        reports.mkdir(parents=True, exist_ok=True)
        for site in t.sites:
            failed += site_under_traffic(browser, site, heavy[site.name], reports, seen)
        pick_site(browser, "")
        every = [["switch"]] + [[topo.backend_device_id(b) for b in s.backends] for s in t.sites]
        last, shown = photograph_with_traffic(browser, every, screenshot_path(reports, ""), VIEW_TIMEOUT_S)
        if not shown:
            failed.append("every site: no screenshot with traffic drawn last on the switches and at each site's "
                          "backends within %d s: %s" % (VIEW_TIMEOUT_S, last))
        events = browser.evaluate(SITE_EVENTS_JS)
        for site in t.sites:
            if ["PROMOTED", heavy[site.name], site.name] not in events:
                failed.append("every site's events lack %s's promotion at %s: %s" % (heavy[site.name], site.name,
                                                                                  events))
        seen["every site"] = dict(moment(), last=last, events=events)
    finally:
        for p in procs:
            fabric_run.stop(p)
        browser.close()
        if seen:
            (reports / "gui-two-sites.json").write_text(json.dumps(seen, indent=1))
    return ["GUI: " + f for f in failed]


def samples_after(onos, after_ms):
    status, body = onos.rest("GET", "/onos/hupf/live?after=%d" % after_ms)
    return len(body.get("samples", [])) if status == 200 else 0


def moment():
    return {"utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()), "load": os.getloadavg()[0]}


def site_under_traffic(browser, site, heavy_ue, reports, seen):
    """One site picked: its charts by path draw its switch and its own backends only, the last points non-zero on
    the switch and on each of its backends (photographed so), its events only, its heavy UE's promotion among them."""
    pick_site(browser, site.name)
    own = sorted(topo.backend_device_id(b) for b in site.backends)
    failed = []
    last, shown = photograph_with_traffic(browser, [["switch"]] + [[b] for b in own],
                                          screenshot_path(reports, site.name), VIEW_TIMEOUT_S)
    for chart in CHARTS:
        if sorted(last.get(chart, {})) != sorted(["switch"] + own):
            failed.append("site %s's %s chart draws %s, want its switch and backends %s"
                          % (site.name, chart, sorted(last.get(chart, {})), own))
    if not shown:
        failed.append("site %s: no screenshot with traffic drawn last on its switch and on each of its backends %s "
                      "within %d s: %s" % (site.name, own, VIEW_TIMEOUT_S, last))
    events = browser.evaluate(SITE_EVENTS_JS)
    if ["PROMOTED", heavy_ue, site.name] not in events or any(e[2] != site.name for e in events):
        failed.append("site %s's events: %s, want its own with %s's promotion" % (site.name, events, heavy_ue))
    seen[site.name] = dict(moment(), last=last, events=events)
    return failed
