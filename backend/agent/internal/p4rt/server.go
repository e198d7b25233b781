package p4rt

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/code"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

// APIVersion is the P4Runtime version of the Go bindings this server is built on.
const APIVersion = "1.4.1"

// Config holds what the command line can override.
type Config struct {
	DeviceID    uint64
	Sessions    uint32 // 0: session and termination capacities from the P4Info sizes
	MeterStates uint32 // meters configured at once
	Profile     string // "sw" (default) or "hw": the P4Info SetForwardingPipelineConfig accepts
	CPUPort     uint32 // the ingress_port of state-read packet-ins (bmv2's --cpu-port)
}

// pipeState is everything a SetForwardingPipelineConfig replaces.
type pipeState struct {
	schema   *Schema
	cfg      *p4v1.ForwardingPipelineConfig
	tables   map[uint32]*tableInfo
	entries  map[uint32]entryStore // table id -> storeKey -> storeValue
	capacity map[uint32]uint32
	encapPSC bool
	meters   map[uint32]map[int64]*p4v1.MeterConfig
	clones   map[uint32]*p4v1.CloneSessionEntry
	ctrWhich map[uint32]int
	ctrCells map[uint32]int64 // counter id -> the data plane's cells
	mtrWhich map[uint32]int
	dropsID  uint32
	steer    *steering  // hw profile only
	hh       *HHParams  // hw profile only: hh_config's action
	cls      *ClsParams // hw profile only: cls_config's action
	rps      *RPSParams // hw profile only: rps.config's action
	changes  counterShadows
}

// Server implements the P4Runtime service over a Dataplane. Writes, and reads of
// what writes change (entries, meters, clone sessions), are serialised by mu: the
// data plane has a single writer. Counter cells are atomic in the data plane and
// are read under pipeMu's read lock only, so a bulk counter read never holds up a
// Write; a pipeline change takes pipeMu's write lock (and mu), as it replaces the
// data plane's counters with the rest.
type Server struct {
	p4v1.UnimplementedP4RuntimeServer
	cfg    Config
	dp     Dataplane
	log    *slog.Logger
	pipeMu sync.RWMutex
	mu     sync.Mutex
	pipe   *pipeState
	saved  *p4v1.ForwardingPipelineConfig
	arb    arbiter
	// Reused by every write (writes hold mu): no allocation per update or batch.
	view     tableView
	cell     cellView
	scratch  entry
	meterCfg MeterCfg
	ups      [][]byte
	errs     []error
	dirty    map[string]bool
}

func NewServer(cfg Config, dp Dataplane, log *slog.Logger) *Server {
	s := &Server{cfg: cfg, dp: dp, log: log, dirty: map[string]bool{}}
	s.arb.streams = map[*stream]bool{}
	return s
}

func grpcErr(err error) error {
	if se, ok := err.(*statusError); ok {
		return status.Error(se.code, se.msg)
	}
	return err
}

func (s *Server) checkDevice(id uint64) error {
	if id != s.cfg.DeviceID {
		return errf(codes.NotFound, "unknown device id %d (this is %d)", id, s.cfg.DeviceID)
	}
	return nil
}

func (s *Server) Capabilities(context.Context, *p4v1.CapabilitiesRequest) (*p4v1.CapabilitiesResponse, error) {
	return &p4v1.CapabilitiesResponse{P4RuntimeApiVersion: APIVersion}, nil
}

