"""The Tofino (TNA) hw profile, p4src/tna/hupf_hw.p4, built from the same include/ controls as v1model:
through p4c's frontend and midend where p4test and the Tofino p4include exist, and for Tofino 1 and Tofino 2
through p4c-barefoot and bfas where the Tofino backend exists (tools/run_suite.sh adds /opt/p4-tofino/bin to
PATH when it holds p4c-barefoot). The fresh P4Info must name the v1model hw profile's tables and actions
(docs/PIPELINE_CONTRACT.md), and the committed p4c-out/hw/<target> artifacts (tofino, tofino2) must be what
the source gives and fit the target's stages.
Each test skips with one line where its compiler is absent."""
import gzip
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
P4SRC = os.path.join(REPO, "p4src")
P4TEST = os.environ.get("P4TEST") or shutil.which("p4test")
P4C_TOFINO = os.environ.get("P4C_TOFINO") or shutil.which("p4c-barefoot")
TOFINO_P4INCLUDE = os.environ.get("TOFINO_P4INCLUDE") or (
    P4C_TOFINO and os.path.join(os.path.dirname(os.path.dirname(P4C_TOFINO)), "share", "p4c", "p4include"))
P4C_OUT = os.path.join(REPO, "pipeconf", "src", "main", "resources", "p4c-out")
HW_P4INFO = os.path.join(P4C_OUT, "hw", "bmv2", "p4info.txt")
# Every target whose artifacts are committed (docs/TOFINO.md).
TARGETS = tuple(t for t in ("tofino", "tofino2") if os.path.isdir(os.path.join(P4C_OUT, "hw", t)))

# Parameters the TNA program does not have, and why (p4src/include/tna/hh.p4, classifier.p4): the EWMAs
# are Tofino low-pass filters whose time constant the control plane sets.
TNA_ONLY_DIFFERENCES = {
    "action HupfIngress.hh.set_hh_params": {"alpha_shift"},
    "action HupfIngress.classifier.set_cls_params": {"alpha_shift"},
}

# In the v1model P4Info only: the v1model classifier's EWMA step is an action (include/classifier.p4); the
# TNA classifier uses Tofino low-pass filters (include/tna/classifier.p4). The VXLAN tenants (include/tenant.p4,
# with the class a tenant's packet keeps through a backend: steering.backend_classes) and RPS (include/rps.p4)
# are not on TNA yet.
V1MODEL_ONLY_PREFIXES = ("action HupfIngress.classifier.ewma", "table HupfIngress.tenant.",
                         "table HupfIngress.steering.backend_classes", "action HupfIngress.steering.set_backend_class",
                         "action HupfIngress.tenant.", "counter HupfIngress.tenant.", "meter HupfIngress.tenant.",
                         "table HupfEgress.tenant.", "action HupfEgress.tenant.", "table HupfIngress.rps.",
                         "action HupfIngress.rps.", "counter HupfIngress.rps.", "counter HupfEgress.rps.")


def unprefixed(name):
    """A P4Info name without the pipeline instance name bf-p4c may put in front of it."""
    return name[len("pipe."):] if name.startswith("pipe.") else name


def names(p4info_path):
    """{'table X' | 'action X' | 'packet_metadata X' | 'action_profile X' | 'counter X' | 'meter X':
    [match fields | params | (field, width) | -]} of a P4Info text file: what the contract fixes (names; ids
    are resolved by name from the P4Info). Not registers: HK-IPG's and MATADOR's differ by design."""
    sys.path.insert(0, P4SRC)
    from gen_p4_constants import parse_p4info
    with open(p4info_path) as f:
        info = parse_p4info(f.read())
    view = {}
    for t in info.tables:
        view["table " + unprefixed(t.preamble.name)] = sorted(m.name for m in t.match_fields)
    for a in info.actions:
        view["action " + unprefixed(a.preamble.name)] = sorted(p.name for p in a.params)
    for m in info.controller_packet_metadata:
        view["packet_metadata " + m.preamble.name] = sorted((x.name, x.bitwidth) for x in m.metadata)
    for kind, entities in (("action_profile", info.action_profiles), ("counter", info.counters),
                           ("meter", info.meters)):
        for e in entities:
            view["%s %s" % (kind, unprefixed(e.preamble.name))] = []
    return view


