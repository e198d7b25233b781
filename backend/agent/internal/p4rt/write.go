// The write path of the P4Runtime server: a WriteRequest's updates applied to the data plane in order,
// with one status per update.

package p4rt

import (
	"context"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/code"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

func (s *Server) Write(ctx context.Context, req *p4v1.WriteRequest) (*p4v1.WriteResponse, error) {
	if err := s.checkDevice(req.DeviceId); err != nil {
		return nil, grpcErr(err)
	}
	if err := s.arb.checkPrimary(req.ElectionId); err != nil {
		return nil, grpcErr(err)
	}
	if req.Atomicity != p4v1.WriteRequest_CONTINUE_ON_ERROR {
		return nil, status.Errorf(codes.Unimplemented, "atomicity %s not supported", req.Atomicity)
	}
	var batchErr error
	err := s.underWriteLock(func() error {
		ups, err := appendRawUpdates(s.ups[:0], req)
		defer func() {
			clear(ups) // the reused buffer must not keep the request alive
			s.ups = ups[:0]
		}()
		if err != nil {
			return errf(codes.InvalidArgument, "malformed updates: %v", err)
		}
		errs, final := s.applyBatch(ups, finalCountsWanted(ctx))
		s.sendFinalCounts(ctx, final)
		batchErr = batchStatus(errs)
		return nil
	})
	if err != nil {
		return nil, grpcErr(err)
	}
	return &p4v1.WriteResponse{}, batchErr
}

// underWriteLock runs fn with the pipeline in place and the write lock held, as every Write (gRPC or local,
// localwrite.go) is applied; without a pipeline it refuses with FAILED_PRECONDITION.
func (s *Server) underWriteLock(fn func() error) error {
	s.pipeMu.RLock()
	defer s.pipeMu.RUnlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pipe == nil {
		return errf(codes.FailedPrecondition, "no pipeline: SetForwardingPipelineConfig first")
	}
	return fn()
}

// applyBatch applies a Write's updates under the write lock: one error (or nil) per update, in a buffer the
// next batch reuses, and, when the client asked, the final counts of the terminations it deleted (a marshalled
// p4.v1.ReadResponse, nil if none).
func (s *Server) applyBatch(ups [][]byte, wantFinal bool) ([]error, []byte) {
	s.finalWanted, s.finalCells = wantFinal, s.finalCells[:0]
	errs := s.writeBatch(ups)
	final := s.finalCounts()
	s.finalWanted = false
	return errs, final
}

// writeBatch applies updates (each an encoded p4.v1.Update) in order and returns
// one error (or nil) per update, in a buffer the next batch reuses.
func (s *Server) writeBatch(ups [][]byte) []error {
	errs := s.errs[:0]
	dirty := s.dirty
	clear(dirty)
	for _, u := range ups {
		errs = append(errs, s.update(u, dirty))
	}
	s.errs = errs
	if len(dirty) > 0 {
		var apps, acl []*entry
		hw := map[string][]*entry{}
		p := s.pipe
		for id, ti := range p.tables {
			if !dirty[ti.spec.name] {
				continue
			}
			list := make([]*entry, 0, p.entries[id].len())
			p.entries[id].each(func(k string, v []byte) { list = append(list, p.schema.loadEntry(ti, k, v)) })
			switch ti.spec.name {
			case tApps:
				apps = list
			case tACL:
				acl = list
			default:
				hw[ti.spec.name] = list
			}
		}
		err := applyRuleSets(s.dp, apps, acl)
		for name, list := range hw {
			if err == nil {
				err = applyHWTable(s.dp, name, list)
			}
		}
		if err != nil {
			s.log.Error("rule set rebuild failed", "err", err)
			for i := range errs {
				if errs[i] == nil {
					errs[i] = dpStatus(err)
				}
			}
		}
	}
	s.dp.Commit()
	return errs
}

// okDetail is the p4.v1.Error of every update that succeeded.
var okDetail, _ = anypb.New(&p4v1.Error{CanonicalCode: int32(code.Code_OK)})

// batchStatus builds the Write error the spec asks for: code UNKNOWN and one
// p4.v1.Error per update, in order, OK for those that succeeded. An error repeated
// (the same *statusError, as a store returns for every INSERT of an entry that
// exists) is encoded once.
func batchStatus(errs []error) error {
	failed := false
	for _, e := range errs {
		failed = failed || e != nil
	}
	if !failed {
		return nil
	}
	st := &rpcstatus.Status{Code: int32(code.Code_UNKNOWN), Message: batchFailedMessage,
		Details: make([]*anypb.Any, len(errs))}
	encoded := map[error]*anypb.Any{}
	for i, e := range errs {
		if e == nil {
			st.Details[i] = okDetail
			continue
		}
		if a, ok := encoded[e]; ok {
			st.Details[i] = a
			continue
		}
		c, msg := updateStatus(e)
		a, _ := anypb.New(&p4v1.Error{CanonicalCode: int32(c), Message: msg})
		st.Details[i], encoded[e] = a, a
	}
	return status.ErrorProto(st)
}

// batchFailedMessage is the message of a Write some of whose updates failed.
const batchFailedMessage = "write failed for some updates"

// updateStatus is the canonical code and message a failed update (or a refused Write) is answered with.
func updateStatus(e error) (codes.Code, string) {
	if se, ok := e.(*statusError); ok {
		return se.code, se.msg
	}
	return codes.Unknown, e.Error()
}

func (s *Server) update(u []byte, dirty map[string]bool) error {
	typ, kind, ent, err := parseUpdate(u, &s.view, &s.cell)
	if err != nil {
		return errf(codes.InvalidArgument, "malformed update: %v", err)
	}
	op := Op(typ)
	if op < OpInsert || op > OpDelete {
		return errf(codes.InvalidArgument, "update type %v", typ)
	}
	switch {
	case kind == kindTable:
		return s.writeTable(op, &s.view, dirty)
	case kind == kindMeter:
		return s.writeMeter(op, &s.cell, nil)
	case kind == kindCounter:
		return s.writeCounter(op, &s.cell)
	case ent.GetTableEntry() != nil:
		viewOf(ent.GetTableEntry(), &s.view)
		return s.writeTable(op, &s.view, dirty)
	case ent.GetMeterEntry() != nil:
		meterViewOf(ent.GetMeterEntry(), &s.cell)
		return s.writeMeter(op, &s.cell, ent.GetMeterEntry().Config)
	case ent.GetCounterEntry() != nil:
		counterViewOf(ent.GetCounterEntry(), &s.cell)
		return s.writeCounter(op, &s.cell)
	case ent.GetPacketReplicationEngineEntry() != nil:
		return s.writeClone(op, ent.GetPacketReplicationEngineEntry())
	case ent.GetActionProfileMember() != nil && s.pipe.steer != nil:
		return s.pipe.steer.writeMember(s, op, ent.GetActionProfileMember())
	case ent.GetActionProfileGroup() != nil && s.pipe.steer != nil:
		return s.pipe.steer.writeGroup(s, op, ent.GetActionProfileGroup())
	}
	return errf(codes.Unimplemented, "entity kind not supported by the backend")
}

func (s *Server) writeTable(op Op, v *tableView, dirty map[string]bool) error {
	p := s.pipe
	ti := p.tables[v.tableID]
	if ti == nil {
		return errf(codes.NotFound, "unknown table id %d", v.tableID)
	}
	if v.isDefault {
		return s.writeDefault(op, ti, v)
	}
	if len(ti.spec.fields) == 0 {
		return errf(codes.InvalidArgument, "table %s has only a default action", ti.spec.name)
	}
	e := &s.scratch
	if err := decodeMatch(ti, v, e); err != nil {
		return err
	}
	if ti.spec.name == tBackends {
		return p.steer.writeEntry(s, op, v, e)
	}
	store := p.entries[v.tableID]
	if err := store.check(op, e.key, p.capacity[v.tableID], ti.spec.name); err != nil {
		return err
	}
	if op != OpDelete {
		if !v.hasAction {
			return errf(codes.InvalidArgument, "table %s: entry without action", ti.spec.name)
		}
		var err error
		if e.action, e.params, err = p.schema.decodeAction(ti, v, false, e.params); err != nil {
			return err
		}
	}
	if ti.ternary || ti.spec.name == tDecision { // pushed whole at the end of the batch
		dirty[ti.spec.name] = true
	} else {
		if op == OpDelete {
			s.noteDeletedCell(ti, store, e.key)
		}
		if err := dpStatus(applyExact(s.dp, op, e)); err != nil {
			return err
		}
	}
	if op == OpDelete {
		store.del(e.key)
	} else {
		store.put(e.key, p.schema.actions[e.action], e.params)
	}
	return nil
}

// writeDefault: only gtpu_encap has a mutable default action (the choice of
// encapsulation); every other default is const in the P4. A MODIFY without an
// action resets the default to the P4 program's (P4Runtime spec 9.1.2): for
// gtpu_encap that is gtpu_only, for a const default it changes nothing.
func (s *Server) writeDefault(op Op, ti *tableInfo, v *tableView) error {
	if op != OpModify {
		return errf(codes.InvalidArgument, "a default entry can only be modified")
	}
	if len(v.matches) > 0 {
		return errf(codes.InvalidArgument, "default entry of table %s: no match fields allowed", ti.spec.name)
	}
	if ti.spec.name == tHHConfig || ti.spec.name == tClsConfig {
		return s.writeHWConfig(ti, v)
	}
	if ti.spec.name == tRPSConfig {
		return s.writeRPSConfig(ti, v)
	}
	if !v.hasAction && ti.spec.name != tEncap {
		return nil
	}
	if ti.spec.name != tEncap {
		return errf(codes.PermissionDenied, "table %s has a const default action", ti.spec.name)
	}
	name := aGtpuOnly
	if v.hasAction {
		var err error
		if name, _, err = s.pipe.schema.decodeAction(ti, v, true, nil); err != nil {
			return err
		}
	}
	psc := name == aGtpuWithPsc
	if err := dpStatus(s.dp.SetEncapPSC(psc)); err != nil {
		return err
	}
	s.pipe.encapPSC = psc
	return nil
}

// writeMeter configures a meter cell from c; parsed is the config when the update
// was unmarshalled (kept as is for Read, with any field the view does not hold).
func (s *Server) writeMeter(op Op, c *cellView, parsed *p4v1.MeterConfig) error {
	p := s.pipe
	which, ok := p.mtrWhich[c.id]
	if !ok {
		return errf(codes.NotFound, "unknown meter id %d", c.id)
	}
	if op != OpModify || !c.hasIndex {
		return errf(codes.InvalidArgument, "meter cells are modified one index at a time")
	}
	idx := c.index
	if idx < 0 || idx >= p.schema.mtrByID[c.id].Size {
		return errf(codes.InvalidArgument, "meter index %d out of range", idx)
	}
	var cfg *MeterCfg
	if c.hasData {
		cir, cburst, pir, pburst := c.data[0], c.data[1], c.data[2], c.data[3]
		if cir < 0 || pir < 0 || cburst < 0 || pburst < 0 {
			return errf(codes.InvalidArgument, "negative meter rate or burst")
		}
		s.meterCfg = MeterCfg{uint64(cir), uint64(cburst), uint64(pir), uint64(pburst)}
		cfg = &s.meterCfg
	}
	if err := dpStatus(s.dp.SetMeter(which, uint32(idx), cfg)); err != nil {
		return err
	}
	cells := p.meters[c.id]
	switch kept := cells[idx]; {
	case cfg == nil:
		delete(cells, idx)
	case parsed != nil:
		cells[idx] = proto.Clone(parsed).(*p4v1.MeterConfig)
	case kept != nil: // Read copies what it returns: the cell's config can change in place
		kept.Reset()
		kept.Cir, kept.Cburst, kept.Pir, kept.Pburst = c.data[0], c.data[1], c.data[2], c.data[3]
	default:
		cells[idx] = &p4v1.MeterConfig{Cir: c.data[0], Cburst: c.data[1], Pir: c.data[2], Pburst: c.data[3]}
	}
	return nil
}

func (s *Server) writeCounter(op Op, c *cellView) error {
	which, ok := s.pipe.ctrWhich[c.id]
	point, rps := s.pipe.rpsEventsPoint(c.id)
	if !ok && !rps {
		return errf(codes.InvalidArgument, "counter id %d cannot be written", c.id)
	}
	if op != OpModify || !c.hasIndex || c.index < 0 {
		return errf(codes.InvalidArgument, "counter cells are modified one index at a time")
	}
	by, pk := c.data[0], c.data[1] // zero without data
	if rps {
		return s.writeRPSEvents(c.id, point, c.index, uint64(pk))
	}
	return dpStatus(s.dp.WriteCounter(which, uint32(c.index), uint64(pk), uint64(by)))
}

// Clone sessions are kept for Read: the backend sends every CPU copy to the
// primary's stream, which is what the contract's clone session 511 does.
func (s *Server) writeClone(op Op, pre *p4v1.PacketReplicationEngineEntry) error {
	cs := pre.GetCloneSessionEntry()
	if cs == nil {
		return errf(codes.Unimplemented, "only clone sessions are supported")
	}
	_, have := s.pipe.clones[cs.SessionId]
	switch {
	case op == OpInsert && have:
		return errf(codes.AlreadyExists, "clone session %d exists", cs.SessionId)
	case op != OpInsert && !have:
		return errf(codes.NotFound, "no clone session %d", cs.SessionId)
	case op == OpDelete:
		delete(s.pipe.clones, cs.SessionId)
	default:
		s.pipe.clones[cs.SessionId] = proto.Clone(cs).(*p4v1.CloneSessionEntry)
	}
	return nil
}
