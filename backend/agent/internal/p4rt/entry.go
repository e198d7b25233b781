package p4rt

import (
	"encoding/binary"
	"fmt"
	"sort"
	"unsafe"

	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
)

// statusError is an error with the canonical code P4Runtime reports for it.
type statusError struct {
	code codes.Code
	msg  string
}

func (e *statusError) Error() string { return e.msg }

func errf(code codes.Code, format string, args ...any) error {
	return &statusError{code, fmt.Sprintf(format, args...)}
}

// decodeValue reads a P4Runtime bytestring: big-endian, canonical or padded, fitting width.
func decodeValue(b []byte, width int32, what string) (uint64, error) {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 8 {
		return 0, errf(codes.InvalidArgument, "%s: bad bytestring length %d", what, len(b))
	}
	var buf [8]byte
	copy(buf[8-len(b):], b)
	v := binary.BigEndian.Uint64(buf[:])
	if width < 64 && v>>uint(width) != 0 {
		return 0, errf(codes.InvalidArgument, "%s: value 0x%x does not fit in %d bits", what, v, width)
	}
	return v, nil
}

func encodeValue(v uint64, width int32) []byte {
	n := (width + 7) / 8
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return b
}

func ones(width int32) uint64 { return (uint64(1) << uint(width)) - 1 }

// match is one decoded match field; an omitted field is a wildcard.
type match struct {
	value, mask uint64 // exact/ternary; lpm: value + mask from prefix
	plen        int32
	lo, hi      uint64 // range
}

// entry is a decoded table entry: matches in P4Info field order, action params in
// P4Info param order.
type entry struct {
	table    *tableInfo
	key      string
	keyBuf   []byte
	matches  []match
	action   string
	params   []uint64
	priority int32
}

type tableInfo struct {
	spec     *tableSpec
	t        *p4cfg.Table
	fieldPos map[uint32]int
	actions  map[uint32]bool // actions usable in entries
	defaults map[uint32]bool // actions usable as the default action
	ternary  bool            // needs a priority
}

func (s *Schema) tableInfos() map[uint32]*tableInfo {
	out := map[uint32]*tableInfo{}
	for i := range s.prof.tables {
		ts := &s.prof.tables[i]
		t := s.tables[ts.name]
		ti := &tableInfo{spec: ts, t: t, fieldPos: map[uint32]int{}, actions: map[uint32]bool{}, defaults: map[uint32]bool{}}
		for j, f := range t.MatchFields {
			ti.fieldPos[f.Id] = j
			if k := f.GetMatchType(); k == ternary || k == rng {
				ti.ternary = true
			}
		}
		for _, r := range t.ActionRefs {
			ti.actions[r.Id] = r.Scope != p4cfg.ActionRef_DEFAULT_ONLY
			ti.defaults[r.Id] = r.Scope != p4cfg.ActionRef_TABLE_ONLY
		}
		out[t.Preamble.Id] = ti
	}
	return out
}

// decodeMatch validates the key of an entry and builds its canonical identity
// into e, reusing e's slices (the write path decodes every entry into one scratch
// entry); e.key then points into e's key buffer, valid until e is reused: a store
// that keeps a key copies it.
func decodeMatch(ti *tableInfo, v *tableView, e *entry) error {
	nf := len(ti.t.MatchFields)
	*e = entry{table: ti, matches: e.matches[:0], params: e.params[:0], keyBuf: e.keyBuf[:0], priority: v.priority}
	for i := 0; i < nf; i++ {
		e.matches = append(e.matches, match{})
	}
	var seen uint64 // match fields by position (at most 64)
	for i := range v.matches {
		fm := &v.matches[i]
		pos, ok := ti.fieldPos[fm.id]
		if !ok {
			return errf(codes.InvalidArgument, "table %s has no match field id %d", ti.spec.name, fm.id)
		}
		if seen>>pos&1 != 0 {
			return errf(codes.InvalidArgument, "table %s: match field %d given twice", ti.spec.name, fm.id)
		}
		seen |= 1 << pos
		m, err := decodeField(ti.t.MatchFields[pos], fm)
		if err != nil {
			return err
		}
		e.matches[pos] = m
	}
	for pos, f := range ti.t.MatchFields {
		switch {
		case seen>>pos&1 != 0:
		case f.GetMatchType() == exact:
			return errf(codes.InvalidArgument, "table %s: exact field %s missing", ti.spec.name, f.Name)
		case f.GetMatchType() == rng:
			e.matches[pos] = match{lo: 0, hi: ones(f.Bitwidth)}
		}
	}
	if ti.ternary && v.priority <= 0 {
		return errf(codes.InvalidArgument, "table %s needs a priority > 0", ti.spec.name)
	}
	if !ti.ternary && v.priority != 0 {
		return errf(codes.InvalidArgument, "table %s takes no priority", ti.spec.name)
	}
	e.keyBuf = appendStoreKey(e.keyBuf, ti, e.matches, v.priority)
	e.key = unsafe.String(unsafe.SliceData(e.keyBuf), len(e.keyBuf))
	return nil
}

