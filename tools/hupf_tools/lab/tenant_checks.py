"""The tenants lab's figures and checks: per stream and window, loss and latency percentiles; the A/B's checks
(priority keeps gold and silver whole and fast, bronze and gold's bulk slice take the congestion, the video
slice's meter, the switch's counters, the DSCPs).
"""
import math

from hupf_tools.lab import accounting
from hupf_tools.lab.tenant_plan import DN_PORT, TENANT_IDS

# How far the video slice's delivered packets may stray from what its meter passes (share of those sent).
METER_TOLERANCE = 0.05
PERCENTILES = (50, 90, 99, 99.9)
# Gold's congested p99 with priority may be this many times its baseline p99, plus a tenth of what a full queue
# of bronze frames takes at the port's rate (what gold waits in one queue shared with bronze): a bronze frame
# the scheduler released is not preempted, and the shared machine's scheduling noise grows with the congested
# phase's packets to send, forward and receive, not in proportion to the baseline's.
GOLD_P99_FACTOR = 2.0


def expected_dscp(tenants, stream):
    """The DSCP a stream's packets leave with under a run's tenants (as written): its slice's, else its
    tenant's."""
    t = next(t for t in tenants if t["tenant_id"] == TENANT_IDS[stream["tenant"]])
    for x in t.get("slices", ()):
        if x["qfi"] == stream["qfi"]:
            return x["dscp"]
    return t["dscp"]


def percentile(values, p):
    """Nearest-rank percentile of a list (None when empty)."""
    if not values:
        return None
    s = sorted(values)
    # Rounded first: 99.9 / 100 x 1000 is 999.0000000000001 in floating point, and its rank 999.
    return s[max(0, math.ceil(round(p / 100.0 * len(s), 9)) - 1)]


def tenant_figures(tx, rx):
    """{stream: {window: {"sent", "received", "loss", "p50", ..., "max" (ms)}}} from the sender's and receiver's
    stats (a stream is a tenant's packets of one QFI; without slices, a tenant's)."""
    out = {}
    for n, windows in tx["sent"].items():
        out[n] = {}
        for w, sent in windows.items():
            got = rx["received"][n].get(w, 0)
            lat = [v / 1000.0 for v in rx["latency_us"][n].get(w, [])]
            f = {"sent": sent, "received": got, "loss": (1 - got / sent) if sent else 0.0,
                 "max": max(lat) if lat else None}
            for p in PERCENTILES:
                f["p%g" % p] = percentile(lat, p)
            out[n][w] = f
    return out


def gold_bound_ms(figures, slack_ms):
    """The congested p99 gold may reach with priority: derived from its uncongested (baseline) p99."""
    base = figures["gold"]["baseline"]["p99"]
    return None if base is None else GOLD_P99_FACTOR * base + slack_ms


def class_of(tenants, stream):
    """The class a stream's packets take under a run's tenants (as written): its slice's, else its tenant's."""
    t = next(t for t in tenants if t["tenant_id"] == TENANT_IDS[stream["tenant"]])
    for x in t.get("slices", ()):
        if x["qfi"] == stream["qfi"]:
            return x["tc"]
    return t["tc"]


def low_check(fig, name, what):
    """(name, passed, detail): a low-priority stream, congested, loses packets and waits longer than in its
    baseline."""
    f = fig[name]
    return ("with priority, %s (congested) loses packets and waits longer than in its baseline" % what,
            f["congested"]["loss"] > 0 and None not in (f["congested"]["p50"], f["baseline"]["p99"])
            and f["congested"]["p50"] > f["baseline"]["p99"],
            "loss %.2f%%, p50 %s ms against a baseline p99 of %s ms" % (
                100 * f["congested"]["loss"], ms(f["congested"]["p50"]), ms(f["baseline"]["p99"])))


def queue_check(dropped, service, low):
    """(name, passed, detail): the congested port served in strict priority. Congestion drops priority 0 (low: its
    streams); a queue above it may drop only what it holds of a stall's backlog (the switch's lcore kept off the CPU
    for longer than its buckets' credits: every queue then takes what arrived meanwhile at once, a high one as
    well); and no frame leaves while a higher priority's queue is full (the fault strict priority forbids)."""
    name = ("with priority, the switch's queue drops on port %d are priority 0 (%s) or a stall's backlog, and no "
            "frame left below a full queue" % (DN_PORT, ", ".join(low)))
    if dropped is None or service is None:
        return name, False, "not read"
    stalled = service["stall_dropped"]
    ok = dropped[0] > 0 and dropped[1:] == stalled[1:] and service["sent_below_full"] == 0
    return name, ok, ("by priority 0..7: %s, of which in a stall's backlog %s; sent below a full queue %d; "
                      "the switch lcore's longest absence %.1f ms"
                      % (dropped, stalled, service["sent_below_full"], service["longest_gap_us"] / 1000.0))


