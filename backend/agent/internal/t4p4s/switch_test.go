package t4p4s

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"hupf/backend/agent/internal/p4rt"
)

// decoded is a message as the switch's handlers read it (handlers.c): the table, each field's name, kind, length
// or prefix and first bitmap bytes, the action and each parameter's name and first bitmap bytes.
type decoded struct {
	kind   uint8
	table  string
	fields []field
	action string
	params []field
}

type field struct {
	name   string
	kind   uint8
	bits   uint16
	bitmap []byte
}

func cstr(b []byte) string { return strings.TrimRight(string(b), "\x00") }

func decode(t *testing.T, msg []byte, width int) decoded {
	t.Helper()
	if int(binary.BigEndian.Uint16(msg[2:])) != len(msg) {
		t.Fatalf("header length %d, message %d bytes", binary.BigEndian.Uint16(msg[2:]), len(msg))
	}
	d := decoded{kind: msg[1], table: cstr(msg[headerSize : headerSize+nameLen])}
	at := addEntrySize
	if d.kind == msgSetDefaultAction {
		at = headerSize + nameLen
	} else {
		for i := 0; i < int(msg[headerSize+nameLen]); i++ {
			f := msg[at : at+fieldSize]
			d.fields = append(d.fields, field{cstr(f[:nameLen]), f[nameLen], binary.BigEndian.Uint16(f[nameLen+2:]),
				f[nameLen+4 : nameLen+4+width]})
			at += fieldSize
		}
	}
	d.action = cstr(msg[at+1 : at+1+nameLen])
	n := int(msg[at+1+nameLen])
	at += actionSize
	if d.kind == msgSetDefaultAction {
		at = 268 // sizeof(struct p4_set_default_action)
	}
	for i := 0; i < n; i++ {
		p := msg[at : at+paramSize]
		d.params = append(d.params, field{name: cstr(p[:nameLen]), bits: uint16(binary.BigEndian.Uint32(p[nameLen:])),
			bitmap: p[nameLen+4 : nameLen+4+width]})
		at += paramSize
	}
	if at != len(msg) {
		t.Fatalf("%d bytes decoded of %d", at, len(msg))
	}
	return d
}

// readMsg reads one message of the controller protocol.
func readMsg(conn net.Conn) ([]byte, error) {
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	hdr := make([]byte, headerSize)
	if _, err := io.ReadFull(conn, hdr); err != nil {
		return nil, err
	}
	msg := make([]byte, binary.BigEndian.Uint16(hdr[2:]))
	copy(msg, hdr)
	_, err := io.ReadFull(conn, msg[headerSize:])
	return msg, err
}

// connected is a Switch with a fake switch connected to it (counter reads answered, all cells zero); next
// takes the next other message the switch gets.
func connected(t *testing.T) (*Switch, func() []byte) {
	t.Helper()
	s, f, _ := withCounters(t)
	next := func() []byte {
		select {
		case msg := <-f.msgs:
			return msg
		case <-time.After(5 * time.Second):
			t.Fatal("no message for the switch")
			return nil
		}
	}
	return s, next
}

func TestStructSizesAreTheSwitchs(t *testing.T) {
	// sizeof() of messages.h's structs as gcc lays them out on x86-64, checked against a build of T4P4S.
	for name, got := range map[string][2]int{"p4_add_table_entry": {addEntrySize, 140},
		"p4_field_match_lpm/exact": {fieldSize, 388}, "p4_action": {actionSize, 130},
		"p4_action_parameter": {paramSize, 260}} {
		if got[0] != got[1] {
			t.Errorf("%s: %d bytes, want %d", name, got[0], got[1])
		}
	}
}

