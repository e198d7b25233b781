package p4rt

import (
	"strings"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// rawTableUpdate is an Update of type op whose TableEntry is te (without its action) followed by action as the
// bytes of its TableAction field, whatever they hold.
func rawTableUpdate(t *testing.T, op p4v1.Update_Type, te *p4v1.TableEntry, action []byte) []byte {
	entry, err := proto.Marshal(te)
	if err != nil {
		t.Fatal(err)
	}
	entry = protowire.AppendBytes(protowire.AppendTag(entry, fTableAction, protowire.BytesType), action)
	entity := protowire.AppendBytes(protowire.AppendTag(nil, fEntityTable, protowire.BytesType), entry)
	u := protowire.AppendVarint(protowire.AppendTag(nil, fUpdateType, protowire.VarintType), uint64(op))
	return protowire.AppendBytes(protowire.AppendTag(u, fUpdateEntity, protowire.BytesType), entity)
}

// TestDeleteSkipsItsAction: a DELETE is decided by its match alone; the action it carries is not read. One naming
// an action the table does not have, or whose bytes are not an Action at all, deletes the entry, and the data
// plane is told so; an INSERT with the same action bytes is refused as malformed and changes nothing.
func TestDeleteSkipsItsAction(t *testing.T) {
	h, _ := primed(t)
	keyOnly := &p4v1.TableEntry{TableId: h.tableID(tDLTerm),
		Match: []*p4v1.FieldMatch{exactM(1, 0xac100005, 32), exactM(2, 0, 8)}}
	unknownAction, err := proto.Marshal(&p4v1.TableAction{Type: &p4v1.TableAction_Action{
		Action: &p4v1.Action{ActionId: 0xdead}}})
	if err != nil {
		t.Fatal(err)
	}
	truncated := []byte{0x0a, 0x05, 0x08} // an Action field announcing 5 bytes, 1 there
	write := func(u []byte) error {
		var errs []error
		if err := h.srv.underWriteLock(func() error {
			errs = h.srv.writeBatch([][]byte{u})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return errs[0]
	}
	for _, action := range [][]byte{unknownAction, truncated} {
		if err := h.write(upd(ins, h.entry(tDLTerm, keyOnly.Match, aDLTermFwd, 0, 11, 0xbeef, 9, 2, 5))); err != nil {
			t.Fatal(err)
		}
		err := write(rawTableUpdate(t, ins, keyOnly, truncated))
		if se, ok := err.(*statusError); !ok || se.code != codes.InvalidArgument || !strings.Contains(se.msg, "malformed update") {
			t.Fatalf("INSERT with a truncated action: %v, want INVALID_ARGUMENT malformed update", err)
		}
		if n := h.entries(tDLTerm); n != 1 {
			t.Fatalf("%d entries after the refused INSERT, want 1", n)
		}
		if err := write(rawTableUpdate(t, del, keyOnly, action)); err != nil {
			t.Fatalf("DELETE with action bytes %x: %v", action, err)
		}
		if got, want := h.fake.last(), "dlterm 3 ac100005 app=0"; !strings.HasPrefix(got, want) {
			t.Errorf("data plane's last write %q, want %q...", got, want)
		}
		if n := h.entries(tDLTerm); n != 0 {
			t.Fatalf("%d entries after the DELETE with action bytes %x, want 0", n, action)
		}
	}
}
