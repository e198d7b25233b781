package p4rt

import (
	"runtime"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
)

// KeepaliveMinTime is the shortest ping interval the server accepts from a client.
// The Java clients ping every ~2 s, also between calls, to tell a slow backend from
// a dead one; gRPC's default policy (5 min, none without a call) would answer them
// with GOAWAY too_many_pings and drop the connection.
const KeepaliveMinTime = time.Second

// ServerOptions are the gRPC server options the P4Runtime server needs: its codec, a keepalive policy that
// lets clients ping, and stream workers: by default gRPC runs each RPC on a new goroutine, whose stack then
// grows (copied each time) through the handler's frames, a twentieth of the agent's CPU in the control-plane
// bench; a worker keeps its grown stack. One worker per CPU plus two for the long-lived StreamChannels; an RPC
// that finds them all busy gets its own goroutine as before.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ForceServerCodec(codec{}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: KeepaliveMinTime, PermitWithoutStream: true}),
		grpc.NumStreamWorkers(uint32(runtime.GOMAXPROCS(0) + 2)),
	}
}
