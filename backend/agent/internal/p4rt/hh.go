package p4rt

import (
	"encoding/binary"
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"hupf/backend/agent/internal/p4const"
)

// The hw P4's default actions of hh_config and cls_config (HhConfig's derivation for
// 10 Mbit/s of 1000-byte packets; a 1 s MATADOR window, alpha = 1 - 2^-3).
var (
	defaultHHParams  = HHParams{TauTh: 1850, IPGInit: 800, IPGTh: 800, DecayK: 1, TimeslotUS: 16384, AlphaShift: 7}
	defaultClsParams = ClsParams{WindowUS: 1000000, AlphaShift: 3}
)

const (
	rHHFlowID     = p4const.HupfIngressHhFlowId
	rClsFlowClass = p4const.HupfIngressClassifierFlowClass
)

// registerSize is a register's size in the P4Info (0 without it).
func (s *Schema) registerSize(name string) uint32 {
	for _, r := range s.Info.Registers {
		if r.Preamble.Name == name {
			return uint32(r.Size)
		}
	}
	return 0
}

// writeHWConfig sets hh_config's or cls_config's default action, or with no action
// the P4's default (P4Runtime spec 9.1.2).
func (s *Server) writeHWConfig(ti *tableInfo, v *tableView) error {
	var p []uint64
	if v.hasAction {
		var err error
		if _, p, err = s.pipe.schema.decodeAction(ti, v, true, nil); err != nil {
			return err
		}
	}
	if ti.spec.name == tClsConfig {
		prm := defaultClsParams
		if p != nil {
			prm = ClsParams{WindowUS: uint32(p[p4const.ParamHupfIngressClassifierSetClsParamsWindowUs]),
				AlphaShift: uint8(p[p4const.ParamHupfIngressClassifierSetClsParamsAlphaShift])}
		}
		if err := dpStatus(s.dp.SetClsParams(prm)); err != nil {
			return err
		}
		*s.pipe.cls = prm
		return nil
	}
	prm := defaultHHParams
	if p != nil {
		prm = HHParams{TauTh: uint16(p[p4const.ParamHupfIngressHhSetHhParamsTauTh]),
			IPGInit:    uint32(p[p4const.ParamHupfIngressHhSetHhParamsIpgInit]),
			IPGTh:      uint32(p[p4const.ParamHupfIngressHhSetHhParamsIpgTh]),
			DecayK:     uint32(p[p4const.ParamHupfIngressHhSetHhParamsDecayK]),
			TimeslotUS: uint32(p[p4const.ParamHupfIngressHhSetHhParamsTimeslotUs]),
			AlphaShift: uint8(p[p4const.ParamHupfIngressHhSetHhParamsAlphaShift]),
			KeyMode:    uint8(p[p4const.ParamHupfIngressHhSetHhParamsKeyMode])}
	}
	if err := dpStatus(s.dp.SetHHParams(prm)); err != nil {
		return err
	}
	*s.pipe.hh = prm
	return nil
}

// hwConfigEntry renders hh_config's or cls_config's current default action.
func (s *Server) hwConfigEntry(ti *tableInfo) *p4v1.TableEntry {
	h, c := *s.pipe.hh, *s.pipe.cls
	if ti.spec.name == tClsConfig {
		return s.defaultActionEntry(ti, aSetClsParams, []uint64{uint64(c.WindowUS), uint64(c.AlphaShift)})
	}
	return s.defaultActionEntry(ti, aSetHHParams, []uint64{uint64(h.TauTh), uint64(h.IPGInit), uint64(h.IPGTh),
		uint64(h.DecayK), uint64(h.TimeslotUS), uint64(h.AlphaShift), uint64(h.KeyMode)})
}

// defaultActionEntry is a table's default entry: action name with its params' values in order.
func (s *Server) defaultActionEntry(ti *tableInfo, name string, vals []uint64) *p4v1.TableEntry {
	a := s.pipe.schema.actions[name]
	act := &p4v1.Action{ActionId: a.Preamble.Id}
	for i, p := range a.Params {
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: p.Id, Value: canonical(vals[i])})
	}
	return &p4v1.TableEntry{TableId: ti.t.Preamble.Id, IsDefaultAction: true,
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}}
}

