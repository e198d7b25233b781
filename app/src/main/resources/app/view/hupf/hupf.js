// hupf view (legacy ONOS GUI): while it is open the server pushes what each offload poll left (the samples since
// the last push, drawn as charts of rates over time; the new events of the stream; the summary panels); the
// sessions come one page at a time, filtered on the server (a UPF holds 100,000 sessions: never all of them).
(function () {
    'use strict';

    var PAGE_REFRESH_MS = 5000,
        PAGE = 50,
        // Samples drawn: 5 minutes at the server's 1 s interval (the offload poll's).
        DRAWN = 300,
        // Events listed, newest first.
        EVENTS = 100,
        // Without a push for this long (e.g. the web socket reconnected), the view asks for them again.
        SILENCE_MS = 10000,
        W = 320, H = 100,
        COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#17becf'];

    // Per-second rate of a total between two samples; a total that went down (sessions deleted) counts 0.
    function rate(prev, cur, value, ms) {
        var d = value(cur) - value(prev);
        return d > 0 ? d * 1000 / ms : 0;
    }

    function human(v) {
        var units = ['', 'k', 'M', 'G', 'T'], i = 0;
        while (v >= 1000 && i < units.length - 1) {
            v /= 1000;
            i += 1;
        }
        return (v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)) + units[i];
    }

    // One chart: {id, title, series: [{name, color, points (SVG polyline), last}]}; values[i] of each series
    // per drawn sample, scaled to the chart's largest value.
    function chart(id, title, unit, series) {
        var max = 1;
        series.forEach(function (s) {
            s.values.forEach(function (v) { max = Math.max(max, v); });
        });
        return {
            id: id, title: title, max: human(max) + unit,
            series: series.map(function (s, i) {
                var n = s.values.length;
                return {
                    name: s.name, color: COLORS[i % COLORS.length], samples: n,
                    last: n ? human(s.values[n - 1]) + unit : '-', lastValue: n ? s.values[n - 1] : 0,
                    peak: n ? Math.max.apply(null, s.values) : 0,
                    points: s.values.map(function (v, j) {
                        var x = n > 1 ? j * W / (DRAWN - 1) + (DRAWN - n) * W / (DRAWN - 1) : W,
                            y = H - v * (H - 4) / max;
                        return x.toFixed(1) + ',' + y.toFixed(1);
                    }).join(' ')
                };
            })
        };
    }

    // A sample as one site saw it: the site's counts and its own backends' (zeros where it had no hybrid then).
    function ofSite(s, site) {
        var x = s.sites && s.sites[site], backends = {};
        if (!x) {
            return {time: s.time, switchPackets: 0, switchBytes: 0, hhReports: 0, promotions: 0, demotions: 0,
                    offloaded: 0, switchTables: {}, backends: {}};
        }
        x.backends.forEach(function (b) {
            if (s.backends[b]) {
                backends[b] = s.backends[b];
            }
        });
        return {time: s.time, switchPackets: x.switchPackets, switchBytes: x.switchBytes, hhReports: x.hhReports,
                promotions: x.promotions, demotions: x.demotions, offloaded: x.offloaded,
                switchTables: x.switchTables, backends: backends};
    }

    // The charts from the samples (oldest first): rates between consecutive samples, levels at each one.
    function charts(samples, intervalMs) {
        var pairs = [], backends = {}, tables = {};
        samples.forEach(function (s, i) {
            Object.keys(s.backends).forEach(function (b) { backends[b] = true; });
            Object.keys(s.switchTables).forEach(function (t) { tables[t] = true; });
            if (i > 0) {
                pairs.push([samples[i - 1], s, Math.max(1, s.time - samples[i - 1].time || intervalMs)]);
            }
        });
        function rates(value) {
            return pairs.map(function (p) { return rate(p[0], p[1], value, p[2]); });
        }
        var bs = Object.keys(backends).sort(),
            last = samples.slice(1);
        // The switch's series beside each backend's: what entered each path.
        function byPath(field, switchField) {
            return [{name: 'switch', values: rates(function (s) { return s[switchField]; })}].concat(
                bs.map(function (b) {
                    return {name: b, values: rates(function (s) { return s.backends[b] ? s.backends[b][field] : 0; })};
                }));
        }
        function deltas(field) {
            return pairs.map(function (p) { return Math.max(0, p[1][field] - p[0][field]); });
        }
        return [
            chart('bytes', 'Bytes/s by path', 'B/s', byPath('bytes', 'switchBytes')),
            chart('packets', 'Packets/s by path', 'pkt/s', byPath('packets', 'switchPackets')),
            chart('moves', 'HH reports, promotions and demotions per interval', '',
                [{name: 'HH reports', values: deltas('hhReports')},
                 {name: 'promotions', values: deltas('promotions')},
                 {name: 'demotions', values: deltas('demotions')}]),
            chart('tables', 'Switch table entries', '',
                [{name: 'sessions on the switch', values: last.map(function (s) { return s.offloaded; })}].concat(
                    Object.keys(tables).sort().map(function (t) {
                        return {name: t, values: last.map(function (s) { return s.switchTables[t] || 0; })};
                    })))
        ];
    }

    angular.module('ovHupf', [])
        .controller('OvHupfCtrl', ['$scope', '$interval', 'WebSocketService',
            function ($scope, $interval, wss) {
                var handlers = {}, samples = [], after = 0, afterEvent = 0, lastPush = Date.now(), timer,
                    intervalMs = 1000;

                $scope.summary = {occupancy: [], devices: []};
                $scope.events = [];
                $scope.page = {sessions: [], total: 0, matched: 0, offset: 0};
                $scope.query = {filter: '', site: '', offset: 0};
                $scope.charts = [];
                // The site whose charts and events are shown, '' for every site summed.
                $scope.view = {site: ''};
                $scope.sites = [];

                function draw() {
                    var site = $scope.view.site;
                    $scope.charts = charts(site ? samples.map(function (s) { return ofSite(s, site); }) : samples,
                                           intervalMs);
                }

                $scope.shownEvent = function (e) {
                    return !$scope.view.site || e.site === $scope.view.site;
                };
                $scope.siteChanged = draw;

                function requestPage() {
                    wss.sendEvent('hupfSessionsPageRequest',
                        {filter: $scope.query.filter, site: $scope.query.site, offset: $scope.query.offset,
                         limit: PAGE});
                }

                function startLive() {
                    lastPush = Date.now();
                    wss.sendEvent('hupfLiveStart', {after: after, afterEvent: afterEvent});
                }

                handlers.hupfSessionsPageResponse = function (data) {
                    $scope.page = data;
                    $scope.$apply();
                };
                handlers.hupfLivePush = function (data) {
                    lastPush = Date.now();
                    samples = samples.concat(data.samples).slice(-(DRAWN + 1));
                    if (samples.length) {
                        after = samples[samples.length - 1].time;
                    }
                    data.events.forEach(function (e) {
                        afterEvent = e.seq;
                        $scope.events.unshift({seq: e.seq, time: new Date(e.time).toISOString(), kind: e.kind,
                                               subject: e.subject, site: e.site || '-'});
                    });
                    $scope.events = $scope.events.slice(0, EVENTS);
                    $scope.summary = data.summary;
                    intervalMs = data.intervalMs;
                    if (samples.length) {
                        $scope.sites = Object.keys(samples[samples.length - 1].sites || {}).sort();
                    }
                    draw();
                    $scope.$apply();
                };
                wss.bindHandlers(handlers);

                $scope.filterChanged = function () {
                    $scope.query.offset = 0;
                    requestPage();
                };
                $scope.turn = function (pages) {
                    var o = $scope.query.offset + pages * PAGE;
                    if (o >= 0 && o < Math.max($scope.page.matched, 1)) {
                        $scope.query.offset = o;
                        requestPage();
                    }
                };
                // The sessions' sites (the page's counts), for the sessions' own site filter.
                $scope.sessionSites = function () {
                    return Object.keys($scope.page.sites || {}).sort();
                };
                $scope.lastRow = function () {
                    return Math.min($scope.page.offset + $scope.page.sessions.length, $scope.page.matched);
                };

                startLive();
                requestPage();
                // The page's rates and paths change: asked for again now and then, not at every push.
                timer = $interval(function () {
                    requestPage();
                    if (Date.now() - lastPush > SILENCE_MS) {
                        startLive();
                    }
                }, PAGE_REFRESH_MS, 0, false);
                $scope.$on('$destroy', function () {
                    $interval.cancel(timer);
                    wss.sendEvent('hupfLiveStop', {});
                    wss.unbindHandlers(handlers);
                });
            }]);
}());
