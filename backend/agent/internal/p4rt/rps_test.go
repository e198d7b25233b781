package p4rt

import (
	"fmt"
	"strings"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"hupf/backend/agent/internal/p4const"
)

// The data plane gets RPS's sizes from the hw P4Info: receipts per point, flow ids and the tracker's depth (the
// registers' cells over the two points, the tracker's over the flows'), rps.flows' size.
func TestRPSSizesFromTheP4Info(t *testing.T) {
	h := newHWHarness(t)
	got := h.fake.sizes
	flows := h.sc.registerSize(rRPSNextDnum)
	if got.RPSBuffer != h.sc.registerSize(rRPSBufFlow)/2 || got.RPSFlows != flows/2 ||
		got.RPSTrackDepth != h.sc.registerSize(rRPSTrackDnum)/flows || got.RPSFlowEntries != h.sc.TableSize(tRPSFlows) ||
		got.RPSBuffer == 0 || got.RPSFlows == 0 || got.RPSTrackDepth == 0 {
		t.Errorf("RPS sizes %d/%d/%d/%d", got.RPSBuffer, got.RPSFlows, got.RPSTrackDepth, got.RPSFlowEntries)
	}
}

// A hw P4Info whose tracker is not a power of two (below 2^16) times the flows' cells is refused: the data
// plane could not index it as the P4 does.
func TestRPSTrackerDepthMustBeAPowerOfTwo(t *testing.T) {
	for _, depth := range []int32{0, 3, 48, 1 << 16} {
		info := committedP4Info(t, "hw")
		var flows int32
		for _, r := range info.Registers {
			if r.Preamble.Name == rRPSNextDnum {
				flows = r.Size
			}
		}
		for _, r := range info.Registers {
			if r.Preamble.Name == rRPSTrackDnum {
				r.Size = flows * depth
			}
		}
		_, err := NewProfileSchema(info, hwProfile)
		want := fmt.Sprintf("register %s has %d cells, not a power of two below 2^16 times %s's %d",
			rRPSTrackDnum, flows*depth, rRPSNextDnum, flows)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("tracker depth %d: %v", depth, err)
		}
	}
}

func (h *hwHarness) rpsConfig(a *p4v1.Action) *p4v1.Update {
	te := &p4v1.TableEntry{TableId: h.tid(tRPSConfig), IsDefaultAction: true}
	if a != nil {
		te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: a}}
	}
	return upd(mod, te)
}

func (h *hwHarness) rpsConfigRead() []uint64 {
	def := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tid(tRPSConfig),
		IsDefaultAction: true}}})
	if len(def) != 1 {
		h.t.Fatalf("rps.config's default read as %v", def)
	}
	var out []uint64
	for _, p := range def[0].GetTableEntry().Action.GetAction().Params {
		v, err := decodeValue(p.Value, 32, "param")
		if err != nil {
			h.t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// rps.config's default action reaches the data plane and reads back; without an action it is the P4's
// again (off, over the whole buffer).
func TestRPSConfig(t *testing.T) {
	h := newHWHarness(t)
	if got := h.rpsConfigRead(); len(got) != 4 || got[0] != p4const.RpsModeOff || got[3] != uint64(h.sc.rpsBuffer()) {
		t.Errorf("rps.config before any write: %v", got)
	}
	if err := h.write(h.rpsConfig(h.act(aRPSSetConfig, p4const.RpsModeDataPlane, 500, 0x40000000, 16))); err != nil {
		t.Fatal(err)
	}
	if got := h.fake.last(); got != "rps_params {Mode:1 QuietUS:500 SelectThreshold:1073741824 BufferLen:16}" {
		t.Errorf("rps.config reached the data plane as %q", got)
	}
	if got := h.rpsConfigRead(); len(got) != 4 || got[0] != 1 || got[1] != 500 || got[2] != 0x40000000 || got[3] != 16 {
		t.Errorf("rps.config read back as %v", got)
	}
	if err := h.write(h.rpsConfig(nil)); err != nil {
		t.Fatal(err)
	}
	want := rpsDefault(h.sc.rpsBuffer())
	if got := h.rpsConfigRead(); got[0] != uint64(want.Mode) || got[3] != uint64(want.BufferLen) ||
		h.fake.last() != fmt.Sprintf("rps_params %+v", want) {
		t.Errorf("rps.config reset: read %v, data plane %q", got, h.fake.last())
	}
}

// rps.flows' entries (UE prefix, direction) go to the data plane one by one and read back; not_sampled
// is the default only.
func TestRPSFlows(t *testing.T) {
	h := newHWHarness(t)
	key := []*p4v1.FieldMatch{lpmM(1, 0xac100000, 16), exactM(2, 1, 1)}
	entry := func(op p4v1.Update_Type, action string, params ...uint64) *p4v1.Update {
		te := &p4v1.TableEntry{TableId: h.tid(tRPSFlows), Match: key}
		if action != "" {
			te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.act(action, params...)}}
		}
		return upd(op, te)
	}
	h.writeSteps([]writeStep{
		{entry(ins, aRPSSetFlow, 3, 0x1000), "rps_flow 1 ac100000/16 1 3 00001000"},
		{entry(mod, aRPSSetFlow, 4, 0x2000), "rps_flow 2 ac100000/16 1 4 00002000"},
	})
	if p := h.onlyEntryParams(h.tid(tRPSFlows), 16, 32); p[0] != 4 || p[1] != 0x2000 {
		t.Errorf("rps.flows read back with params %v", p)
	}
	if err := h.write(entry(ins, aRPSNotSampled)); status.Code(err) == codes.OK {
		t.Error("not_sampled accepted as an entry's action")
	}
	if err := h.write(entry(del, "")); err != nil || h.fake.last() != "rps_flow 3 ac100000/16 1 0 00000000" {
		t.Errorf("delete: %v, %q", err, h.fake.last())
	}
}

