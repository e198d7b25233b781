package p4rt

import (
	"io"
	"log/slog"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"
)

// FuzzWrite: any WriteRequest, however malformed its entities, gets per-update
// errors, never a panic; what was accepted reads back; the updates read in place
// (the server's codec) and parsed by protobuf give the same errors, tables and meters. `go test` runs the seeds;
// `go test -fuzz FuzzWrite ./internal/p4rt` explores.
func FuzzWrite(f *testing.F) {
	h := &harness{t: &testing.T{}, info: fixtureP4Info()}
	seeds := []*p4v1.Update{
		upd(ins, h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, 1, 32), exactM(2, 2, 32)}, aULSess, 0, 3, 4)),
		upd(ins, h.entry(tApps, []*p4v1.FieldMatch{exactM(1, 1, 4), lpmM(2, 0x08080800, 24), rangeM(3, 1, 9),
			ternM(4, 6, 0xff, 8)}, aSetAppID, 5, 7)),
		upd(mod, h.entry(tRoutes, []*p4v1.FieldMatch{lpmM(1, 0x0a000000, 8)}, aRoute, 0, 1, 2, 3)),
		upd(del, h.entry(tACL, []*p4v1.FieldMatch{ternM(1, 1, 0x1ff, 9)}, "", 3)),
		{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{
			MeterId: 0x13000001, Index: &p4v1.Index{Index: 5}, Config: &p4v1.MeterConfig{Cir: 1, Cburst: 2, Pir: 3, Pburst: 4}}}}},
		{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
			CounterId: 0x12000001, Index: &p4v1.Index{Index: 7}, Data: &p4v1.CounterData{ByteCount: 9, PacketCount: 1}}}}},
	}
	for _, u := range seeds {
		b, _ := proto.Marshal(&p4v1.WriteRequest{Updates: []*p4v1.Update{u}})
		f.Add(b)
	}
	sc := h.schema()
	// The tables and the meters' configs.
	state := func(t *testing.T, srv *Server) []*p4v1.Entity {
		out, err := srv.readTables(&p4v1.TableEntry{}, nil)
		if err == nil {
			out, err = srv.readMeters(&p4v1.MeterEntry{}, out)
		}
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		return out
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parsed := &p4v1.WriteRequest{}
		if proto.Unmarshal(data, parsed) != nil {
			return
		}
		// The codec's path (updates read in place) and protobuf's (parsed, then
		// encoded again) must give the same errors, tables and meters.
		lazy := &p4v1.WriteRequest{}
		if err := (codec{}).Unmarshal(data, lazy); err != nil {
			t.Fatalf("codec refused what protobuf takes: %v", err)
		}
		var srvs [2]*Server
		var errs [2][]error
		for i, req := range []*p4v1.WriteRequest{lazy, parsed} {
			srvs[i] = NewServer(Config{DeviceID: 1}, newFake(), slog.New(slog.NewTextHandler(io.Discard, nil)))
			srvs[i].pipe = newPipeState(sc, &p4v1.ForwardingPipelineConfig{P4Info: h.info}, srvs[i].sizes(sc), srvs[i].dp)
			ups, err := appendRawUpdates(nil, req)
			if err != nil {
				t.Fatalf("updates: %v", err)
			}
			errs[i] = srvs[i].writeBatch(ups)
		}
		if len(errs[0]) != len(parsed.Updates) || len(errs[1]) != len(parsed.Updates) {
			t.Fatalf("%d and %d errors for %d updates", len(errs[0]), len(errs[1]), len(parsed.Updates))
		}
		for i := range errs[0] {
			if (errs[0][i] == nil) != (errs[1][i] == nil) ||
				(errs[0][i] != nil && errs[0][i].Error() != errs[1][i].Error()) {
				t.Fatalf("update %d: in place %v, parsed %v", i, errs[0][i], errs[1][i])
			}
		}
		a, b := state(t, srvs[0]), state(t, srvs[1])
		if len(a) != len(b) {
			t.Fatalf("%d entries in place, %d parsed", len(a), len(b))
		}
		for i := range a {
			if !proto.Equal(a[i], b[i]) {
				t.Fatalf("entry %d: in place %v, parsed %v", i, a[i], b[i])
			}
		}
	})
}
