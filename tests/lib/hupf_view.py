"""The hupf view in ONOS's legacy web GUI as a user drives it in headless Chromium (tests/lib/headless_chromium.py):
the login, the view's route, and the page's parts read or set through JavaScript (docs/GUI.md)."""
import json

UI = "http://localhost:8181/onos/ui/"
VIEW_TIMEOUT_S = 60
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
# The largest value each series of a chart drew over the samples shown ({name: value}).
PEAK_JS = ("Object.fromEntries(Array.from(document.querySelectorAll('#hupf-chart-%s polyline.hupf-series'))"
           ".map(p => [p.dataset.name, +p.dataset.peak]))")
# The last value each series of a chart draws ({name: value}).
LAST_JS = ("Object.fromEntries(Array.from(document.querySelectorAll('#hupf-chart-%s polyline.hupf-series'))"
           ".map(p => [p.dataset.name, +p.dataset.last]))")
# The event stream's rows, newest first ([kind, subject]).
EVENTS_JS = ("Array.from(document.querySelectorAll('#ov-hupf tr.hupf-event'))"
             ".map(r => [r.dataset.kind, r.cells[2].textContent.trim()])")
# The same with each row's site ([kind, subject, site]).
SITE_EVENTS_JS = ("Array.from(document.querySelectorAll('#ov-hupf tr.hupf-event'))"
                  ".map(r => [r.dataset.kind, r.cells[2].textContent.trim(), r.dataset.site])")
# The sites the view's site selector offers.
SITES_JS = ("(e => e ? Array.from(e.options).map(o => o.value).filter(v => v) : [])"
            "(document.getElementById('hupf-site'))")
# Picks a site in the view's site selector ('' for every site) as a user would; false until it has that option.
SITE_JS = ("(e => e && Array.from(e.options).some(o => o.value == %s) ? (e.value = %s, "
           "e.dispatchEvent(new Event('change')), true) : false)(document.getElementById('hupf-site'))")
# The pager's "first-last of matched" text.
ROWS_SPAN_JS = "document.getElementById('hupf-rows').textContent.replace(/\\s+/g, ' ').trim()"


def login(browser):
    browser.navigate(UI)
    browser.wait_for("document.getElementById('username') !== null", VIEW_TIMEOUT_S, "ONOS's login form")
    browser.evaluate("document.getElementById('username').value = 'onos';"
                     "document.getElementById('password').value = 'rocks';"
                     "document.getElementById('submit').click(); true")
    browser.wait_for("document.getElementById('username') === null && document.querySelector('#view') !== null",
                     VIEW_TIMEOUT_S, "the GUI's main page after login")


def open_view(browser):
    browser.navigate(UI + "#/hupf")
    browser.wait_for(FILTER_JS % json.dumps(""), VIEW_TIMEOUT_S, "the hupf view's filter")


def pick_site(browser, site):
    """Shows one site's charts and events ('' for every site)."""
    browser.wait_for(SITE_JS % ((json.dumps(site),) * 2), VIEW_TIMEOUT_S, "site %r in the site selector" % site)