// The events counters: HupfIngress.rps.events counts the IN point's cells, HupfEgress.rps.events the
// OUT point's, the other point's cells zero (read and write); both are in the wildcard read.
func TestRPSEventsCounters(t *testing.T) {
	h := newHWHarness(t)
	in, out := h.sc.counters[cRPSInEvents].Preamble.Id, h.sc.counters[cRPSOutEvents].Preamble.Id
	inCell, outCell := int64(p4const.RpsEvDirect), int64(p4const.RpsEvents+p4const.RpsEvDirect)
	h.fake.WriteRPSEvents(uint32(inCell), 5)
	h.fake.WriteRPSEvents(uint32(outCell), 7)
	cell := func(id uint32, idx int64) int64 {
		got := h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: id,
			Index: &p4v1.Index{Index: idx}}}})
		if len(got) != 1 {
			t.Fatalf("counter %d cell %d read as %v", id, idx, got)
		}
		return got[0].GetCounterEntry().Data.PacketCount
	}
	if a, b, c, d := cell(in, inCell), cell(in, outCell), cell(out, outCell), cell(out, inCell); a != 5 || b != 0 || c != 7 || d != 0 {
		t.Errorf("cells: IN %d (other point %d), OUT %d (other point %d)", a, b, c, d)
	}
	write := func(id uint32, idx, pkts int64) error {
		return h.write(&p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
			CounterId: id, Index: &p4v1.Index{Index: idx}, Data: &p4v1.CounterData{PacketCount: pkts}}}}})
	}
	if err := write(out, outCell, 0); err != nil || cell(out, outCell) != 0 {
		t.Errorf("OUT cell reset: %v", err)
	}
	if err := write(in, outCell, 0); err != nil {
		t.Errorf("zero to the other point's cell: %v", err)
	}
	if err := write(in, outCell, 3); err == nil {
		t.Error("a count written to the other point's cell")
	}
	if err := write(in, int64(h.sc.counters[cRPSInEvents].Size), 0); err == nil {
		t.Error("a cell past the counter written")
	}
	all := h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{}}})
	n := map[uint32]int{}
	for _, e := range all {
		n[e.GetCounterEntry().CounterId]++
	}
	if n[in] != int(h.sc.counters[cRPSInEvents].Size) || n[out] != int(h.sc.counters[cRPSOutEvents].Size) {
		t.Errorf("wildcard read: %d IN cells, %d OUT cells", n[in], n[out])
	}
}
