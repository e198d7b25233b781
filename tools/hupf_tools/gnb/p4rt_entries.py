"""The gNB switch's entries over P4Runtime (docs/GNB.md, "Control"): the lines ran_control writes for gnb-switch
(`TABLE ACTION FIELD=VALUE...`, the contract's names) become P4Runtime updates for the compiled gNB program (its
P4Info and bmv2 JSON in the pipeconf's p4c-out/gnb/bmv2), every name and width resolved through its P4Info:
table entries, the keyless `services` table's default action, the BaaS clone session. Entries carry no key (ran_control keeps keys in gnb-svc's UE
file), so nothing here can log one.

  python -m hupf_tools.gnb.p4rt_entries --grpc HOST:PORT --entries ENTRIES.txt [--device-id 1]
      [--p4info P4INFO --bmv2-json BMV2_JSON]   (default: the committed ones)

pushes the pipeline (SetForwardingPipelineConfig), then writes the entries, as the primary controller.
"""
import argparse
import ipaddress
import os
import queue
import re
import sys

import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

P4C_OUT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "pipeconf", "src", "main", "resources",
                       "p4c-out", "gnb", "bmv2")
CONTROL = "HupfGnbIngress"
CLONE = "clone_session"
MAC = re.compile(r"^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$")
ARBITRATION_TIMEOUT_S = 10


class EntryError(ValueError):
    pass


def load_p4info(path):
    msg = p4info_pb2.P4Info()
    with open(path) as f:
        text_format.Merge(f.read(), msg)
    return msg


