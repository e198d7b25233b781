"""hupf's sw profile on T4P4S (issue #36), a full exact table: T4P4S keeps each exact table in a DPDK hash of
HASH_ENTRIES keys (1,024 in the stock build the tests compile) whatever the table's P4 size, and ends the switch on
an insert into a full hash. hupf-t4p4s, told the size (--hash-entries), refuses the update that would not fit with
RESOURCE_EXHAUSTED in the Write's per-update details (P4Runtime spec) and gives the switch nothing of it: the other
updates of the Write apply, the switch runs on, and a deleted key still holds its place (T4P4S deletes nothing)."""
import pytest

import hupf_p4const as C
import targets as T
from hupf_tools.t4p4s import EXACT_TABLE_ENTRIES
from p4.v1 import p4runtime_pb2
from p4rt import Client
from scapy.all import wrpcap
from t4p4s_switch import Running, build_adapter, compile_switch

BATCH = 256


def ue_addr(i):
    return 0x0A640000 + i  # 10.100.0.0 and on


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    work = tmp_path_factory.mktemp("t4p4s-capacity")
    executable, adapter = compile_switch(), build_adapter(work)
    empty = work / "empty.pcap"
    wrpcap(str(empty), [])
    running = Running(executable, adapter, ["rx_pcap=%s,tx_pcap=%s" % (empty, work / ("tx%d.pcap" % port))
                                            for port in range(2)], work)
    try:
        client = Client(running.grpc_addr, timeout=60)
        client.set_pipeline(T.artifacts("sw")[0])
        yield running, client
        client.close()
    finally:
        running.close()


def session(client, kind, i, meter=0):
    return client.update(kind, "table_entry", client.table_entry(
        C.HUPF_INGRESS_UPF_DOWNLINK_SESSIONS, {C.HDR_UE_ADDR: ue_addr(i)}, C.HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION,
        {C.TUN_PEER_ID: 1, C.SESSION_METER_IDX: meter}))


def sessions_read(client):
    entity = p4runtime_pb2.Entity()
    entity.table_entry.table_id = client.p4info.id("tables", C.HUPF_INGRESS_UPF_DOWNLINK_SESSIONS)
    return {int.from_bytes(e.table_entry.match[0].exact.value, "big") for e in client.read(entity)}


def test_t4p4s_full_exact_table_refuses_the_update_past_hash_entries(device):
    running, client = device
    for first in range(0, EXACT_TABLE_ENTRIES, BATCH):
        client.write(*(session(client, "INSERT", i) for i in range(first, first + BATCH)))
    # One Write: a new key past the hash's size, and a present key's change.
    assert client.write_each(session(client, "INSERT", EXACT_TABLE_ENTRIES),
                             session(client, "MODIFY", 0, meter=7)) == ["RESOURCE_EXHAUSTED", "OK"]
    # A deletion leaves its key in T4P4S's hash: no room for a new key, room for the deleted one.
    client.write(session(client, "DELETE", 1))
    assert client.write_each(session(client, "INSERT", EXACT_TABLE_ENTRIES)) == ["RESOURCE_EXHAUSTED"]
    assert client.write_each(session(client, "INSERT", 1)) == ["OK"]
    # The switch runs on and answers (a counter read goes to it), holding what was accepted.
    assert running.switch.poll() is None, running.text()[-3000:]
    assert client.counter(C.HUPF_INGRESS_UPF_PRE_QOS_COUNTER, 0) == (0, 0)
    assert sessions_read(client) == {ue_addr(i) for i in range(EXACT_TABLE_ENTRIES)}
