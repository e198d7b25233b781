package p4rt

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/code"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"sync"

	"hupf/backend/agent/internal/p4const"
)

// stream is one StreamChannel; out is drained by a single sender goroutine
// because a gRPC stream's Send is not safe for concurrent use.
type stream struct {
	out      chan *p4v1.StreamMessageResponse
	election *p4v1.Uint128
}

// arbiter implements client arbitration (P4Runtime §5.4, default role only):
// the stream with the highest election id is the primary.
type arbiter struct {
	mu      sync.Mutex
	streams map[*stream]bool
	primary *stream
}

func cmpElection(a, b *p4v1.Uint128) int {
	switch {
	case a.High != b.High:
		if a.High > b.High {
			return 1
		}
		return -1
	case a.Low != b.Low:
		if a.Low > b.Low {
			return 1
		}
		return -1
	}
	return 0
}

func (a *arbiter) checkPrimary(id *p4v1.Uint128) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id == nil {
		id = &p4v1.Uint128{}
	}
	if a.primary == nil || cmpElection(a.primary.election, id) != 0 {
		return errf(codes.PermissionDenied, "not the primary client (election id %d:%d)", id.High, id.Low)
	}
	return nil
}

// arbitrate records a stream's election id and tells every stream its role.
func (a *arbiter) arbitrate(st *stream, req *p4v1.MasterArbitrationUpdate) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := req.ElectionId
	if id == nil {
		return errf(codes.InvalidArgument, "arbitration without election id")
	}
	if req.Role != nil && req.Role.Name != "" {
		return errf(codes.Unimplemented, "roles are not supported (role %q)", req.Role.Name)
	}
	for o := range a.streams {
		if o != st && o.election != nil && cmpElection(o.election, id) == 0 {
			return errf(codes.InvalidArgument, "election id %d:%d is held by another client", id.High, id.Low)
		}
	}
	st.election = id
	a.streams[st] = true
	a.elect(req.DeviceId)
	return nil
}

// elect picks the primary and notifies everyone (the primary gets OK, the
// others ALREADY_EXISTS); callers hold mu.
func (a *arbiter) elect(deviceID uint64) {
	var best *stream
	for o := range a.streams {
		if o.election != nil && (best == nil || cmpElection(o.election, best.election) > 0) {
			best = o
		}
	}
	a.primary = best
	for o := range a.streams {
		if o.election == nil {
			continue
		}
		c := code.Code_ALREADY_EXISTS
		if o == best {
			c = code.Code_OK
		}
		var pid *p4v1.Uint128
		if best != nil {
			pid = best.election
		}
		msg := &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Arbitration{
			Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: deviceID, ElectionId: pid,
				Status: &rpcstatus.Status{Code: int32(c)}}}}
		select {
		case o.out <- msg:
		default:
		}
	}
}

func (a *arbiter) remove(st *stream, deviceID uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.streams, st)
	if a.primary == st {
		a.elect(deviceID)
	}
}

func (a *arbiter) primaryOut() chan *p4v1.StreamMessageResponse {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.primary == nil {
		return nil
	}
	return a.primary.out
}

func (s *Server) StreamChannel(srv p4v1.P4Runtime_StreamChannelServer) error {
	st := &stream{out: make(chan *p4v1.StreamMessageResponse, 1024)}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case m := <-st.out:
				if srv.Send(m) != nil {
					return
				}
			case <-done:
				return
			}
		}
	}()
	defer func() {
		close(done)
		s.arb.remove(st, s.cfg.DeviceID)
	}()
	for {
		req, err := srv.Recv()
		if err != nil {
			return nil
		}
		switch {
		case req.GetArbitration() != nil:
			arb := req.GetArbitration()
			if err := s.checkDevice(arb.DeviceId); err != nil {
				return grpcErr(err)
			}
			if err := s.arb.arbitrate(st, arb); err != nil {
				return grpcErr(err)
			}
		case req.GetPacket() != nil:
			s.packetOut(st, req.GetPacket())
		default:
			st.out <- streamError(codes.Unimplemented, "stream message kind not supported")
		}
	}
}

func streamError(c codes.Code, msg string) *p4v1.StreamMessageResponse {
	return &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Error{
		Error: &p4v1.StreamError{CanonicalCode: int32(c), Message: msg}}}
}

func (s *Server) packetOut(st *stream, po *p4v1.PacketOut) {
	s.arb.mu.Lock()
	primary := s.arb.primary == st
	s.arb.mu.Unlock()
	s.mu.Lock()
	p := s.pipe
	s.mu.Unlock()
	if !primary || p == nil {
		st.out <- streamError(codes.PermissionDenied, "packet-out needs the primary client and a pipeline")
		return
	}
	egress := p.schema.pktMeta[pktOut][p4const.PktMetaEgressPort]
	port := -1
	for _, m := range po.Metadata {
		if m.MetadataId == egress.Id {
			v, err := decodeValue(m.Value, egress.Bitwidth, p4const.PktMetaEgressPort)
			if err == nil {
				port = int(v)
			}
		}
	}
	if port < 0 {
		st.out <- streamError(codes.InvalidArgument, "packet-out without a valid egress_port")
		return
	}
	if s.stateReadOut(st, p, port, po.Payload) {
		return
	}
	if err := s.dp.PacketOut(uint16(port), po.Payload); err != nil {
		st.out <- streamError(codes.Unavailable, "packet-out: "+err.Error())
	}
}

// PumpPacketIns forwards the data plane's CPU-port packets to the primary until stop closes.
func (s *Server) PumpPacketIns(stop <-chan struct{}) {
	buf := make([]byte, 16384)
	for {
		select {
		case <-stop:
			return
		default:
		}
		n, port, reason := s.dp.PacketIn(buf)
		if n == 0 {
			s.dp.WaitPacketIn(stop)
			continue
		}
		s.mu.Lock()
		p := s.pipe
		s.mu.Unlock()
		out := s.arb.primaryOut()
		if p == nil || out == nil {
			continue
		}
		msg := &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Packet{Packet: &p4v1.PacketIn{
			Payload: append([]byte(nil), buf[:n]...), Metadata: packetInMeta(p.schema, port, reason)}}}
		select {
		case out <- msg:
		default:
			s.log.Warn("packet-in dropped: primary stream backlog full")
		}
	}
}
