"""The pure parts of the benchmark against eUPF: a UPF's CPU as its whole process tree's, the per-round
ratios hupf / eUPF, the data-plane table check and the markdown table (no UPF needed, see test_peer_report.py).

Ratios are taken within a round, between two runs minutes apart on the same machine: on a shared two-core VM
the load moves between rounds far more than between the two UPFs of one round.
"""
import os

TICKS = os.sysconf("SC_CLK_TCK")
PHASES = ("establish", "modify", "delete")


def _stat_path(path):
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[1]), int(fields[11]) + int(fields[12])


def _stat(pid):
    """(ppid, utime + stime in ticks) of a process; its threads, live or gone, are in its own utime/stime."""
    return _stat_path("/proc/%d/stat" % pid)


def tree_pids(root):
    """root and all its live descendants: hupf's runner JVM and backend, or eUPF behind `ip netns exec`."""
    children, alive = {}, set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            ppid = _stat(int(name))[0]
        except (OSError, ValueError, IndexError):
            continue  # gone while we looked
        alive.add(int(name))
        children.setdefault(ppid, []).append(int(name))
    if root not in alive:
        raise ProcessLookupError(root)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid not in out:
            out.append(pid)
            todo += children.get(pid, [])
    return out


def tree_cpu_seconds(root):
    """CPU seconds (user + system) of root and all its live descendants, whatever they start."""
    total = 0
    for pid in tree_pids(root):
        try:
            total += _stat(pid)[1]
        except (OSError, ValueError, IndexError):
            pass  # ended since tree_pids: its CPU went with it
    return total / TICKS


def thread_cpu_seconds(roots):
    """CPU seconds per "label/thread name" over the live threads of each labelled root's tree (e.g. {"runner":
    pid}): the JIT, the GC and the poll apart from the request path. Threads of one name are added up."""
    out = {}
    for label, root in roots.items():
        for pid in tree_pids(root):
            try:
                tids = os.listdir("/proc/%d/task" % pid)
            except OSError:
                continue
            for tid in tids:
                try:
                    with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                        name = f.read().strip()
                    ticks = _stat_path("/proc/%d/task/%s/stat" % (pid, tid))[1]
                except (OSError, ValueError, IndexError):
                    continue
                key = "%s/%s" % (label, name)
                out[key] = out.get(key, 0) + ticks / TICKS
    return out


EXITED = "(threads that ended)"


def thread_breakdown(before, after, total_s, requests, top=40):
    """CPU ms per request per thread name between two thread_cpu_seconds() reads, largest first, the top ones;
    what the tree spent (total_s) beyond the live threads' sum is put under EXITED (threads that ended within
    the phase, e.g. the JVM's compiler threads, took their CPU with them)."""
    per = {k: v - before.get(k, 0) for k, v in after.items()}
    rest = total_s - sum(per.values())
    ms = lambda s: round(1000 * s / max(1, requests), 3)  # noqa: E731
    out = {k: ms(v) for k, v in sorted(per.items(), key=lambda kv: -kv[1])[:top] if ms(v) > 0}
    if ms(rest) > 0:
        out[EXITED] = ms(rest)
    return out


JIT_THREADS = ("C1 CompilerThre", "C2 CompilerThre")  # HotSpot's compiler threads (comm is cut at 15 chars)


def jit_ms(threads):
    """The JIT's CPU ms per request in a thread_breakdown(): the compiler threads' (kept alive for the run by
    -XX:-UseDynamicNumberOfCompilerThreads, or their CPU would be under EXITED)."""
    return round(sum(v for k, v in threads.items() if k.split("/", 1)[-1] in JIT_THREADS), 3)


def busiest(threads, per_second):
    """The thread name that used most of a core in a phase, and its share of one core: whether one thread
    (e.g. a single PFCP or writer thread) is what bounds the rate."""
    if not threads:
        return None
    name, ms = max(((k, v) for k, v in threads.items() if k != EXITED), key=lambda kv: kv[1], default=(None, 0))
    return None if name is None else {"thread": name, "cores": round(ms * per_second / 1000, 2)}


