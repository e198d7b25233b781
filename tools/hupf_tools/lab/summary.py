"""The lab's end-of-run checks and summary (the same checks tests/integration asserts)."""
import math

from hupf_tools.lab import accounting

# A heavy UE must be on the switch this long after it turns heavy: HK-IPG's EWMA converges over a
# few hundred packets, tau then crosses its threshold over tens of timeslots, and the manager confirms
# the report at its next counter poll (measured 1.8-2.8 s at 2 x 150 pps on bmv2).
OFFLOAD_BOUND_S = 5.0
TIMESLOT_S = 0.016384


def _pkts(stats, key, idx):
    return sum(s.get(key, {}).get(str(idx), {}).get("pkts", 0) for s in stats)


def checks(plan, switch, established, final_status, deleted, tx, rx, gap_s=0.0, drops=None):
    """[(name, passed, detail)] over the run. switch: "bmv2", "backend" (hupf-backend in the hw profile) or
    None (backend-only); established: (accepted, planned) sessions;
    final_status: the runner's status before deletion;
    deleted: {ue: {"backend": bool present, "switch": bool present}} after the PFCP deletions;
    gap_s: a backend left under traffic: what a UE sends in this long may be lost, or counted by the backend
    after its last read (see delivery and usage); drops: accounting.collect's, after the traffic."""
    out = []
    out.append(("all sessions established over PFCP", established[0] == established[1] > 0,
                "%d/%d" % established))

    out.append(delivery(plan, tx, rx, gap_s, drops))
    out.append(usage(plan, final_status.get("ues", {}), tx, rx, gap_s))

    events = final_status.get("events", [])
    promoted = {}
    for e in events:
        if e["kind"] == "PROMOTED":
            promoted.setdefault(e["ue"], []).append(e["t"] / 1000.0 - plan["start"])
    mice = [u["addr"] for u in plan["ues"] if not u["heavy"] and u["addr"] in promoted]
    out.append(("mice are never offloaded", not mice, ", ".join(mice) or "none offloaded"))
    if switch is not None:
        late = []
        for u in plan["ues"]:
            if u["heavy"]:
                on = plan["heavy_on"]
                ok = [t for t in promoted.get(u["addr"], []) if on <= t <= on + OFFLOAD_BOUND_S]
                if not ok:
                    late.append("%s promoted at %s" % (u["addr"], promoted.get(u["addr"], "never")))
        out.append(("heavy UEs offloaded within %.0f s (%d HK-IPG timeslots) of turning heavy"
                    % (OFFLOAD_BOUND_S, OFFLOAD_BOUND_S / TIMESLOT_S), not late,
                    "; ".join(late) or "all heavy UEs"))
        demoted = {e["ue"] for e in events if e["kind"] == "DEMOTED"}
        back = [u["addr"] for u in plan["ues"] if u["heavy"] and u["addr"] not in demoted]
        out.append(("heavy UEs back in software after they cool down", not back, ", ".join(back) or "all"))
    left = ["%s on %s" % (ue, ", ".join(t for t, present in where.items() if present))
            for ue, where in deleted.items() if any(where.values())]
    out.append(("sessions deleted over PFCP are gone from both targets", bool(deleted) and not left,
                "; ".join(left) or "%d deleted, none left on %s" % (
                len(deleted), ", ".join(sorted({t for where in deleted.values() for t in where})))))
    return out


def _in_gap(plan, sent, gap_s):
    """Packets a UE sending `sent` over the run sends in gap_s seconds, rounded up."""
    return math.ceil(sent * gap_s / plan["duration"]) if gap_s else 0


def delivery(plan, tx, rx, gap_s=0.0, drops=None):
    """(name, passed, detail): every UE's packets arrived well formed, or were counted dropped for want of room
    (accounting: sent == delivered + counted drops, bmv2's among them: bmv2_log); the pipelines dropped none of
    them. Uncounted: when a backend left under traffic, what each UE sent in the gap_s seconds its packets had no
    backend (a dead backend's counts die with it). The loss ratio is a figure in the detail, not a criterion."""
    drops = drops or {"room": {}, "verdicts": {}}
    bad = {}
    for r in rx:
        for reason, count in r.get("bad", {}).items():
            bad[reason] = bad.get(reason, 0) + count
    worst, worst_ue, silent, excused = 0.0, None, [], 0
    for u in plan["ues"]:
        sent = _pkts(tx, "tx", u["idx"])
        got = _pkts(rx, "rx", u["idx"])
        if sent and not got:
            silent.append(u["addr"])
        if sent and 1 - got / sent > worst:
            worst, worst_ue = 1 - got / sent, u
        excused += min(max(sent - got, 0), _in_gap(plan, sent, gap_s))
    sent_all = sum(c.get("pkts", 0) for s in tx for c in s.get("tx", {}).values())
    got_all = sum(c.get("pkts", 0) for r in rx for c in r.get("rx", {}).values())
    b = accounting.balance(sent_all, got_all, drops)
    accounted = b["uncounted"] == 0 or 0 < b["uncounted"] <= excused
    why = " (a %.2f s gap)" % gap_s if gap_s else ""
    return ("every UE's packets arrive, correctly encapsulated/decapsulated, or are counted dropped",
            not bad and not silent and accounted and not b["verdicts"],
            "sent %d = delivered %d + dropped for want of room %d [%s] + dropped by the pipelines %d [%s] + "
            "uncounted %d (excused %d%s); malformed %s, UEs with nothing received %s; loss %.2f%%, worst UE %.2f%%%s"
            % (sent_all, got_all, b["dropped"], accounting.describe(drops["room"]), b["verdicts"],
               accounting.describe(drops["verdicts"]), b["uncounted"], excused, why, bad or "none", silent or "none",
               100 * b["loss"], 100 * worst, lost_runs(worst_ue, rx)))


