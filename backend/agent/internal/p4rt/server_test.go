package p4rt

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/prototext"
)

type harness struct {
	t    *testing.T
	fake *fakeDP
	srv  *Server
	cli  p4v1.P4RuntimeClient
	info *p4cfg.P4Info
	stop chan struct{}
}

func newHarness(t *testing.T) *harness {
	return newHarnessWith(t, Config{DeviceID: 1}, fixtureP4Info())
}

// newHarnessWith: a server with cfg on the fake data plane; info is what setPipeline pushes.
func newHarnessWith(t *testing.T, cfg Config, info *p4cfg.P4Info) *harness {
	lis := bufconn.Listen(1 << 20)
	h := &harness{t: t, fake: newFake(), info: info, stop: make(chan struct{})}
	h.srv = NewServer(cfg, h.fake, slog.New(slog.NewTextHandler(io.Discard, nil)))
	g := grpc.NewServer(ServerOptions()...)
	p4v1.RegisterP4RuntimeServer(g, h.srv)
	go g.Serve(lis)
	go h.srv.PumpPacketIns(h.stop)
	conn, err := grpc.Dial("bufnet", grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) {
		return lis.Dial()
	}), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { close(h.stop); conn.Close(); g.Stop() })
	h.cli = p4v1.NewP4RuntimeClient(conn)
	return h
}

// open starts a stream and arbitrates with election id low; returns the stream and the first arbitration reply.
func (h *harness) open(low uint64) (p4v1.P4Runtime_StreamChannelClient, *p4v1.MasterArbitrationUpdate) {
	st, err := h.cli.StreamChannel(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	if err := st.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: low}}}}); err != nil {
		h.t.Fatal(err)
	}
	return st, recvArb(h.t, st)
}

func recvArb(t *testing.T, st p4v1.P4Runtime_StreamChannelClient) *p4v1.MasterArbitrationUpdate {
	for {
		m, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if a := m.GetArbitration(); a != nil {
			return a
		}
	}
}

func (h *harness) setPipeline(info *p4cfg.P4Info) error {
	_, err := h.cli.SetForwardingPipelineConfig(context.Background(), &p4v1.SetForwardingPipelineConfigRequest{
		DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 10},
		Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
		Config: &p4v1.ForwardingPipelineConfig{P4Info: info}})
	return err
}

// primed: a primary client (election 10) and the fixture pipeline.
func primed(t *testing.T) (*harness, p4v1.P4Runtime_StreamChannelClient) {
	h := newHarness(t)
	st, arb := h.open(10)
	if arb.Status.Code != 0 {
		t.Fatalf("not primary: %v", arb.Status)
	}
	if err := h.setPipeline(h.info); err != nil {
		t.Fatal(err)
	}
	return h, st
}

func (h *harness) tableID(name string) uint32 {
	return h.schema().tables[name].Preamble.Id
}

func (h *harness) actionID(name string) uint32 {
	return h.schema().actions[name].Preamble.Id
}

func (h *harness) schema() *Schema {
	sc, err := NewSchema(h.info)
	if err != nil {
		h.t.Fatal(err)
	}
	return sc
}

func exactM(id uint32, v uint64, w int32) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: encodeValue(v, w)}}}
}

func lpmM(id uint32, v uint64, plen int32) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: encodeValue(v, 32), PrefixLen: plen}}}
}

func ternM(id uint32, v, m uint64, w int32) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{
		Value: encodeValue(v, w), Mask: encodeValue(m, w)}}}
}

func rangeM(id uint32, lo, hi uint64) *p4v1.FieldMatch {
	return &p4v1.FieldMatch{FieldId: id, FieldMatchType: &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{
		Low: encodeValue(lo, 16), High: encodeValue(hi, 16)}}}
}