def oversubscribed_check(service):
    """(name, passed, detail): without the slices gold's bulk QFI, above the port's rate, fills gold's queue; strict
    priority still sends nothing below that full queue (a scheduler handing a high class only its class credits per
    period sent lower classes the rest of the period)."""
    name = "without the slices (gold's bulk QFI above the port's rate in gold's class), no frame left below a full queue"
    if service is None:
        return name, False, "not read"
    return name, service["sent_below_full"] == 0, "sent below a full queue %d" % service["sent_below_full"]


def meter_check(r, name):
    """(name, passed, detail): a metered slice's stream delivers, in each window, what its meter passes (the
    meter's rate over the window, in its frames, at most what was sent) within METER_TOLERANCE of what was sent
    plus the burst; the run's queues drop none of its priority (the queue drop check), so the rest is the meter's."""
    stream = next(s for s in r["streams"] if s["name"] == name)
    t = next(t for t in r["tenants"] if t["tenant_id"] == TENANT_IDS[stream["tenant"]])
    x = next(x for x in t["slices"] if x["qfi"] == stream["qfi"])
    flen = r["sent_bytes"][name] / r["sent_total"][name] if r["sent_total"].get(name) else 0
    ok, parts = flen > 0, []
    for w, (t0, t1) in sorted(r["windows"].items(), key=lambda kv: kv[1]):
        f = r["figures"][name][w]
        passed = min(f["sent"], x["rate_bps"] * (t1 - t0) / 8 / flen) if flen else 0
        slack = METER_TOLERANCE * f["sent"] + x["burst_bytes"] / flen if flen else 0
        ok = ok and f["sent"] > passed and abs(f["received"] - passed) <= slack
        parts.append("%s %d of %d delivered, the meter passes %.0f" % (w, f["received"], f["sent"], passed))
    return ("with priority, %s's slice meter (QFI %d, %d bit/s) delivers its rate and drops the excess"
            % (name, stream["qfi"], x["rate_bps"]), ok, "; ".join(parts))


def counter_check(runs):
    """(name, passed, detail): in every run the switch's tenant counter of each tenant and slice counter of each
    of its slices hold the packets and bytes sent to it (less at most what the switch's gNB port missed)."""
    ok, parts = True, []
    for run, r in runs.items():
        c = r.get("counters")
        if not c or "error" in c:
            ok = False
            parts.append("%s: not read (%s)" % (run, (c or {}).get("error", "no counters")))
            continue
        missed = r.get("rx_missed") or 0
        bad = []
        want = {}
        for s in r["streams"]:
            tid = TENANT_IDS[s["tenant"]]
            sent = (r["sent_total"].get(s["name"], 0), r["sent_bytes"].get(s["name"], 0))
            key = ("tenant", str(tid))
            want[key] = tuple(a + b for a, b in zip(want.get(key, (0, 0)), sent))
            t = next(t for t in r["tenants"] if t["tenant_id"] == tid)
            if any(x["qfi"] == s["qfi"] for x in t.get("slices", ())):
                want[("slice", "%d/%d" % (tid, s["qfi"]))] = sent
        for t in r["tenants"]:
            for x in t.get("slices", ()):
                want.setdefault(("slice", "%d/%d" % (t["tenant_id"], x["qfi"])), (0, 0))
        for (kind, key), (pkts, nbytes) in want.items():
            got = (c["tenants"] if kind == "tenant" else c["slices"]).get(key)
            if got is None or not (pkts - missed <= got[0] <= pkts) or (got[0] == pkts and got[1] != nbytes):
                bad.append("%s %s %s of %d/%d" % (kind, key, got, pkts, nbytes))
        slices = sum(1 for k in want if k[0] == "slice")
        parts.append("%s: %d tenants, %d slices%s%s" % (run, len(want) - slices, slices,
                                                       ", port missed %d" % missed if missed else "",
                                                       ": " + ", ".join(bad) if bad else " as sent"))
        ok = ok and not bad
    return ("the switch's tenant and slice counters hold each tenant's and slice's packets and bytes as sent",
            ok, "; ".join(parts))


def accounting_check(runs):
    """(name, passed, detail): in every run each packet sent arrived (or arrived malformed, which another check
    fails) or was counted dropped; the pipelines dropped only for a meter's red (the metered slice)."""
    wrong, parts = [], []
    for run, r in runs.items():
        b = r["accounting"]
        verdicts = {reason for by in r["drops"]["verdicts"].values() for reason in by}
        if b["uncounted"] != 0 or verdicts - {"meter red"}:
            wrong.append(run)
        parts.append("%s: sent %d = delivered %d + dropped for want of room %d + by the pipelines %d (%s) + "
                     "uncounted %d" % (run, b["sent"], b["delivered"], b["dropped"], b["verdicts"],
                                       accounting.describe(r["drops"]["verdicts"]), b["uncounted"]))
    return ("every packet is delivered or counted dropped, in every run", not wrong, "; ".join(parts))


