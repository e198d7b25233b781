package p4rt

// Op is a table write kind, numbered as the data plane's enum dp_op.
type Op int

const (
	OpInsert Op = 1
	OpModify Op = 2
	OpDelete Op = 3
)

// Values of the data plane's enums (backend/dp/hupf_dp.h).
const (
	IfaceAccess = 1
	IfaceCore   = 2
	SessFwd     = 1
	SessDrop    = 2
	SessBuf     = 3
	TermFwd     = 1
	TermDrop    = 2
	ACLNop      = 0
	ACLPunt     = 1
	ACLCopy     = 2
	ACLDrop     = 3
	CtrPreQos   = 0
	CtrPostQos  = 1
	MeterSess   = 0
	MeterApp    = 1
	CtrTenant   = 2
	MeterTenant = 2
	CtrSlice    = 3
	MeterSlice  = 3
)

// Sizes are the capacities the data plane allocates for a pipeline.
type Sizes struct {
	Interfaces, ULSessions, DLSessions, Applications uint32
	ULTerms, DLTerms, Routes, ACL                    uint32
	PreQosCtr, PostQosCtr, SessionMeter, AppMeter    uint32
	MeterStates                                      uint32
	HW                                               bool   // the hw profile: session misses go to backends
	HHSlots                                          uint32 // hw: HK-IPG slots (register size)
	ClsSlots                                         uint32 // hw: MATADOR slots (register size)
	Tenants, TenantCells                             uint32 // the tenants table; tenant_counter/tenant_meter cells
	Slices, SliceCells                               uint32 // the slices table; slice_counter/slice_meter cells
	RPSBuffer, RPSFlows, RPSFlowEntries              uint32 // hw: RPS receipts per point, flow ids, rps.flows' size
	RPSTrackDepth                                    uint32 // hw: RPS disclosures tracked per (point, flow)
}

// RPSParams are rps.config's set_config (struct dp_rps_params).
type RPSParams struct {
	Mode                                uint8
	QuietUS, SelectThreshold, BufferLen uint32
}

// ClsParams are cls_config's set_cls_params (struct dp_cls_params).
type ClsParams struct {
	WindowUS   uint32
	AlphaShift uint8
}

// Decision is one entry of the decision table: the six feature codes -> class.
type Decision struct {
	Codes [6]uint8
	Class uint8
}

// ClsSlot is one MATADOR flow slot's registers.
type ClsSlot struct {
	PktsUp, PktsDn, PSUp, PSDn, IPGUp, IPGDn, LastUp, LastDn, WinStart uint32
	Class                                                              uint8
}

// HHParams are hh_config's set_hh_params (struct dp_hh_params).
type HHParams struct {
	TauTh                              uint16
	IPGInit, IPGTh, DecayK, TimeslotUS uint32
	AlphaShift, KeyMode                uint8
}

// Range is one entry of a range table (tau_table, feature_*), in match order.
type Range struct {
	Lo, Hi uint32
	Value  uint16
}

// HHSlot is one HK-IPG slot's registers.
type HHSlot struct {
	FlowID, IPGEWMA uint32
	LastTS          uint64
	Tau             uint16
	Reported        uint8
}

// Backend is one member of a slice's backend selector group: where a session miss goes.
type Backend struct {
	Port   uint16
	DstMAC [6]byte
}

type Term struct {
	Action                    uint8
	TC, QFI                   uint8
	CtrIdx, TEID, AppMeterIdx uint32
}

type AppRule struct {
	SliceID          uint8
	Addr, AddrMask   uint32
	PortLo, PortHi   uint16
	Proto, ProtoMask uint8
	AppID            uint8
}

type ACLRule struct {
	Port, PortMask                     uint16
	EthSrc, EthSrcMask                 [6]byte
	EthDst, EthDstMask                 [6]byte
	EthType, EthTypeMask               uint16
	IPSrc, IPSrcMask, IPDst, IPDstMask uint32
	Proto, ProtoMask                   uint8
	Sport, SportMask, Dport, DportMask uint16
	Action                             uint8
}

// VxPeer is vxlan_encap's parameters (struct dp_vx_peer).
type VxPeer struct {
	VNI, VtepSrc, VtepDst    uint32
	InnerSrcMAC, InnerDstMAC [6]byte
}

type MeterCfg struct{ CIR, CBurst, PIR, PBurst uint64 }

// ExactTable names the data plane's exact-match tables, numbered as its enum dp_exact.
type ExactTable int

const (
	ExactULSess ExactTable = 0
	ExactDLSess ExactTable = 1
	ExactULTerm ExactTable = 2
	ExactDLTerm ExactTable = 3
)

// ExactEntry is an entry of an exact table as the data plane holds it (struct
// dp_exact_entry): sessions fill Action, UE (uplink), Peer (downlink) and Meter;
// terminations fill Term. Keys: tunDst<<32|teid, the UE address, ue<<8|appID.
type ExactEntry struct {
	Key          uint64
	Action, Peer uint8
	UE, Meter    uint32
	Term         Term
}