def lost_runs(u, rx):
    """'; UE a lost uplink seq 3-4 (0.20-0.50 s) ...': the receivers' gaps of one UE, by direction."""
    if u is None:
        return ""
    parts = []
    for r in rx:
        runs = r.get("gaps", {}).get(str(u["idx"]), [])
        if runs:
            way = "uplink" if r.get("side") == "dn" else "downlink"
            parts.append("%s seq %s" % (way, ", ".join(
                "%d-%d (%s-%.2f s)" % (a, b, "?" if t0 is None else "%.2f" % t0, t1) for a, b, t0, t1 in runs)))
    return "; %s lost %s" % (u["addr"], "; ".join(parts)) if parts else ""


def uncounted(plan, counted_by_ue, rx):
    """UEs whose counted packets are still fewer than what arrived of them (usage's lower bound)."""
    return [u["addr"] for u in plan["ues"]
            if counted_by_ue.get(u["addr"], {}).get("pkts", 0) < _pkts(rx, "rx", u["idx"])]


def usage_mismatches(summary):
    """A lab summary's UEs whose usage is wrong: where no packet was dropped for want of room, every UE's counted
    packets are exactly what it sent and what arrived; else between what arrived and what was sent (a drop before
    or after the pipeline counts as no UE's). Each as 'addr sent S, received R, counted C'."""
    exact = not any(summary["drops"]["room"].values())
    wrong = []
    for u in summary["plan"]["ues"]:
        sent = _pkts(summary["tx"], "tx", u["idx"])
        got = _pkts(summary["rx"], "rx", u["idx"])
        counted = summary["ues"].get(u["addr"], {}).get("pkts", 0)   # absent: counted nothing
        if not (sent == got == counted if exact else got <= counted <= sent):
            wrong.append("%s sent %d, received %d, counted %s" % (u["addr"], sent, got, counted))
    return wrong


def drain_failures(summary, rc, backend):
    """What a lab run that drained `backend` got wrong (empty: nothing): the drain went quiet after the steering,
    the backend carried traffic before it, every UE's usage holds (usage_mismatches) and every check passed."""
    move = summary["move"]
    wrong = []
    if move["moved_s"] is None or move["drain"]["quiet"] is not True:
        wrong.append("drain: %s" % move)
    if not summary["backend_packets"].get(backend):
        wrong.append("%s carried nothing before its drain: %s" % (backend, summary["backend_packets"]))
    wrong += usage_mismatches(summary)
    wrong += ["check %s" % c for c in summary["checks"] if not c["passed"]]
    if rc != 0:
        wrong.append("lab exit %d" % rc)
    return wrong


def usage(plan, counted_by_ue, tx, rx, gap_s=0.0):
    """(name, passed, detail): each UE's counted packets (both targets summed; {ue: {"pkts": n}}, a UE that
    counted nothing is absent) lie between what arrived and what was sent; when a backend died under traffic,
    less what the UE sent in gap_s (a backend's counts since its last read die with it)."""
    bad_sum = []
    for u in plan["ues"]:
        counted = counted_by_ue.get(u["addr"], {}).get("pkts", 0)
        sent = _pkts(tx, "tx", u["idx"])
        got = _pkts(rx, "rx", u["idx"]) - _in_gap(plan, sent, gap_s)
        if not got <= counted <= sent:
            bad_sum.append("%s: received %d <= counted %s <= sent %d" % (u["addr"], got, counted, sent))
    return ("usage counters (summed over both targets) add up", not bad_sum,
            ("; ".join(bad_sum[:3]) or "all %d UEs" % len(plan["ues"]))
            + (" (less what each sent in %.2f s: a dead backend's last counts)" % gap_s if gap_s else ""))


def render(results, final_status, tx, rx, switch_name):
    m = final_status.get("metrics", {})
    reord = sum(c.get("reordered", 0) for r in rx for c in r.get("rx", {}).values())
    sent = sum(c.get("pkts", 0) for s in tx for c in s.get("tx", {}).values())
    got = sum(c.get("pkts", 0) for r in rx for c in r.get("rx", {}).values())
    lines = ["== hupf lab summary ==", "switch: " + switch_name,
             "packets sent %d, received %d, reordered %d; bytes hardware %d (%.1f%%), software %d" % (
                 sent, got, reord, m.get("hw_bytes", 0), 100 * m.get("hw_share", 0.0), m.get("sw_bytes", 0)),
             "HH reports %d, promotions %d, demotions %d, evictions %d, rejections %d" % (
                 m.get("hh_reports", 0), m.get("promotions", 0), m.get("demotions", 0), m.get("evictions", 0),
                 m.get("rejections", 0))]
    for name, ok, detail in results:
        lines.append("%s  %s (%s)" % ("PASS" if ok else "FAIL", name, detail))
    return lines