def checks(runs, slack_ms):
    """[(name, passed, detail)] over the A/B. runs: {"priority": result, "no priority": result[, "no slices":
    result]}, each with "established" [accepted, planned], "figures" (tenant_figures, by stream), "queue_dropped"
    (the switch's drops on the congested port by priority, or None when not read), "dscp" ({stream: {dscp:
    packets}}), "bad" (malformed frames the receiver saw, by reason), "streams" (the plan's), "tenants" (as the
    runner wrote them), "windows", "sent_total" and "sent_bytes" (by stream), "counters" (the runner's
    tenant_counters, after the traffic) and "rx_missed" (the switch's gNB port); slack_ms: what gold's bound adds to
    GOLD_P99_FACTOR x its baseline p99 (Plan.slack_ms). With a "no slices" run, the slices' checks too."""
    a, b = runs["priority"], runs["no priority"]
    c = runs.get("no slices")
    fa, fb = a["figures"], b["figures"]
    out = []
    est = [r["established"] for r in runs.values()]
    out.append(("all sessions established over PFCP, %s runs" % ("both" if len(runs) == 2 else "all"),
                all(e[0] == e[1] > 0 for e in est), ", ".join("%d/%d" % tuple(e) for e in est)))
    out.append(accounting_check(runs))
    lost = {n: fa[n]["congested"]["sent"] - fa[n]["congested"]["received"] + fa[n]["baseline"]["sent"]
            - fa[n]["baseline"]["received"] for n in ("gold", "silver")}
    outside = sum(n for by in a["drops"]["room"].values() for reason, n in by.items() if "queue" not in reason)
    stalled = sum((a.get("queue_service") or {}).get("stall_dropped", [0])[1:])
    out.append(("with priority, gold and silver lose nothing to congestion in hupf's queues: what they did not "
                "receive was dropped for want of room elsewhere or in a stall's backlog",
                lost["gold"] + lost["silver"] <= outside + stalled,
                "lost: gold %d, silver %d; counted outside the queues %d (%s), in a stall's backlog above priority 0 %d"
                % (lost["gold"], lost["silver"], outside, accounting.describe(a["drops"]["room"]), stalled)))
    bound = gold_bound_ms(fa, slack_ms)
    p99a, p99b = fa["gold"]["congested"]["p99"], fb["gold"]["congested"]["p99"]
    out.append(("with priority, gold's congested p99 stays within %g x its baseline p99 + %.2f ms"
                % (GOLD_P99_FACTOR, slack_ms),
                None not in (bound, p99a) and p99a <= bound,
                "baseline p99 %s ms, congested p99 %s ms, bound %s ms" % (ms(fa["gold"]["baseline"]["p99"]),
                                                                         ms(p99a), ms(bound))))
    out.append(("without priority, gold's congested p99 rises above that bound",
                None not in (bound, p99b) and p99b > bound,
                "congested p99 %s ms (bound %s ms), loss %.2f%%" % (ms(p99b), ms(bound),
                                                                    100 * fb["gold"]["congested"]["loss"])))
    if c is not None:
        p99c = c["figures"]["gold"]["congested"]["p99"]
        out.append(("without the slices, gold's congested p99 rises above that bound (its bulk QFI in its class)",
                    None not in (bound, p99c) and p99c > bound,
                    "congested p99 %s ms (bound %s ms), loss %.2f%%" % (
                        ms(p99c), ms(bound), 100 * c["figures"]["gold"]["congested"]["loss"])))
    out.append(low_check(fa, "bronze", "bronze"))
    if c is not None:
        out.append(low_check(fa, "gold-bulk", "gold's bulk slice (QFI 9)"))
    low = [s["name"] for s in a["streams"] if class_of(a["tenants"], s) == 0]
    out.append(queue_check(a.get("queue_dropped"), a.get("queue_service"), low))
    if c is not None:
        out.append(oversubscribed_check(c.get("queue_service")))
        out.append(meter_check(a, "silver-video"))
    if all("counters" in r for r in runs.values()):
        out.append(counter_check(runs))
    wrong, bad = [], {}
    for run, r in runs.items():
        for s in r["streams"]:
            want = str(expected_dscp(r["tenants"], s))
            seen = set(r["dscp"].get(s["name"], {}))
            if seen != {want}:
                wrong.append("%s %s %s (want %s)" % (run, s["name"], "/".join(sorted(seen)) or "-", want))
        for reason, n in r["bad"].items():
            bad[reason] = bad.get(reason, 0) + n
    out.append(("every packet arrives decapsulated and well formed, with its tenant's or slice's DSCP",
                not wrong and not bad, "DSCP %s; malformed %s" % (", ".join(wrong) or "as expected",
                                                                   bad or "none")))
    return out


def ms(v):
    return "-" if v is None else "%.2f" % v
