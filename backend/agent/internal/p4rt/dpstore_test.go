package p4rt

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// canon is te with canonical bytestrings, as Read returns it.
func canon(te *p4v1.TableEntry) *p4v1.TableEntry {
	c := proto.Clone(te).(*p4v1.TableEntry)
	short := func(b []byte) []byte {
		for len(b) > 1 && b[0] == 0 {
			b = b[1:]
		}
		return b
	}
	for _, m := range c.Match {
		m.GetExact().Value = short(m.GetExact().Value)
	}
	for _, p := range c.Action.GetAction().Params {
		p.Value = short(p.Value)
	}
	return c
}

// TestExactTablesReadFromDataplane: the session and termination tables are read
// back from the data plane (the agent keeps no copy): every action of each reads
// back as written, by match and by wildcard, including an uplink meter index wider
// than the data plane holds; deleted and refused entries are absent.
func TestExactTablesReadFromDataplane(t *testing.T) {
	h, _ := primed(t)
	ue, n3 := uint64(0xac100005), uint64(0x0a000001)
	written := []*p4v1.TableEntry{
		h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, n3, 32), exactM(2, 0x1234, 32)}, aULSess, 0, ue, 7),
		h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, n3, 32), exactM(2, 0x1235, 32)}, aULSess, 0, ue, 0xfffffff0),
		h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, n3, 32), exactM(2, 0x1236, 32)}, aULSessDrop, 0),
		h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue, 32)}, aDLSess, 0, 4, 0xffffffff),
		h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue+1, 32)}, aDLSessBuf, 0, 9),
		h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue+2, 32)}, aDLSessDrop, 0),
		h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 0, 8)}, aULTermFwd, 0, 1<<31, 3, 12),
		h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 1, 8)}, aULTermDrop, 0, 13),
		h.entry(tDLTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 255, 8)}, aDLTermFwd, 0, 11, 0xbeef, 63, 2, 5),
		h.entry(tDLTerm, []*p4v1.FieldMatch{exactM(1, ue+1, 32), exactM(2, 0, 8)}, aDLTermDrop, 0, 0),
	}
	for _, te := range written {
		if err := h.write(upd(ins, te)); err != nil {
			t.Fatalf("%v: %v", te, err)
		}
	}
	for _, te := range written {
		got := h.read(tableEntity(te))
		if len(got) != 1 || !proto.Equal(got[0].GetTableEntry(), canon(te)) {
			t.Errorf("read by match: %v, want %v", got, canon(te))
		}
	}
	for _, name := range []string{tULSess, tDLSess, tULTerm, tDLTerm} {
		got := h.read(tableEntity(&p4v1.TableEntry{TableId: h.tableID(name)}))
		n := 0
		for _, te := range written {
			if te.TableId == h.tableID(name) {
				if n >= len(got) || !proto.Equal(got[n].GetTableEntry(), canon(te)) {
					t.Errorf("%s wildcard read, entry %d: %v, want %v", name, n, got, canon(te))
				}
				n++
			}
		}
		if len(got) != n {
			t.Errorf("%s wildcard read: %d entries, want %d", name, len(got), n)
		}
	}
	// Only the meter index the data plane cannot hold is kept by the agent.
	ul := h.srv.pipe.entries[h.tableID(tULSess)].(*dpStore)
	if len(ul.wider) != 1 {
		t.Errorf("agent keeps %d uplink values, want 1", len(ul.wider))
	}
	mod1 := h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, n3, 32), exactM(2, 0x1235, 32)}, aULSess, 0, ue, 8)
	if err := h.write(upd(mod, mod1)); err != nil {
		t.Fatal(err)
	}
	if got := h.read(tableEntity(mod1)); len(got) != 1 || !proto.Equal(got[0].GetTableEntry(), canon(mod1)) || len(ul.wider) != 0 {
		t.Errorf("modified entry read as %v (%d kept)", got, len(ul.wider))
	}
	for _, te := range written[:2] {
		if err := h.write(upd(del, te)); err != nil {
			t.Fatal(err)
		}
		if got := h.read(tableEntity(te)); len(got) != 0 {
			t.Errorf("deleted entry read: %v", got)
		}
	}
	if err := h.write(upd(del, written[0])); err == nil {
		t.Error("second delete accepted")
	}
	if err := h.write(upd(ins, written[3])); err == nil {
		t.Error("duplicate insert accepted")
	}
	h.fake.failNext = &DPError{Errno: ENOSPC}
	refused := h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue+3, 32)}, aDLSessDrop, 0)
	if err := h.write(upd(ins, refused)); err == nil {
		t.Error("insert the data plane refused was accepted")
	}
	if got := h.read(tableEntity(refused)); len(got) != 0 {
		t.Errorf("refused entry read: %v", got)
	}
}

// TestExactTableCapacity: a full session table refuses an insert with RESOURCE_EXHAUSTED
// from the data plane's own count.
func TestExactTableCapacity(t *testing.T) {
	h, _ := primed(t)
	capacity := h.srv.pipe.capacity[h.tableID(tDLSess)]
	for i := uint32(0); i < capacity; i++ {
		h.fake.exact[ExactDLSess][uint64(i)] = ExactEntry{Key: uint64(i), Action: SessDrop}
	}
	err := h.write(upd(ins, h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, uint64(capacity), 32)}, aDLSessDrop, 0)))
	if d := status.Convert(err).Details(); len(d) != 1 || codes.Code(d[0].(*p4v1.Error).CanonicalCode) != codes.ResourceExhausted {
		t.Errorf("insert into a full table: %v", err)
	}
}
