"""Where ONOS's CPU goes, by thread group: the per-thread CPU of ONOS's JVM and the backend between two
peer_report.thread_cpu_seconds() reads (keys "onos/<thread name>", "backend/<thread name>") summed into groups,
ms per request. hupf's threads keep their names (hupf-device-writer, hupf-pfcp, ...); ONOS's own go into
gRPC, Atomix/Raft, GC, the JIT compiler and the rest."""
from peer_report import EXITED, JIT_THREADS

# onos-service's default JAVA_OPTS, and the compiler threads kept alive so that the JIT's CPU stays on its threads.
ONOS_JAVA_OPTS = ("-XX:+UseG1GC -XX:MaxGCPauseMillis=200 -Dkaraf.log.console=INFO "
                  "-Dds.lock.timeout.milliseconds=10000 -XX:-UseDynamicNumberOfCompilerThreads")

# (group, does a thread name (comm, cut at 15 characters) belong to it); the first that matches wins.
GROUPS = (
    ("gRPC", lambda t: t.startswith("grpc-")),
    ("Atomix/Raft", lambda t: t.startswith(("raft-", "atomix-", "netty-messaging", "onos-partition"))),
    ("GC", lambda t: t.startswith(("GC Thread", "G1 ", "VM Thread"))),
    ("JIT compiler", lambda t: t in JIT_THREADS),
)


def group_of(key):
    """The group of a thread_cpu_seconds() key: the backend whole, hupf's threads by name, else ONOS's groups."""
    label, _, name = key.partition("/")
    if label != "onos":
        return label
    if name.startswith("hupf"):
        return name
    return next((g for g, belongs in GROUPS if belongs(name)), "other")


def group_threads(before, after, total_s, requests):
    """CPU ms per request per group between two thread_cpu_seconds() reads, largest first; what the process trees
    spent (total_s) beyond their live threads' sum goes under peer_report.EXITED."""
    seconds = {}
    for key, s in after.items():
        group = group_of(key)
        seconds[group] = seconds.get(group, 0) + s - before.get(key, 0)
    seconds[EXITED] = total_s - sum(seconds.values())
    ms = {g: round(1000 * s / max(1, requests), 3) for g, s in seconds.items()}
    return dict(sorted(((g, v) for g, v in ms.items() if v > 0), key=lambda kv: -kv[1]))


def groups_markdown(results):
    """One row per ONOS phase: its CPU ms per request and that of each thread group, largest first."""
    lines = ["| N | phase | CPU ms/req, ONOS + backend | by thread group, ms/req |", "|---:|---|---:|---|"]
    for r in results:
        if r.get("thread_groups"):
            lines.append("| %d | %s | %s | %s |" % (r["sessions_round"], r["phase"], r["cpu_ms_per_request"],
                                                   ", ".join("%s %s" % kv for kv in r["thread_groups"].items())))
    return "\n".join(lines) + "\n"
