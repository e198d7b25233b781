package p4rt

import (
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc"
)

// pingUntilGoAway connects to addr as a bare HTTP/2 client (gRPC's Go client will
// not ping more often than every 10 s) and, with no call open, pings n times, each
// a little over KeepaliveMinTime after the previous one's answer. It returns the
// pings answered and the GOAWAY's debug data if the server sent one.
func pingUntilGoAway(t *testing.T, addr string, n int) (acked int, goAway string) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(conn, conn)
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	for acked < n {
		if err := fr.WritePing(false, [8]byte{byte(acked)}); err != nil {
			return acked, "write failed: " + err.Error()
		}
		for answered := false; !answered; {
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			f, err := fr.ReadFrame()
			if err != nil {
				return acked, "read failed: " + err.Error()
			}
			switch f := f.(type) {
			case *http2.SettingsFrame:
				if !f.IsAck() {
					fr.WriteSettingsAck()
				}
			case *http2.PingFrame:
				answered = f.IsAck()
			case *http2.GoAwayFrame:
				return acked, f.ErrCode.String() + " " + string(f.DebugData())
			}
		}
		acked++
		time.Sleep(KeepaliveMinTime + 10*time.Millisecond)
	}
	return acked, ""
}

func serve(t *testing.T, opts ...grpc.ServerOption) string {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer(opts...)
	go g.Serve(lis)
	t.Cleanup(g.Stop)
	return lis.Addr().String()
}

// A client that pings every second without a call keeps its connection; gRPC's
// default policy (the control) would have closed it.
func TestKeepalivePingsEverySecondAccepted(t *testing.T) {
	t.Run("agent", func(t *testing.T) {
		t.Parallel()
		if acked, goAway := pingUntilGoAway(t, serve(t, ServerOptions()...), 5); acked != 5 || goAway != "" {
			t.Fatalf("%d of 5 pings answered, GOAWAY %q", acked, goAway)
		}
	})
	t.Run("grpc default policy", func(t *testing.T) {
		t.Parallel()
		if _, goAway := pingUntilGoAway(t, serve(t), 5); goAway != "ENHANCE_YOUR_CALM too_many_pings" {
			t.Fatalf("GOAWAY %q, want too_many_pings", goAway)
		}
	})
}
