package p4rt

import (
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
)

// KeepaliveMinTime is the shortest ping interval the server accepts from a client.
// The Java clients ping every ~2 s, also between calls, to tell a slow backend from
// a dead one; gRPC's default policy (5 min, none without a call) would answer them
// with GOAWAY too_many_pings and drop the connection.
const KeepaliveMinTime = time.Second

// ServerOptions are the gRPC server options the P4Runtime server needs: its codec
// and a keepalive policy that lets clients ping.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ForceServerCodec(codec{}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: KeepaliveMinTime, PermitWithoutStream: true}),
	}
}
