"""p4src/gen_p4_constants.py on a small P4Info in text format, the committed constants, and
p4src/check_artifacts.py's comparison of committed artifacts with a fresh compile."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

P4SRC = os.path.join(os.path.dirname(__file__), "..", "..", "p4src")
sys.path.insert(0, P4SRC)  # check_artifacts imports gen_p4_constants


def _load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(P4SRC, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


gen = _load("gen_p4_constants")
check = _load("check_artifacts")

P4INFO = r'''
# a comment
pkg_info { arch: "v1model" }
tables {
  preamble { id: 1 name: "HupfIngress.upf.interfaces" alias: "interfaces" }
  match_fields { id: 1 name: "ipv4_dst_addr" bitwidth: 32 match_type: LPM }
  action_refs { id: 2 annotations: "@defaultonly" scope: DEFAULT_ONLY }
  size: 64
}
actions {
  preamble { id: 2 name: "HupfIngress.upf.iface_access" alias: "iface_access" }
  params { id: 1 name: "slice_id" bitwidth: 4 }
}
registers {
  preamble { id: 4 name: "HupfIngress.hh.last_ts" alias: "last_ts" }
  type_spec { bitstring { bit { bitwidth: 48 } } }
  size: 4096
}
controller_packet_metadata {
  preamble { id: 3 name: "packet_in" annotations: "@controller_header(\"packet_in\")" }
  metadata { id: 1 name: "ingress_port" bitwidth: 9 }
}
'''
CONSTS = [("PKTIN_ACL_PUNT", 1), ("DROP_ACL", 9), ("HH_KEY_5TUPLE", 1)]


def test_parses_text_format_and_names_constants_in_four_languages(tmp_path):
    info = gen.parse_p4info(P4INFO)
    assert info.tables[0].size == 64
    assert info.controller_packet_metadata[0].preamble.annotations == ['@controller_header("packet_in")']
    names = gen.collect([info, gen.parse_p4info(P4INFO)])
    assert names["tables"] == ["HupfIngress.upf.interfaces"]
    grps = gen.groups(names)
    java = gen.render_java(grps, CONSTS)
    assert ('public static final PiTableId HUPF_INGRESS_UPF_INTERFACES =\n'
            '            PiTableId.of("HupfIngress.upf.interfaces");') in java
    assert 'PiMatchFieldId HDR_IPV4_DST_ADDR' in java and 'PiActionParamId SLICE_ID' in java
    assert 'PiPacketMetadataId PKT_META_INGRESS_PORT' in java
    assert "public static final int PKTIN_ACL_PUNT = 1;" in java
    namespace = {}
    exec(gen.render_python(grps, CONSTS), namespace)
    assert namespace["HUPF_INGRESS_UPF_IFACE_ACCESS"] == "HupfIngress.upf.iface_access"
    assert namespace["PKTIN_ACL_PUNT"] == 1
    c = gen.render_c(grps, CONSTS)
    assert '#define P4_HUPF_INGRESS_HH_LAST_TS "HupfIngress.hh.last_ts"' in c
    assert "\tDROP_ACL = 9," in c and "HH_KEY_5TUPLE" not in c   # C: reasons only
    go = gen.render_go(grps, CONSTS)
    assert '\tHupfIngressUpfInterfaces = "HupfIngress.upf.interfaces"' in go
    assert '\tPktHdrPacketIn = "packet_in"' in go and "PKT_HDR" not in java   # no ONOS type names a header
    assert "\tPktinAclPunt = 1" in go and "\tHhKey5tuple  = 1" in go
    if shutil.which("cc"):
        (tmp_path / "hupf_p4const.h").write_text(c)
        (tmp_path / "t.c").write_text('#include "hupf_p4const.h"\nint a[DROP_ACL == 9 ? 1 : -1];\n'
                                      'const char *t = P4_HUPF_INGRESS_UPF_INTERFACES;\n')
        subprocess.run(["cc", "-Wall", "-Werror", "-fsyntax-only", str(tmp_path / "t.c")], check=True)
    if shutil.which("gofmt"):
        (tmp_path / "p4const.go").write_text(go)
        res = subprocess.run(["gofmt", "-l", str(tmp_path / "p4const.go")], capture_output=True, text=True)
        assert res.returncode == 0 and res.stdout == "", res.stderr   # valid and gofmt-formatted


def test_rejects_broken_input_precisely():
    with pytest.raises(ValueError, match="p4info: .*"):
        gen.parse_p4info("tables { preamble { id: 1 }")
    with pytest.raises(ValueError, match="p4info: .*no_such_field"):
        gen.parse_p4info("tables { no_such_field: 1 }")
    names = {k: [] for k in ("tables", "actions", "counters", "meters", "registers", "action_profiles",
                             "match_fields", "action_params", "packet_metadata", "packet_headers")}
    names["tables"] = ["a.b"]
    names["actions"] = ["a_b"]
    with pytest.raises(ValueError, match="would name both"):
        gen.groups(names)
    with pytest.raises(ValueError, match="not a plain number"):
        gen.read_consts("const bit<8> DROP_X = FOO;")
    assert gen.read_consts("const bit<32> HH_REPORT_TRUNC_LEN = 3 + 12 + 64;\nconst bit<8> OTHER = 1;") == [
        ("HH_REPORT_TRUNC_LEN", 79)]


def test_main_reports_a_missing_file(tmp_path, capsys):
    rc = gen.main(["--p4info", str(tmp_path / "nope.txt"), "--define", str(tmp_path / "d.p4"),
                   "--java", str(tmp_path / "J.java"), "--python", str(tmp_path / "c.py"),
                   "--c", str(tmp_path / "c.h"), "--go", str(tmp_path / "c.go")])
    assert rc == 1 and "nope.txt" in capsys.readouterr().err


def test_committed_constants_are_what_the_committed_p4info_generates():
    res = subprocess.run(["make", "-s", "-C", P4SRC, "check-constants"], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]


BMV2 = {"header_types": [{"name": "h", "fields": [["a", 48, False]]}],
        "actions": [{"name": "set", "id": 0, "runtime_data": [{"name": "v", "bitwidth": 8}], "primitives": []}],
        "register_arrays": [{"name": "HupfIngress.hh.last_ts", "size": 4096, "bitwidth": 48}],
        "pipelines": [{"name": "ingress", "tables": [{"name": "t", "key": [], "actions": ["set"],
                                                       "max_size": 1, "match_type": "exact"}]}]}


def _artifacts(root, version, p4info=P4INFO, bmv2=None, source_info="a"):
    for profile in ("hw", "sw"):
        d = root / profile / "bmv2"
        d.mkdir(parents=True)
        (d / "p4info.txt").write_text(p4info)
        j = dict(bmv2 or BMV2, program=source_info)
        (d / "bmv2.json").write_text(json.dumps(j))
    (root / "p4c-version.txt").write_text(version)
    return str(root)


def test_artifacts_compare_bytes_with_the_same_compiler(tmp_path, capsys):
    a = _artifacts(tmp_path / "a", "p4c-bm2-ss\nVersion 1.2.5 (SHA: 34b86e9)\n")
    b = _artifacts(tmp_path / "b", "p4c-bm2-ss\nVersion 1.2.5 (SHA: 34b86e9)\n")
    assert check.main([a, b]) == 0
    c = _artifacts(tmp_path / "c", "p4c-bm2-ss\nVersion 1.2.5 (SHA: 34b86e9)\n", source_info="other")
    assert check.main([a, c]) == 1
    out = capsys.readouterr().out
    assert "hw/bmv2/bmv2.json: not identical" in out and "same compiler" in out


def test_artifacts_from_another_compiler_compare_what_matters(tmp_path, capsys):
    a = _artifacts(tmp_path / "a", "p4c-bm2-ss\nVersion 1.2.4 (SHA: 1111111)\n")
    b = _artifacts(tmp_path / "b", "p4c-bm2-ss\nVersion 1.2.5 (SHA: 34b86e9)\n", source_info="other")
    assert check.main([a, b]) == 0                     # only cosmetic bytes differ
    out = capsys.readouterr().out
    assert "compiled by: p4c-bm2-ss Version 1.2.4 (SHA: 1111111)" in out
    assert "fresh compile by:                p4c-bm2-ss Version 1.2.5 (SHA: 34b86e9)" in out
    narrow = dict(BMV2, register_arrays=[{"name": "HupfIngress.hh.last_ts", "size": 4096, "bitwidth": 32}])
    c = _artifacts(tmp_path / "c", "p4c-bm2-ss\nVersion 1.2.5 (SHA: 34b86e9)\n",
                   p4info=P4INFO.replace("bitwidth: 48", "bitwidth: 32"), bmv2=narrow)
    assert check.main([a, c]) == 1
    out = capsys.readouterr().out
    assert "hw/bmv2/p4info.txt: register HupfIngress.hh.last_ts differs" in out
    assert "hw/bmv2/bmv2.json: register_arrays HupfIngress.hh.last_ts differs" in out
    assert "another compiler" in out


def test_same_program_ignores_only_source_locations(tmp_path, capsys):
    version = "p4c-bm2-ss\nVersion 1.2.5 (SHA: 34b86e9)\n"
    # p4c names an apply block's statements after their file and line: upf3 in upf.p4 is upf_encap7 once moved
    located = dict(BMV2, actions=[{"name": "upf3", "id": 1, "runtime_data": [],
                                   "source_info": {"filename": "include/upf.p4", "line": 3}}])
    moved = dict(located, actions=[dict(located["actions"][0], name="upf_encap7",
                                        source_info={"filename": "include/upf_encap.p4", "line": 7})])
    a = _artifacts(tmp_path / "a", version, bmv2=located, source_info="v1model/hupf_hw.p4")
    b = _artifacts(tmp_path / "b", version, bmv2=moved, source_info="v1model/hupf_hw.p4")
    assert check.main(["--same-program", a, b]) == 0
    assert "the same program (hw, sw" in capsys.readouterr().out
    renamed = dict(moved, actions=[dict(moved["actions"][0], name="b")])
    c = _artifacts(tmp_path / "c", version, bmv2=renamed, p4info=P4INFO.replace("size: 64", "size: 32"))
    assert check.main(["--same-program", "--profiles", "sw", a, c]) == 1
    out = capsys.readouterr().out
    assert "sw/bmv2/p4info.txt: not identical" in out and "sw/bmv2/bmv2.json: differs beyond source" in out
    assert "hw/" not in out
    d = _artifacts(tmp_path / "d", "p4c-bm2-ss\nVersion 1.2.6\n")
    assert check.main(["--same-program", a, d]) == 1
    assert "needs one compiler" in capsys.readouterr().out
