package p4rt

import (
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"hupf/backend/agent/internal/p4const"
)

// Retroactive Packet Sampling (hw profile, p4src/include/rps.p4): rps.config's default action,
// rps.flows' entries (applyExact) and the events counters. The data plane keeps one events array of
// RpsPoints * RpsEvents cells; as in the P4, HupfIngress.rps.events counts the IN point's cells and
// HupfEgress.rps.events the OUT point's, each with the other point's cells at zero.
const (
	rRPSBufFlow   = p4const.RpsBufFlow
	rRPSNextDnum  = p4const.RpsNextDnum
	rRPSTrackDnum = p4const.RpsTrackDnum
	cRPSInEvents  = p4const.HupfIngressRpsEvents
	cRPSOutEvents = p4const.HupfEgressRpsEvents
)

// rpsBuffer is the receipts the P4 buffers per point; rpsFlows its flow ids (per-flow state cells per point).
func (s *Schema) rpsBuffer() uint32 { return s.registerSize(rRPSBufFlow) / p4const.RpsPoints }
func (s *Schema) rpsFlows() uint32  { return s.registerSize(rRPSNextDnum) / p4const.RpsPoints }

// rpsTrackDepth is the disclosures the P4's tracker keeps per (point, flow): its cells over the per-flow cells
// (size_hw.p4's RPS_TRACK_DEPTH), 0 without RPS. An error when it is not what the data plane can index as
// the P4 does (dnum & (depth - 1), dnum 16 bits wide).
func (s *Schema) rpsTrackDepth() (uint32, error) {
	flows, track := s.registerSize(rRPSNextDnum), s.registerSize(rRPSTrackDnum)
	if flows == 0 {
		return 0, nil
	}
	d := track / flows
	if track%flows != 0 || d == 0 || d >= 1<<16 || d&(d-1) != 0 {
		return 0, fmt.Errorf("register %s has %d cells, not a power of two below 2^16 times %s's %d",
			rRPSTrackDnum, track, rRPSNextDnum, flows)
	}
	return d, nil
}

// rpsDefault is rps.config's default action in the P4: off, over the whole buffer.
func rpsDefault(buffer uint32) RPSParams {
	return RPSParams{Mode: p4const.RpsModeOff, BufferLen: buffer}
}

// rpsEventsPoint is the observation point whose cells the events counter id counts, if it is one.
func (p *pipeState) rpsEventsPoint(id uint32) (uint32, bool) {
	if p.rps == nil {
		return 0, false
	}
	switch id {
	case p.schema.counters[cRPSInEvents].Preamble.Id:
		return p4const.RpsPointIn, true
	case p.schema.counters[cRPSOutEvents].Preamble.Id:
		return p4const.RpsPointOut, true
	}
	return 0, false
}

// readRPSEvents is cell idx of the point's events counter.
func (s *Server) readRPSEvents(point uint32, idx int64) (uint64, error) {
	if uint32(idx)/p4const.RpsEvents != point {
		return 0, nil
	}
	return s.dp.ReadRPSEvents(uint32(idx))
}

// writeRPSEvents sets cell idx of counter id, the point's events counter; the other point's cells stay zero.
func (s *Server) writeRPSEvents(id, point uint32, idx int64, pkts uint64) error {
	if idx >= s.pipe.schema.ctrByID[id].Size {
		return errf(codes.InvalidArgument, "counter index %d out of range", idx)
	}
	if uint32(idx)/p4const.RpsEvents != point {
		if pkts != 0 {
			return errf(codes.InvalidArgument, "events cell %d counts the other observation point", idx)
		}
		return nil
	}
	return dpStatus(s.dp.WriteRPSEvents(uint32(idx), pkts))
}

// applyRPSFlow writes one rps.flows entry: (UE prefix, direction) -> set_flow(flow_id, disc_threshold).
func applyRPSFlow(dp Dataplane, op Op, e *entry) error {
	if e.action == aRPSNotSampled && op != OpDelete {
		return errf(codes.InvalidArgument, "%s: not_sampled is the default action only", tRPSFlows)
	}
	var id uint16
	var threshold uint32
	if len(e.params) == 2 {
		id, threshold = uint16(e.params[p4const.ParamHupfIngressRpsSetFlowFlowId]),
			uint32(e.params[p4const.ParamHupfIngressRpsSetFlowDiscThreshold])
	}
	ue, dir := e.matches[p4const.FieldHupfIngressRpsFlowsUeAddr], e.matches[p4const.FieldHupfIngressRpsFlowsDirection]
	return dp.RPSFlow(op, uint32(ue.value), uint8(ue.plen), uint8(dir.value), id, threshold)
}

// writeRPSConfig sets rps.config's default action, or with no action the P4's default.
func (s *Server) writeRPSConfig(ti *tableInfo, v *tableView) error {
	prm := rpsDefault(s.pipe.schema.rpsBuffer())
	if v.hasAction {
		_, p, err := s.pipe.schema.decodeAction(ti, v, true, nil)
		if err != nil {
			return err
		}
		prm = RPSParams{Mode: uint8(p[p4const.ParamHupfIngressRpsSetConfigMode]),
			QuietUS:         uint32(p[p4const.ParamHupfIngressRpsSetConfigQuietUs]),
			SelectThreshold: uint32(p[p4const.ParamHupfIngressRpsSetConfigSelectThreshold]),
			BufferLen:       uint32(p[p4const.ParamHupfIngressRpsSetConfigBufferLen])}
	}
	if err := dpStatus(s.dp.SetRPSParams(prm)); err != nil {
		return err
	}
	*s.pipe.rps = prm
	return nil
}

// rpsConfigEntry renders rps.config's current default action.
func (s *Server) rpsConfigEntry(ti *tableInfo) *p4v1.TableEntry {
	r := *s.pipe.rps
	return s.defaultActionEntry(ti, aRPSSetConfig, []uint64{uint64(r.Mode), uint64(r.QuietUS),
		uint64(r.SelectThreshold), uint64(r.BufferLen)})
}
