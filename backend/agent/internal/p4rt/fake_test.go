package p4rt

import (
	"fmt"
	"sync"
)

// fakeDP records what the server asks of the data plane.
type fakeDP struct {
	mu        sync.Mutex
	calls     []string
	apps      []AppRule
	acl       []ACLRule
	commits   int
	failNext  error
	pktOut    []string
	pktIn     [][]byte
	pktInWake chan struct{}
	counters  map[[2]uint32][2]uint64
	marks     map[uint32]bool          // blocks of the pre- and post-QoS counters written since the last harvest
	cellsRead int                      // by ReadCounters
	exact     [4]map[uint64]ExactEntry // the exact tables, as the data plane holds them
	sizes     Sizes
}

func newFake() *fakeDP {
	f := &fakeDP{counters: map[[2]uint32][2]uint64{}, marks: map[uint32]bool{}, pktInWake: make(chan struct{}, 1)}
	for i := range f.exact {
		f.exact[i] = map[uint64]ExactEntry{}
	}
	return f
}

// hold applies an exact-table write as the data plane does (err: a failure to inject).
func (f *fakeDP) hold(err error, t ExactTable, op Op, e ExactEntry) error {
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, have := f.exact[t][e.Key]
	capacity := [4]uint32{f.sizes.ULSessions, f.sizes.DLSessions, f.sizes.ULTerms, f.sizes.DLTerms}[t]
	switch {
	case op == OpInsert && have:
		return &DPError{Errno: EEXIST}
	case op != OpInsert && !have:
		return &DPError{Errno: ENOENT}
	case op == OpInsert && uint32(len(f.exact[t])) >= capacity:
		return &DPError{Errno: ENOSPC}
	}
	if op == OpDelete {
		delete(f.exact[t], e.Key)
	} else {
		f.exact[t][e.Key] = e
	}
	return nil
}

func (f *fakeDP) ExactGet(t ExactTable, key uint64) (ExactEntry, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.exact[t][key]
	return e, ok, nil
}

func (f *fakeDP) ExactCount(t ExactTable) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.exact[t]), nil
}

func (f *fakeDP) ExactEach(t ExactTable, fn func(*ExactEntry)) error {
	for _, e := range f.exact[t] {
		fn(&e)
	}
	return nil
}

func (f *fakeDP) rec(format string, a ...any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf(format, a...))
	err := f.failNext
	f.failNext = nil
	return err
}

func (f *fakeDP) last() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		return ""
	}
	return f.calls[len(f.calls)-1]
}