func (h *harness) entry(table string, m []*p4v1.FieldMatch, action string, prio int32, params ...uint64) *p4v1.TableEntry {
	te := &p4v1.TableEntry{TableId: h.tableID(table), Match: m, Priority: prio}
	if action != "" {
		a := &p4v1.Action{ActionId: h.actionID(action)}
		var spec actionSpec
		for _, s := range swProfile.actions {
			if s.name == action {
				spec = s
			}
		}
		for i, p := range params {
			a.Params = append(a.Params, &p4v1.Action_Param{ParamId: uint32(i + 1), Value: encodeValue(p, spec.params[i].width)})
		}
		te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: a}}
	}
	return te
}

func upd(op p4v1.Update_Type, te *p4v1.TableEntry) *p4v1.Update {
	return &p4v1.Update{Type: op, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}}
}

func (h *harness) write(ups ...*p4v1.Update) error {
	_, err := h.cli.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 10}, Updates: ups})
	return err
}

func (h *harness) read(ent *p4v1.Entity) []*p4v1.Entity {
	rc, err := h.cli.Read(context.Background(), &p4v1.ReadRequest{DeviceId: 1, Entities: []*p4v1.Entity{ent}})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []*p4v1.Entity
	for {
		r, err := rc.Recv()
		if err == io.EOF {
			return out
		}
		if err != nil {
			h.t.Fatal(err)
		}
		out = append(out, r.Entities...)
	}
}

const (
	ins = p4v1.Update_INSERT
	mod = p4v1.Update_MODIFY
	del = p4v1.Update_DELETE
)

func TestSchemaValidation(t *testing.T) {
	if _, err := NewSchema(fixtureP4Info()); err != nil {
		t.Fatalf("fixture refused: %v", err)
	}
	cases := map[string]func(*p4cfg.P4Info){
		"extra table": func(i *p4cfg.P4Info) {
			i.Tables = append(i.Tables, &p4cfg.Table{Preamble: &p4cfg.Preamble{Id: 9, Name: "HupfIngress.steering.backends"}})
		},
		"wrong width":    func(i *p4cfg.P4Info) { fixtureTable(i, tULSess).MatchFields[1].Bitwidth = 16 },
		"missing action": func(i *p4cfg.P4Info) { i.Actions = i.Actions[1:] },
		"param renamed":  func(i *p4cfg.P4Info) { fixtureAction(i, aULSess).Params[0].Name = "ue" },
		"no meter":       func(i *p4cfg.P4Info) { i.Meters = nil },
	}
	for name, mutate := range cases {
		info := fixtureP4Info()
		mutate(info)
		if _, err := NewSchema(info); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// The committed p4c output, when present, must be accepted (sw) or refused (hw).
func TestRealP4Info(t *testing.T) {
	dir := "../../../../pipeconf/src/main/resources/p4c-out/"
	for profile, want := range map[string]bool{"sw": true, "hw": false} {
		b, err := os.ReadFile(dir + profile + "/bmv2/p4info.txt")
		if err != nil {
			t.Skipf("SKIPPED: no committed %s P4Info (%v)", profile, err)
		}
		info := &p4cfg.P4Info{}
		if err := prototext.Unmarshal(b, info); err != nil {
			t.Fatal(err)
		}
		_, err = NewSchema(info)
		if (err == nil) != want {
			t.Errorf("%s profile: accepted=%v, err=%v", profile, err == nil, err)
		}
	}
}

func TestPipelineRequiredAndRefused(t *testing.T) {
	h := newHarness(t)
	h.open(10)
	err := h.write(upd(ins, &p4v1.TableEntry{TableId: 1}))
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("write before pipeline: %v", err)
	}
	bad := fixtureP4Info()
	bad.Tables = append(bad.Tables, &p4cfg.Table{Preamble: &p4cfg.Preamble{Id: 99, Name: "HupfIngress.hh.tau_table"}})
	err = h.setPipeline(bad)
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "not the hupf sw profile") {
		t.Errorf("hw-like P4Info: %v", err)
	}
}

