"""No file-level cycle in the C data plane or the Python tools (docs/ARCHITECTURE.md, "No cycles"; the Java
packages have theirs in ModuleRulesTest and PackageRulesTest). Each rule is shown to fail on a small cycle first.

- C, calls: backend/dp's translation units, as linked into libhupfdp.a, and gnb/src's, as linked into
  libgnbsvc.a; A -> B when A calls (or takes the address of) a function that B defines, read from the
  objects with nm.
- C, includes: every C file of the repository (backend/dp, gnb/src, their tests, benches and fuzzer); A -> B
  when A has #include "B", found as the compiler finds it (beside A, then in backend/dp, the -I of every build).
- Python: tools/hupf_tools' modules, and tests' modules (each suite's directory and tests/lib, the helpers on
  every suite's path); A -> B when A imports B anywhere, function-local imports included.
"""
import subprocess
from pathlib import Path

import pytest

from dependency_cycles import (cycles, describe, include_graph, nm_call_graph, python_import_graph,
                               script_import_graph)

ROOT = Path(__file__).resolve().parents[2]
DP = ROOT / "backend" / "dp"
GNB = ROOT / "gnb" / "src"


def test_cycles_finds_each_cycle_whole_and_nothing_else():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert cycles(graph) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# ---- C ----

def _compile(tmp_path, sources):
    objects = []
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
        obj = tmp_path / name.replace(".c", ".o")
        subprocess.run(["cc", "-c", str(tmp_path / name), "-o", str(obj)], check=True)
        objects.append(obj)
    return objects


def test_the_call_rule_reports_two_files_that_call_each_other(tmp_path):
    objects = _compile(tmp_path, {
        "tables.c": "int rps_new(void);\nint tables_init(void) { return rps_new(); }\n",
        "rps.c": "int tables_init(void);\nint rps_new(void) { return 1; }\n"
                 "int rps_flow(void) { return tables_init(); }\n",
        # reads tables.c's data and calls nothing of it: no edge
        "io.c": "extern int ctx;\nint io_run(void) { return ctx + rps_new(); }\nint rps_new(void);\n",
        "ctx.c": "int ctx;\n",
    })
    graph, why = nm_call_graph(objects)
    assert graph["io.o"] == {"rps.o"}
    assert cycles(graph) == [["rps.o", "tables.o"]]
    assert describe(graph, ["rps.o", "tables.o"], why) == \
        "rps.o -> tables.o (tables_init)\ntables.o -> rps.o (rps_new)"


@pytest.fixture(scope="module")
def dataplane_archive():
    """libhupfdp.a, built by the backend's own Makefile (its sources and flags) when missing or stale."""
    subprocess.run(["make", "-s", "-C", str(ROOT / "backend"), "build/libhupfdp.a"], check=True)
    return ROOT / "backend" / "build" / "libhupfdp.a"


def test_no_dataplane_file_calls_back_into_a_file_that_calls_it(dataplane_archive):
    graph, why = nm_call_graph([dataplane_archive])
    linked = {p.name.replace(".c", ".o") for p in DP.glob("*.c")}
    assert set(graph) == linked, \
        "libhupfdp.a should hold backend/dp/*.c, no more (a stale member: make -C backend clean)"
    found = cycles(graph)
    assert not found, "\n\n".join(describe(graph, c, why) for c in found)


def test_the_include_rule_reports_two_headers_that_include_each_other(tmp_path):
    (tmp_path / "a.h").write_text('#include "b.h"\n')
    (tmp_path / "b.h").write_text('#include <stdint.h>\n# include "a.h"\n')
    (tmp_path / "c.c").write_text('#include "a.h"\n')
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.c").write_text('#include "c.h"\n#include "a.h"\n')
    (tmp_path / "tests" / "c.h").write_text('#include "t.c"\n')
    files = sorted(tmp_path.rglob("*.[ch]"))
    graph = include_graph(files, tmp_path, search=[tmp_path])
    assert graph == {"a.h": {"b.h"}, "b.h": {"a.h"}, "c.c": {"a.h"}, "tests/t.c": {"tests/c.h", "a.h"},
                     "tests/c.h": {"tests/t.c"}}
    assert cycles(graph) == [["a.h", "b.h"], ["tests/c.h", "tests/t.c"]]


