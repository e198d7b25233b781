"""Assertions on the test bed's ports and on the device's drop counters."""
from scapy.layers.l2 import Ether

import hupf_p4const as C

ETH_IPV4 = b"\x08\x00"


def is_ipv4(frame):
    return frame[12:14] == ETH_IPV4


def _dump(frame):
    return Ether(bytes(frame)).show2(dump=True)


def expect_frame(bed, port, expected, timeout=2.0):
    got = bed.recv(port, timeout, accept=is_ipv4)
    assert got is not None, "no frame on port %d; expected:\n%s" % (port, _dump(expected))
    assert bytes(got) == bytes(expected), "port %d:\n--- got\n%s\n--- expected\n%s" % (
        port, _dump(got), _dump(expected))
    return got


def expect_no_frame(bed, ports, timeout=0.5):
    for port in ports:
        got = bed.recv(port, timeout, accept=is_ipv4)
        assert got is None, "unexpected frame on port %d:\n%s" % (port, _dump(got))


def drops(client, reason):
    return client.counter(C.HUPF_INGRESS_UPF_DROP_REASONS, reason)[0]


class DropDelta:
    """Counts the drops of one reason across a with-block."""

    def __init__(self, client, reason):
        self.client, self.reason = client, reason

    def __enter__(self):
        self.before = drops(self.client, self.reason)
        return self

    def __exit__(self, *exc):
        self.delta = drops(self.client, self.reason) - self.before