func (s *Server) sizes(sc *Schema) Sizes {
	meterSize := func(n string) uint32 { return uint32(sc.meters[n].Size) }
	ctrSize := func(n string) uint32 { return uint32(sc.counters[n].Size) }
	sz := Sizes{
		Interfaces: sc.TableSize(tInterfaces), ULSessions: sc.TableSize(tULSess), DLSessions: sc.TableSize(tDLSess),
		Applications: sc.TableSize(tApps), ULTerms: sc.TableSize(tULTerm), DLTerms: sc.TableSize(tDLTerm),
		Routes: sc.TableSize(tRoutes), ACL: sc.TableSize(tACL), PreQosCtr: ctrSize(cPreQos),
		PostQosCtr: ctrSize(cPostQos), SessionMeter: meterSize(mSessionMeter), AppMeter: meterSize(mAppMeter),
		MeterStates: s.cfg.MeterStates, HW: sc.HW(), HHSlots: sc.registerSize(rHHFlowID),
		ClsSlots: sc.registerSize(rClsFlowClass), Tenants: sc.TableSize(tTenants),
		TenantCells: min(ctrSize(cTenant), meterSize(mTenant)), Slices: sc.TableSize(tSlices),
		SliceCells: min(ctrSize(cSlice), meterSize(mSlice)),
	}
	if sz.HW {
		sz.RPSBuffer, sz.RPSFlows, sz.RPSFlowEntries = sc.rpsBuffer(), sc.rpsFlows(), sc.TableSize(tRPSFlows)
		sz.RPSTrackDepth, _ = sc.rpsTrackDepth() // checked when the schema was made
	}
	if n := s.cfg.Sessions; n > 0 {
		sz.ULSessions, sz.DLSessions, sz.ULTerms, sz.DLTerms = n, n, n, n
	}
	// Every termination can have its own counter cells whatever the P4Info's counter
	// size: past it, cells are read by index (a wildcard read covers the P4Info's cells).
	if t := sz.ULTerms + sz.DLTerms; t > sz.PreQosCtr || t > sz.PostQosCtr {
		sz.PreQosCtr, sz.PostQosCtr = max(sz.PreQosCtr, t), max(sz.PostQosCtr, t)
	}
	if sz.MeterStates == 0 {
		// A state per meter cell that can be configured at once: with --sessions, at most one session
		// meter per session and direction (the P4Info's 2M cells would cost ~170 MB of states).
		sessionMeters := sz.SessionMeter
		if n := s.cfg.Sessions; n > 0 && 2*uint64(n) < uint64(sessionMeters) {
			sessionMeters = 2 * n
		}
		sz.MeterStates = sessionMeters + sz.AppMeter + sz.TenantCells + sz.SliceCells
	}
	return sz
}

