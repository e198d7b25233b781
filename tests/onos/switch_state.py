"""What ONOS and the hybrid tests' switch hold: its flow rules and groups as ONOS has them, hupf's offload tables,
and what an HH report needs as the switch itself holds it (read over P4Runtime)."""
from p4.v1 import p4runtime_pb2
from test_onos import HW_P4INFO, BackendTables

SWITCH = "device:bmv2:s1"


def switch_flows_added(onos):
    status, body = onos.rest("GET", "/onos/v1/flows/%s" % SWITCH)
    return status == 200 and body["flows"] and all(f["state"] == "ADDED" for f in body["flows"])


def switch_groups_added(onos):
    """Whether ONOS has every group of the switch (the CPU clone session HH reports leave by) ADDED."""
    status, body = onos.rest("GET", "/onos/v1/groups/%s" % SWITCH)
    return status == 200 and body["groups"] and all(g["state"] == "ADDED" for g in body["groups"])


def switch_hh_path(onos, switch):
    """What an HH report needs, as the switch itself holds it (read without arbitration: ONOS stays
    primary) and as ONOS saw it: entries per HK-IPG table, hh_config's default action, the CPU clone
    session, and the packets ONOS's packet processors were given."""
    tables = BackendTables(switch["addr"], HW_P4INFO)
    try:
        per_table = {}
        for name, _ in tables.entries():
            if name in ("hh_config", "tau_table"):
                per_table[name] = per_table.get(name, 0) + 1
        config = next(t for t in tables.tables.values() if t.preamble.name.endswith("hh.hh_config"))
        req = p4runtime_pb2.ReadRequest(device_id=1)
        req.entities.add().table_entry.CopyFrom(p4runtime_pb2.TableEntry(table_id=config.preamble.id,
                                                                         is_default_action=True))
        default = [tables.actions[e.table_entry.action.action.action_id].preamble.name + str(
            [int.from_bytes(p.value, "big") for p in e.table_entry.action.action.params])
            for r in tables.stub.Read(req, timeout=30) for e in r.entities]
        req = p4runtime_pb2.ReadRequest(device_id=1)
        req.entities.add().packet_replication_engine_entry.clone_session_entry.session_id = 0
        clones = [(e.packet_replication_engine_entry.clone_session_entry.session_id,
                   [r.egress_port for r in e.packet_replication_engine_entry.clone_session_entry.replicas])
                  for r in tables.stub.Read(req, timeout=30) for e in r.entities]
    finally:
        tables.close()
    processors = [l.strip() for l in onos.cli("packet-processors").splitlines() if l.strip()]
    return ("switch entries %s, hh_config default %s, clone sessions %s; ONOS packet processors %s"
            % (per_table, default, clones, processors))


def switch_occupancy(onos):
    """The offload manager's switch tables, None while hupf takes the devices over again for a netcfg change
    (/onos/hupf/offload answers 503 "no hupf backend available" until it has)."""
    status, body = onos.rest("GET", "/onos/hupf/offload")
    return body["occupancy"] if status == 200 else None
