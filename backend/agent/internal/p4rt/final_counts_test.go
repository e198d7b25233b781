package p4rt

import (
	"bytes"
	"context"
	"slices"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

// writeWithTrailer writes ups, asking for final counts if want, and returns the trailer's answer (nil if none).
func (h *harness) writeWithTrailer(want bool, ups ...*p4v1.Update) (*p4v1.ReadResponse, error) {
	ctx := context.Background()
	if want {
		ctx = metadata.AppendToOutgoingContext(ctx, FinalCountsHeader, "1")
	}
	var trailer metadata.MD
	_, err := h.cli.Write(ctx, &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 10}, Updates: ups},
		grpc.Trailer(&trailer))
	v := trailer.Get(FinalCountsTrailer)
	if len(v) == 0 {
		return nil, err
	}
	r := &p4v1.ReadResponse{}
	if uerr := proto.Unmarshal([]byte(v[0]), r); uerr != nil {
		h.t.Fatal(uerr)
	}
	return r, err
}

func TestAWriteThatDeletesTerminationsAnswersTheirCellsFinalCounts(t *testing.T) {
	h, _ := primed(t)
	ue := uint64(0xac100005)
	dl := func(e string) *p4v1.TableEntry {
		return h.entry(tDLTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 0, 8)}, e, 0, 11, 0xbeef, 9, 2, 5)
	}
	ul := func(e string) *p4v1.TableEntry {
		return h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 1, 8)}, e, 0, 12)
	}
	dlSess := h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue, 32)}, aDLSessBuf, 0, 9)
	if r, err := h.writeWithTrailer(true, upd(ins, dl(aDLTermFwd)), upd(ins, ul(aULTermDrop)), upd(ins, dlSess)); err != nil || r != nil {
		t.Fatalf("insertions: %v, final counts %v", err, r)
	}
	h.fake.mu.Lock()
	h.fake.counters[[2]uint32{CtrPreQos, 11}] = [2]uint64{3, 300}
	h.fake.counters[[2]uint32{CtrPostQos, 11}] = [2]uint64{2, 200}
	h.fake.counters[[2]uint32{CtrPreQos, 12}] = [2]uint64{7, 700}
	h.fake.mu.Unlock()
	// A deletion of a termination that is not there is answered NOT_FOUND and reports no cell.
	missing := h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue+1, 32), exactM(2, 1, 8)}, "", 0)
	r, err := h.writeWithTrailer(true, upd(del, dl("")), upd(del, ul("")), upd(del, missing),
		upd(del, h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue, 32)}, "", 0)))
	if err == nil {
		t.Fatal("the missing termination's deletion was not refused")
	}
	if r == nil {
		t.Fatalf("no final counts in the trailer (%v)", err)
	}
	sc := h.schema()
	pre, post := sc.counters[cPreQos].Preamble.Id, sc.counters[cPostQos].Preamble.Id
	got := map[[2]int64][2]int64{}
	for _, e := range r.Entities {
		c := e.GetCounterEntry()
		got[[2]int64{int64(c.CounterId), c.Index.Index}] = [2]int64{c.Data.PacketCount, c.Data.ByteCount}
	}
	want := map[[2]int64][2]int64{{int64(pre), 11}: {3, 300}, {int64(post), 11}: {2, 200},
		{int64(pre), 12}: {7, 700}, {int64(post), 12}: {0, 0}}
	if len(got) != len(want) {
		t.Fatalf("final counts %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("cell %v: %v, want %v", k, got[k], v)
		}
	}
}

func TestFinalCountsOnlyWhenAsked(t *testing.T) {
	h, _ := primed(t)
	ue := uint64(0xac100005)
	ul := h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 1, 8)}, aULTermDrop, 0, 12)
	if err := h.write(upd(ins, ul)); err != nil {
		t.Fatal(err)
	}
	r, err := h.writeWithTrailer(false, upd(del, h.entry(tULTerm, ul.Match, "", 0)))
	if err != nil || r != nil {
		t.Errorf("unasked: %v, final counts %v", err, r)
	}
}

// The final counts are encoded as proto.Marshal encodes the ReadResponse of their CounterEntry entities, zero
// and large counts and indexes included.
func TestFinalCountsAreProtobufsEncoding(t *testing.T) {
	for _, c := range []struct {
		id     uint32
		index  int64
		pk, by uint64
	}{{1, 0, 0, 0}, {318737128, 1, 1, 64}, {2, 1<<20 - 1, 1 << 40, 1<<63 - 1}, {0, 300, 0, 5}} {
		want, err := proto.Marshal(&p4v1.ReadResponse{Entities: []*p4v1.Entity{{Entity: &p4v1.Entity_CounterEntry{
			CounterEntry: &p4v1.CounterEntry{CounterId: c.id, Index: &p4v1.Index{Index: c.index},
				Data: &p4v1.CounterData{PacketCount: int64(c.pk), ByteCount: int64(c.by)}}}}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := appendCounterEntity(nil, c.id, c.index, c.pk, c.by); !bytes.Equal(got, want) {
			t.Errorf("%+v: % x, protobuf's % x", c, got, want)
		}
	}
}

// pastEndDP refuses cell 1 as a data plane refuses a cell past a counter's end.
type pastEndDP struct{ benchDP }

func (*pastEndDP) ReadCounterCells([]uint32, []uint64) error { return &DPError{Errno: EINVAL} }
func (*pastEndDP) ReadCounter(which int, idx uint32) (uint64, uint64, error) {
	if idx == 1 {
		return 0, 0, &DPError{Errno: EINVAL}
	}
	return uint64(which + 1), uint64(idx), nil
}

// A cell the data plane cannot read is left out of the final counts (the client reads what is missing); the
// others are answered.
func TestFinalCountsLeaveOutACellPastTheCountersEnd(t *testing.T) {
	h := &harness{t: t, info: fixtureP4Info()}
	srv := benchServer(h)
	srv.dp = &pastEndDP{}
	srv.finalCells = []uint32{0, 1, 2}
	r := &p4v1.ReadResponse{}
	if err := proto.Unmarshal(srv.finalCounts(), r); err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, e := range r.Entities {
		got = append(got, e.GetCounterEntry().Index.Index)
	}
	if want := []int64{0, 0, 2, 2}; !slices.Equal(got, want) {
		t.Fatalf("cells answered %v, want %v", got, want)
	}
	srv.finalCells = []uint32{1}
	if b := srv.finalCounts(); b != nil {
		t.Fatalf("no cell readable, yet final counts % x", b)
	}
}