@pytest.fixture(scope="module", params=TARGETS)
def build(request, tmp_path_factory):
    """The artifacts `make -C p4src tna` builds from this tree for one target, in a scratch directory (one
    compile per target for the module)."""
    out = tmp_path_factory.mktemp("tna")
    res = subprocess.run(["make", "-s", "-C", P4SRC, "tna", "TNA_TARGETS=%s" % request.param,
                          "P4C_TOFINO=%s" % P4C_TOFINO, "TNA_OUT=%s" % out], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return out / request.param


@pytest.mark.skipif(not (P4TEST and TOFINO_P4INCLUDE and os.path.isfile(os.path.join(TOFINO_P4INCLUDE, "tna.p4"))),
                    reason="tna: p4test or the Tofino p4include (TOFINO_P4INCLUDE=.../tna.p4) not found")
def test_tna_program_passes_the_p4c_frontend_and_midend():
    res = subprocess.run(["make", "-s", "-C", P4SRC, "check-tna-frontend", "P4TEST=%s" % P4TEST,
                          "TOFINO_P4INCLUDE=%s" % TOFINO_P4INCLUDE], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]


def assert_names_the_v1model_hw_entities(build):
    """The fresh P4Info names what the v1model hw P4Info names (the contract), but for the known differences."""
    tna, v1 = names(str(build / "p4info.txt")), names(HW_P4INFO)
    missing = sorted(n for n in set(v1) - set(tna) if not n.startswith(V1MODEL_ONLY_PREFIXES))
    # The state-read path exists only on bmv2 (it has no P4Info table or action of its own).
    assert not missing, "in the v1model hw P4Info, not in the Tofino one: %s" % missing
    for name, fields in v1.items():
        if name in tna:
            assert tna[name] == sorted(set(fields) - TNA_ONLY_DIFFERENCES.get(name, set())), name


def without_run_identity(build):
    """context.json and the binary of a build (both gzipped) without what differs between two runs on the same source: the
    run's id (p4c-barefoot draws one per run; bfas writes it into both) and the build date."""
    with gzip.open(build / "context.json.gz") as f:
        context = json.load(f)
    run_id = context.pop("run_id")
    context.pop("build_date")
    with gzip.open(build / ("%s.bin.gz" % build.name)) as f:
        binary = f.read().replace(run_id.encode(), b"")
    return context, binary


def bfrt_tables(build):
    """bfrt.json's tables by name. From run to run p4c-barefoot orders the tables differently, and gives its
    snapshot (debugging) configuration table, pipe.snapshot.cfg, another id and its dependencies in another
    order: that table is taken without its id and with its dependencies sorted."""
    with gzip.open(build / "bfrt.json.gz") as f:
        tables = {t["name"]: t for t in json.load(f)["tables"]}
    cfg = tables.get("pipe.snapshot.cfg")
    if cfg:
        cfg.pop("id")
        cfg["depends_on"] = sorted(cfg.get("depends_on", []))
    return tables


def assert_is_the_committed_build(build):
    """The committed artifacts against a fresh compile (like `make -C p4src check` for v1model): the P4Info,
    the CPU port, the resource summary and the compiler's version byte for byte, context.json and the binary
    but for the run's identity, bfrt.json's tables but for their order and the snapshot table's id. Rebuild
    them with `make -C p4src tna P4C_TOFINO=.../p4c-barefoot`."""
    committed = pathlib.Path(P4C_OUT, "hw", build.name)
    stale = [a for a in ("p4info.txt", "cpu_port.txt", "resources.md", "p4c-version.txt")
             if (build / a).read_bytes() != (committed / a).read_bytes()]
    if bfrt_tables(build) != bfrt_tables(committed):
        stale.append("bfrt.json")
    fresh_context, fresh_binary = without_run_identity(build)
    context, binary = without_run_identity(committed)
    if fresh_context != context:
        stale.append("context.json")
    if fresh_binary != binary:
        stale.append("%s.bin" % build.name)
    assert not stale, "p4c-out/hw/%s is not what the source gives: %s (make -C p4src tna)" % (build.name, stale)


def assert_fits_its_stages(build):
    """The resource summary says the program fits the target's pipe (bfas refuses more stages than it has,
    so a build exists only when it fits; the summary says how many)."""
    with open(build / "resources.md") as f:
        row = next(line for line in f if line.startswith("| stages with tables |"))
    used, there = (int(c) for c in row.split("|")[2:4])
    assert used <= there == {"tofino": 12, "tofino2": 20}[build.name], row


# One test per check and target, one skip line for all where p4c-barefoot is absent.
@pytest.mark.skipif(not P4C_TOFINO, reason="tna: p4c-barefoot (p4c's Tofino backend) not found")
@pytest.mark.parametrize("check", [assert_names_the_v1model_hw_entities, assert_is_the_committed_build,
                                   assert_fits_its_stages],
                         ids=["names_the_v1model_hw_entities", "is_the_committed_build", "fits_its_stages"])
def test_tna_build(build, check):
    check(build)
