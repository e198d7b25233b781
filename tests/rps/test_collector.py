"""The collector on real UDP datagrams on the loopback; the datagram format both ways."""
import json
import socket

import pytest

from hupf_tools.rps import collector
from hupf_tools.rps import records as rec


def some(n, device=0):
    return [rec.Record(device, i % 2, rec.DIRECT if i % 3 else rec.DELAYED, 7, 0xFFFF0000 + i, 1_000 + i, i)
            for i in range(n)]


def test_a_datagram_is_the_header_then_the_records():
    rs = some(3, device=0x1234)
    d = rec.encode_datagram(0x1234, rs)
    assert d[:8] == b"HRPS\x01\x03\x12\x34" and len(d) == 8 + 3 * 16
    assert d[8:24] == bytes([0, 2, 0, 7, 0xFF, 0xFF, 0, 0, 0, 0, 0x03, 0xE8, 0, 0, 0, 0])
    assert rec.parse_datagram(d) == rs


# The same bytes RpsExporterTest.theDatagramIsTheGoldenOne expects of the Java exporter.
GOLDEN = "4852505301010102" + "0102030405060708090a0b0c0d0e0000"


def test_the_golden_datagram_both_ways():
    r = rec.Record(0x0102, 1, 2, 0x0304, 0x05060708, 0x090A0B0C, 0x0D0E)
    assert rec.encode_datagram(0x0102, [r]).hex() == GOLDEN
    assert rec.parse_datagram(bytes.fromhex(GOLDEN)) == [r]


@pytest.mark.parametrize("bad, reason", [
    (b"HRP", "shorter than"), (b"XRPS\x01\x00\x00\x00", "magic"), (b"HRPS\x02\x00\x00\x00", "version"),
    (b"HRPS\x01\x02\x00\x00" + b"\x00" * 20, "2 records need 40 bytes"),
    (b"HRPS\x01\x01\x00\x00" + bytes([2, 1]) + b"\x00" * 14, "point 2"),
])
def test_what_is_not_a_datagram_is_refused_with_its_reason(bad, reason):
    with pytest.raises(ValueError, match=reason):
        rec.parse_datagram(bad)


def test_records_arrive_in_order_and_bad_datagrams_are_counted(tmp_path):
    out = (tmp_path / "rps.jsonl").open("w")
    c = collector.Collector("127.0.0.1", 0, out).start()
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        first, second = some(5, device=1), some(3, device=2)
        s.sendto(rec.encode_datagram(1, first), c.address)
        s.sendto(b"HRPS\x01\x09\x00\x01" + b"\x00" * 16, c.address)
        s.sendto(b"junk", c.address)
        s.sendto(rec.encode_datagram(2, second), c.address)
        assert c.wait_for(8)
        assert c.records() == first + second
        stats = c.stats()
        assert stats["datagrams"] == 2 and stats["malformed"] == 2 and stats["records"] == 8
    finally:
        c.close()
        out.close()
    assert collector.load(tmp_path / "rps.jsonl") == first + second
    assert json.loads((tmp_path / "rps.jsonl").read_text().splitlines()[0])["device"] == 1