def ratio(a, b, digits=2):
    """a / b, None when either is missing or b is 0 (no ratio rather than an infinite one)."""
    if a is None or b is None or b == 0:
        return None
    return round(a / b, digits)


def table_check(counts, expected):
    """Whether every table count equals expected (all accepted sessions after establishment and modification,
    none after deletion); a count that could not be read is a mismatch."""
    return bool(counts) and all(v == expected for v in counts.values())


STAGES = ("cold", "steady")  # a fresh UPF's first (warm-up) round, then the measured one on the same process


def compare(rows):
    """Pairs each (sessions, round, stage, phase) of hupf with eUPF's: the rows of the final table, ratios hupf /
    eUPF for the rate and the CPU per request (a peer missing, e.g. hupf-only sizes, leaves the ratio None)."""
    by_key = {}
    for r in rows:
        if r.get("stage") == "warmup":
            continue
        stage = STAGES.index(r.get("stage", "steady"))
        by_key.setdefault((r["sessions_asked"], r["round"], stage, PHASES.index(r["phase"])), {})[r["upf"]] = r
    out = []
    for key in sorted(by_key):
        h, e = by_key[key].get("hupf"), by_key[key].get("eupf")
        pick = lambda row, k: row.get(k) if row else None  # noqa: E731
        out.append({"sessions": key[0], "round": key[1], "stage": STAGES[key[2]], "phase": PHASES[key[3]],
                    "requests": (h or e).get("sessions", key[0]), "hupf": h, "eupf": e,
                    "rate_ratio": ratio(pick(h, "per_second"), pick(e, "per_second")),
                    "cpu_ratio": ratio(pick(h, "cpu_ms_per_request"), pick(e, "cpu_ms_per_request"))})
    return out


def ab_notes(rows):
    """One line per measured phase and round of each other build or JVM options of hupf (hupf-old, "hupf OPTS")
    against hupf: rate, CPU and JIT per request, p50 / p99, and the ratios this / other."""
    this = {(r["sessions_asked"], r["round"], r["stage"], r["phase"]): r for r in rows if r["upf"] == "hupf"}
    fig = lambda x: "%s/s, %s ms/req (JIT %s), p50 %s p99 %s ms" % (  # noqa: E731
        x.get("per_second"), x.get("cpu_ms_per_request"), x.get("jit_ms_per_request"), x.get("p50_ms"),
        x.get("p99_ms"))
    out = []
    for o in rows:
        r = this.get((o["sessions_asked"], o["round"], o["stage"], o["phase"]))
        if not o["upf"].startswith("hupf") or r is None or r is o or o["stage"] == "warmup":
            continue
        out.append("A/B %d round %d %s %s: hupf %s; %s %s; rate hupf / other %s, CPU hupf / other %s" % (
            r["sessions_asked"], r["round"], r["stage"], r["phase"], fig(r), o["upf"], fig(o),
            ratio(r.get("per_second"), o.get("per_second")),
            ratio(r.get("cpu_ms_per_request"), o.get("cpu_ms_per_request"))))
    return out


def warmup_notes(rows):
    """One line per UPF round with unreported warm-up rounds: the JIT's CPU ms per request in each (all three
    phases), to show whether it had settled before the measured round."""
    rounds = {}
    for r in rows:
        if r.get("stage") == "warmup":
            rounds.setdefault((r["upf"], r["round"], r["sessions_asked"]), []).append(r)
    out = []
    for (upf, rnd, n), rs in rounds.items():
        per_round = [rs[i:i + len(PHASES)] for i in range(0, len(rs), len(PHASES))]
        jit = [round(sum(x.get("jit_ms_per_request", 0) * x["sessions"] for x in pr)
                     / max(1, sum(x["sessions"] for x in pr)), 3) for pr in per_round]
        out.append("%s round %d, %d sessions: the JIT's CPU ms per request in warm-up rounds 2..%d: %s" % (
            upf, rnd, n, len(per_round) + 1, ", ".join(map(str, jit))))
    return out