func TestRouteGoesAsT4P4STakesIt(t *testing.T) {
	s, next := connected(t)
	mac1, mac2 := [6]byte{0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f}, [6]byte{0, 0, 0, 0, 0, 2}
	if err := s.Route(p4rt.OpInsert, 0x0a090900, 24, mac1, mac2, 1); err != nil {
		t.Fatal(err)
	}
	d := decode(t, next(), 6)
	if d.kind != msgAddTableEntry || d.table != tRoutes || d.action != "HupfIngress.routing.route" {
		t.Fatalf("%+v", d)
	}
	// The key in host order, the prefix 4 short (T4P4S adds the field's 4 bytes).
	if f := d.fields[0]; f.kind != matchLPM || f.bits != 20 || string(f.bitmap[:4]) != "\x00\x09\x09\x0a" {
		t.Errorf("key %+v", f)
	}
	// MACs whole, in network order, zero bytes and all; the port in host order.
	if string(d.params[0].bitmap) != string(mac1[:]) || string(d.params[1].bitmap) != string(mac2[:]) ||
		string(d.params[2].bitmap[:2]) != "\x01\x00" {
		t.Errorf("params %+v", d.params)
	}
	// A default route is the table's default action; a deletion its miss action.
	if err := s.Route(p4rt.OpInsert, 0, 0, mac1, mac2, 2); err != nil {
		t.Fatal(err)
	}
	if d := decode(t, next(), 6); d.kind != msgSetDefaultAction || d.table != tRoutes || len(d.params) != 3 {
		t.Errorf("default route %+v", d)
	}
	if err := s.Route(p4rt.OpDelete, 0x0a090900, 24, mac1, mac2, 1); err != nil {
		t.Fatal(err)
	}
	if d := decode(t, next(), 6); d.action != "HupfIngress.routing.drop" || d.fields[0].bits != 20 {
		t.Errorf("deletion %+v", d)
	}
	var de *p4rt.DPError
	if err := s.Route(p4rt.OpInsert, 0, 2, mac1, mac2, 1); !errors.As(err, &de) || de.Errno != p4rt.EINVAL {
		t.Errorf("a /2 route: %v", err)
	}
}

func TestInterfacePrefixCoversTheValidityByte(t *testing.T) {
	s, next := connected(t)
	if err := s.Interface(p4rt.OpInsert, 0xac100000, 16, 0, p4rt.IfaceCore, 1); err != nil {
		t.Fatal(err)
	}
	d := decode(t, next(), 4)
	if d.action != "HupfIngress.upf.iface_core" || d.fields[0].name != "gtpu_is_valid" || d.fields[0].bitmap[0] != 0 {
		t.Fatalf("%+v", d)
	}
	// rte_lpm6 on (validity byte, address in network order): depth 8 + 16, of which T4P4S adds 4.
	if f := d.fields[1]; f.bits != 20 || string(f.bitmap) != "\xac\x10\x00\x00" {
		t.Errorf("address %+v", f)
	}
}

func TestExactTablesAreCheckedAndReadBack(t *testing.T) {
	s, next := connected(t)
	term := p4rt.Term{Action: p4rt.TermFwd, CtrIdx: 11, TEID: 0x55667788, QFI: 9}
	if err := s.DLTerm(p4rt.OpInsert, 0xac100001, 0, term); err != nil {
		t.Fatal(err)
	}
	msg := next()
	if len(msg) > maxMessage || len(msg) <= 2048 {
		t.Errorf("downlink termination: %d bytes (over T4P4S's stock 2048, within the raised %d)", len(msg), maxMessage)
	}
	if d := decode(t, msg, 4); string(d.params[1].bitmap) != "\x88\x77\x66\x55" || d.fields[0].bits != 32 {
		t.Errorf("%+v", d)
	}
	var de *p4rt.DPError
	if err := s.DLTerm(p4rt.OpInsert, 0xac100001, 0, term); !errors.As(err, &de) || de.Errno != p4rt.EEXIST {
		t.Errorf("second insert: %v", err)
	}
	if e, ok, _ := s.ExactGet(p4rt.ExactDLTerm, 0xac100001<<8); !ok || e.Term != term {
		t.Errorf("read back %+v %v", e, ok)
	}
	if err := s.DLTerm(p4rt.OpDelete, 0xac100001, 0, term); err != nil {
		t.Fatal(err)
	}
	if d := decode(t, next(), 4); d.action != "HupfIngress.upf.upf_term_miss" || len(d.params) != 0 {
		t.Errorf("deletion %+v", d)
	}
	if n, _ := s.ExactCount(p4rt.ExactDLTerm); n != 0 {
		t.Errorf("%d left", n)
	}
	if err := s.ULSession(p4rt.OpInsert, 1, 2, p4rt.SessFwd, 3, 0); err != nil {
		t.Fatal(err)
	}
	next()
	if err := s.ULSession(p4rt.OpInsert, 1, 3, p4rt.SessFwd, 3, 0); !errors.As(err, &de) || de.Errno != p4rt.ENOSPC {
		t.Errorf("over capacity: %v", err)
	}
}

