package p4rt

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"

	"hupf/backend/agent/internal/p4const"
)

const p4cOut = "../../../../pipeconf/src/main/resources/p4c-out/"

// committedP4Info is p4c's P4Info of a profile as committed (the test skips without it).
func committedP4Info(t *testing.T, profile string) *p4cfg.P4Info {
	b, err := os.ReadFile(p4cOut + profile + "/bmv2/p4info.txt")
	if err != nil {
		t.Skipf("SKIPPED: no committed %s P4Info (%v)", profile, err)
	}
	info := &p4cfg.P4Info{}
	if err := prototext.Unmarshal(b, info); err != nil {
		t.Fatal(err)
	}
	return info
}

func TestProfilesAcceptOnlyTheirP4Info(t *testing.T) {
	hw, sw := committedP4Info(t, "hw"), committedP4Info(t, "sw")
	if _, err := NewProfileSchema(hw, hwProfile); err != nil {
		t.Errorf("hw P4Info refused by the hw profile: %v", err)
	}
	_, err := NewProfileSchema(sw, hwProfile)
	if err == nil || !strings.Contains(err.Error(), "not the hupf hw profile") {
		t.Errorf("sw P4Info on the hw profile: %v", err)
	}
	hw.ActionProfiles = nil
	if _, err := NewProfileSchema(hw, hwProfile); err == nil || !strings.Contains(err.Error(), apBackendSelector) {
		t.Errorf("hw P4Info without its selector: %v", err)
	}
}

// hwHarness: a server running the hw profile on the fake data plane, primary client, hw pipeline.
type hwHarness struct {
	*harness
	sc *Schema
	st p4v1.P4Runtime_StreamChannelClient
}

func newHWHarness(t *testing.T) *hwHarness {
	info := committedP4Info(t, "hw")
	h := newHarnessWith(t, Config{DeviceID: 1, Profile: "hw", CPUPort: 255}, info)
	st, _ := h.open(10)
	if err := h.setPipeline(info); err != nil {
		t.Fatal(err)
	}
	sc, err := NewProfileSchema(info, hwProfile)
	if err != nil {
		t.Fatal(err)
	}
	return &hwHarness{h, sc, st}
}

func (h *hwHarness) tid(name string) uint32 { return h.sc.tables[name].Preamble.Id }

// act builds an action of the hw P4Info with its params in order.
func (h *hwHarness) act(name string, params ...uint64) *p4v1.Action {
	a := h.sc.actions[name]
	out := &p4v1.Action{ActionId: a.Preamble.Id}
	for i, v := range params {
		out.Params = append(out.Params, &p4v1.Action_Param{ParamId: a.Params[i].Id, Value: encodeValue(v, a.Params[i].Bitwidth)})
	}
	return out
}

func (h *hwHarness) selectorID() uint32 {
	return newSteering(h.sc).profileID
}

func (h *hwHarness) member(op p4v1.Update_Type, id uint32, port, dmac uint64) *p4v1.Update {
	return &p4v1.Update{Type: op, Entity: &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: &p4v1.ActionProfileMember{
		ActionProfileId: h.selectorID(), MemberId: id, Action: h.act(aSteer, port, dmac)}}}}
}

func (h *hwHarness) group(op p4v1.Update_Type, id uint32, members ...uint32) *p4v1.Update {
	g := &p4v1.ActionProfileGroup{ActionProfileId: h.selectorID(), GroupId: id}
	for _, m := range members {
		g.Members = append(g.Members, &p4v1.ActionProfileGroup_Member{MemberId: m, Weight: 1})
	}
	return &p4v1.Update{Type: op, Entity: &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: g}}}
}

func (h *hwHarness) backendsEntry(op p4v1.Update_Type, slice uint64, ta *p4v1.TableAction) *p4v1.Update {
	return upd(op, &p4v1.TableEntry{TableId: h.tid(tBackends), Match: []*p4v1.FieldMatch{exactM(1, slice, 4)}, Action: ta})
}

func codesOf(err error) []codes.Code {
	var out []codes.Code
	for _, d := range status.Convert(err).Details() {
		out = append(out, codes.Code(d.(*p4v1.Error).CanonicalCode))
	}
	return out
}

