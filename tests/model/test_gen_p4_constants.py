"""p4src/gen_p4_constants.py on a small P4Info in text format."""
import importlib.util
import os

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "gen_p4_constants", os.path.join(os.path.dirname(__file__), "..", "..", "p4src", "gen_p4_constants.py"))
gen = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(gen)

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
controller_packet_metadata {
  preamble { id: 3 name: "packet_in" annotations: "@controller_header(\"packet_in\")" }
  metadata { id: 1 name: "ingress_port" bitwidth: 9 }
}
'''


def test_parses_text_format_and_names_constants():
    info = gen.parse_textproto(P4INFO)
    assert info["tables"][0]["size"] == ["64"]
    assert info["controller_packet_metadata"][0]["preamble"][0]["annotations"] == [
        '@controller_header("packet_in")']
    names = gen.collect([info, gen.parse_textproto(P4INFO)])
    assert names["tables"] == ["HupfIngress.upf.interfaces"]
    java = gen.render_java(gen.groups(names), [("PKTIN_ACL_PUNT", 1)])
    assert ('public static final PiTableId HUPF_INGRESS_UPF_INTERFACES =\n'
            '            PiTableId.of("HupfIngress.upf.interfaces");') in java
    assert 'PiMatchFieldId HDR_IPV4_DST_ADDR' in java and 'PiActionParamId SLICE_ID' in java
    assert 'PiPacketMetadataId PKT_META_INGRESS_PORT' in java
    assert "public static final int PKTIN_ACL_PUNT = 1;" in java
    py = gen.render_python(gen.groups(names), [("PKTIN_ACL_PUNT", 1)])
    namespace = {}
    exec(py, namespace)
    assert namespace["HUPF_INGRESS_UPF_IFACE_ACCESS"] == "HupfIngress.upf.iface_access"
    assert namespace["PKTIN_ACL_PUNT"] == 1


def test_rejects_broken_input_precisely():
    with pytest.raises(ValueError, match="missing '}'"):
        gen.parse_textproto("tables { preamble { id: 1 }")
    names = {k: [] for k in ("tables", "actions", "counters", "meters", "registers", "action_profiles",
                             "match_fields", "action_params", "packet_metadata")}
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
                   "--java", str(tmp_path / "J.java"), "--python", str(tmp_path / "c.py")])
    assert rc == 1 and "nope.txt" in capsys.readouterr().err
