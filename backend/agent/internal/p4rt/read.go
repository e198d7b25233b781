package p4rt

import (
	"sort"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

const readChunk = 1000 // entities per ReadResponse

func (s *Server) Read(req *p4v1.ReadRequest, srv p4v1.P4Runtime_ReadServer) error {
	if err := s.checkDevice(req.DeviceId); err != nil {
		return grpcErr(err)
	}
	// Counters alone need only the pipeline to stay; anything else also excludes writes.
	s.pipeMu.RLock()
	countersOnly := true
	for _, ent := range req.Entities {
		countersOnly = countersOnly && (ent.GetCounterEntry() != nil || isCounterChanges(ent))
	}
	if !countersOnly {
		s.mu.Lock()
	}
	var out []*p4v1.Entity
	var err error
	if s.pipe == nil {
		err = errf(codes.FailedPrecondition, "no pipeline")
	}
	var slab cellSlab // the answer's counter cells, allocated together
	for k, ent := range req.Entities {
		if err != nil {
			break
		}
		out, err = s.readEntity(ent, out, &slab, int64(len(req.Entities)-k))
	}
	if !countersOnly {
		s.mu.Unlock()
	}
	s.pipeMu.RUnlock()
	if err != nil {
		return grpcErr(err)
	}
	for len(out) > 0 {
		n := min(len(out), readChunk)
		if err := srv.Send(&p4v1.ReadResponse{Entities: out[:n]}); err != nil {
			return err
		}
		out = out[n:]
	}
	return nil
}

// readEntity appends ent's answer to out; rest is the number of the request's entities from ent on (what the
// counter cells' slab is sized by: a request of index reads gets one allocation for all its cells).
func (s *Server) readEntity(ent *p4v1.Entity, out []*p4v1.Entity, slab *cellSlab, rest int64) ([]*p4v1.Entity, error) {
	switch {
	case ent.GetTableEntry() != nil:
		return s.readTables(ent.GetTableEntry(), out)
	case ent.GetCounterEntry() != nil:
		return s.readCounters(ent.GetCounterEntry(), out, slab, rest)
	case isCounterChanges(ent):
		return s.readCounterChanges(ent.GetExternEntry(), out)
	case ent.GetMeterEntry() != nil:
		return s.readMeters(ent.GetMeterEntry(), out)
	case ent.GetPacketReplicationEngineEntry() != nil:
		for _, cs := range s.pipe.clones {
			out = append(out, &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{
				PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
					Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: cs}}}})
		}
		return out, nil
	case ent.GetActionProfileMember() != nil && s.pipe.steer != nil:
		return s.pipe.steer.readMembers(s, ent.GetActionProfileMember(), out), nil
	case ent.GetActionProfileGroup() != nil && s.pipe.steer != nil:
		return s.pipe.steer.readGroups(ent.GetActionProfileGroup(), out), nil
	}
	return out, errf(codes.Unimplemented, "entity kind not readable on the backend")
}

func tableEntity(te *p4v1.TableEntry) *p4v1.Entity {
	return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}
}

// readTables: table id 0 reads every table; no match reads every entry.
func (s *Server) readTables(q *p4v1.TableEntry, out []*p4v1.Entity) ([]*p4v1.Entity, error) {
	p := s.pipe
	ids := []uint32{q.TableId}
	if q.TableId == 0 {
		ids = ids[:0]
		for id := range p.tables {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	}
	for _, id := range ids {
		ti := p.tables[id]
		if ti == nil {
			return out, errf(codes.NotFound, "unknown table id %d", id)
		}
		if q.IsDefaultAction {
			if de := s.defaultEntry(ti); de != nil {
				out = append(out, tableEntity(de))
			}
			continue
		}
		if ti.spec.name == tBackends {
			var err error
			if out, err = p.steer.readBackends(ti, q, out); err != nil {
				return out, err
			}
			continue
		}
		if len(q.Match) > 0 {
			e, err := decodeMatchOf(ti, q)
			if err != nil {
				return out, err
			}
			if v, ok := p.entries[id].get(e.key); ok {
				out = append(out, tableEntity(p.schema.tableEntry(p.schema.loadEntry(ti, e.key, v))))
			}
			continue
		}
		var es []*entry
		p.entries[id].each(func(k string, v []byte) { es = append(es, p.schema.loadEntry(ti, k, v)) })
		sort.Slice(es, func(i, j int) bool { return es[i].key < es[j].key })
		for _, e := range es {
			out = append(out, tableEntity(p.schema.tableEntry(e)))
		}
	}
	return out, nil
}

// defaultEntry is gtpu_encap's current default, or a table's const default action
// as the P4Info names it. The P4Info carries no default params: every const
// default of the sw profile has none or all-zero ones (set_app_id(0), set_queue(0)).
func (s *Server) defaultEntry(ti *tableInfo) *p4v1.TableEntry {
	if ti.spec.name == tHHConfig || ti.spec.name == tClsConfig {
		return s.hwConfigEntry(ti)
	}
	if ti.spec.name == tRPSConfig {
		return s.rpsConfigEntry(ti)
	}
	id := ti.t.ConstDefaultActionId
	if ti.spec.name == tEncap {
		name := aGtpuOnly
		if s.pipe.encapPSC {
			name = aGtpuWithPsc
		}
		id = s.pipe.schema.actions[name].Preamble.Id
	}
	a := s.pipe.schema.actByID[id]
	if a == nil {
		return nil
	}
	act := &p4v1.Action{ActionId: id}
	for _, p := range a.Params {
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: p.Id, Value: []byte{0}})
	}
	return &p4v1.TableEntry{TableId: ti.t.Preamble.Id, IsDefaultAction: true,
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}}
}