// The selector hands a slice's group members to the data plane in the order they were
// created (bmv2's member handles), whatever the order the group lists them in; a member
// or group in use cannot be deleted; a changed member reaches the slice at once.
func TestBackendSelector(t *testing.T) {
	h := newHWHarness(t)
	grp := &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: 7}}
	if err := h.write(h.member(ins, 10, 2, 0xbb01), h.member(ins, 5, 3, 0xbb02), h.group(ins, 7, 5, 10),
		h.backendsEntry(ins, 1, grp)); err != nil {
		t.Fatal(err)
	}
	want := "backends 1 [{2 [0 0 0 0 187 1]} {3 [0 0 0 0 187 2]}]"
	if got := h.fake.last(); got != want {
		t.Errorf("data plane got %q, want %q", got, want)
	}
	err := h.write(h.member(del, 10, 0, 0), h.group(del, 7), h.member(mod, 5, 4, 0xbb03),
		h.backendsEntry(ins, 2, &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: 99}}),
		h.backendsEntry(ins, 3, &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.act(aSteer, 1, 1)}}))
	wantCodes := []codes.Code{codes.FailedPrecondition, codes.FailedPrecondition, codes.OK, codes.NotFound, codes.InvalidArgument}
	if got := codesOf(err); len(got) != len(wantCodes) {
		t.Fatalf("per-update codes %v, want %v", got, wantCodes)
	} else {
		for i := range got {
			if got[i] != wantCodes[i] {
				t.Errorf("update %d: %v, want %v", i, got[i], wantCodes[i])
			}
		}
	}
	if got := h.fake.last(); got != "backends 1 [{2 [0 0 0 0 187 1]} {4 [0 0 0 0 187 3]}]" {
		t.Errorf("after MODIFY of member 5 the data plane got %q", got)
	}
	ents := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tid(tBackends)}}})
	if len(ents) != 1 || ents[0].GetTableEntry().Action.GetActionProfileGroupId() != 7 {
		t.Errorf("backends read back as %v", ents)
	}
	groups := h.read(&p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: &p4v1.ActionProfileGroup{}}})
	if len(groups) != 1 || len(groups[0].GetActionProfileGroup().Members) != 2 {
		t.Errorf("groups read back as %v", groups)
	}
	mems := h.read(&p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: &p4v1.ActionProfileMember{}}})
	if len(mems) != 2 || mems[0].GetActionProfileMember().MemberId != 5 {
		t.Errorf("members read back as %v", mems)
	}
	if err := h.write(h.backendsEntry(del, 1, nil), h.group(del, 7), h.member(del, 10, 0, 0)); err != nil {
		t.Fatal(err)
	}
	if got := h.fake.calls[len(h.fake.calls)-1]; got != "backends 1 []" {
		t.Errorf("deleting the entry left %q", got)
	}
}

// A member of weight w takes w shares of the slice's UE hash, handed to the data plane in
// member-handle order, and reads back with its weight; a weight of 0, or weights beyond the
// group's max_size, are refused and change nothing.
func TestBackendSelectorWeights(t *testing.T) {
	h := newHWHarness(t)
	weighted := func(op p4v1.Update_Type, id uint32, maxSize int32, mw ...uint32) *p4v1.Update {
		g := &p4v1.ActionProfileGroup{ActionProfileId: h.selectorID(), GroupId: id, MaxSize: maxSize}
		for i := 0; i < len(mw); i += 2 {
			g.Members = append(g.Members, &p4v1.ActionProfileGroup_Member{MemberId: mw[i], Weight: int32(mw[i+1])})
		}
		return &p4v1.Update{Type: op, Entity: &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: g}}}
	}
	grp := &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: 7}}
	if err := h.write(h.member(ins, 1, 2, 0xbb01), h.member(ins, 2, 3, 0xbb02), weighted(ins, 7, 0, 2, 2, 1, 1),
		h.backendsEntry(ins, 1, grp)); err != nil {
		t.Fatal(err)
	}
	want := "backends 1 [{2 [0 0 0 0 187 1]} {3 [0 0 0 0 187 2]} {3 [0 0 0 0 187 2]}]"
	if got := h.fake.last(); got != want {
		t.Errorf("data plane got %q, want %q", got, want)
	}
	groups := h.read(&p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: &p4v1.ActionProfileGroup{}}})
	if ms := groups[0].GetActionProfileGroup().Members; len(ms) != 2 || ms[0].MemberId != 2 || ms[0].Weight != 2 || ms[1].Weight != 1 {
		t.Errorf("group read back as %v", groups[0])
	}
	err := h.write(weighted(mod, 7, 0, 1, 0), weighted(mod, 7, 2, 1, 1, 2, 2), weighted(mod, 7, 0, 1, maxBackendShares+1))
	wantCodes := []codes.Code{codes.InvalidArgument, codes.ResourceExhausted, codes.ResourceExhausted}
	if got := codesOf(err); fmt.Sprint(got) != fmt.Sprint(wantCodes) {
		t.Errorf("per-update codes %v, want %v", got, wantCodes)
	}
	if got := h.fake.last(); got != want {
		t.Errorf("refused updates changed the data plane: %q", got)
	}
}

