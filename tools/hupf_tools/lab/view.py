"""The lab's live terminal view: progress, offloaded sessions, bytes per path, HH events.

`render` is a pure function of the plan, the traffic counters and the runner's status, so the
same text goes to a terminal (redrawn in place) or, without one, to a log every few seconds.
"""

TOP_UES = 8
EVENTS = 6


def human_bytes(n):
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return "%.1f %s" % (n, unit) if unit != "B" else "%d B" % n
        n /= 1000.0


def _sum(stats, key, ue):
    return sum(s.get(key, {}).get(str(ue), {}).get("pkts", 0) for s in stats)


def render(plan, t, mode, status, tx, rx):
    """Lines of the view at plan time t. tx/rx: lists of traffic stats dicts; status: the runner's."""
    m = status.get("metrics", {})
    occ = m.get("occupancy", {}).get("session_downlink")
    lines = [
        "hupf lab [%s]  t=%5.1f/%.0fs  sessions %d/%d  offloaded %d  HH reports %d (%.1f/s)%s" % (
            mode, max(0.0, t), plan["duration"], m.get("sessions", 0), len(plan["ues"]), m.get("offloaded", 0),
            m.get("hh_reports", 0), m.get("hh_reports_per_sec", 0.0),
            "  switch sessions %d/%d" % tuple(occ) if occ else ""),
        "bytes by path: hardware %s (%.0f%%)  software %s   promotions %d  demotions %d  evictions %d" % (
            human_bytes(m.get("hw_bytes", 0)), 100 * m.get("hw_share", 0.0), human_bytes(m.get("sw_bytes", 0)),
            m.get("promotions", 0), m.get("demotions", 0), m.get("evictions", 0)),
        "%-14s %-6s %10s %5s %9s %9s %8s" % ("UE", "kind", "rate", "path", "sent", "received", "reorder"),
    ]
    ues = status.get("ues", {})
    ranked = sorted(plan["ues"], key=lambda u: -ues.get(u["addr"], {}).get("rate_bps", 0.0))
    for u in ranked[:TOP_UES]:
        s = ues.get(u["addr"], {})
        reord = sum(r.get("rx", {}).get(str(u["idx"]), {}).get("reordered", 0) for r in rx)
        lines.append("%-14s %-6s %8.2f Mb/s %4s %9d %9d %8d" % (
            u["addr"], "heavy" if u["heavy"] else "mouse", s.get("rate_bps", 0.0) / 1e6,
            "HW" if s.get("offloaded") else "SW", _sum(tx, "tx", u["idx"]), _sum(rx, "rx", u["idx"]), reord))
    events = status.get("events", [])[-EVENTS:]
    lines.append("events: " + ("  ".join("%+.1fs %s %s" % (e["t"] / 1000.0 - plan["start"], e["kind"], e["ue"])
                                          for e in events) or "none yet"))
    return lines
