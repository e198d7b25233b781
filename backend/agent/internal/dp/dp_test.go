package dp

import (
	"sync"
	"testing"

	"hupf/backend/agent/internal/p4rt"
)

// booted starts the data plane once for the package's tests: EAL without hugepages, no ports, one forwarding
// lcore that naps while idle, and a small sw pipeline.
func booted(t testing.TB) DP {
	t.Helper()
	bootOnce.Do(func() {
		bootErr = Boot(BootConfig{Workers: 1, MemMB: 256, Mbufs: 1024, IdleSleepUS: 1000, IdleSleepMaxUS: 100000})
		if bootErr == nil {
			bootErr = DP{}.SetPipeline(p4rt.Sizes{Interfaces: 16, ULSessions: 1024, DLSessions: 1024,
				Applications: 16, ULTerms: 1024, DLTerms: 1024, Routes: 16, ACL: 16, PreQosCtr: 2048,
				PostQosCtr: 2048, SessionMeter: 1024, AppMeter: 16, MeterStates: 1024, Tenants: 4, TenantCells: 4,
				Slices: 4, SliceCells: 4})
		}
	})
	if bootErr != nil {
		t.Fatalf("data plane: %v", bootErr)
	}
	return DP{}
}

// pfcpSession returns the data-plane calls a PFCP session's establishment, modification and deletion make: its
// sessions, terminations, meter and counter cells written, a termination modified, its terminations looked up
// and their final counts read, then all deleted.
func pfcpSession(tb testing.TB, d DP) func() {
	const ue, n3, teid, cell = 0x0a0a0001, 0x0a000001, 7, 3
	term := p4rt.Term{Action: p4rt.TermFwd, CtrIdx: cell, TEID: teid, QFI: 9}
	meter := &p4rt.MeterCfg{CIR: 125000, CBurst: 15000, PIR: 250000, PBurst: 30000}
	cells, counts := []uint32{cell, cell + 1}, make([]uint64, 8)
	must := func(what string, err error) {
		if err != nil {
			tb.Fatalf("%s: %v", what, err)
		}
	}
	return func() {
		must("ul session", d.ULSession(p4rt.OpInsert, n3, teid, p4rt.SessFwd, ue, 1))
		must("dl session", d.DLSession(p4rt.OpInsert, ue, p4rt.SessFwd, 1, 1))
		must("ul term", d.ULTerm(p4rt.OpInsert, ue, 0, term))
		must("dl term", d.DLTerm(p4rt.OpInsert, ue, 0, term))
		must("meter", d.SetMeter(p4rt.MeterSess, 1, meter))
		must("counter", d.WriteCounter(p4rt.CtrPreQos, cell, 0, 0))
		d.Commit()
		must("dl term modify", d.DLTerm(p4rt.OpModify, ue, 0, term))
		d.Commit()
		for _, table := range []p4rt.ExactTable{p4rt.ExactULTerm, p4rt.ExactDLTerm} {
			e, found, err := d.ExactGet(table, ue<<8)
			if err != nil || !found || e.Term.CtrIdx != cell {
				tb.Fatalf("table %d: %+v, found %v, %v", table, e, found, err)
			}
		}
		must("final counts", d.ReadCounterCells(cells, counts))
		_, _, err := d.ReadCounter(p4rt.CtrPostQos, cell)
		must("counter read", err)
		must("ul term delete", d.ULTerm(p4rt.OpDelete, ue, 0, p4rt.Term{}))
		must("dl term delete", d.DLTerm(p4rt.OpDelete, ue, 0, p4rt.Term{}))
		must("ul session delete", d.ULSession(p4rt.OpDelete, n3, teid, 0, 0, 0))
		must("dl session delete", d.DLSession(p4rt.OpDelete, ue, 0, 0, 0))
		d.Commit()
	}
}

// TestPFCPCallsAllocateNothing: a PFCP session's data-plane calls (pfcpSession) take no heap allocation: what the
// agent passes to C stays on its stack. The session is gone afterwards.
func TestPFCPCallsAllocateNothing(t *testing.T) {
	d := booted(t)
	session := pfcpSession(t, d)
	session()
	if allocs := testing.AllocsPerRun(50, session); allocs != 0 {
		t.Errorf("%v allocations per session's data-plane calls", allocs)
	}
	if _, found, err := d.ExactGet(p4rt.ExactDLTerm, 0x0a0a0001<<8); found || err != nil {
		t.Errorf("downlink termination still held after its deletion (%v)", err)
	}
}

// BenchmarkPFCPCalls: what a PFCP session's data-plane calls (pfcpSession, three commits among them) cost the
// agent's thread, and their allocations.
func BenchmarkPFCPCalls(b *testing.B) {
	session := pfcpSession(b, booted(b))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		session()
	}
}

var (
	bootOnce sync.Once
	bootErr  error
)