func (f *fakeDP) SetPipeline(s Sizes) error {
	f.mu.Lock()
	f.sizes = s
	f.mu.Unlock()
	return f.rec("pipeline %+v", s)
}
func (f *fakeDP) Interface(op Op, prefix uint32, plen, g, i, s uint8) error {
	return f.rec("iface %d %08x/%d gtpu=%d kind=%d slice=%d", op, prefix, plen, g, i, s)
}
func (f *fakeDP) ULSession(op Op, d, teid uint32, a uint8, ue, m uint32) error {
	return f.hold(f.rec("ulsess %d %08x teid=%d act=%d ue=%08x meter=%d", op, d, teid, a, ue, m), ExactULSess, op,
		ExactEntry{Key: uint64(d)<<32 | uint64(teid), Action: a, UE: ue, Meter: min(m, ulMeterHeld)})
}
func (f *fakeDP) DLSession(op Op, ue uint32, a, peer uint8, m uint32) error {
	return f.hold(f.rec("dlsess %d %08x act=%d peer=%d meter=%d", op, ue, a, peer, m), ExactDLSess, op,
		ExactEntry{Key: uint64(ue), Action: a, Peer: peer, Meter: m})
}
func (f *fakeDP) ULTerm(op Op, ue uint32, app uint8, t Term) error {
	return f.hold(f.rec("ulterm %d %08x app=%d %+v", op, ue, app, t), ExactULTerm, op,
		ExactEntry{Key: uint64(ue)<<8 | uint64(app), Term: t})
}
func (f *fakeDP) DLTerm(op Op, ue uint32, app uint8, t Term) error {
	return f.hold(f.rec("dlterm %d %08x app=%d %+v", op, ue, app, t), ExactDLTerm, op,
		ExactEntry{Key: uint64(ue)<<8 | uint64(app), Term: t})
}
func (f *fakeDP) IGPeer(op Op, p uint8, d uint32) error { return f.rec("igpeer %d %d %08x", op, p, d) }
func (f *fakeDP) EGPeer(op Op, p uint8, s, d uint32, sp uint16) error {
	return f.rec("egpeer %d %d %08x %08x %d", op, p, s, d, sp)
}
func (f *fakeDP) Route(op Op, pfx uint32, plen uint8, sm, dm [6]byte, port uint16) error {
	return f.rec("route %d %08x/%d %x %x %d", op, pfx, plen, sm, dm, port)
}
func (f *fakeDP) SetEncapPSC(on bool) error { return f.rec("psc %v", on) }
func (f *fakeDP) VxPeer(op Op, p uint8, v VxPeer) error {
	return f.rec("vxpeer %d %d %06x %08x %08x %x %x", op, p, v.VNI, v.VtepSrc, v.VtepDst, v.InnerSrcMAC, v.InnerDstMAC)
}
func (f *fakeDP) Tenant(op Op, vni, vtep uint32, id, tc, dscp uint8) error {
	return f.rec("tenant %d %06x %08x %d %d %d", op, vni, vtep, id, tc, dscp)
}
func (f *fakeDP) Slice(op Op, id, qfi, tc, dscp uint8) error {
	return f.rec("slice %d %d %d %d %d", op, id, qfi, tc, dscp)
}
func (f *fakeDP) Queue(op Op, tc, qid uint8) error { return f.rec("queue %d %d %d", op, tc, qid) }
func (f *fakeDP) BackendClass(op Op, dscp, tc uint8) error {
	return f.rec("backendclass %d %d %d", op, dscp, tc)
}
func (f *fakeDP) BackendPort(op Op, port uint16) error {
	return f.rec("backend_port %d %d", op, port)
}
func (f *fakeDP) SetHHParams(h HHParams) error { return f.rec("hh_params %+v", h) }
func (f *fakeDP) ReplaceTau(r []Range) error   { return f.rec("tau %v", r) }
func (f *fakeDP) HHSlot(idx uint32) (HHSlot, error) {
	return HHSlot{FlowID: idx, IPGEWMA: 2 * idx, LastTS: 1<<40 | uint64(idx), Tau: 3, Reported: 1}, nil
}
func (f *fakeDP) SetClsParams(c ClsParams) error        { return f.rec("cls_params %+v", c) }
func (f *fakeDP) ReplaceFeature(i int, r []Range) error { return f.rec("feature %d %v", i, r) }
func (f *fakeDP) ReplaceDecisions(d []Decision) error   { return f.rec("decisions %v", d) }
func (f *fakeDP) ClsSlot(idx uint32) (ClsSlot, error) {
	return ClsSlot{PktsUp: idx, PktsDn: 1, PSUp: 2, PSDn: 3, IPGUp: 4, IPGDn: 5, LastUp: 6, LastDn: 7, WinStart: 8, Class: 9}, nil
}

// rpsEventsFake keys the RPS events cells among the fake's counters.
const rpsEventsFake = 100