// decodeMatchOf decodes the key of a parsed TableEntry into a new entry (reads).
func decodeMatchOf(ti *tableInfo, te *p4v1.TableEntry) (*entry, error) {
	var v tableView
	viewOf(te, &v)
	e := &entry{}
	return e, decodeMatch(ti, &v, e)
}

func decodeField(f *p4cfg.MatchField, fm *fieldView) (match, error) {
	var m match
	var err error
	w := f.Bitwidth
	switch f.GetMatchType() {
	case exact:
		if fm.kind != exact {
			return m, errf(codes.InvalidArgument, "field %s is exact", f.Name)
		}
		m.value, err = decodeValue(fm.a, w, f.Name)
		m.mask = ones(w)
	case lpm:
		if fm.kind != lpm {
			return m, errf(codes.InvalidArgument, "field %s is lpm", f.Name)
		}
		if fm.plen <= 0 || fm.plen > w {
			return m, errf(codes.InvalidArgument, "field %s: prefix length %d (omit the field for /0)", f.Name, fm.plen)
		}
		if m.value, err = decodeValue(fm.a, w, f.Name); err == nil {
			m.plen = fm.plen
			m.mask = ones(w) &^ ones(w-fm.plen)
			if m.value&^m.mask != 0 {
				err = errf(codes.InvalidArgument, "field %s: bits set beyond prefix /%d", f.Name, fm.plen)
			}
		}
	case ternary:
		if fm.kind != ternary {
			return m, errf(codes.InvalidArgument, "field %s is ternary", f.Name)
		}
		if m.value, err = decodeValue(fm.a, w, f.Name); err == nil {
			if m.mask, err = decodeValue(fm.b, w, f.Name); err == nil {
				switch {
				case m.mask == 0:
					err = errf(codes.InvalidArgument, "field %s: zero mask (omit the field)", f.Name)
				case m.value&^m.mask != 0:
					err = errf(codes.InvalidArgument, "field %s: value has bits outside the mask", f.Name)
				}
			}
		}
	case rng:
		if fm.kind != rng {
			return m, errf(codes.InvalidArgument, "field %s is range", f.Name)
		}
		if m.lo, err = decodeValue(fm.a, w, f.Name); err == nil {
			if m.hi, err = decodeValue(fm.b, w, f.Name); err == nil && m.lo > m.hi {
				err = errf(codes.InvalidArgument, "field %s: low > high", f.Name)
			}
		}
	default:
		err = errf(codes.InvalidArgument, "field %s: unsupported match kind", f.Name)
	}
	return m, err
}

// decodeAction validates an entry's direct action against the table and P4Info;
// its params are appended to params[:0].
func (s *Schema) decodeAction(ti *tableInfo, v *tableView, defaultEntry bool, params []uint64) (string, []uint64, error) {
	if !v.direct {
		return "", nil, errf(codes.InvalidArgument, "table %s: only direct actions are supported", ti.spec.name)
	}
	info := s.actByID[v.actionID]
	allowed := ti.actions
	if defaultEntry {
		allowed = ti.defaults
	}
	if info == nil || !allowed[v.actionID] {
		return "", nil, errf(codes.InvalidArgument, "table %s: action id %d not allowed", ti.spec.name, v.actionID)
	}
	params = params[:0]
	for i := 0; i < len(info.Params); i++ {
		params = append(params, 0)
	}
	var seen uint64 // params by position
	for _, p := range v.params {
		idx := -1
		for i, ip := range info.Params {
			if ip.Id == p.id {
				idx = i
			}
		}
		if idx < 0 || seen>>idx&1 != 0 {
			return "", nil, errf(codes.InvalidArgument, "action %s: bad param id %d", info.Preamble.Name, p.id)
		}
		val, err := decodeValue(p.value, info.Params[idx].Bitwidth, info.Params[idx].Name)
		if err != nil {
			return "", nil, err
		}
		params[idx], seen = val, seen|1<<idx
	}
	for i := range info.Params {
		if seen>>i&1 == 0 {
			return "", nil, errf(codes.InvalidArgument, "action %s: param %s missing", info.Preamble.Name, info.Params[i].Name)
		}
	}
	return info.Preamble.Name, params, nil
}

// byPriority orders ternary entries as the data plane scans them: highest first,
// ties by key so that the order is stable.
func byPriority(es []*entry) {
	sort.Slice(es, func(i, j int) bool {
		if es[i].priority != es[j].priority {
			return es[i].priority > es[j].priority
		}
		return es[i].key < es[j].key
	})
}