// A full hw table refuses the update that does not fit with RESOURCE_EXHAUSTED; the others apply.
func TestHWTableFullIsResourceExhausted(t *testing.T) {
	h := newHWHarness(t)
	size := int(h.sc.tables[tBackendPorts].Size)
	var ups []*p4v1.Update
	for port := 0; port <= size; port++ {
		ups = append(ups, upd(ins, &p4v1.TableEntry{TableId: h.tid(tBackendPorts),
			Match: []*p4v1.FieldMatch{exactM(1, uint64(port), 9)}, Action: &p4v1.TableAction{
				Type: &p4v1.TableAction_Action{Action: h.act(aFromBackend)}}}))
	}
	got := codesOf(h.write(ups...))
	if len(got) != size+1 || got[size-1] != codes.OK || got[size] != codes.ResourceExhausted {
		t.Errorf("%d backend_ports inserts into %d entries: %v", size+1, size, got)
	}
}

// hh_config's and cls_config's default actions reach the data plane and read back; the
// range tables go whole, highest priority first, the decision table whole; class_to_tc is
// kept for Read.
func TestHKIPGAndMatadorTables(t *testing.T) {
	h := newHWHarness(t)
	cfg := upd(mod, &p4v1.TableEntry{TableId: h.tid(tHHConfig), IsDefaultAction: true, Action: &p4v1.TableAction{
		Type: &p4v1.TableAction_Action{Action: h.act(aSetHHParams, 30, 20000, 20000, 100, 16384, 6, 1)}}})
	if err := h.write(cfg); err != nil {
		t.Fatal(err)
	}
	if got := h.fake.last(); got != "hh_params {TauTh:30 IPGInit:20000 IPGTh:20000 DecayK:100 TimeslotUS:16384 AlphaShift:6 KeyMode:1}" {
		t.Errorf("hh_config reached the data plane as %q", got)
	}
	def := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tid(tHHConfig), IsDefaultAction: true}}})
	if len(def) != 1 || len(def[0].GetTableEntry().Action.GetAction().Params) != 7 ||
		string(def[0].GetTableEntry().Action.GetAction().Params[0].Value) != "\x1e" {
		t.Errorf("hh_config read back as %v", def)
	}
	tau := func(lo, hi, v uint64, prio int32) *p4v1.Update {
		return upd(ins, &p4v1.TableEntry{TableId: h.tid(tTauTable), Priority: prio,
			Match: []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{
				Low: encodeValue(lo, 32), High: encodeValue(hi, 32)}}}},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.act(aSetTau, v)}}})
	}
	if err := h.write(tau(8001, 20000, 4, 1), tau(0, 8000, 8, 2)); err != nil {
		t.Fatal(err)
	}
	if got := h.fake.last(); got != "tau [{0 8000 8} {8001 20000 4}]" {
		t.Errorf("tau_table reached the data plane as %q", got)
	}
	cls := upd(mod, &p4v1.TableEntry{TableId: h.tid(tClsConfig), IsDefaultAction: true, Action: &p4v1.TableAction{
		Type: &p4v1.TableAction_Action{Action: h.act(aSetClsParams, 30000, 2)}}})
	feature := func(lo, hi, code uint64, prio int32) *p4v1.Update {
		return upd(ins, &p4v1.TableEntry{TableId: h.tid(featureTables[3].table), Priority: prio,
			Match: []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{
				Low: encodeValue(lo, 32), High: encodeValue(hi, 32)}}}},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.act(featureTables[3].action, code)}}})
	}
	decision := upd(ins, &p4v1.TableEntry{TableId: h.tid(tDecision), Match: []*p4v1.FieldMatch{exactM(1, 0, 8),
		exactM(2, 0, 8), exactM(3, 0, 8), exactM(4, 1, 8), exactM(5, 0, 8), exactM(6, 0, 8)},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.act(aSetClass, 7)}}})
	toTC := upd(ins, &p4v1.TableEntry{TableId: h.tid(tClassToTC), Match: []*p4v1.FieldMatch{exactM(1, 7, 8)},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.act(aSetTC, 3)}}})
	if err := h.write(cls, feature(1, 999, 2, 1), feature(1000, 1500, 1, 2), decision, toTC); err != nil {
		t.Fatal(err)
	}
	calls := strings.Join(h.fake.calls, "\n")
	for _, want := range []string{"cls_params {WindowUS:30000 AlphaShift:2}", "feature 3 [{1000 1500 1} {1 999 2}]",
		"decisions [{[0 0 0 1 0 0] 7}]"} {
		if !strings.Contains(calls, want) {
			t.Errorf("the data plane did not get %q; calls:\n%s", want, calls)
		}
	}
	if n := len(h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tid(tClassToTC)}}})); n != 1 {
		t.Errorf("class_to_tc holds %d entries, want 1", n)
	}
}