func (s *Server) SetForwardingPipelineConfig(ctx context.Context, req *p4v1.SetForwardingPipelineConfigRequest) (*p4v1.SetForwardingPipelineConfigResponse, error) {
	if err := s.checkDevice(req.DeviceId); err != nil {
		return nil, grpcErr(err)
	}
	if err := s.arb.checkPrimary(req.ElectionId); err != nil {
		return nil, grpcErr(err)
	}
	s.pipeMu.Lock()
	defer s.pipeMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	cfg := req.Config
	A := p4v1.SetForwardingPipelineConfigRequest_Action_name
	switch req.Action {
	case p4v1.SetForwardingPipelineConfigRequest_COMMIT:
		if s.saved == nil {
			return nil, status.Error(codes.FailedPrecondition, "COMMIT without a saved config (VERIFY_AND_SAVE first)")
		}
		cfg = s.saved
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE,
		p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT:
	default:
		return nil, status.Errorf(codes.Unimplemented, "action %s not supported", A[int32(req.Action)])
	}
	if cfg == nil {
		return nil, status.Error(codes.InvalidArgument, "no config")
	}
	sc, err := NewProfileSchema(cfg.P4Info, s.profile())
	if err != nil {
		s.log.Warn("pipeline refused", "err", err)
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	switch req.Action {
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY:
		return &p4v1.SetForwardingPipelineConfigResponse{}, nil
	case p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE:
		s.saved = proto.Clone(cfg).(*p4v1.ForwardingPipelineConfig)
		return &p4v1.SetForwardingPipelineConfigResponse{}, nil
	}
	sz := s.sizes(sc)
	if err := s.dp.SetPipeline(sz); err != nil {
		return nil, status.Errorf(codes.ResourceExhausted, "data plane cannot allocate the pipeline: %v", err)
	}
	s.pipe = newPipeState(sc, proto.Clone(cfg).(*p4v1.ForwardingPipelineConfig), sz, s.dp)
	s.saved = nil
	s.log.Info("pipeline committed", "tables", len(sc.Info.Tables), "sizes", fmt.Sprintf("%+v", sz))
	return &p4v1.SetForwardingPipelineConfigResponse{}, nil
}

func newPipeState(sc *Schema, cfg *p4v1.ForwardingPipelineConfig, sz Sizes, dp Dataplane) *pipeState {
	p := &pipeState{schema: sc, cfg: cfg, tables: sc.tableInfos(), entries: map[uint32]entryStore{},
		meters: map[uint32]map[int64]*p4v1.MeterConfig{}, clones: map[uint32]*p4v1.CloneSessionEntry{},
		ctrWhich: map[uint32]int{sc.counters[cPreQos].Preamble.Id: CtrPreQos, sc.counters[cPostQos].Preamble.Id: CtrPostQos,
			sc.counters[cTenant].Preamble.Id: CtrTenant, sc.counters[cSlice].Preamble.Id: CtrSlice},
		mtrWhich: map[uint32]int{sc.meters[mSessionMeter].Preamble.Id: MeterSess, sc.meters[mAppMeter].Preamble.Id: MeterApp,
			sc.meters[mTenant].Preamble.Id: MeterTenant, sc.meters[mSlice].Preamble.Id: MeterSlice},
		ctrCells: map[uint32]int64{sc.counters[cPreQos].Preamble.Id: int64(sz.PreQosCtr), sc.counters[cPostQos].Preamble.Id: int64(sz.PostQosCtr),
			sc.counters[cTenant].Preamble.Id: int64(sz.TenantCells), sc.counters[cSlice].Preamble.Id: int64(sz.SliceCells)},
		dropsID: sc.counters[cDropReasons].Preamble.Id}
	// What the data plane allocated, which --sessions may have changed from the P4Info.
	override := map[string]uint32{tULSess: sz.ULSessions, tDLSess: sz.DLSessions, tULTerm: sz.ULTerms, tDLTerm: sz.DLTerms}
	p.capacity = map[uint32]uint32{}
	for id, ti := range p.tables {
		if et, ok := exactTables[ti.spec.name]; ok {
			p.entries[id] = newDPStore(dp, et, ti, sc)
		} else {
			p.entries[id] = newTableStore(ti)
		}
		p.capacity[id] = uint32(ti.t.Size)
		if n, ok := override[ti.spec.name]; ok {
			p.capacity[id] = n
		}
	}
	for id := range p.mtrWhich {
		p.meters[id] = map[int64]*p4v1.MeterConfig{}
	}
	if sc.HW() {
		p.steer = newSteering(sc)
		hh := defaultHHParams
		p.hh = &hh
		cls := defaultClsParams
		p.cls = &cls
		rps := rpsDefault(sc.rpsBuffer())
		p.rps = &rps
	}
	return p
}

func (s *Server) GetForwardingPipelineConfig(ctx context.Context, req *p4v1.GetForwardingPipelineConfigRequest) (*p4v1.GetForwardingPipelineConfigResponse, error) {
	if err := s.checkDevice(req.DeviceId); err != nil {
		return nil, grpcErr(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pipe == nil {
		return &p4v1.GetForwardingPipelineConfigResponse{Config: &p4v1.ForwardingPipelineConfig{}}, nil
	}
	src := s.pipe.cfg
	out := &p4v1.ForwardingPipelineConfig{Cookie: src.Cookie}
	switch req.ResponseType {
	case p4v1.GetForwardingPipelineConfigRequest_ALL:
		out.P4Info, out.P4DeviceConfig = src.P4Info, src.P4DeviceConfig
	case p4v1.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE:
		out.P4Info = src.P4Info
	case p4v1.GetForwardingPipelineConfigRequest_DEVICE_CONFIG_AND_COOKIE:
		out.P4DeviceConfig = src.P4DeviceConfig
	}
	return &p4v1.GetForwardingPipelineConfigResponse{Config: out}, nil
}

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
	s.pipeMu.RLock()
	defer s.pipeMu.RUnlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pipe == nil {
		return nil, status.Error(codes.FailedPrecondition, "no pipeline: SetForwardingPipelineConfig first")
	}
	ups, err := appendRawUpdates(s.ups[:0], req)
	var errs []error
	if err == nil {
		errs = s.writeBatch(ups)
	}
	clear(ups) // the reused buffer must not keep the request alive
	s.ups = ups[:0]
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "malformed updates: %v", err)
	}
	return &p4v1.WriteResponse{}, batchStatus(errs)
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
	st := &rpcstatus.Status{Code: int32(code.Code_UNKNOWN), Message: "write failed for some updates",
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
		c := codes.Unknown
		if se, ok := e.(*statusError); ok {
			c = se.code
		}
		a, _ := anypb.New(&p4v1.Error{CanonicalCode: int32(c), Message: e.Error()})
		st.Details[i], encoded[e] = a, a
	}
	return status.ErrorProto(st)
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
	} else if err := dpStatus(applyExact(s.dp, op, e)); err != nil {
		return err
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

// packetMeta encodes the packet_in metadata in P4Info order.
func packetInMeta(sc *Schema, port uint16, reason uint8) []*p4v1.PacketMetadata {
	var out []*p4v1.PacketMetadata
	for _, cpm := range sc.Info.ControllerPacketMetadata {
		if cpm.Preamble.Name != pktIn {
			continue
		}
		for _, m := range cpm.Metadata {
			v := uint64(0)
			switch m.Name {
			case "ingress_port":
				v = uint64(port)
			case "reason":
				v = uint64(reason)
			}
			out = append(out, &p4v1.PacketMetadata{MetadataId: m.Id, Value: encodeValue(v, m.Bitwidth)})
		}
	}
	return out
}
