"""hupf_tools.gnb.p4rt_entries without a device: the RAN control's entries for the vectors become P4Runtime
updates resolved by name in a P4Info; bad lines are refused naming the line. The P4Info here models the gNB
program's tables as docs/GNB.md states them, checked against the committed P4Info."""
from pathlib import Path

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

import gnb_vectors as V
from hupf_tools.gnb import p4const as C
from hupf_tools.gnb.p4rt_entries import EntryError, load_p4info, updates

ROOT = Path(__file__).resolve().parents[2]
TABLES = {  # table: ([(match field, width)], [action])
    "ports": ([("port", 9)], ["set_port_role"]),
    "services": ([], ["set_services"]),
    "dl_ues": ([("teid", 32)], ["set_dl_ue"]),
    "air": ([("ue", 32)], ["set_air"]),
    "ul_ues": ([("port", 9), ("ue_mac", 48)], ["set_ul_ue"]),
    "ul_tunnels": ([("ue", 32)], ["set_ul_tunnel"]),
}
ACTIONS = {
    "set_port_role": [("role", 8)],
    "set_services": [("crypto", 9), ("baas", 9), ("n3", 9), ("gnb_n3_addr", 32), ("gnb_n3_mac", 48),
                     ("upf_n3_mac", 48)],
    "set_dl_ue": [("ue", 32), ("sn18", 1)],
    "set_air": [("port", 9), ("ue_mac", 48), ("gnb_mac", 48), ("lcid", 6)],
    "set_ul_ue": [("ue", 32), ("lcid", 6)],
    "set_ul_tunnel": [("teid", 32), ("qfi", 6), ("upf_addr", 32), ("sn18", 1)],
}


def p4info():
    msg = p4info_pb2.P4Info()
    action_ids = {}
    for i, (name, params) in enumerate(sorted(ACTIONS.items()), 1):
        a = msg.actions.add()
        a.preamble.id, a.preamble.name = 0x01000000 + i, "HupfGnbIngress." + name
        action_ids[name] = a.preamble.id
        for j, (p, width) in enumerate(params, 1):
            a.params.add(id=j, name=p, bitwidth=width)
    for i, (name, (fields, actions)) in enumerate(sorted(TABLES.items()), 1):
        t = msg.tables.add()
        t.preamble.id, t.preamble.name = 0x02000000 + i, "HupfGnbIngress." + name
        for j, (f, width) in enumerate(fields, 1):
            t.match_fields.add(id=j, name=f, bitwidth=width, match_type=p4info_pb2.MatchField.EXACT)
        for a in actions:
            t.action_refs.add(id=action_ids[a])
    return text_format.Parse(text_format.MessageToString(msg), p4info_pb2.P4Info())


def test_the_vectors_entries_become_updates():
    info = p4info()
    ups = updates(V.ENTRIES, info)
    assert len(ups) == len(V.ENTRIES)
    by_table = {}
    for up in ups:
        if up.entity.HasField("packet_replication_engine_entry"):
            clone = up.entity.packet_replication_engine_entry.clone_session_entry
            assert (clone.session_id, [r.egress_port for r in clone.replicas]) == (C.BAAS_CLONE_SESSION_ID, [V.BAAS])
            continue
        e = up.entity.table_entry
        name = next(t.preamble.name for t in info.tables if t.preamble.id == e.table_id).split(".")[1]
        by_table.setdefault(name, []).append((up.type, e))
    assert {k: len(v) for k, v in by_table.items()} == {"ports": 4, "services": 1, "dl_ues": 2, "air": 2, "ul_ues": 2,
                                                        "ul_tunnels": 2}
    (kind, services), = by_table["services"]
    assert kind == p4runtime_pb2.Update.MODIFY and services.is_default_action and not services.match
    assert [p.value for p in services.action.action.params] == [
        b"\x00\x02", b"\x00\x03", b"\x00\x00", bytes([10, 0, 3, 1]), bytes.fromhex("020000000301"),
        bytes.fromhex("020000000302")]
    kind, ul = by_table["ul_ues"][0]
    assert kind == p4runtime_pb2.Update.INSERT
    assert [m.exact.value for m in ul.match] == [b"\x00\x01", bytes.fromhex("020000000110")]


@pytest.mark.parametrize("line, reason", [
    ("dl_ues set_dl_ue teid=1 ue=0", "missing field sn18"),
    ("dl_ues set_dl_ue teid=1 ue=0 sn18=2", "sn18: 2 does not fit in 1 bits"),
    ("air set_air ue=0 port=1 ue_mac=zz gnb_mac=02:00:00:00:00:01 lcid=4", "'zz' is not a number"),
    ("ul_tunnels set_air ue=0", "table ul_tunnels has no action set_air"),
    ("ports set_port_role port=1 role=1 extra=3", "no field extra"),
    ("ports set_port_role port=1 port=2 role=1", "field port given twice"),
    ("nat set_nat a=1", "no table nat"),
    ("clone_session replica id=500", "a clone session has the fields id and port"),
    ("ports", "TABLE ACTION FIELD=VALUE... is needed"),
])
def test_a_bad_line_is_refused_naming_it(line, reason):
    with pytest.raises(EntryError) as e:
        updates(["# the RAN control's entries", line], p4info(), "e.txt")
    assert str(e.value).startswith("e.txt:2") and reason in str(e.value), str(e.value)


def test_the_modelled_p4info_is_the_compiled_ones_tables():
    """The fixture above and the committed P4Info have the same tables, fields, actions and widths."""
    compiled = load_p4info(ROOT / "pipeconf" / "src" / "main" / "resources" / "p4c-out" / "gnb" / "bmv2" / "p4info.txt")
    actions = {a.preamble.id: a for a in compiled.actions}
    got = {}
    for t in compiled.tables:
        refs = [actions[r.id] for r in t.action_refs if r.scope != r.DEFAULT_ONLY]
        got[t.preamble.name.split(".")[1]] = ([(m.name, m.bitwidth) for m in t.match_fields],
                                              [a.preamble.name.split(".")[1] for a in refs])
        for a in refs:
            assert [(p.name, p.bitwidth) for p in a.params] == ACTIONS[a.preamble.name.split(".")[1]]
    assert got == TABLES
    assert len(updates(V.ENTRIES, compiled)) == len(V.ENTRIES)
