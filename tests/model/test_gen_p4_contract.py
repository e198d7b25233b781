"""p4src/gen_p4_contract.py on a small pair of P4Infos and an annotation file: the per-table descriptors
in Java, Go and C, and its refusals (a table without a rank, a stale annotation, profiles that disagree).
The committed contract's drift check is test_gen_p4_constants' `make check-constants`."""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

P4SRC = os.path.join(os.path.dirname(__file__), "..", "..", "p4src")
sys.path.insert(0, P4SRC)  # gen_p4_contract imports gen_p4_constants

spec = importlib.util.spec_from_file_location("gen_p4_contract", os.path.join(P4SRC, "gen_p4_contract.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

SW = r'''
tables {
  preamble { id: 1 name: "HupfIngress.upf.uplink_sessions" alias: "uplink_sessions" }
  match_fields { id: 1 name: "tunnel_ipv4_dst" bitwidth: 32 match_type: EXACT }
  match_fields { id: 2 name: "teid" bitwidth: 32 match_type: EXACT }
  action_refs { id: 10 }
  action_refs { id: 11 annotations: "@defaultonly" scope: DEFAULT_ONLY }
  const_default_action_id: 11
  size: 64
}
actions {
  preamble { id: 10 name: "HupfIngress.upf.set_uplink_session" alias: "set_uplink_session" }
  params { id: 1 name: "ue_addr" bitwidth: 32 }
  params { id: 2 name: "session_meter_idx" bitwidth: 32 }
}
actions { preamble { id: 11 name: "HupfIngress.upf.set_uplink_session_miss" alias: "miss" } }
meters {
  preamble { id: 20 name: "HupfIngress.upf.session_meter" alias: "session_meter" }
  spec { unit: BYTES }
  size: 1024
}
'''
HW_ONLY = r'''
tables {
  preamble { id: 2 name: "HupfIngress.steering.backends" alias: "backends" }
  match_fields { id: 1 name: "slice_id" bitwidth: 4 match_type: EXACT }
  action_refs { id: 12 }
  size: 16
}
actions {
  preamble { id: 12 name: "HupfIngress.steering.steer_to_backend" alias: "steer_to_backend" }
  params { id: 1 name: "port" bitwidth: 9 }
  params { id: 2 name: "dst_mac" bitwidth: 48 }
}
'''
NOTES = '''
[tables]
"HupfIngress.upf.uplink_sessions" = { rank = 3, direction = "uplink", entity = "SESSION_UPLINK" }
"HupfIngress.steering.backends" = { rank = 0, direction = "both" }
[meters]
"HupfIngress.upf.session_meter" = { rank = 1, entity = "SESSION_METER" }
'''


def _contract(sw=SW, hw=SW + HW_ONLY, notes=NOTES):
    return gen.build({"sw": gen.parse_p4info(sw), "hw": gen.parse_p4info(hw)}, tomllib.loads(notes))


def test_descriptors_with_positions_ranks_and_profiles_in_three_languages(tmp_path):
    c = _contract()
    sess = next(t for t in c["tables"] if t["name"] == "HupfIngress.upf.uplink_sessions")
    assert sess["fields"] == (("tunnel_ipv4_dst", "EXACT", 32), ("teid", "EXACT", 32))
    assert sess["default"] == "HupfIngress.upf.set_uplink_session_miss" and sess["profiles"] == {"sw", "hw"}
    assert next(t for t in c["tables"] if t["name"] == "HupfIngress.steering.backends")["profiles"] == {"hw"}
    assert c["entity_rank"] == [("SESSION_METER", 1), ("SESSION_UPLINK", 3)]   # by rank
    java = gen.render_java(c)
    assert "public static final int PARAM_HUPF_INGRESS_UPF_SET_UPLINK_SESSION_SESSION_METER_IDX = 1;" in java
    assert "public static final int FIELD_HUPF_INGRESS_UPF_UPLINK_SESSIONS_TEID = 1;" in java
    assert "            3, Direction.UPLINK, true, true);" in java
    assert "INSTALL_ORDER = List.of(\n            UpfEntityType.SESSION_METER,\n" in java
    assert "REMOVAL_ORDER = List.of(\n            UpfEntityType.SESSION_UPLINK,\n" in java
    go = gen.render_go(c)
    assert re.search(r"\tParamHupfIngressSteeringSteerToBackendDstMac +(= 1)\n", go)
    assert ("\t{HupfIngressUpfUplinkSessions, []Field{{HdrTunnelIpv4Dst, p4cfg.MatchField_EXACT, 32}, "
            "{HdrTeid, p4cfg.MatchField_EXACT, 32}}, []string{HupfIngressUpfSetUplinkSession, "
            "HupfIngressUpfSetUplinkSessionMiss}, HupfIngressUpfSetUplinkSessionMiss, 3, Uplink, true, true},") in go
    assert "\t{HupfIngressSteeringSteerToBackend, []Param{{Port, 9}, {DstMac, 48}}}," in go
    c_hdr = gen.render_c(c)
    assert "\tP4_PARAM_HUPF_INGRESS_STEERING_STEER_TO_BACKEND_PORT_WIDTH = 9," in c_hdr
    assert "\tP4_RANK_HUPF_INGRESS_UPF_SESSION_METER = 1," in c_hdr
    if shutil.which("cc"):
        (tmp_path / "c.h").write_text(c_hdr)
        (tmp_path / "t.c").write_text('#include "c.h"\nint a[P4_DIR_HUPF_INGRESS_UPF_UPLINK_SESSIONS == '
                                      'P4_DIR_UPLINK ? 1 : -1];\n')
        subprocess.run(["cc", "-Wall", "-Werror", "-fsyntax-only", str(tmp_path / "t.c")], check=True)
    if shutil.which("gofmt"):
        (tmp_path / "contract.go").write_text(go)
        res = subprocess.run(["gofmt", "-l", str(tmp_path / "contract.go")], capture_output=True, text=True)
        assert res.returncode == 0 and res.stdout == "", res.stderr


def test_refuses_what_the_contract_cannot_say_precisely():
    with pytest.raises(ValueError, match="steering.backends has no entry"):
        _contract(notes=NOTES.replace('"HupfIngress.steering.backends" = { rank = 0, direction = "both" }', ""))
    with pytest.raises(ValueError, match="HupfIngress.upf.gone is no table or meter"):
        _contract(notes=NOTES + '[tables."HupfIngress.upf.gone"]\nrank = 0\ndirection = "both"\n')
    with pytest.raises(ValueError, match="direction must be one of"):
        _contract(notes=NOTES.replace('direction = "both"', 'direction = "sideways"'))
    with pytest.raises(ValueError, match="rank must be an integer"):
        _contract(notes=NOTES.replace("rank = 3", "rank = -1"))
    with pytest.raises(ValueError, match="entity's rank SESSION_UPLINK differs"):
        _contract(notes=NOTES.replace('entity = "SESSION_METER"', 'entity = "SESSION_UPLINK"'))
    with pytest.raises(ValueError, match="table HupfIngress.upf.uplink_sessions differs between the profiles"):
        _contract(hw=SW.replace('name: "teid" bitwidth: 32', 'name: "teid" bitwidth: 24') + HW_ONLY)


def test_main_reports_a_broken_annotation_file(tmp_path, capsys):
    for name, text in (("sw.txt", SW), ("hw.txt", SW + HW_ONLY), ("notes.toml", "[tables\n")):
        (tmp_path / name).write_text(text)
    rc = gen.main(["--sw", str(tmp_path / "sw.txt"), "--hw", str(tmp_path / "hw.txt"),
                   "--notes", str(tmp_path / "notes.toml"), "--java", str(tmp_path / "T.java"),
                   "--go", str(tmp_path / "c.go"), "--c", str(tmp_path / "c.h")])
    assert rc == 1 and "gen_p4_contract: " in capsys.readouterr().err