func TestWriteTranslation(t *testing.T) {
	h, _ := primed(t)
	ue, n3, gnb := uint64(0xac100005), uint64(0x0a000001), uint64(0x0a000002)
	steps := []struct {
		u    *p4v1.Update
		want string
	}{
		{upd(ins, h.entry(tInterfaces, []*p4v1.FieldMatch{lpmM(1, n3, 32), exactM(2, 1, 1)}, aIfaceAccess, 0, 3)),
			"iface 1 0a000001/32 gtpu=1 kind=1 slice=3"},
		{upd(ins, h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, n3, 32), exactM(2, 0x1234, 32)}, aULSess, 0, ue, 7)),
			"ulsess 1 0a000001 teid=4660 act=1 ue=ac100005 meter=7"},
		{upd(ins, h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue, 32)}, aDLSessBuf, 0, 9)),
			"dlsess 1 ac100005 act=3 peer=0 meter=9"},
		{upd(mod, h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue, 32)}, aDLSess, 0, 4, 9)),
			"dlsess 2 ac100005 act=1 peer=4 meter=9"},
		{upd(ins, h.entry(tDLTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 0, 8)}, aDLTermFwd, 0, 11, 0xbeef, 9, 2, 5)),
			"dlterm 1 ac100005 app=0 {Action:1 TC:2 QFI:9 CtrIdx:11 TEID:48879 AppMeterIdx:5}"},
		{upd(ins, h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 1, 8)}, aULTermDrop, 0, 12)),
			"ulterm 1 ac100005 app=1 {Action:2 TC:0 QFI:0 CtrIdx:12 TEID:0 AppMeterIdx:0}"},
		{upd(ins, h.entry(tIGPeers, []*p4v1.FieldMatch{exactM(1, 4, 8)}, aSetRouteDst, 0, gnb)), "igpeer 1 4 0a000002"},
		{upd(ins, h.entry(tEGPeers, []*p4v1.FieldMatch{exactM(1, 4, 8)}, aLoadTunnel, 0, n3, gnb, 2152)),
			"egpeer 1 4 0a000001 0a000002 2152"},
		{upd(ins, h.entry(tRoutes, []*p4v1.FieldMatch{lpmM(1, 0x08080800, 24)}, aRoute, 0, 0xa, 0xb, 2)),
			"route 1 08080800/24 00000000000a 00000000000b 2"},
		{upd(del, h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue, 32)}, "", 0)), "dlsess 3 ac100005 act=2 peer=0 meter=0"},
	}
	for _, s := range steps {
		if err := h.write(s.u); err != nil {
			t.Fatalf("%s: %v", s.want, err)
		}
		if got := h.fake.last(); got != s.want {
			t.Errorf("data plane got %q, want %q", got, s.want)
		}
	}
	de := &p4v1.TableEntry{TableId: h.tableID(tEncap), IsDefaultAction: true, Action: &p4v1.TableAction{
		Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: h.actionID(aGtpuWithPsc)}}}}
	if err := h.write(upd(mod, de)); err != nil || h.fake.last() != "psc true" {
		t.Errorf("encap default: %v, %q", err, h.fake.last())
	}
	got := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tableID(tEncap), IsDefaultAction: true}}})
	if len(got) != 1 || got[0].GetTableEntry().Action.GetAction().ActionId != h.actionID(aGtpuWithPsc) {
		t.Errorf("default read: %v", got)
	}
	foreign := &p4v1.TableEntry{TableId: h.tableID(tEncap), IsDefaultAction: true, Action: &p4v1.TableAction{
		Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: h.actionID(aACLDrop)}}}}
	if err := h.write(upd(mod, foreign)); err == nil {
		t.Error("gtpu_encap default set to another table's action")
	}
	defs := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{IsDefaultAction: true}}})
	byTable := map[uint32]uint32{}
	for _, d := range defs {
		byTable[d.GetTableEntry().TableId] = d.GetTableEntry().Action.GetAction().ActionId
	}
	if len(defs) != len(swProfile.tables) || byTable[h.tableID(tApps)] != h.actionID(aSetAppID) ||
		byTable[h.tableID(tULTerm)] != h.actionID(aTermMiss) || byTable[h.tableID(tEncap)] != h.actionID(aGtpuWithPsc) {
		t.Errorf("default entries read: %v", defs)
	}
	other := &p4v1.TableEntry{TableId: h.tableID(tDLSess), IsDefaultAction: true, Action: &p4v1.TableAction{
		Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: h.actionID(aDLSessMiss)}}}}
	if err := h.write(upd(mod, other)); err == nil {
		t.Error("const default action modified")
	}
}