// readCounters: counter id 0 reads all counters; no index reads every cell.
func (s *Server) readCounters(q *p4v1.CounterEntry, out []*p4v1.Entity, slab *cellSlab, rest int64) ([]*p4v1.Entity, error) {
	p := s.pipe
	ids := []uint32{q.CounterId}
	if q.CounterId == 0 {
		ids = []uint32{p.schema.counters[cPreQos].Preamble.Id, p.schema.counters[cPostQos].Preamble.Id, p.dropsID,
			p.schema.counters[cTenant].Preamble.Id, p.schema.counters[cSlice].Preamble.Id}
		if p.rps != nil {
			ids = append(ids, p.schema.counters[cRPSInEvents].Preamble.Id, p.schema.counters[cRPSOutEvents].Preamble.Id)
		}
	}
	for _, id := range ids {
		c := p.schema.ctrByID[id]
		if c == nil {
			return out, errf(codes.NotFound, "unknown counter id %d", id)
		}
		lo, hi := int64(0), c.Size
		cells := max(c.Size, p.ctrCells[id])
		if q.Index != nil {
			if q.Index.Index < 0 || q.Index.Index >= cells {
				return out, errf(codes.InvalidArgument, "counter %s index %d out of range", c.Preamble.Name, q.Index.Index)
			}
			lo, hi = q.Index.Index, q.Index.Index+1
		}
		for i := lo; i < hi; i++ {
			var pk, by uint64
			var err error
			if point, rps := p.rpsEventsPoint(id); rps {
				pk, err = s.readRPSEvents(point, i)
			} else if id == p.dropsID {
				pk, err = s.dp.ReadDrops(uint32(i))
			} else {
				pk, by, err = s.dp.ReadCounter(p.ctrWhich[id], uint32(i))
			}
			if err != nil {
				return out, dpStatus(err)
			}
			out = append(out, slab.entity(max(hi-i, rest), id, i, pk, by))
		}
	}
	return out, nil
}

// readMeters: meter id 0 reads every meter; no index reads the configured cells.
func (s *Server) readMeters(q *p4v1.MeterEntry, out []*p4v1.Entity) ([]*p4v1.Entity, error) {
	p := s.pipe
	ids := []uint32{q.MeterId}
	if q.MeterId == 0 {
		ids = []uint32{p.schema.meters[mSessionMeter].Preamble.Id, p.schema.meters[mAppMeter].Preamble.Id,
			p.schema.meters[mTenant].Preamble.Id, p.schema.meters[mSlice].Preamble.Id}
	}
	for _, id := range ids {
		cells, ok := p.meters[id]
		if !ok {
			return out, errf(codes.NotFound, "unknown meter id %d", id)
		}
		var idx []int64
		if q.Index != nil {
			idx = []int64{q.Index.Index}
		} else {
			for i := range cells {
				idx = append(idx, i)
			}
			sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
		}
		for _, i := range idx {
			me := &p4v1.MeterEntry{MeterId: id, Index: &p4v1.Index{Index: i}}
			if c := cells[i]; c != nil {
				me.Config = proto.Clone(c).(*p4v1.MeterConfig)
			}
			out = append(out, &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: me}})
		}
	}
	return out, nil
}
