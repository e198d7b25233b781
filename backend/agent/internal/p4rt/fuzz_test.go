package p4rt

import (
	"io"
	"log/slog"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"
)

// FuzzWrite: any WriteRequest, however malformed its entities, gets per-update
// errors, never a panic; what was accepted reads back. `go test` runs the seeds;
// `go test -fuzz FuzzWrite ./internal/p4rt` explores.
func FuzzWrite(f *testing.F) {
	h := &harness{t: &testing.T{}, info: fixtureP4Info()}
	seeds := []*p4v1.Update{
		upd(ins, h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, 1, 32), exactM(2, 2, 32)}, aULSess, 0, 3, 4)),
		upd(ins, h.entry(tApps, []*p4v1.FieldMatch{exactM(1, 1, 4), lpmM(2, 0x08080800, 24), rangeM(3, 1, 9),
			ternM(4, 6, 0xff, 8)}, aSetAppID, 5, 7)),
		upd(mod, h.entry(tRoutes, []*p4v1.FieldMatch{lpmM(1, 0x0a000000, 8)}, aRoute, 0, 1, 2, 3)),
		upd(del, h.entry(tACL, []*p4v1.FieldMatch{ternM(1, 1, 0x1ff, 9)}, "", 3)),
	}
	for _, u := range seeds {
		b, _ := proto.Marshal(&p4v1.WriteRequest{Updates: []*p4v1.Update{u}})
		f.Add(b)
	}
	sc := h.schema()
	f.Fuzz(func(t *testing.T, data []byte) {
		req := &p4v1.WriteRequest{}
		if proto.Unmarshal(data, req) != nil {
			return
		}
		srv := NewServer(Config{DeviceID: 1}, newFake(), slog.New(slog.NewTextHandler(io.Discard, nil)))
		srv.pipe = newPipeState(sc, &p4v1.ForwardingPipelineConfig{P4Info: h.info}, srv.sizes(sc), srv.dp)
		errs := srv.writeBatch(req.Updates)
		if len(errs) != len(req.Updates) {
			t.Fatalf("%d errors for %d updates", len(errs), len(req.Updates))
		}
		var out []*p4v1.Entity
		if _, err := srv.readTables(&p4v1.TableEntry{}, out); err != nil {
			t.Fatalf("reading back: %v", err)
		}
	})
}
