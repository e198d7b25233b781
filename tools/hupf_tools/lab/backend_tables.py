"""After the lab's PFCP deletions: which UEs each backend still holds a session of, read from each backend over
P4Runtime (the runner's status reads its first backend only; hupf-t4p4s answers the read from the entries it wrote
to T4P4S and overwrote with the miss action on deletion, T4P4S being unreadable: docs/BACKENDS.md "T4P4S")."""
import ipaddress
import time

import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

DOWNLINK_SESSIONS = "HupfIngress.upf.downlink_sessions"
GONE_TIMEOUT_S = 30


def downlink_ues(grpc_addr, p4info_path, device_id=1):
    """The UE addresses of a backend's downlink_sessions entries."""
    info = p4info_pb2.P4Info()
    with open(p4info_path) as f:
        text_format.Parse(f.read(), info)
    [table_id] = [t.preamble.id for t in info.tables if t.preamble.name == DOWNLINK_SESSIONS]
    req = p4runtime_pb2.ReadRequest(device_id=device_id)
    req.entities.add().table_entry.table_id = table_id
    with grpc.insecure_channel(grpc_addr) as ch:
        entries = [e.table_entry for resp in p4runtime_pb2_grpc.P4RuntimeStub(ch).Read(req, timeout=30)
                   for e in resp.entities]
    return {str(ipaddress.IPv4Address(int.from_bytes(e.match[0].exact.value, "big"))) for e in entries}


def add_backends(deleted, backends, timeout=GONE_TIMEOUT_S):
    """Adds to `deleted` ({ue: {target: still present}}, smf.delete_all's) each backend's presence, read until
    none holds a deleted UE or timeout. backends: [(name, gRPC address, P4Info path)] of those running."""
    deadline = time.time() + timeout
    while True:
        held = {name: downlink_ues(addr, p4info) for name, addr, p4info in backends}
        for ue, where in deleted.items():
            where.update({name: ue in ues for name, ues in held.items()})
        if time.time() > deadline or not any(ue in ues for ues in held.values() for ue in deleted):
            return deleted
        time.sleep(0.3)
