"""A small P4Runtime client for the hupf tests: entities are written by P4Info name.

Values are encoded at the full width of the P4Info field (accepted by every P4Runtime
server); match values are given per match kind:
  exact: int | lpm: (int, prefix_len) | ternary: (int, mask) | range: (lo, hi) | optional: int
"""
import queue
import threading

import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from google.rpc import code_pb2, status_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc


class P4RuntimeError(Exception):
    pass


def update_errors(rpc_error):
    """' [CODE: message, ...]' of the failed updates of a batch (P4Runtime spec: a Write error carries one
    p4.v1.Error per update in its status details), or '' when it has none."""
    failed = []
    for key, value in rpc_error.trailing_metadata() or ():
        if key != "grpc-status-details-bin":
            continue
        for detail in status_pb2.Status.FromString(value).details:
            err = p4runtime_pb2.Error()
            if detail.Unpack(err) and err.canonical_code != code_pb2.OK:
                failed.append("%s: %s" % (code_pb2.Code.Name(err.canonical_code), err.message))
    return " [%s]" % ", ".join(failed) if failed else ""


def encode(value, bitwidth):
    if value < 0 or value >= 1 << bitwidth:
        raise ValueError("value %d does not fit in %d bits" % (value, bitwidth))
    return value.to_bytes((bitwidth + 7) // 8, "big")


def decode(data):
    return int.from_bytes(data, "big")


class P4Info:
    """Name -> object lookups over a P4Info message."""

    def __init__(self, p4info):
        self.msg = p4info
        self._by_name = {}
        for kind in ("tables", "actions", "counters", "meters", "registers", "action_profiles",
                     "controller_packet_metadata"):
            for obj in getattr(p4info, kind):
                self._by_name[(kind, obj.preamble.name)] = obj

    @classmethod
    def from_text_file(cls, path):
        msg = p4info_pb2.P4Info()
        with open(path) as f:
            text_format.Merge(f.read(), msg)
        return cls(msg)

    def get(self, kind, name):
        try:
            return self._by_name[(kind, name)]
        except KeyError:
            raise P4RuntimeError("no %s named %r in the P4Info" % (kind[:-1], name)) from None

    def has(self, kind, name):
        return (kind, name) in self._by_name

    def id(self, kind, name):
        return self.get(kind, name).preamble.id


class Client:
    def __init__(self, addr, device_id=1, election_id=1, timeout=10):
        self.device_id = device_id
        self.election_id = election_id
        self.channel = grpc.insecure_channel(addr)
        grpc.channel_ready_future(self.channel).result(timeout=timeout)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.p4info = None
        self.packet_ins = queue.Queue()
        self._requests = queue.Queue()
        self._arbitration = queue.Queue()
        self._stream = self.stub.StreamChannel(iter(self._requests.get, None))
        self._reader = threading.Thread(target=self._read_stream, daemon=True)
        self._reader.start()
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = device_id
        req.arbitration.election_id.low = election_id
        self._requests.put(req)
        try:
            arb = self._arbitration.get(timeout=timeout)
        except queue.Empty:
            raise P4RuntimeError("no arbitration response from %s" % addr) from None
        if arb.status.code != 0:
            raise P4RuntimeError("not primary on %s: %s" % (addr, arb.status.message))

    def _read_stream(self):
        try:
            for msg in self._stream:
                if msg.HasField("arbitration"):
                    self._arbitration.put(msg.arbitration)
                elif msg.HasField("packet"):
                    self.packet_ins.put(msg.packet)
        except grpc.RpcError:
            pass  # the stream ends when the client or the target goes away

    def close(self):
        self._requests.put(None)
        self.channel.close()

    def _election(self, msg):
        msg.device_id = self.device_id
        msg.election_id.low = self.election_id

    # -- pipeline -----------------------------------------------------------------------
    def set_pipeline(self, p4info_path, device_config_path=None):
        self.p4info = P4Info.from_text_file(p4info_path)
        req = p4runtime_pb2.SetForwardingPipelineConfigRequest()
        self._election(req)
        req.action = p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT
        req.config.p4info.CopyFrom(self.p4info.msg)
        if device_config_path:
            with open(device_config_path, "rb") as f:
                req.config.p4_device_config = f.read()
        try:
            self.stub.SetForwardingPipelineConfig(req)
        except grpc.RpcError as e:
            raise P4RuntimeError("SetForwardingPipelineConfig: %s" % e.details()) from None

    # -- building entities --------------------------------------------------------------
    def action(self, name, **params):
        info = self.p4info.get("actions", name)
        act = p4runtime_pb2.Action(action_id=info.preamble.id)
        known = {p.name: p for p in info.params}
        unknown = set(params) - set(known)
        if unknown:
            raise P4RuntimeError("action %s has no params %s" % (name, sorted(unknown)))
        for pname, p in known.items():
            if pname not in params:
                raise P4RuntimeError("action %s: param %s missing" % (name, pname))
            act.params.add(param_id=p.id, value=encode(params[pname], p.bitwidth))
        return act

    def table_entry(self, table, match=None, action=None, params=None, priority=0,
                    default=False, member_id=None, group_id=None):
        info = self.p4info.get("tables", table)
        entry = p4runtime_pb2.TableEntry(table_id=info.preamble.id, priority=priority)
        fields = {mf.name: mf for mf in info.match_fields}
        for fname, value in (match or {}).items():
            if fname not in fields:
                raise P4RuntimeError("table %s has no match field %s" % (table, fname))
            mf = fields[fname]
            fm = entry.match.add(field_id=mf.id)
            kind = p4info_pb2.MatchField.MatchType.Name(mf.match_type)
            if kind == "EXACT":
                fm.exact.value = encode(value, mf.bitwidth)
            elif kind == "LPM":
                fm.lpm.value = encode(value[0], mf.bitwidth)
                fm.lpm.prefix_len = value[1]
            elif kind == "TERNARY":
                fm.ternary.value = encode(value[0] & value[1], mf.bitwidth)
                fm.ternary.mask = encode(value[1], mf.bitwidth)
            elif kind == "RANGE":
                fm.range.low = encode(value[0], mf.bitwidth)
                fm.range.high = encode(value[1], mf.bitwidth)
            elif kind == "OPTIONAL":
                fm.optional.value = encode(value, mf.bitwidth)
            else:
                raise P4RuntimeError("match kind %s not supported" % kind)
        if default:
            entry.is_default_action = True
        if action is not None:
            entry.action.action.CopyFrom(self.action(action, **(params or {})))
        elif member_id is not None:
            entry.action.action_profile_member_id = member_id
        elif group_id is not None:
            entry.action.action_profile_group_id = group_id
        return entry

    # -- writing ------------------------------------------------------------------------
    def write(self, *updates):
        req = p4runtime_pb2.WriteRequest()
        self._election(req)
        req.updates.extend(updates)
        try:
            self.stub.Write(req)
        except grpc.RpcError as e:
            raise P4RuntimeError("Write: %s %s%s" % (e.code().name, e.details(), update_errors(e))) from None

    def write_each(self, *updates):
        """Each update's outcome, its canonical code's name in order ("OK" for all when the Write succeeded; the
        P4Runtime spec's per-update p4.v1.Error details otherwise)."""
        req = p4runtime_pb2.WriteRequest()
        self._election(req)
        req.updates.extend(updates)
        try:
            self.stub.Write(req)
            return ["OK"] * len(updates)
        except grpc.RpcError as e:
            codes = []
            for key, value in e.trailing_metadata() or ():
                if key == "grpc-status-details-bin":
                    for detail in status_pb2.Status.FromString(value).details:
                        err = p4runtime_pb2.Error()
                        if detail.Unpack(err):
                            codes.append(code_pb2.Code.Name(err.canonical_code))
            if len(codes) != len(updates):
                raise P4RuntimeError("Write: %s %s, %d details for %d updates" % (
                    e.code().name, e.details(), len(codes), len(updates))) from None
            return codes

    @staticmethod
    def update(kind, entity_field, msg):
        up = p4runtime_pb2.Update(type=p4runtime_pb2.Update.Type.Value(kind))
        getattr(up.entity, entity_field).CopyFrom(msg)
        return up

    def insert(self, table, match, action, priority=0, **params):
        self.write(self.update("INSERT", "table_entry",
                               self.table_entry(table, match, action, params, priority)))

    def set_default(self, table, action, **params):
        self.write(self.update("MODIFY", "table_entry",
                               self.table_entry(table, None, action, params, default=True)))

    def insert_member(self, profile, member_id, action, **params):
        m = p4runtime_pb2.ActionProfileMember(
            action_profile_id=self.p4info.id("action_profiles", profile), member_id=member_id)
        m.action.CopyFrom(self.action(action, **params))
        self.write(self.update("INSERT", "action_profile_member", m))

    def write_group(self, profile, group_id, member_ids, kind="INSERT", max_size=16):
        g = p4runtime_pb2.ActionProfileGroup(
            action_profile_id=self.p4info.id("action_profiles", profile), group_id=group_id,
            max_size=max_size)
        for mid in member_ids:
            g.members.add(member_id=mid, weight=1)
        self.write(self.update(kind, "action_profile_group", g))

    def insert_group_entry(self, table, match, group_id):
        self.write(self.update("INSERT", "table_entry",
                               self.table_entry(table, match, group_id=group_id)))

    def clone_session(self, session_id, port, kind="INSERT"):
        pre = p4runtime_pb2.PacketReplicationEngineEntry()
        pre.clone_session_entry.session_id = session_id
        pre.clone_session_entry.replicas.add(egress_port=port, instance=1)
        self.write(self.update(kind, "packet_replication_engine_entry", pre))

    def set_meter(self, meter, index, cir, cburst, pir, pburst):
        me = p4runtime_pb2.MeterEntry(meter_id=self.p4info.id("meters", meter))
        me.index.index = index
        me.config.cir, me.config.cburst, me.config.pir, me.config.pburst = cir, cburst, pir, pburst
        self.write(self.update("MODIFY", "meter_entry", me))

    # -- reading ------------------------------------------------------------------------
    def read(self, entity):
        req = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        req.entities.add().CopyFrom(entity)
        try:
            return [e for resp in self.stub.Read(req) for e in resp.entities]
        except grpc.RpcError as e:
            raise P4RuntimeError("Read: %s %s" % (e.code().name, e.details())) from None

    def counter(self, name, index):
        """(packets, bytes) of one indexed counter cell."""
        ent = p4runtime_pb2.Entity()
        ent.counter_entry.counter_id = self.p4info.id("counters", name)
        ent.counter_entry.index.index = index
        res = self.read(ent)
        data = res[0].counter_entry.data
        return data.packet_count, data.byte_count

    # -- packet I/O ---------------------------------------------------------------------
    def _packet_metadata(self, kind):
        return {m.name: m for m in self.p4info.get("controller_packet_metadata", kind).metadata}

    def packet_out(self, payload, **metadata):
        fields = self._packet_metadata("packet_out")
        req = p4runtime_pb2.StreamMessageRequest()
        req.packet.payload = bytes(payload)
        for name, md in fields.items():
            req.packet.metadata.add(metadata_id=md.id, value=encode(metadata.get(name, 0), md.bitwidth))
        self._requests.put(req)

    def packet_in(self, timeout=2.0):
        """(payload, {metadata name: int}) of the next packet-in, or None."""
        try:
            pkt = self.packet_ins.get(timeout=timeout)
        except queue.Empty:
            return None
        by_id = {m.id: m.name for m in self._packet_metadata("packet_in").values()}
        return pkt.payload, {by_id[m.metadata_id]: decode(m.value) for m in pkt.metadata}

    def packet_ins_until_quiet(self, timeout):
        """[(payload, metadata)] of every packet-in until none comes for `timeout` seconds."""
        out = []
        while (got := self.packet_in(timeout)) is not None:
            out.append(got)
        return out

    def drain_packet_ins(self):
        while not self.packet_ins.empty():
            self.packet_ins.get_nowait()