// Dataplane is what the server drives: the C data plane through cgo in the
// binary, a recording fake in the tests. Errors are *DPError with an errno.
type Dataplane interface {
	SetPipeline(Sizes) error
	Interface(op Op, prefix uint32, plen, gtpuValid, iface, slice uint8) error
	ULSession(op Op, tunDst, teid uint32, action uint8, ue, meter uint32) error
	DLSession(op Op, ue uint32, action, peer uint8, meter uint32) error
	ULTerm(op Op, ue uint32, appID uint8, t Term) error
	DLTerm(op Op, ue uint32, appID uint8, t Term) error
	IGPeer(op Op, peer uint8, dst uint32) error
	EGPeer(op Op, peer uint8, src, dst uint32, sport uint16) error
	Route(op Op, prefix uint32, plen uint8, srcMAC, dstMAC [6]byte, port uint16) error
	SetEncapPSC(on bool) error
	// The tenants table (VXLAN): (VNI, local VTEP) -> tenant id, traffic class, DSCP.
	Tenant(op Op, vni, vtep uint32, tenantID, tc, dscp uint8) error
	// A tenant's slices: (tenant id, QFI) -> traffic class, DSCP.
	Slice(op Op, tenantID, qfi, tc, dscp uint8) error
	// qos.queues: traffic class -> v1model priority, the egress queue on a port with a rate.
	Queue(op Op, tc, qid uint8) error
	// A tunnel peer in a tenant's overlay: its downlink GTP-U goes in VXLAN (struct dp_vx_peer).
	VxPeer(op Op, peer uint8, v VxPeer) error
	// hw profile: backend_ports entries and each slice's backends, in member-handle order.
	BackendPort(op Op, port uint16) error
	// hw profile: backend_classes, the class of a packet back from a backend by its user packet's DSCP.
	BackendClass(op Op, dscp, tc uint8) error
	SetBackends(slice uint8, members []Backend) error
	// hw profile: HK-IPG's configuration, tau table and slot registers.
	SetHHParams(HHParams) error
	ReplaceTau([]Range) error
	HHSlot(idx uint32) (HHSlot, error)
	// hw profile: MATADOR's configuration, feature range tables (0..5 in feature_* order),
	// decision table and slot registers.
	SetClsParams(ClsParams) error
	ReplaceFeature(feature int, r []Range) error
	ReplaceDecisions([]Decision) error
	ClsSlot(idx uint32) (ClsSlot, error)
	// hw profile: RPS's configuration, rps.flows entries (direction 0 uplink, 1 downlink) and the
	// events cells (point * RpsEvents + event).
	SetRPSParams(RPSParams) error
	RPSFlow(op Op, prefix uint32, plen, direction uint8, flowID uint16, discThreshold uint32) error
	ReadRPSEvents(idx uint32) (uint64, error)
	WriteRPSEvents(idx uint32, pkts uint64) error
	ReplaceApps([]AppRule) error
	ReplaceACL([]ACLRule) error
	SetMeter(which int, idx uint32, cfg *MeterCfg) error
	ReadCounter(which int, idx uint32) (pkts, bytes uint64, err error)
	// ReadCounters reads cells lo .. lo+len(pkts)-1 into pkts and bytes (of the same length).
	ReadCounters(which int, lo uint32, pkts, bytes []uint64) error
	// ReadCounterCells reads both QoS counters of cells in one call: counts[4i:4i+4] (len(counts) is 4*len(cells))
	// are cells[i]'s pre-QoS packets and bytes, then its post-QoS packets and bytes.
	ReadCounterCells(cells []uint32, counts []uint64) error
	WriteCounter(which int, idx uint32, pkts, bytes uint64) error
	// HarvestCounterMarks ORs into bits (bit b of bits[b/64]: cells b*CounterBlock ..) the pre- and post-QoS
	// counters' blocks counted in or written since the last harvest and clears their marks (the blocks past
	// len(bits)*64 stay marked). A count not yet visible to a read after the harvest is marked again.
	HarvestCounterMarks(bits []uint64) error
	ReadDrops(reason uint32) (uint64, error)
	// The exact tables read back: the agent answers reads of them from the data
	// plane and keeps no copy of their entries.
	ExactGet(t ExactTable, key uint64) (ExactEntry, bool, error)
	ExactCount(t ExactTable) (int, error)
	ExactEach(t ExactTable, fn func(*ExactEntry)) error
	Commit()
	PacketOut(port uint16, data []byte) error
	// PacketIn copies one queued packet-in into buf; n == 0 when none is queued.
	PacketIn(buf []byte) (n int, ingressPort uint16, reason uint8)
	// WaitPacketIn returns when a packet-in may be queued (it can return with none) or stop closed.
	WaitPacketIn(stop <-chan struct{})
}

// DPError carries the data plane's negative errno.
type DPError struct{ Errno int }

func (e *DPError) Error() string { return errnoText[e.Errno] }

// Linux errno values the data plane returns.
const (
	ENOENT = 2
	ENOMEM = 12
	EEXIST = 17
	ENODEV = 19
	EINVAL = 22
	ENOSPC = 28
	// A data plane that lacks the feature (T4P4S: counters cannot be read from it).
	EOPNOTSUPP = 95
)

var errnoText = map[int]string{
	ENOENT: "entry not found", ENOMEM: "out of memory", EEXIST: "entry already exists",
	ENODEV: "no pipeline", EINVAL: "invalid value", ENOSPC: "table full",
	EOPNOTSUPP: "not supported by this data plane",
}