def value(text, bitwidth, where):
    """Bytes of a field: a number in C syntax, a dotted IPv4 address or a MAC, at the field's full width."""
    try:
        if MAC.match(text):
            n = int(text.replace(":", ""), 16)
        elif text.count(".") == 3:
            n = int(ipaddress.IPv4Address(text))
        else:
            n = int(text, 0)
    except ValueError:
        raise EntryError("%s: %r is not a number, IPv4 address or MAC" % (where, text)) from None
    if not 0 <= n < 1 << bitwidth:
        raise EntryError("%s: %s does not fit in %d bits" % (where, text, bitwidth))
    return n.to_bytes((bitwidth + 7) // 8, "big")


def _fields(words, where):
    out = {}
    for w in words:
        name, eq, v = w.partition("=")
        if not eq or not name or not v:
            raise EntryError("%s: %r is not FIELD=VALUE" % (where, w))
        if name in out:
            raise EntryError("%s: field %s given twice" % (where, name))
        out[name] = v
    return out


def _by_name(items, name, what, where):
    for item in items:
        if item.preamble.name == name:
            return item
    raise EntryError("%s: no %s %s in the P4Info" % (where, what, name.split(".")[-1]))


def _update(kind, entity_field, msg):
    up = p4runtime_pb2.Update(type=kind)
    getattr(up.entity, entity_field).CopyFrom(msg)
    return up


def _clone_session(fields, where):
    if set(fields) != {"id", "port"}:
        raise EntryError("%s: a clone session has the fields id and port" % where)
    pre = p4runtime_pb2.PacketReplicationEngineEntry()
    pre.clone_session_entry.session_id = int.from_bytes(value(fields["id"], 32, where + " id"), "big")
    pre.clone_session_entry.replicas.add(
        egress_port=int.from_bytes(value(fields["port"], 32, where + " port"), "big"), instance=1)
    return _update(p4runtime_pb2.Update.INSERT, "packet_replication_engine_entry", pre)


def _table_entry(p4info, table_name, action_name, fields, where):
    table = _by_name(p4info.tables, "%s.%s" % (CONTROL, table_name), "table", where)
    action = _by_name(p4info.actions, "%s.%s" % (CONTROL, action_name), "action", where)
    if action.preamble.id not in {r.id for r in table.action_refs}:
        raise EntryError("%s: table %s has no action %s" % (where, table_name, action_name))
    entry = p4runtime_pb2.TableEntry(table_id=table.preamble.id)
    known = set()
    for mf in table.match_fields:
        if mf.match_type != p4info_pb2.MatchField.EXACT:
            raise EntryError("%s: %s.%s is not an exact match" % (where, table_name, mf.name))
        if mf.name not in fields:
            raise EntryError("%s: missing field %s" % (where, mf.name))
        entry.match.add(field_id=mf.id).exact.value = value(fields[mf.name], mf.bitwidth, where + " " + mf.name)
        known.add(mf.name)
    entry.action.action.action_id = action.preamble.id
    for p in action.params:
        if p.name not in fields:
            raise EntryError("%s: missing field %s" % (where, p.name))
        entry.action.action.params.add(param_id=p.id, value=value(fields[p.name], p.bitwidth, where + " " + p.name))
        known.add(p.name)
    extra = sorted(set(fields) - known)
    if extra:
        raise EntryError("%s: no field %s" % (where, extra[0]))
    if not table.match_fields:   # a keyless table's one entry is its default action
        entry.is_default_action = True
        return _update(p4runtime_pb2.Update.MODIFY, "table_entry", entry)
    return _update(p4runtime_pb2.Update.INSERT, "table_entry", entry)


def updates(lines, p4info, source="entries"):
    """P4Runtime updates of entry lines (blank lines and # comments skipped); an error names the line."""
    out = []
    for n, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = "%s:%d" % (source, n)
        if len(words) < 2:
            raise EntryError("%s: TABLE ACTION FIELD=VALUE... is needed" % where)
        fields = _fields(words[2:], where)
        if words[0] == CLONE:
            if words[1] != "replica":
                raise EntryError("%s: a clone session line is 'clone_session replica id=N port=P'" % where)
            out.append(_clone_session(fields, where))
        else:
            out.append(_table_entry(p4info, words[0], words[1], fields, where))
    return out


class Controller:
    """The primary controller of one P4Runtime device: it pushes the gNB pipeline and writes updates."""

    def __init__(self, addr, device_id=1, election_id=1):
        self.device_id, self.election_id = device_id, election_id
        self.channel = grpc.insecure_channel(addr)
        grpc.channel_ready_future(self.channel).result(timeout=ARBITRATION_TIMEOUT_S)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self._requests = queue.Queue()
        self._stream = self.stub.StreamChannel(iter(self._requests.get, None))
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = device_id
        req.arbitration.election_id.low = election_id
        self._requests.put(req)
        reply = next(self._stream)
        if not reply.HasField("arbitration") or reply.arbitration.status.code != 0:
            raise EntryError("%s: not the primary controller (%s)" % (addr, reply))

    def set_pipeline(self, p4info, device_config):
        req = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=self.device_id,
            action=p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT)
        req.election_id.low = self.election_id
        req.config.p4info.CopyFrom(p4info)
        req.config.p4_device_config = device_config
        self.stub.SetForwardingPipelineConfig(req)

    def write(self, ups):
        req = p4runtime_pb2.WriteRequest(device_id=self.device_id)
        req.election_id.low = self.election_id
        req.updates.extend(ups)
        self.stub.Write(req)

    def read_counter(self, counter_id):
        """Every cell of one counter that counted something: {index: packets}."""
        req = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        req.entities.add().counter_entry.counter_id = counter_id
        return {e.counter_entry.index.index: e.counter_entry.data.packet_count
                for resp in self.stub.Read(req) for e in resp.entities if e.counter_entry.data.packet_count}

    def close(self):
        self._requests.put(None)
        self.channel.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grpc", required=True)
    ap.add_argument("--entries", required=True)
    ap.add_argument("--device-id", type=int, default=1)
    ap.add_argument("--p4info", default=os.path.join(P4C_OUT, "p4info.txt"))
    ap.add_argument("--bmv2-json", default=os.path.join(P4C_OUT, "bmv2.json"))
    args = ap.parse_args(argv)
    try:
        p4info = load_p4info(args.p4info)
        with open(args.entries) as f:
            ups = updates(f.read().splitlines(), p4info, args.entries)
        with open(args.bmv2_json, "rb") as f:
            device_config = f.read()
        ctl = Controller(args.grpc, args.device_id)
        try:
            ctl.set_pipeline(p4info, device_config)
            ctl.write(ups)
        finally:
            ctl.close()
    except (OSError, ValueError, grpc.RpcError, grpc.FutureTimeoutError) as e:
        print("p4rt_entries: %s" % e, file=sys.stderr)
        return 1
    print("p4rt_entries: pipeline pushed, %d updates written to %s" % (len(ups), args.grpc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
