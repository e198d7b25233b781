package p4rt

import (
	"encoding/binary"

	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
)

// Entries are kept for Read in a compact form, not as protobuf messages: a key of
// the match values at their byte widths (plus priority), and a value of the action
// id and its params at their byte widths. With millions of sessions this is what
// the agent's heap holds per entry (a few tens of bytes instead of a message tree).

func byteWidth(bits int32) int { return int(bits+7) / 8 }

func putN(b []byte, v uint64, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*uint(i))))
	}
	return b
}

func getN(b []byte, n int) (uint64, []byte) {
	var v uint64
	for _, c := range b[:n] {
		v = v<<8 | uint64(c)
	}
	return v, b[n:]
}

// appendStoreKey appends the identity of an entry: its matches and priority.
func appendStoreKey(k []byte, ti *tableInfo, ms []match, prio int32) []byte {
	for i, f := range ti.t.MatchFields {
		w, m := byteWidth(f.Bitwidth), ms[i]
		switch f.GetMatchType() {
		case exact:
			k = putN(k, m.value, w)
		case lpm:
			k = append(putN(k, m.value, w), byte(m.plen))
		case ternary:
			k = putN(putN(k, m.value, w), m.mask, w)
		case rng:
			k = putN(putN(k, m.lo, w), m.hi, w)
		}
	}
	if ti.ternary {
		k = binary.BigEndian.AppendUint32(k, uint32(prio))
	}
	return k
}

func storeValue(a *p4cfg.Action, params []uint64) []byte {
	return appendStoreValue(make([]byte, 0, 32), a, params)
}

func appendStoreValue(v []byte, a *p4cfg.Action, params []uint64) []byte {
	v = binary.BigEndian.AppendUint32(v, a.Preamble.Id)
	for i, p := range a.Params {
		v = putN(v, params[i], byteWidth(p.Bitwidth))
	}
	return v
}

// loadEntry decodes a stored key and value back into an entry.
func (s *Schema) loadEntry(ti *tableInfo, key string, val []byte) *entry {
	e := &entry{table: ti, key: key, matches: make([]match, len(ti.t.MatchFields))}
	k := []byte(key)
	for i, f := range ti.t.MatchFields {
		w, m := byteWidth(f.Bitwidth), &e.matches[i]
		switch f.GetMatchType() {
		case exact:
			m.value, k = getN(k, w)
			m.mask = ones(f.Bitwidth)
		case lpm:
			m.value, k = getN(k, w)
			m.plen, k = int32(k[0]), k[1:]
			m.mask = ones(f.Bitwidth) &^ ones(f.Bitwidth-m.plen)
		case ternary:
			m.value, k = getN(k, w)
			m.mask, k = getN(k, w)
		case rng:
			m.lo, k = getN(k, w)
			m.hi, k = getN(k, w)
		}
	}
	if ti.ternary {
		e.priority = int32(binary.BigEndian.Uint32(k))
	}
	a := s.actByID[binary.BigEndian.Uint32(val)]
	e.action, e.params, val = a.Preamble.Name, make([]uint64, len(a.Params)), val[4:]
	for i, p := range a.Params {
		e.params[i], val = getN(val, byteWidth(p.Bitwidth))
	}
	return e
}

// canonical is the shortest bytestring of v (P4Runtime §8.4).
func canonical(v uint64) []byte {
	b := putN(nil, v, 8)
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

// tableEntry renders an entry for Read, omitting wildcard fields.
func (s *Schema) tableEntry(e *entry) *p4v1.TableEntry {
	ti := e.table
	te := &p4v1.TableEntry{TableId: ti.t.Preamble.Id, Priority: e.priority}
	for i, f := range ti.t.MatchFields {
		m := e.matches[i]
		fm := &p4v1.FieldMatch{FieldId: f.Id}
		switch f.GetMatchType() {
		case exact:
			fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: canonical(m.value)}}
		case lpm:
			if m.plen == 0 {
				continue
			}
			fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: canonical(m.value), PrefixLen: m.plen}}
		case ternary:
			if m.mask == 0 {
				continue
			}
			fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: canonical(m.value),
				Mask: canonical(m.mask)}}
		case rng:
			if m.lo == 0 && m.hi == ones(f.Bitwidth) {
				continue
			}
			fm.FieldMatchType = &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{Low: canonical(m.lo), High: canonical(m.hi)}}
		}
		te.Match = append(te.Match, fm)
	}
	a := s.actions[e.action]
	act := &p4v1.Action{ActionId: a.Preamble.Id}
	for i, p := range a.Params {
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: p.Id, Value: canonical(e.params[i])})
	}
	te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}
	return te
}

