package p4rt

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// writeStep is one update and the data-plane call it must make.
type writeStep struct {
	u    *p4v1.Update
	want string
}

// writeSteps writes each step's update alone and checks the data plane's last call after it.
func (h *harness) writeSteps(steps []writeStep) {
	for _, s := range steps {
		if err := h.write(s.u); err != nil {
			h.t.Fatalf("%s: %v", s.want, err)
		}
		if got := h.fake.last(); got != s.want {
			h.t.Errorf("data plane got %q, want %q", got, s.want)
		}
	}
}

// onlyEntryParams reads a table's entries, which must be one, and its action's params of these widths.
func (h *harness) onlyEntryParams(id uint32, widths ...int32) []uint64 {
	got := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id}}})
	if len(got) != 1 || len(got[0].GetTableEntry().Action.GetAction().Params) != len(widths) {
		h.t.Fatalf("table %d read as %v, want one entry with %d params", id, got, len(widths))
	}
	var out []uint64
	for i, p := range got[0].GetTableEntry().Action.GetAction().Params {
		v, err := decodeValue(p.Value, widths[i], "param")
		if err != nil {
			h.t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestTenants: the VXLAN tenants table (p4src/include/tenant.p4) goes to the data plane entry by
// entry and reads back as written; tenant_miss is the default only; the tenant counter and meter
// are the data plane's CtrTenant and MeterTenant, sized from the P4Info, and in the wildcard reads.
func TestTenants(t *testing.T) {
	h, _ := primed(t)
	vtep := uint64(0xc0a83201)
	key := []*p4v1.FieldMatch{exactM(1, 5001, 24), exactM(2, vtep, 32)}
	h.writeSteps([]writeStep{
		{upd(ins, h.entry(tTenants, key, aSetTenant, 0, 1, 3, 46)), "tenant 1 001389 c0a83201 1 3 46"},
		{upd(mod, h.entry(tTenants, key, aSetTenant, 0, 1, 1, 10)), "tenant 2 001389 c0a83201 1 1 10"},
	})
	if p := h.onlyEntryParams(h.tableID(tTenants), 8, 2, 6); p[1] != 1 || p[2] != 10 {
		t.Errorf("tenant read back with params %v", p)
	}
	if err := h.write(upd(ins, h.entry(tTenants, []*p4v1.FieldMatch{exactM(1, 7, 24), exactM(2, vtep, 32)},
		aTenantMiss, 0))); err == nil {
		t.Error("tenant_miss accepted as an entry's action")
	}
	if err := h.write(upd(del, h.entry(tTenants, key, "", 0))); err != nil || h.fake.last() != "tenant 3 001389 c0a83201 0 0 0" {
		t.Errorf("delete: %v, %q", err, h.fake.last())
	}
	vx := h.entry(tPeerVxlan, []*p4v1.FieldMatch{exactM(1, 2, 8)}, aVxlanEncap, 0, 5001, vtep, 0xc0a83264, 0xaa, 0xbb)
	if err := h.write(upd(ins, vx)); err != nil || h.fake.last() != "vxpeer 1 2 001389 c0a83201 c0a83264 0000000000aa 0000000000bb" {
		t.Errorf("peer_vxlan insert: %v, %q", err, h.fake.last())
	}
	if err := h.write(upd(ins, h.entry(tPeerVxlan, []*p4v1.FieldMatch{exactM(1, 3, 8)}, aVxlanNop, 0))); err == nil {
		t.Error("peer_vxlan nop accepted as an entry's action")
	}
	sc := h.schema()
	ctrID, mtrID := sc.counters[cTenant].Preamble.Id, sc.meters[mTenant].Preamble.Id
	h.fake.WriteCounter(CtrTenant, 2, 5, 500)
	got := h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: ctrID, Index: &p4v1.Index{Index: 2}}}})
	if d := got[0].GetCounterEntry().Data; len(got) != 1 || d.PacketCount != 5 || d.ByteCount != 500 {
		t.Errorf("tenant counter read %v", got)
	}
	all := h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{}}})
	n := 0
	for _, e := range all {
		if e.GetCounterEntry().CounterId == ctrID {
			n++
		}
	}
	if n != int(sc.counters[cTenant].Size) {
		t.Errorf("wildcard read of every counter: %d tenant cells, want %d", n, sc.counters[cTenant].Size)
	}
	me := &p4v1.MeterEntry{MeterId: mtrID, Index: &p4v1.Index{Index: 2}, Config: &p4v1.MeterConfig{Cir: 1000, Cburst: 100, Pir: 1000, Pburst: 100}}
	if err := h.write(&p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: me}}}); err != nil {
		t.Fatal(err)
	}
	if h.fake.last() != "meter 2 2 {CIR:1000 CBurst:100 PIR:1000 PBurst:100}" {
		t.Errorf("tenant meter call %q", h.fake.last())
	}
	got = h.read(&p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{}}})
	found := false
	for _, e := range got {
		found = found || (e.GetMeterEntry().MeterId == mtrID && e.GetMeterEntry().Index.Index == 2)
	}
	if !found {
		t.Errorf("wildcard meter read lacks the tenant meter: %v", got)
	}
}

