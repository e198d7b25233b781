package p4rt

import (
	"encoding/binary"
	"fmt"
	"sort"

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
	for i := range swTables {
		ts := &swTables[i]
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

// decodeMatch validates the key of an entry and builds its canonical identity.
func decodeMatch(ti *tableInfo, te *p4v1.TableEntry) (*entry, error) {
	e := &entry{table: ti, matches: make([]match, len(ti.t.MatchFields)), priority: te.Priority}
	seen := make([]bool, len(ti.t.MatchFields))
	for _, fm := range te.Match {
		pos, ok := ti.fieldPos[fm.FieldId]
		if !ok {
			return nil, errf(codes.InvalidArgument, "table %s has no match field id %d", ti.spec.name, fm.FieldId)
		}
		if seen[pos] {
			return nil, errf(codes.InvalidArgument, "table %s: match field %d given twice", ti.spec.name, fm.FieldId)
		}
		seen[pos] = true
		f := ti.t.MatchFields[pos]
		m, err := decodeField(f, fm)
		if err != nil {
			return nil, err
		}
		e.matches[pos] = m
	}
	for pos, f := range ti.t.MatchFields {
		switch {
		case seen[pos]:
		case f.GetMatchType() == exact:
			return nil, errf(codes.InvalidArgument, "table %s: exact field %s missing", ti.spec.name, f.Name)
		case f.GetMatchType() == rng:
			e.matches[pos] = match{lo: 0, hi: ones(f.Bitwidth)}
		}
	}
	if ti.ternary && te.Priority <= 0 {
		return nil, errf(codes.InvalidArgument, "table %s needs a priority > 0", ti.spec.name)
	}
	if !ti.ternary && te.Priority != 0 {
		return nil, errf(codes.InvalidArgument, "table %s takes no priority", ti.spec.name)
	}
	e.key = storeKey(ti, e.matches, te.Priority)
	return e, nil
}

func decodeField(f *p4cfg.MatchField, fm *p4v1.FieldMatch) (match, error) {
	var m match
	var err error
	w := f.Bitwidth
	switch f.GetMatchType() {
	case exact:
		x := fm.GetExact()
		if x == nil {
			return m, errf(codes.InvalidArgument, "field %s is exact", f.Name)
		}
		m.value, err = decodeValue(x.Value, w, f.Name)
		m.mask = ones(w)
	case lpm:
		x := fm.GetLpm()
		if x == nil {
			return m, errf(codes.InvalidArgument, "field %s is lpm", f.Name)
		}
		if x.PrefixLen <= 0 || x.PrefixLen > w {
			return m, errf(codes.InvalidArgument, "field %s: prefix length %d (omit the field for /0)", f.Name, x.PrefixLen)
		}
		if m.value, err = decodeValue(x.Value, w, f.Name); err == nil {
			m.plen = x.PrefixLen
			m.mask = ones(w) &^ ones(w-x.PrefixLen)
			if m.value&^m.mask != 0 {
				err = errf(codes.InvalidArgument, "field %s: bits set beyond prefix /%d", f.Name, x.PrefixLen)
			}
		}
	case ternary:
		x := fm.GetTernary()
		if x == nil {
			return m, errf(codes.InvalidArgument, "field %s is ternary", f.Name)
		}
		if m.value, err = decodeValue(x.Value, w, f.Name); err == nil {
			if m.mask, err = decodeValue(x.Mask, w, f.Name); err == nil {
				switch {
				case m.mask == 0:
					err = errf(codes.InvalidArgument, "field %s: zero mask (omit the field)", f.Name)
				case m.value&^m.mask != 0:
					err = errf(codes.InvalidArgument, "field %s: value has bits outside the mask", f.Name)
				}
			}
		}
	case rng:
		x := fm.GetRange()
		if x == nil {
			return m, errf(codes.InvalidArgument, "field %s is range", f.Name)
		}
		if m.lo, err = decodeValue(x.Low, w, f.Name); err == nil {
			if m.hi, err = decodeValue(x.High, w, f.Name); err == nil && m.lo > m.hi {
				err = errf(codes.InvalidArgument, "field %s: low > high", f.Name)
			}
		}
	default:
		err = errf(codes.InvalidArgument, "field %s: unsupported match kind", f.Name)
	}
	return m, err
}

// decodeAction validates an entry's direct action against the table and P4Info.
func (s *Schema) decodeAction(ti *tableInfo, ta *p4v1.TableAction, defaultEntry bool) (string, []uint64, error) {
	a := ta.GetAction()
	if a == nil {
		return "", nil, errf(codes.InvalidArgument, "table %s: only direct actions are supported", ti.spec.name)
	}
	info := s.actByID[a.ActionId]
	allowed := ti.actions
	if defaultEntry {
		allowed = ti.defaults
	}
	if info == nil || !allowed[a.ActionId] {
		return "", nil, errf(codes.InvalidArgument, "table %s: action id %d not allowed", ti.spec.name, a.ActionId)
	}
	params := make([]uint64, len(info.Params))
	seen := make([]bool, len(info.Params))
	for _, p := range a.Params {
		idx := -1
		for i, ip := range info.Params {
			if ip.Id == p.ParamId {
				idx = i
			}
		}
		if idx < 0 || seen[idx] {
			return "", nil, errf(codes.InvalidArgument, "action %s: bad param id %d", info.Preamble.Name, p.ParamId)
		}
		v, err := decodeValue(p.Value, info.Params[idx].Bitwidth, info.Params[idx].Name)
		if err != nil {
			return "", nil, err
		}
		params[idx], seen[idx] = v, true
	}
	for i, ok := range seen {
		if !ok {
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
