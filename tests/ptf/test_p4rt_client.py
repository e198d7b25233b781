"""The P4Runtime client's encoding of entities, without a device."""
import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

from p4rt import Client, P4Info, P4RuntimeError, encode

P4INFO = '''
tables {
  preamble { id: 10 name: "I.t" }
  match_fields { id: 1 name: "dst" bitwidth: 32 match_type: LPM }
  match_fields { id: 2 name: "port" bitwidth: 16 match_type: RANGE }
  match_fields { id: 3 name: "proto" bitwidth: 8 match_type: TERNARY }
  match_fields { id: 4 name: "valid" bitwidth: 1 match_type: EXACT }
}
actions {
  preamble { id: 20 name: "I.a" }
  params { id: 1 name: "slice_id" bitwidth: 4 }
  params { id: 2 name: "port" bitwidth: 9 }
}
'''


@pytest.fixture
def client():
    msg = p4info_pb2.P4Info()
    text_format.Merge(P4INFO, msg)
    c = Client.__new__(Client)   # no connection: only the entity builders are used
    c.p4info = P4Info(msg)
    return c


def test_encode_uses_the_full_width():
    assert encode(1, 9) == b"\x00\x01"
    assert encode(0xABCDEF, 32) == b"\x00\xab\xcd\xef"
    with pytest.raises(ValueError, match="does not fit in 4 bits"):
        encode(16, 4)


def test_table_entry_per_match_kind(client):
    e = client.table_entry("I.t", {"dst": (0x0A000000, 8), "port": (53, 80), "proto": (0x11, 0xFF),
                                   "valid": 1}, "I.a", {"slice_id": 3, "port": 257}, priority=7)
    assert e.table_id == 10 and e.priority == 7
    by_id = {m.field_id: m for m in e.match}
    assert (by_id[1].lpm.value, by_id[1].lpm.prefix_len) == (b"\x0a\x00\x00\x00", 8)
    assert (by_id[2].range.low, by_id[2].range.high) == (b"\x00\x35", b"\x00\x50")
    assert (by_id[3].ternary.value, by_id[3].ternary.mask) == (b"\x11", b"\xff")
    assert by_id[4].exact.value == b"\x01"
    assert [(p.param_id, p.value) for p in e.action.action.params] == [(1, b"\x03"), (2, b"\x01\x01")]


def test_ternary_value_is_masked(client):
    e = client.table_entry("I.t", {"proto": (0x1F, 0x0F)})
    assert e.match[0].ternary.value == b"\x0f"


def test_unknown_names_and_missing_params_are_precise_errors(client):
    with pytest.raises(P4RuntimeError, match="no table named 'I.x'"):
        client.table_entry("I.x")
    with pytest.raises(P4RuntimeError, match="has no match field nope"):
        client.table_entry("I.t", {"nope": 1})
    with pytest.raises(P4RuntimeError, match="param port missing"):
        client.action("I.a", slice_id=1)
    with pytest.raises(P4RuntimeError, match=r"has no params \['bogus'\]"):
        client.action("I.a", slice_id=1, port=1, bogus=2)