// TestDefaultEntryReset: a MODIFY of a default entry without an action resets it
// to the P4 program's default (P4Runtime spec), as ONOS does when it finds a
// default entry it did not write.
func TestDefaultEntryReset(t *testing.T) {
	h, _ := primed(t)
	encapDefault := func() uint32 {
		got := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tableID(tEncap), IsDefaultAction: true}}})
		if len(got) != 1 {
			t.Fatalf("default read: %v", got)
		}
		return got[0].GetTableEntry().Action.GetAction().ActionId
	}
	psc := &p4v1.TableEntry{TableId: h.tableID(tEncap), IsDefaultAction: true, Action: &p4v1.TableAction{
		Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: h.actionID(aGtpuWithPsc)}}}}
	if err := h.write(upd(mod, psc)); err != nil || encapDefault() != h.actionID(aGtpuWithPsc) {
		t.Fatalf("set gtpu_with_psc: %v", err)
	}
	reset := &p4v1.TableEntry{TableId: h.tableID(tEncap), IsDefaultAction: true}
	if err := h.write(upd(mod, reset)); err != nil {
		t.Fatalf("reset refused: %v", err)
	}
	if h.fake.last() != "psc false" || encapDefault() != h.actionID(aGtpuOnly) {
		t.Errorf("after reset: data plane %q, default action %d, want gtpu_only", h.fake.last(), encapDefault())
	}
	before := h.fake.last()
	if err := h.write(upd(mod, &p4v1.TableEntry{TableId: h.tableID(tDLSess), IsDefaultAction: true})); err != nil {
		t.Errorf("reset of a const default refused: %v", err)
	}
	if h.fake.last() != before {
		t.Errorf("reset of a const default reached the data plane: %q", h.fake.last())
	}
	withMatch := &p4v1.TableEntry{TableId: h.tableID(tEncap), IsDefaultAction: true, Match: []*p4v1.FieldMatch{exactM(1, 1, 32)}}
	for _, bad := range []*p4v1.Update{upd(mod, withMatch), upd(del, reset)} {
		d := status.Convert(h.write(bad)).Details()
		if len(d) != 1 || codes.Code(d[0].(*p4v1.Error).CanonicalCode) != codes.InvalidArgument {
			t.Errorf("%v of %v: %v, want INVALID_ARGUMENT", bad.Type, bad.Entity, d)
		}
	}
}

func TestPerUpdateErrors(t *testing.T) {
	h, _ := primed(t)
	sess := func(teid uint64) *p4v1.TableEntry {
		return h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, 1, 32), exactM(2, teid, 32)}, aULSess, 0, 5, 0)
	}
	tooWide := h.entry(tIGPeers, []*p4v1.FieldMatch{exactM(1, 1, 8)}, aSetRouteDst, 0, 1)
	tooWide.Match[0].GetExact().Value = []byte{1, 0} // 256 in an 8-bit field
	noPrio := h.entry(tApps, []*p4v1.FieldMatch{exactM(1, 1, 4)}, aSetAppID, 0, 3)
	err := h.write(upd(ins, sess(1)), upd(ins, sess(1)), upd(del, sess(2)), upd(ins, tooWide), upd(ins, noPrio))
	st := status.Convert(err)
	if st.Code() != codes.Unknown {
		t.Fatalf("batch status %v", err)
	}
	want := []codes.Code{codes.OK, codes.AlreadyExists, codes.NotFound, codes.InvalidArgument, codes.InvalidArgument}
	if len(st.Details()) != len(want) {
		t.Fatalf("details %v", st.Details())
	}
	for i, d := range st.Details() {
		if c := codes.Code(d.(*p4v1.Error).CanonicalCode); c != want[i] {
			t.Errorf("update %d: %v, want %v (%s)", i, c, want[i], d.(*p4v1.Error).Message)
		}
	}
	h.fake.failNext = &DPError{Errno: ENOSPC}
	err = h.write(upd(ins, sess(3)))
	if d := status.Convert(err).Details(); len(d) != 1 || codes.Code(d[0].(*p4v1.Error).CanonicalCode) != codes.ResourceExhausted {
		t.Errorf("data plane ENOSPC: %v", err)
	}
	if n := len(h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tableID(tULSess)}}})); n != 1 {
		t.Errorf("%d entries stored, want the 1 that succeeded", n)
	}
}