func TestANewPipelineOverwritesWhatWasWritten(t *testing.T) {
	s, next := connected(t)
	var m [6]byte
	if err := s.Route(p4rt.OpInsert, 0x0a000000, 8, m, m, 1); err != nil {
		t.Fatal(err)
	}
	next()
	if err := s.Route(p4rt.OpInsert, 0, 0, m, m, 1); err != nil {
		t.Fatal(err)
	}
	next()
	if err := s.ULSession(p4rt.OpInsert, 1, 2, p4rt.SessFwd, 3, 0); err != nil {
		t.Fatal(err)
	}
	next()
	if err := s.ULSession(p4rt.OpDelete, 1, 2, p4rt.SessFwd, 3, 0); err != nil {
		t.Fatal(err)
	}
	next()
	if err := s.SetPipeline(p4rt.Sizes{ULSessions: 1}); err != nil {
		t.Fatal(err)
	}
	// The route goes back to the miss, the default route to the P4 default; the deleted session needs nothing.
	got := map[string]bool{}
	for i := 0; i < 2; i++ {
		d := decode(t, next(), 4)
		got[fmt.Sprintf("%d %s %s", d.kind, d.table, d.action)] = true
	}
	want := map[string]bool{
		fmt.Sprintf("%d %s HupfIngress.routing.drop", msgAddTableEntry, tRoutes):    true,
		fmt.Sprintf("%d %s HupfIngress.routing.drop", msgSetDefaultAction, tRoutes): true,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after a new pipeline: %v, want %v", got, want)
	}
	if n := s.Sent(); n != 6 {
		t.Errorf("%d messages sent, want 6", n)
	}
}

// TestHashedTablesRefuseAKeyPastHashEntries: an exact table takes HASH_ENTRIES keys whatever its P4 size, and a
// key stays in T4P4S's hash after its deletion: past that, an insert of a new key is refused with ENOSPC (the
// contract's RESOURCE_EXHAUSTED) and nothing reaches the switch, where it would have ended it.
func TestHashedTablesRefuseAKeyPastHashEntries(t *testing.T) {
	s, _, _ := withCountersSized(t, 2, p4rt.Sizes{DLTerms: 100, ULTerms: 100})
	first := s.Sent()
	term := p4rt.Term{Action: p4rt.TermFwd, CtrIdx: 1}
	write := func(op p4rt.Op, ue uint32) error { return s.DLTerm(op, ue, 0, term) }
	for _, ue := range []uint32{1, 2} {
		if err := write(p4rt.OpInsert, ue); err != nil {
			t.Fatalf("insert %d: %v", ue, err)
		}
	}
	sent := s.Sent()
	var de *p4rt.DPError
	if err := write(p4rt.OpInsert, 3); !errors.As(err, &de) || de.Errno != p4rt.ENOSPC {
		t.Fatalf("a third key into a hash of 2: %v", err)
	}
	if _, ok, _ := s.ExactGet(p4rt.ExactDLTerm, 3<<8); ok || s.Sent() != sent {
		t.Errorf("the refused insert applied: read back %v, %d messages sent, want %d", ok, s.Sent(), sent)
	}
	// A deletion writes the miss action: the key stays in the hash, so the table is still full to a new key...
	if err := write(p4rt.OpDelete, 1); err != nil {
		t.Fatal(err)
	}
	if err := write(p4rt.OpInsert, 3); !errors.As(err, &de) || de.Errno != p4rt.ENOSPC {
		t.Errorf("a new key after a deletion: %v", err)
	}
	// ...and takes the deleted key again, and the other hashed tables have their own hashes.
	if err := write(p4rt.OpInsert, 1); err != nil {
		t.Errorf("the deleted key again: %v", err)
	}
	if err := s.ULTerm(p4rt.OpInsert, 3, 0, term); err != nil {
		t.Errorf("another table: %v", err)
	}
	if n := s.Sent() - first; n != 5 {
		t.Errorf("%d table messages sent, want 5 (2 inserts, a deletion, 2 inserts)", n)
	}
}
