package p4rt

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// TestTenants: the VXLAN tenants table (p4src/include/tenant.p4) goes to the data plane entry by
// entry and reads back as written; tenant_miss is the default only; the tenant counter and meter
// are the data plane's CtrTenant and MeterTenant, sized from the P4Info, and in the wildcard reads.
func TestTenants(t *testing.T) {
	h, _ := primed(t)
	vtep := uint64(0xc0a83201)
	key := []*p4v1.FieldMatch{exactM(1, 5001, 24), exactM(2, vtep, 32)}
	steps := []struct {
		u    *p4v1.Update
		want string
	}{
		{upd(ins, h.entry(tTenants, key, aSetTenant, 0, 1, 3, 46)), "tenant 1 001389 c0a83201 1 3 46"},
		{upd(mod, h.entry(tTenants, key, aSetTenant, 0, 1, 1, 10)), "tenant 2 001389 c0a83201 1 1 10"},
	}
	for _, s := range steps {
		if err := h.write(s.u); err != nil {
			t.Fatalf("%s: %v", s.want, err)
		}
		if got := h.fake.last(); got != s.want {
			t.Errorf("data plane got %q, want %q", got, s.want)
		}
	}
	got := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tableID(tTenants)}}})
	if len(got) != 1 {
		t.Fatalf("tenants read: %v", got)
	}
	ps := got[0].GetTableEntry().Action.GetAction().Params
	dscp, _ := decodeValue(ps[2].Value, 6, "dscp")
	tc, _ := decodeValue(ps[1].Value, 2, "tc")
	if len(ps) != 3 || dscp != 10 || tc != 1 {
		t.Errorf("tenant read back %v", got[0])
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
	got = h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: ctrID, Index: &p4v1.Index{Index: 2}}}})
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