def test_no_c_file_includes_itself_round_a_loop():
    files = subprocess.run(["git", "ls-files", "*.c", "*.h"], cwd=ROOT, check=True, capture_output=True,
                           text=True).stdout.split()
    graph = include_graph([ROOT / f for f in files], ROOT, search=[DP])
    assert graph["backend/dp/tables.c"] and graph["backend/dp/tests/test_dp.c"], "the graph reads the includes"
    found = cycles(graph)
    assert not found, "\n\n".join(describe(graph, c) for c in found)


def test_no_gnb_service_file_calls_or_includes_round_a_loop():
    """gnb/src (docs/GNB.md): libgnbsvc.a built by gnb's Makefile; gnb-svc's main.c is no member."""
    subprocess.run(["make", "-s", "-C", str(ROOT / "gnb"), "build/libgnbsvc.a"], check=True)
    graph, why = nm_call_graph([ROOT / "gnb" / "build" / "libgnbsvc.a"])
    assert set(graph) == {p.name.replace(".c", ".o") for p in GNB.glob("*.c")} - {"main.o"}, \
        "libgnbsvc.a should hold gnb/src/*.c but main.c (a stale member: make -C gnb clean)"
    found = cycles(graph)
    assert not found, "\n\n".join(describe(graph, c, why) for c in found)
    includes = include_graph(sorted(GNB.glob("*.[ch]")), GNB)
    assert includes["baas.c"], "the graph reads the includes"
    found = cycles(includes)
    assert not found, "\n\n".join(describe(includes, c) for c in found)


# ---- Python ----

def test_the_import_rule_sees_a_cycle_hidden_in_a_function(tmp_path):
    pkg = tmp_path / "tools_pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "traces.py").write_text("from tools_pkg.model import Packet\n\n"
                                   "def main():\n    from tools_pkg import pcapio\n    pcapio.write()\n")
    (pkg / "pcapio.py").write_text("import struct\nfrom .traces import FlowKey\n")
    (pkg / "model.py").write_text("Packet = tuple\n")
    (pkg / "sub" / "__init__.py").write_text("from . import leaf\n")
    (pkg / "sub" / "leaf.py").write_text("try:\n    from ..model import Packet\nexcept ImportError:\n    pass\n")
    graph = python_import_graph(tmp_path, "tools_pkg")
    assert graph == {
        "tools_pkg": set(), "tools_pkg.model": set(), "tools_pkg.sub": {"tools_pkg.sub.leaf"},
        "tools_pkg.traces": {"tools_pkg.model", "tools_pkg.pcapio"}, "tools_pkg.pcapio": {"tools_pkg.traces"},
        "tools_pkg.sub.leaf": {"tools_pkg.model"},
    }
    assert cycles(graph) == [["tools_pkg.pcapio", "tools_pkg.traces"]]


def test_no_hupf_tools_module_imports_itself_round_a_loop():
    graph = python_import_graph(ROOT / "tools", "hupf_tools")
    assert "hupf_tools.pcapio" in graph["hupf_tools.classifier"], "the graph reads the imports"
    found = cycles(graph)
    assert not found, "\n\n".join(describe(graph, c) for c in found)


def test_the_script_rule_sees_a_helper_cycle_across_directories(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "pfcp").mkdir()
    (tmp_path / "lib" / "packets.py").write_text("import struct\n\ndef f():\n    import p4rt\n")
    (tmp_path / "lib" / "p4rt.py").write_text("from packets import gtpu\n")
    (tmp_path / "pfcp" / "smf.py").write_text("import packets\nfrom pfcp_spec import IE\n")
    (tmp_path / "pfcp" / "pfcp_spec.py").write_text("import os\n")
    graph = script_import_graph(tmp_path, [tmp_path / "lib", tmp_path / "pfcp"], shared=[tmp_path / "lib"])
    assert graph == {"lib/packets.py": {"lib/p4rt.py"}, "lib/p4rt.py": {"lib/packets.py"},
                     "pfcp/smf.py": {"lib/packets.py", "pfcp/pfcp_spec.py"}, "pfcp/pfcp_spec.py": set()}
    assert cycles(graph) == [["lib/p4rt.py", "lib/packets.py"]]


def test_no_test_module_imports_itself_round_a_loop():
    suites = sorted({p.parent for p in (ROOT / "tests").rglob("*.py")})
    graph = script_import_graph(ROOT, suites, shared=[ROOT / "tests" / "lib"])
    assert "tests/lib/packets.py" in graph["tests/lib/upf_setup.py"], "the graph reads the imports"
    found = cycles(graph)
    assert not found, "\n\n".join(describe(graph, c) for c in found)
