"""The lab's one-way latency per backend (issue #36): every lab packet carries its send time, its receiver takes
the kernel's receive time of it (traffic.py), and the mice's packets are grouped by the backend the switch steers
their UE to (the selector's hash by weight, as the switch splits the UEs while every backend is up). Heavy UEs are
left out (their packets go through the switch's own tables for part of the run), and so is a run in which a
backend joins or leaves (its UEs change backend under traffic). Every path crosses the switch twice besides its
backend, so the backends' figures differ by what their backends add."""
from hupf_tools.lab.tenant_checks import percentile
from hupf_tools.model.selector import selector_hash

PERCENTILES = (50, 99)


def backend_index(addr, weights):
    """The backend (index in member order) the switch steers a UE to: a backend of weight w holds w shares, the
    UE's share is the selector's hash of its address modulo their sum."""
    shares = [k for k, w in enumerate(weights) for _ in range(w)]
    return shares[selector_hash(int.from_bytes(bytes(map(int, addr.split("."))), "big")) % len(shares)]


def figures(values):
    """{"samples", "p50_us", "p99_us", "max_us"} of a list of latencies in microseconds."""
    out = {"samples": len(values), "max_us": max(values) if values else None}
    out.update(("p%d_us" % p, percentile(values, p)) for p in PERCENTILES)
    return out


def by_backend(plan, rx, weights, backends):
    """{backend name: {"kind", "ues", "uplink": figures, "downlink": figures}} over the mice's packets.
    backends: [(name, kind)] in member order; rx: the receivers' final stats (their "latency_us" per UE)."""
    got = [{"uplink": [], "downlink": [], "ues": 0} for _ in backends]
    for u in plan["ues"]:
        if u["heavy"]:
            continue
        mine = got[backend_index(u["addr"], weights)]
        mine["ues"] += 1
        for r in rx:
            mine["uplink" if r.get("side") == "dn" else "downlink"] += r.get("latency_us", {}).get(str(u["idx"]), [])
    return {name: {"kind": kind, "ues": g["ues"], "uplink": figures(g["uplink"]), "downlink": figures(g["downlink"])}
            for (name, kind), g in zip(backends, got)}


def lines(per_backend):
    """The summary's lines: one per backend, p50 / p99 / max in ms each way."""
    def way(f):
        if not f["samples"]:
            return "no samples"
        return "p50 %.3f ms, p99 %.3f ms, max %.3f ms (%d packets)" % (
            f["p50_us"] / 1000.0, f["p99_us"] / 1000.0, f["max_us"] / 1000.0, f["samples"])
    return ["latency through %s (%s, %d mice): uplink %s; downlink %s" % (name, b["kind"], b["ues"],
                                                                          way(b["uplink"]), way(b["downlink"]))
            for name, b in per_backend.items()]