func TestTernaryTablesInPriorityOrder(t *testing.T) {
	h, _ := primed(t)
	app := func(prio int32, lo, hi uint64, id uint64) *p4v1.Update {
		return upd(ins, h.entry(tApps, []*p4v1.FieldMatch{exactM(1, 1, 4), lpmM(2, 0x08080800, 24), rangeM(3, lo, hi),
			ternM(4, 17, 0xff, 8)}, aSetAppID, prio, id))
	}
	if err := h.write(app(10, 80, 80, 1), app(30, 0, 1023, 2), app(20, 443, 443, 3)); err != nil {
		t.Fatal(err)
	}
	var ids []uint8
	for _, r := range h.fake.apps {
		ids = append(ids, r.AppID)
	}
	if string(ids) != string([]uint8{2, 3, 1}) || h.fake.apps[0].AddrMask != 0xffffff00 || h.fake.apps[0].PortHi != 1023 {
		t.Errorf("apps pushed %+v", h.fake.apps)
	}
	acl := h.entry(tACL, []*p4v1.FieldMatch{ternM(4, 0x0806, 0xffff, 16)}, aPunt, 5)
	if err := h.write(upd(ins, acl)); err != nil {
		t.Fatal(err)
	}
	if len(h.fake.acl) != 1 || h.fake.acl[0].EthType != 0x0806 || h.fake.acl[0].Action != ACLPunt || h.fake.acl[0].PortMask != 0 {
		t.Errorf("acl pushed %+v", h.fake.acl)
	}
	if err := h.write(upd(del, h.entry(tACL, []*p4v1.FieldMatch{ternM(4, 0x0806, 0xffff, 16)}, "", 5))); err != nil || len(h.fake.acl) != 0 {
		t.Errorf("acl delete: %v, %d rules left", err, len(h.fake.acl))
	}
}

func TestReadWildcardAndMatch(t *testing.T) {
	h, _ := primed(t)
	for i := uint64(1); i <= 3; i++ {
		if err := h.write(upd(ins, h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, i, 32)}, aDLSessDrop, 0))); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.write(upd(ins, h.entry(tIGPeers, []*p4v1.FieldMatch{exactM(1, 1, 8)}, aSetRouteDst, 0, 9))); err != nil {
		t.Fatal(err)
	}
	all := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{}}})
	if len(all) != 4 {
		t.Errorf("wildcard read: %d entries, want 4", len(all))
	}
	app := h.entry(tApps, []*p4v1.FieldMatch{exactM(1, 1, 4), lpmM(2, 0x08080800, 24), rangeM(3, 80, 443)}, aSetAppID, 7, 42)
	if err := h.write(upd(ins, app)); err != nil {
		t.Fatal(err)
	}
	back := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tableID(tApps)}}})
	if len(back) != 1 {
		t.Fatalf("apps read: %v", back)
	}
	// Read gives canonical bytestrings and omits the wildcard (the ternary protocol field).
	got, m := back[0].GetTableEntry(), back[0].GetTableEntry().Match
	if len(m) != 3 || got.Priority != 7 || !bytes.Equal(m[1].GetLpm().Value, []byte{8, 8, 8, 0}) || m[1].GetLpm().PrefixLen != 24 ||
		!bytes.Equal(m[2].GetRange().High, []byte{1, 0xbb}) || !bytes.Equal(got.Action.GetAction().Params[0].Value, []byte{42}) {
		t.Errorf("apps entry read back as %v", got)
	}
	one := h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, 2, 32)}, "", 0)}})
	if len(one) != 1 || !bytes.Equal(one[0].GetTableEntry().Match[0].GetExact().Value, []byte{2}) {
		t.Errorf("read by match: %v", one)
	}
}