def _lat(r):
    return "—" if r is None else "%s / %s / %s" % (r["p50_ms"], r["p99_ms"], r["max_ms"])


def _pair(h, e, key):
    f = lambda r: "—" if r is None or r.get(key) is None else str(r[key])  # noqa: E731
    return "%s / %s" % (f(h), f(e))


def _tables(r):
    if r is None:
        return "—"
    counts = ", ".join("%s %s" % (k, v) for k, v in sorted(r["tables"].items()))
    return counts if r["tables_ok"] else "**MISMATCH** %s (expected %d)" % (counts, r["tables_expected"])


def _busiest(r):
    b = r and r.get("busiest_thread")
    return "—" if not b else "%s %s" % (b["thread"], b["cores"])


def markdown(compared, notes=()):
    """The side-by-side table: one line per sessions, round, stage and phase; hupf / eUPF in each paired cell.
    A cold row is a fresh UPF's warm-up round (its N is the warm-up's size); the steady rows follow it on the
    same processes. The JIT's CPU is hupf's compiler threads' (eUPF is compiled ahead of time)."""
    lines = ["| N | round | phase | hupf /s | eUPF /s | rate hupf÷eUPF | p50 / p99 / max ms hupf | eUPF "
             "| within T1 hupf / eUPF | lost | accepted | CPU ms/req hupf / eUPF | CPU hupf÷eUPF | hupf JIT ms/req "
             "| cores used hupf / eUPF | busiest thread hupf (cores) | eUPF "
             "| P4Runtime Writes/req hupf | tables hupf | tables eUPF |",
             "|" + "---|" * 20]
    for c in compared:
        h, e = c["hupf"], c["eupf"]
        rate = lambda r: "—" if r is None else "%.0f" % r["per_second"]  # noqa: E731
        lines.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                     "| %s | %s |" % (
                         c["requests"], c["round"], c["phase"] + (" (cold)" if c["stage"] == "cold" else ""),
                         rate(h), rate(e), "—" if c["rate_ratio"] is None else c["rate_ratio"], _lat(h), _lat(e),
                         _pair(h, e, "within_t1"), _pair(h, e, "lost"), _pair(h, e, "accepted"),
                         _pair(h, e, "cpu_ms_per_request"), "—" if c["cpu_ratio"] is None else c["cpu_ratio"],
                         "—" if h is None or h.get("jit_ms_per_request") is None else h["jit_ms_per_request"],
                         _pair(h, e, "cores"), _busiest(h), _busiest(e),
                         "—" if h is None or h.get("write_rpcs_per_request") is None else h["write_rpcs_per_request"],
                         _tables(h), _tables(e)))
    return "\n".join(list(notes) + ([""] if notes else []) + lines) + "\n"


def mismatches(rows):
    """The rows whose data-plane tables disagree with what the UPF accepted."""
    return [r for r in rows if not r["tables_ok"]]


def threads_markdown(rows, top=6):
    """Where each UPF's CPU per request went in each phase: its largest threads, ms per request."""
    lines = ["| UPF | N | round | phase | CPU ms/req | largest threads, ms/req |", "|---|---:|---:|---|---:|---|"]
    for r in rows:
        if r.get("threads") and r.get("stage") != "warmup":
            lines.append("| %s | %d | %d | %s | %s | %s |" % (
                r["upf"], r.get("sessions", r["sessions_asked"]), r["round"],
                r["phase"] + (" (cold)" if r.get("stage") == "cold" else ""), r["cpu_ms_per_request"],
                ", ".join("%s %s" % kv for kv in list(r["threads"].items())[:top])))
    return "\n".join(lines) + "\n"
