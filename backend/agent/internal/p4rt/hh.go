package p4rt

import (
	"encoding/binary"
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"hupf/backend/agent/internal/p4const"
)

// hh.p4's default action for hh_config (HhConfig's derivation for 10 Mbit/s of 1000-byte packets).
var defaultHHParams = HHParams{TauTh: 1850, IPGInit: 800, IPGTh: 800, DecayK: 1, TimeslotUS: 16384, AlphaShift: 7}

// hhSlots is the size of HK-IPG's registers in the P4Info (0 without them).
func (s *Schema) hhSlots() uint32 {
	for _, r := range s.Info.Registers {
		if r.Preamble.Name == p4const.HupfIngressHhFlowId {
			return uint32(r.Size)
		}
	}
	return 0
}

// writeHHConfig sets hh_config's default action: set_hh_params(...), or with no action
// the P4's default (P4Runtime spec 9.1.2).
func (s *Server) writeHHConfig(ti *tableInfo, v *tableView) error {
	prm := defaultHHParams
	if v.hasAction {
		_, p, err := s.pipe.schema.decodeAction(ti, v, true, nil)
		if err != nil {
			return err
		}
		prm = HHParams{TauTh: uint16(p[0]), IPGInit: uint32(p[1]), IPGTh: uint32(p[2]), DecayK: uint32(p[3]),
			TimeslotUS: uint32(p[4]), AlphaShift: uint8(p[5]), KeyMode: uint8(p[6])}
	}
	if err := dpStatus(s.dp.SetHHParams(prm)); err != nil {
		return err
	}
	*s.pipe.hh = prm
	return nil
}

func (s *Server) hhConfigEntry(ti *tableInfo) *p4v1.TableEntry {
	h := *s.pipe.hh
	a := s.pipe.schema.actions[aSetHHParams]
	vals := []uint64{uint64(h.TauTh), uint64(h.IPGInit), uint64(h.IPGTh), uint64(h.DecayK), uint64(h.TimeslotUS),
		uint64(h.AlphaShift), uint64(h.KeyMode)}
	act := &p4v1.Action{ActionId: a.Preamble.Id}
	for i, p := range a.Params {
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: p.Id, Value: canonical(vals[i])})
	}
	return &p4v1.TableEntry{TableId: ti.t.Preamble.Id, IsDefaultAction: true,
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}}
}

// applyTau pushes tau_table whole, in match order (highest priority first).
func applyTau(dp Dataplane, es []*entry) error {
	byPriority(es)
	rs := make([]TauRange, len(es))
	for i, e := range es {
		rs[i] = TauRange{Lo: uint32(e.matches[0].lo), Hi: uint32(e.matches[0].hi), Tau: uint16(e.params[0])}
	}
	return dp.ReplaceTau(rs)
}

// state_read_t (p4src/include/headers.p4) after the Ethernet header: index, the HK-IPG
// slot, the classifier slot.
const (
	stateReadLen = 62
	ethHdrLen    = 14
)

// stateRead answers a state-read packet-out as hh.p4 does: the request comes back as a
// STATE_READ packet-in with HK-IPG's registers at its index filled in. The classifier's
// fields are 0: the backend does not run MATADOR yet, so its registers were never written.
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
	s.mu.Unlock()
	if derr != nil {
		return nil, true, fmt.Errorf("state read of index %d: %v", idx, derr)
	}
	binary.BigEndian.PutUint32(sr[4:8], slot.FlowID)
	binary.BigEndian.PutUint32(sr[8:12], slot.IPGEWMA)
	binary.BigEndian.PutUint16(sr[12:14], uint16(slot.LastTS>>32))
	binary.BigEndian.PutUint32(sr[14:18], uint32(slot.LastTS))
	binary.BigEndian.PutUint16(sr[18:20], slot.Tau)
	sr[20], sr[21] = slot.Reported, 0
	clear(sr[22:])
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
