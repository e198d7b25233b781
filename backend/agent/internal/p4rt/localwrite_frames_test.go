package p4rt

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"
)

// writeFrame is the request frame (without its length) the runner sends over the local write channel for a
// marshalled WriteRequest's updates, election id 1, final counts asked.
func writeFrame(b testing.TB, raw []byte) []byte {
	req := &p4v1.WriteRequest{}
	if err := proto.Unmarshal(raw, req); err != nil {
		b.Fatal(err)
	}
	ups := make([][]byte, len(req.Updates))
	for i, u := range req.Updates {
		var err error
		if ups[i], err = proto.Marshal(u); err != nil {
			b.Fatal(err)
		}
	}
	return rawFrame(1, LocalFinalCounts, ups...)[4:]
}

// frameApplier applies frames as serveLocalConn does, its buffers reused, and fails tb unless a frame's answer is OK.
func frameApplier(tb testing.TB, srv *Server) func(frame []byte) {
	var ups [][]byte
	var answer []byte
	return func(frame []byte) {
		answer, ups = srv.localWrite(frame, ups[:0], answer[:0])
		clear(ups)
		if code := binary.LittleEndian.Uint32(answer[4:]); code != 0 {
			tb.Fatalf("frame answered code %d", code)
		}
	}
}

// TestLocalWriteFramesAllocateNothing: once the device has held the sessions before (its stores grown), a frame
// of 32 establishments and the frame of their deletions (final counts answered) are decoded and applied without a
// heap allocation.
func TestLocalWriteFramesAllocateNothing(t *testing.T) {
	h := &harness{t: t, info: fixtureP4Info()}
	batches := h.pfcpBatches(32)
	establish, remove := writeFrame(t, batches.establish), writeFrame(t, batches.delete)
	srv := benchServer(h)
	apply := frameApplier(t, srv)
	apply(writeFrame(t, batches.peers))
	apply(establish)
	apply(remove)
	if allocs := testing.AllocsPerRun(20, func() {
		apply(establish)
		apply(remove)
	}); allocs != 0 {
		t.Errorf("%v allocations per establishment and deletion frame", allocs)
	}
}

// BenchmarkLocalWriteFrame: what the agent's decode and apply of a local write frame costs per session, for
// frames of n PFCP establishments (tunnel peer written once before) and of their deletions, each applied to a
// device that holds the sessions the other phase leaves (each establishment succeeds, each deletion finds its
// entries and answers their final counts); allocations per session, the data plane doing nothing.
func BenchmarkLocalWriteFrame(b *testing.B) {
	for _, n := range []int{32, 256} {
		h := &harness{t: &testing.T{}, info: fixtureP4Info()}
		batches := h.pfcpBatches(n)
		establish, remove, peers := writeFrame(b, batches.establish), writeFrame(b, batches.delete), writeFrame(b, batches.peers)
		for _, phase := range []string{"establish", "delete"} {
			b.Run(fmt.Sprintf("%s/sessions=%d", phase, n), func(b *testing.B) {
				apply := frameApplier(b, benchServer(h))
				apply(peers)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if phase == "delete" {
						b.StopTimer()
						apply(establish)
						b.StartTimer()
						apply(remove)
					} else {
						apply(establish)
						b.StopTimer()
						apply(remove)
						b.StartTimer()
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/session")
			})
		}
	}
}

// BenchmarkLocalWriteConn: a frame's round trip over the local write channel's socket, as the runner sends them
// (32 establishments, then their deletions with final counts, alternately): the agent's reads, decode, apply and
// answer, the client's write and read; allocations per frame on both sides. Its system calls per frame are
// counted with strace -f -c on the test binary.
func BenchmarkLocalWriteConn(b *testing.B) {
	h := &harness{t: &testing.T{}, info: fixtureP4Info()}
	batches := h.pfcpBatches(32)
	var frames [2][]byte
	for i, raw := range [][]byte{batches.establish, batches.delete} {
		f := writeFrame(b, raw)
		frames[i] = append(binary.LittleEndian.AppendUint32(nil, uint32(len(f))), f...)
	}
	srv := benchServer(h)
	frameApplier(b, srv)(writeFrame(b, batches.peers))
	path := filepath.Join(b.TempDir(), "backend.sock")
	l, err := ListenLocalWrites(path)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	go srv.ServeLocalWrites(l)
	c, err := net.Dial("unix", path)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var size [4]byte
	answer := make([]byte, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Write(frames[i%2]); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(c, size[:]); err != nil {
			b.Fatal(err)
		}
		a := answer[:binary.LittleEndian.Uint32(size[:])]
		if _, err := io.ReadFull(c, a); err != nil {
			b.Fatal(err)
		}
		if code := binary.LittleEndian.Uint32(a); code != 0 {
			b.Fatalf("frame answered code %d", code)
		}
	}
}