// applyHWTable pushes a hw table that the data plane takes whole: tau_table and the
// feature range tables in match order (highest priority first), the decision table.
func applyHWTable(dp Dataplane, name string, es []*entry) error {
	if name == tDecision {
		ds := make([]Decision, len(es))
		for i, e := range es {
			for j, field := range decisionCodes {
				ds[i].Codes[j] = uint8(e.matches[field].value)
			}
			ds[i].Class = uint8(e.params[p4const.ParamHupfIngressClassifierSetClassClassId])
		}
		return dp.ReplaceDecisions(ds)
	}
	byPriority(es)
	if name == tTauTable {
		return dp.ReplaceTau(ranges(tauRanges, es))
	}
	for f, ft := range featureTables {
		if ft.table == name {
			return dp.ReplaceFeature(f, ranges(ft, es))
		}
	}
	return errf(codes.Internal, "no writer for table %s", name)
}

func ranges(t rangeTable, es []*entry) []Range {
	rs := make([]Range, len(es))
	for i, e := range es {
		r := e.matches[t.field]
		rs[i] = Range{Lo: uint32(r.lo), Hi: uint32(r.hi), Value: uint16(e.params[t.param])}
	}
	return rs
}

// state_read_t (p4src/include/headers.p4) after the Ethernet header: index, the HK-IPG
// slot, the classifier slot.
const (
	stateReadLen = 62
	ethHdrLen    = 14
)

// stateRead answers a state-read packet-out as hh.p4 does: the request comes back as a
// STATE_READ packet-in with HK-IPG's and MATADOR's registers at its index filled in.
// ok is false when the packet-out is not a state read (an ordinary packet-out to port 0).
func (s *Server) stateRead(p *pipeState, port int, payload []byte) (in *p4v1.PacketIn, ok bool, err error) {
	if p.hh == nil || port != p4const.StateReadPort || len(payload) < ethHdrLen ||
		binary.BigEndian.Uint16(payload[12:14]) != p4const.EthertypeHupfState {
		return nil, false, nil
	}
	if len(payload) < ethHdrLen+stateReadLen {
		return nil, true, fmt.Errorf("state read of %d bytes, want %d", len(payload), ethHdrLen+stateReadLen)
	}
	out := append([]byte(nil), payload...)
	sr := out[ethHdrLen : ethHdrLen+stateReadLen]
	idx := binary.BigEndian.Uint32(sr[0:4])
	s.mu.Lock()
	slot, derr := s.dp.HHSlot(idx)
	cls, cerr := s.dp.ClsSlot(idx)
	s.mu.Unlock()
	if derr == nil {
		derr = cerr
	}
	if derr != nil {
		return nil, true, fmt.Errorf("state read of index %d: %v", idx, derr)
	}
	binary.BigEndian.PutUint32(sr[4:8], slot.FlowID)
	binary.BigEndian.PutUint32(sr[8:12], slot.IPGEWMA)
	binary.BigEndian.PutUint16(sr[12:14], uint16(slot.LastTS>>32))
	binary.BigEndian.PutUint32(sr[14:18], uint32(slot.LastTS))
	binary.BigEndian.PutUint16(sr[18:20], slot.Tau)
	sr[20], sr[21] = slot.Reported, 0
	for i, v := range []uint32{cls.PktsUp, cls.PktsDn, cls.PSUp, cls.PSDn, cls.IPGUp, cls.IPGDn, cls.LastUp,
		cls.LastDn, cls.WinStart} {
		binary.BigEndian.PutUint32(sr[22+4*i:], v)
	}
	sr[58] = cls.Class
	clear(sr[59:])
	return &p4v1.PacketIn{Payload: out, Metadata: packetInMeta(p.schema, uint16(s.cfg.CPUPort), p4const.PktinStateRead)},
		true, nil
}

// stateReadOut answers a state read on the stream; false when the packet-out is none.
func (s *Server) stateReadOut(st *stream, p *pipeState, port int, payload []byte) bool {
	in, ok, err := s.stateRead(p, port, payload)
	switch {
	case !ok:
		return false
	case err != nil:
		st.out <- streamError(codes.InvalidArgument, err.Error())
	default:
		st.out <- &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Packet{Packet: in}}
	}
	return true
}