// TestSlices: a tenant's slices, (tenant id, QFI) -> set_slice(tc, dscp), go to the data plane entry by entry
// and read back as written; slice_nop is the default only and a QFI beyond 6 bits is refused; the slice counter
// and meter are the data plane's CtrSlice and MeterSlice, by cell tenant id * 64 + QFI.
func TestSlices(t *testing.T) {
	h, _ := primed(t)
	key := []*p4v1.FieldMatch{exactM(1, 1, 8), exactM(2, 9, 6)}
	h.writeSteps([]writeStep{
		{upd(ins, h.entry(tSlices, key, aSetSlice, 0, 2, 10)), "slice 1 1 9 2 10"},
		{upd(mod, h.entry(tSlices, key, aSetSlice, 0, 3, 46)), "slice 2 1 9 3 46"},
	})
	if p := h.onlyEntryParams(h.tableID(tSlices), 2, 6); p[0] != 3 || p[1] != 46 {
		t.Errorf("slice read back with params %v", p)
	}
	if err := h.write(upd(ins, h.entry(tSlices, []*p4v1.FieldMatch{exactM(1, 1, 8), exactM(2, 5, 6)}, aSliceNop, 0))); err == nil {
		t.Error("slice_nop accepted as an entry's action")
	}
	if err := h.write(upd(ins, h.entry(tSlices, []*p4v1.FieldMatch{exactM(1, 1, 8), exactM(2, 64, 7)}, aSetSlice, 0, 1, 1))); err == nil {
		t.Error("QFI 64 accepted")
	}
	if err := h.write(upd(del, h.entry(tSlices, key, "", 0))); err != nil || h.fake.last() != "slice 3 1 9 0 0" {
		t.Errorf("delete: %v, %q", err, h.fake.last())
	}
	sc := h.schema()
	ctrID, mtrID := sc.counters[cSlice].Preamble.Id, sc.meters[mSlice].Preamble.Id
	h.fake.WriteCounter(CtrSlice, 73, 4, 400)
	got := h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: ctrID, Index: &p4v1.Index{Index: 73}}}})
	if d := got[0].GetCounterEntry().Data; len(got) != 1 || d.PacketCount != 4 || d.ByteCount != 400 {
		t.Errorf("slice counter read %v", got)
	}
	me := &p4v1.MeterEntry{MeterId: mtrID, Index: &p4v1.Index{Index: 73}, Config: &p4v1.MeterConfig{Cir: 1000, Cburst: 100, Pir: 1000, Pburst: 100}}
	if err := h.write(&p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: me}}}); err != nil {
		t.Fatal(err)
	}
	if h.fake.last() != "meter 3 73 {CIR:1000 CBurst:100 PIR:1000 PBurst:100}" {
		t.Errorf("slice meter call %q", h.fake.last())
	}
	me.Index.Index = sc.meters[mSlice].Size
	if err := h.write(&p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: me}}}); err == nil {
		t.Error("a slice meter cell beyond the P4Info's accepted")
	}
}