func TestCountersAndMeters(t *testing.T) {
	h, _ := primed(t)
	var ctrID, dropsID, meterID uint32
	for _, c := range h.info.Counters {
		switch c.Preamble.Name {
		case cPostQos:
			ctrID = c.Preamble.Id
		case cDropReasons:
			dropsID = c.Preamble.Id
		}
	}
	for _, m := range h.info.Meters {
		if m.Preamble.Name == mSessionMeter {
			meterID = m.Preamble.Id
		}
	}
	h.fake.WriteCounter(CtrPostQos, 5, 3, 300)
	got := h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: ctrID, Index: &p4v1.Index{Index: 5}}}})
	if d := got[0].GetCounterEntry().Data; len(got) != 1 || d.PacketCount != 3 || d.ByteCount != 300 {
		t.Errorf("counter read %v", got)
	}
	got = h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: dropsID, Index: &p4v1.Index{Index: 4}}}})
	if got[0].GetCounterEntry().Data.PacketCount != 40 {
		t.Errorf("drop reason read %v", got)
	}
	if n := len(h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: ctrID}}})); n != 1024 {
		t.Errorf("wildcard counter read: %d cells", n)
	}
	// The fixture's 1024 + 1024 terminations get 2048 cells, past the P4Info's 1024, read by index.
	var pipeCall string
	h.fake.mu.Lock()
	for _, c := range h.fake.calls {
		if strings.HasPrefix(c, "pipeline ") {
			pipeCall = c
		}
	}
	h.fake.mu.Unlock()
	if !strings.Contains(pipeCall, "PreQosCtr:2048 PostQosCtr:2048") {
		t.Errorf("data plane sized %q, want 2048 counter cells (one per termination)", pipeCall)
	}
	h.fake.WriteCounter(CtrPostQos, 2047, 7, 700)
	got = h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: ctrID, Index: &p4v1.Index{Index: 2047}}}})
	if d := got[0].GetCounterEntry().Data; len(got) != 1 || d.PacketCount != 7 || d.ByteCount != 700 {
		t.Errorf("counter read past the P4Info size %v", got)
	}
	rc, err := h.cli.Read(context.Background(), &p4v1.ReadRequest{DeviceId: 1, Entities: []*p4v1.Entity{{Entity: &p4v1.Entity_CounterEntry{
		CounterEntry: &p4v1.CounterEntry{CounterId: ctrID, Index: &p4v1.Index{Index: 2048}}}}}})
	if err == nil {
		_, err = rc.Recv()
	}
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("counter index past the data plane's cells: %v, want InvalidArgument", err)
	}
	me := &p4v1.MeterEntry{MeterId: meterID, Index: &p4v1.Index{Index: 3}, Config: &p4v1.MeterConfig{Cir: 1000, Cburst: 100, Pir: 2000, Pburst: 200}}
	if err := h.write(&p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: me}}}); err != nil {
		t.Fatal(err)
	}
	if h.fake.last() != "meter 0 3 {CIR:1000 CBurst:100 PIR:2000 PBurst:200}" {
		t.Errorf("meter call %q", h.fake.last())
	}
	got = h.read(&p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{MeterId: meterID}}})
	if len(got) != 1 || got[0].GetMeterEntry().Config.Pir != 2000 {
		t.Errorf("meter read %v", got)
	}
	me.Index.Index = 5000
	if err := h.write(&p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: me}}}); err == nil {
		t.Error("meter index beyond size accepted")
	}
}

