package p4rt

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"hupf/backend/agent/internal/p4const"
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
	// Whether this Write's client asked for its deletions' final counts, and the counter cells of the
	// terminations it deletes, their counts and the answer encoded from them (final_counts.go).
	finalWanted bool
	finalCells  []uint32
	finalRead   []uint64
	finalAnswer []byte
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
			case p4const.PktMetaIngressPort:
				v = uint64(port)
			case p4const.PktMetaReason:
				v = uint64(reason)
			}
			out = append(out, &p4v1.PacketMetadata{MetadataId: m.Id, Value: encodeValue(v, m.Bitwidth)})
		}
	}
	return out
}