// A state-read packet-out comes back as a STATE_READ packet-in with the slot's registers;
// a short one is a stream error; another packet-out to port 0 is transmitted.
func TestStateReadPacketOut(t *testing.T) {
	h := newHWHarness(t)
	egress := h.sc.pktMeta[pktOut]["egress_port"]
	send := func(payload []byte) {
		if err := h.st.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
			Payload: payload, Metadata: []*p4v1.PacketMetadata{{MetadataId: egress.Id, Value: []byte{p4const.StateReadPort}}}}}}); err != nil {
			t.Fatal(err)
		}
	}
	req := make([]byte, ethHdrLen+stateReadLen+4)
	binary.BigEndian.PutUint16(req[12:], p4const.EthertypeHupfState)
	binary.BigEndian.PutUint32(req[14:], 9)
	req[ethHdrLen+stateReadLen] = 0xee // bytes after the header come back as they were
	send(req)
	m, err := h.st.Recv()
	if err != nil {
		t.Fatal(err)
	}
	pi := m.GetPacket()
	if pi == nil || len(pi.Payload) != len(req) {
		t.Fatalf("state read answered with %v", m)
	}
	sr := pi.Payload[ethHdrLen:]
	// The fake's slot 9: flow 9, EWMA 18, last_ts 2^40 + 9, tau 3, reported; classifier: pkts_up 9,
	// ..., win_start 8, class 9.
	if binary.BigEndian.Uint32(sr[4:]) != 9 || binary.BigEndian.Uint32(sr[8:]) != 18 ||
		binary.BigEndian.Uint16(sr[12:]) != 1<<8 || binary.BigEndian.Uint32(sr[14:]) != 9 ||
		binary.BigEndian.Uint16(sr[18:]) != 3 || sr[20] != 1 || pi.Payload[ethHdrLen+stateReadLen] != 0xee ||
		binary.BigEndian.Uint32(sr[22:]) != 9 || binary.BigEndian.Uint32(sr[54:]) != 8 || sr[58] != 9 {
		t.Errorf("state read payload %x", pi.Payload)
	}
	for _, md := range pi.Metadata {
		if md.MetadataId == h.sc.pktMeta[pktIn]["reason"].Id && string(md.Value) != string([]byte{p4const.PktinStateRead}) {
			t.Errorf("reason %x", md.Value)
		}
	}
	send(req[:20])
	if m, err := h.st.Recv(); err != nil || m.GetError() == nil || codes.Code(m.GetError().CanonicalCode) != codes.InvalidArgument {
		t.Errorf("short state read: %v %v", m, err)
	}
	send([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x08, 0x00})
	sent := func() int {
		h.fake.mu.Lock()
		defer h.fake.mu.Unlock()
		return len(h.fake.pktOut)
	}
	for i := 0; i < 200 && sent() == 0; i++ {
		time.Sleep(5 * time.Millisecond) // the packet-out is handled on the stream's goroutine
	}
	if sent() != 1 {
		t.Errorf("an IPv4 packet-out to port 0 was not transmitted")
	}
}

// backend_classes (the class of a packet back from a backend, by its user packet's DSCP) goes to the data
// plane entry by entry; its nop is the default action only.
func TestBackendClasses(t *testing.T) {
	h := newHWHarness(t)
	entry := func(action string, params ...uint64) *p4v1.TableEntry {
		return &p4v1.TableEntry{TableId: h.tid(tBackendClass), Match: []*p4v1.FieldMatch{exactM(1, 46, 6)},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.act(action, params...)}}}
	}
	for _, s := range []struct {
		u    *p4v1.Update
		want string
	}{
		{upd(ins, entry(aBackendClass, 3)), "backendclass 1 46 3"},
		{upd(mod, entry(aBackendClass, 2)), "backendclass 2 46 2"},
		{upd(del, entry(aBackendClass, 2)), "backendclass 3 46 0"},
	} {
		if err := h.write(s.u); err != nil || h.fake.last() != s.want {
			t.Errorf("%s: %v, data plane got %q", s.want, err, h.fake.last())
		}
	}
	if err := h.write(upd(ins, entry(aSteeringNop))); err == nil {
		t.Error("nop accepted as a backend_classes entry's action")
	}
}