func (f *fakeDP) SetRPSParams(r RPSParams) error { return f.rec("rps_params %+v", r) }
func (f *fakeDP) RPSFlow(op Op, pfx uint32, plen, dir uint8, id uint16, thr uint32) error {
	return f.rec("rps_flow %d %08x/%d %d %d %08x", op, pfx, plen, dir, id, thr)
}
func (f *fakeDP) ReadRPSEvents(idx uint32) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counters[[2]uint32{rpsEventsFake, idx}][0], nil
}
func (f *fakeDP) WriteRPSEvents(idx uint32, pkts uint64) error {
	f.mu.Lock()
	f.counters[[2]uint32{rpsEventsFake, idx}] = [2]uint64{pkts, 0}
	f.mu.Unlock()
	return nil
}
func (f *fakeDP) SetBackends(slice uint8, m []Backend) error {
	return f.rec("backends %d %v", slice, m)
}
func (f *fakeDP) ReplaceApps(r []AppRule) error {
	f.apps = r
	return f.rec("apps %d", len(r))
}
func (f *fakeDP) ReplaceACL(r []ACLRule) error {
	f.acl = r
	return f.rec("acl %d", len(r))
}
func (f *fakeDP) SetMeter(w int, idx uint32, c *MeterCfg) error {
	if c == nil {
		return f.rec("meter %d %d reset", w, idx)
	}
	return f.rec("meter %d %d %+v", w, idx, *c)
}
func (f *fakeDP) ReadCounter(w int, idx uint32) (uint64, uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v := f.counters[[2]uint32{uint32(w), idx}]
	return v[0], v[1], nil
}
func (f *fakeDP) ReadCounters(w int, lo uint32, pkts, bytes []uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cellsRead += len(pkts)
	for i := range pkts {
		v := f.counters[[2]uint32{uint32(w), lo + uint32(i)}]
		pkts[i], bytes[i] = v[0], v[1]
	}
	return nil
}
func (f *fakeDP) ReadCounterCells(cells []uint32, counts []uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, cell := range cells {
		pre, post := f.counters[[2]uint32{CtrPreQos, cell}], f.counters[[2]uint32{CtrPostQos, cell}]
		copy(counts[4*i:], []uint64{pre[0], pre[1], post[0], post[1]})
	}
	return nil
}
func (f *fakeDP) WriteCounter(w int, idx uint32, p, b uint64) error {
	f.mu.Lock()
	f.counters[[2]uint32{uint32(w), idx}] = [2]uint64{p, b}
	if w == CtrPreQos || w == CtrPostQos {
		f.marks[idx/CounterBlock] = true
	}
	f.mu.Unlock()
	return nil
}

// countUnmarked changes a cell as a count whose mark is not visible yet would.
func (f *fakeDP) countUnmarked(w int, idx uint32, p, b uint64) {
	f.mu.Lock()
	f.counters[[2]uint32{uint32(w), idx}] = [2]uint64{p, b}
	f.mu.Unlock()
}

func (f *fakeDP) HarvestCounterMarks(bits []uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for b := range f.marks {
		if int(b/64) < len(bits) {
			bits[b/64] |= 1 << (b % 64)
			delete(f.marks, b)
		}
	}
	return nil
}
func (f *fakeDP) ReadDrops(r uint32) (uint64, error) { return uint64(r) * 10, nil }
func (f *fakeDP) Commit() {
	f.mu.Lock()
	f.commits++
	f.mu.Unlock()
}
func (f *fakeDP) PacketOut(port uint16, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pktOut = append(f.pktOut, fmt.Sprintf("%d:%x", port, data))
	return nil
}

// addPacketIn queues a packet-in and wakes the pump.
func (f *fakeDP) addPacketIn(p []byte) {
	f.mu.Lock()
	f.pktIn = append(f.pktIn, p)
	f.mu.Unlock()
	select {
	case f.pktInWake <- struct{}{}:
	default:
	}
}
func (f *fakeDP) WaitPacketIn(stop <-chan struct{}) {
	select {
	case <-f.pktInWake:
	case <-stop:
	}
}
func (f *fakeDP) PacketIn(buf []byte) (int, uint16, uint8) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.pktIn) == 0 {
		return 0, 0, 0
	}
	p := f.pktIn[0]
	f.pktIn = f.pktIn[1:]
	return copy(buf, p), 7, 2
}