// entryStore holds a table's entries for Read and for the existence checks of
// writes, as storeKey -> storeValue. The exact tables that scale with the sessions
// are read from the data plane (dpStore, dpstore.go); the small tables stay here.
type entryStore interface {
	// check refuses a write that the table's state forbids (an existing or absent
	// entry, a full table) before it is applied.
	check(op Op, k string, capacity uint32, table string) error
	get(k string) ([]byte, bool)
	len() int
	put(k string, a *p4cfg.Action, params []uint64) // k: copied if kept
	del(k string)
	each(fn func(k string, v []byte))
}

// A small table's entries in maps of fixed-size arrays: no pointers in the maps,
// so the garbage collector never scans them, and no allocation per entry beyond
// the map's own. Keys are padded to the table's key length, values (action id +
// params, at most 27 bytes: vxlan_encap) to 32 bytes.
type value [32]byte

type tableStore struct {
	keyLen int
	small  map[[16]byte]value
	big    map[[64]byte]value // the ACL: nine ternary fields and a priority
	// The refusals, made once: every establishment INSERTs its tunnel peer again.
	exists, missing error
}

func keyLen(ti *tableInfo) int {
	n := 0
	for _, f := range ti.t.MatchFields {
		w := byteWidth(f.Bitwidth)
		switch f.GetMatchType() {
		case exact:
			n += w
		case lpm:
			n += w + 1
		default:
			n += 2 * w
		}
	}
	if ti.ternary {
		n += 4
	}
	return n
}

func newTableStore(ti *tableInfo) *tableStore {
	t := &tableStore{keyLen: keyLen(ti), exists: errf(codes.AlreadyExists, "table %s: entry exists", ti.spec.name),
		missing: errf(codes.NotFound, "table %s: no such entry", ti.spec.name)}
	if t.keyLen <= 16 {
		t.small = map[[16]byte]value{}
	} else {
		t.big = map[[64]byte]value{}
	}
	return t
}

func (t *tableStore) check(op Op, k string, capacity uint32, table string) error {
	_, have := t.get(k)
	switch {
	case op == OpInsert && have:
		return t.exists
	case op != OpInsert && !have:
		return t.missing
	case op == OpInsert && uint32(t.len()) >= capacity:
		return errf(codes.ResourceExhausted, "table %s is full (%d entries)", table, capacity)
	}
	return nil
}

func (t *tableStore) len() int { return len(t.small) + len(t.big) }

func (t *tableStore) get(k string) ([]byte, bool) {
	var v value
	var ok bool
	if t.small != nil {
		var a [16]byte
		copy(a[:], k)
		v, ok = t.small[a]
	} else {
		var a [64]byte
		copy(a[:], k)
		v, ok = t.big[a]
	}
	return v[:], ok
}

func (t *tableStore) put(k string, a *p4cfg.Action, params []uint64) {
	var v value
	appendStoreValue(v[:0], a, params)
	if t.small != nil {
		var key [16]byte
		copy(key[:], k)
		t.small[key] = v
	} else {
		var key [64]byte
		copy(key[:], k)
		t.big[key] = v
	}
}

func (t *tableStore) del(k string) {
	if t.small != nil {
		var a [16]byte
		copy(a[:], k)
		delete(t.small, a)
	} else {
		var a [64]byte
		copy(a[:], k)
		delete(t.big, a)
	}
}

// each calls fn for every entry; the key is the table's key length again.
func (t *tableStore) each(fn func(k string, v []byte)) {
	for a, v := range t.small {
		fn(string(a[:t.keyLen]), v[:])
	}
	for a, v := range t.big {
		fn(string(a[:t.keyLen]), v[:])
	}
}