func TestArbitration(t *testing.T) {
	h := newHarness(t)
	s1, a1 := h.open(5)
	if a1.Status.Code != 0 {
		t.Fatalf("first client not primary: %v", a1.Status)
	}
	s2, a2 := h.open(10)
	if a2.Status.Code != 0 {
		t.Fatalf("higher election id not primary: %v", a2.Status)
	}
	if a := recvArb(t, s1); a.Status.Code != int32(codes.AlreadyExists) || a.ElectionId.Low != 10 {
		t.Errorf("demoted client told %v", a)
	}
	_, err := h.cli.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 5}})
	if status.Code(err) != codes.PermissionDenied {
		t.Errorf("backup write: %v", err)
	}
	s2.CloseSend()
	if a := recvArb(t, s1); a.Status.Code != 0 {
		t.Errorf("after primary left: %v", a)
	}
}

func TestPacketIO(t *testing.T) {
	h, st := primed(t)
	err := st.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
		Payload: []byte{1, 2, 3}, Metadata: []*p4v1.PacketMetadata{{MetadataId: 1, Value: []byte{0, 2}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	h.fake.addPacketIn([]byte{0xaa, 0xbb})
	deadline := time.After(5 * time.Second)
	for {
		msgs := make(chan *p4v1.StreamMessageResponse, 1)
		go func() {
			m, _ := st.Recv()
			msgs <- m
		}()
		select {
		case m := <-msgs:
			pi := m.GetPacket()
			if pi == nil {
				continue
			}
			if string(pi.Payload) != "\xaa\xbb" || len(pi.Metadata) != 3 || pi.Metadata[0].Value[1] != 7 || pi.Metadata[2].Value[0] != 2 {
				t.Errorf("packet-in %v", pi)
			}
			// The packet-out is handled by the stream's own goroutine: wait for it.
			for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
				h.fake.mu.Lock()
				out := append([]string(nil), h.fake.pktOut...)
				h.fake.mu.Unlock()
				if len(out) > 0 {
					if len(out) != 1 || out[0] != "2:010203" {
						t.Errorf("packet-out %v", out)
					}
					return
				}
			}
			t.Error("no packet-out reached the data plane")
			return
		case <-deadline:
			t.Fatal("no packet-in")
		}
	}
}

// The fixed-size store holds every sw-profile key and value.
func TestStoreSizesFit(t *testing.T) {
	sc, _ := NewSchema(fixtureP4Info())
	for _, ti := range sc.tableInfos() {
		if n := keyLen(ti); n > 64 || (n > 16 && ti.spec.name != tACL) {
			t.Errorf("table %s: key of %d bytes", ti.spec.name, n)
		}
	}
	for _, a := range sc.Info.Actions {
		if n := len(storeValue(a, make([]uint64, len(a.Params)))); n > len(value{}) {
			t.Errorf("action %s: value of %d bytes", a.Preamble.Name, n)
		}
	}
}

// Meter states follow --sessions (a session meter per session and direction at most), never beyond the
// P4Info's cells; an explicit --meter-states wins.
func TestMeterStatesFollowSessions(t *testing.T) {
	h := &harness{t: t, info: fixtureP4Info()}
	sc := h.schema()
	session, app := uint32(sc.meters[mSessionMeter].Size), uint32(sc.meters[mAppMeter].Size)
	// the tenant and slice meters' cells can all be configured too
	app += uint32(sc.meters[mTenant].Size) + uint32(sc.meters[mSlice].Size)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, c := range []struct {
		cfg  Config
		want uint32
	}{
		{Config{DeviceID: 1}, session + app},
		{Config{DeviceID: 1, Sessions: 10}, 20 + app},
		{Config{DeviceID: 1, Sessions: session}, session + app},
		{Config{DeviceID: 1, Sessions: 10, MeterStates: 7}, 7},
	} {
		if got := NewServer(c.cfg, &fakeDP{}, log).sizes(sc).MeterStates; got != c.want {
			t.Errorf("%+v: %d meter states, want %d", c.cfg, got, c.want)
		}
	}
}
