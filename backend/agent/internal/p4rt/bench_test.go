package p4rt

import (
	"io"
	"log/slog"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"
)

// nopDP is a data plane that accepts everything: the benchmark measures the agent alone.
type nopDP struct{ fakeDP }

func (*nopDP) ULSession(Op, uint32, uint32, uint8, uint32, uint32) error { return nil }
func (*nopDP) DLSession(Op, uint32, uint8, uint8, uint32) error          { return nil }
func (*nopDP) ULTerm(Op, uint32, uint8, Term) error                      { return nil }
func (*nopDP) DLTerm(Op, uint32, uint8, Term) error                      { return nil }

// BenchmarkWriteBatch: decoding, translation and bookkeeping cost per table entry
// from its encoded Update, without gRPC; allocations per entry are reported (the
// errors slice of each 1000-entry batch is the only one).
func BenchmarkWriteBatch(b *testing.B) {
	h := &harness{t: &testing.T{}, info: fixtureP4Info()}
	srv := NewServer(Config{DeviceID: 1, Sessions: 1 << 24}, &nopDP{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	sc := h.schema()
	srv.pipe = newPipeState(sc, &p4v1.ForwardingPipelineConfig{P4Info: h.info}, srv.sizes(sc), srv.dp)
	ups := make([][]byte, 0, b.N)
	for i := 0; i < b.N; i++ {
		ue := uint64(0x10000000 + i)
		u, err := proto.Marshal(upd(ins, h.entry(tDLTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 0, 8)},
			aDLTermFwd, 0, uint64(i), uint64(i), 9, 0, 0)))
		if err != nil {
			b.Fatal(err)
		}
		ups = append(ups, u)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 1000 {
		for _, err := range srv.writeBatch(ups[i:min(i+1000, b.N)]) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
