package p4rt

import (
	"errors"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Write requests carry millions of table entries; unmarshalled as protobuf messages
// each entry costs some twenty allocations (a message per level and oneof wrapper,
// a slice per bytestring), which the profile showed as most of the agent's time.
// So the server's codec leaves a WriteRequest's updates as bytes, and the table
// entries among them are read in place into a reused tableView: no allocation per
// entry. Other entities (meters, counters, clone sessions), and any update whose
// encoding the view does not take as is (a repeated singular message or oneof), go
// through proto.Unmarshal, so the result is the same as protobuf's in every case.

// Field numbers of p4/v1/p4runtime.proto (P4Runtime 1.4).
const (
	fWriteUpdates = 4

	fUpdateType   = 1
	fUpdateEntity = 2

	fEntityTable = 2

	fTableID      = 1
	fTableMatch   = 2
	fTableAction  = 3
	fTablePrio    = 4
	fTableDefault = 8

	fMatchID      = 1
	fMatchExact   = 2
	fMatchTernary = 3
	fMatchLPM     = 4
	fMatchRange   = 6

	fMatchOptional = 7
	fMatchOther    = 100

	fTableActionAction = 1
	fTableActionMember = 2
	fTableActionGroup  = 3

	fActionID     = 1
	fActionParams = 4
	fParamID      = 2
	fParamValue   = 3
)

// codec is gRPC's protobuf codec except that a WriteRequest's updates stay as
// bytes, in the message's unknown fields, for Write to read in place.
type codec struct{}

func (codec) Name() string { return "proto" }

func (codec) Marshal(v any) ([]byte, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, errors.New("not a protobuf message")
	}
	return proto.Marshal(m)
}

func (codec) Unmarshal(data []byte, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return errors.New("not a protobuf message")
	}
	wr, ok := v.(*p4v1.WriteRequest)
	if !ok {
		return proto.Unmarshal(data, m)
	}
	var rest []byte
	updates := make([]byte, 0, len(data))
	for b := data; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return protowire.ParseError(m)
		}
		if num == fWriteUpdates && typ == protowire.BytesType {
			updates = append(updates, b[:n+m]...) // a copy: gRPC may reuse data
		} else {
			rest = append(rest, b[:n+m]...)
		}
		b = b[n+m:]
	}
	if err := proto.Unmarshal(rest, wr); err != nil {
		return err
	}
	wr.ProtoReflect().SetUnknown(protoreflect.RawFields(updates))
	return nil
}

// appendRawUpdates appends a WriteRequest's updates as bytes to out, one element
// per update: those the codec left unparsed, or the parsed ones marshalled again
// (a server used without its codec).
func appendRawUpdates(out [][]byte, req *p4v1.WriteRequest) ([][]byte, error) {
	for _, u := range req.Updates {
		b, err := proto.Marshal(u)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	for b := []byte(req.ProtoReflect().GetUnknown()); len(b) > 0; {
		num, typ, n := protowire.ConsumeField(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		if num == fWriteUpdates && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(b[protowire.SizeTag(num):n])
			out = append(out, v)
		}
		b = b[n:]
	}
	return out, nil
}

// fieldView is one FieldMatch, its bytestrings as slices of the request.
type fieldView struct {
	id   uint32
	kind matchKind // 0 (unspecified) when the field has no match this server reads
	a, b []byte    // exact, lpm: value; ternary: value, mask; range: low, high
	plen int32
}

type paramView struct {
	id    uint32
	value []byte
}

// tableView is the part of a TableEntry the server reads.
type tableView struct {
	tableID   uint32
	priority  int32
	isDefault bool
	matches   []fieldView
	hasAction bool // a TableAction is present
	direct    bool // and it is a direct action
	actionID  uint32
	member    uint32 // or an action profile member (memberSet) or group (groupSet)
	group     uint32
	memberSet bool
	groupSet  bool
	params    []paramView
}

// viewOf fills v from a parsed TableEntry (reads, and writes without the codec).
func viewOf(te *p4v1.TableEntry, v *tableView) {
	*v = tableView{tableID: te.TableId, priority: te.Priority, isDefault: te.IsDefaultAction,
		matches: v.matches[:0], params: v.params[:0], hasAction: te.Action != nil}
	for _, fm := range te.Match {
		f := fieldView{id: fm.FieldId}
		switch {
		case fm.GetExact() != nil:
			f.kind, f.a = exact, fm.GetExact().Value
		case fm.GetLpm() != nil:
			f.kind, f.a, f.plen = lpm, fm.GetLpm().Value, fm.GetLpm().PrefixLen
		case fm.GetTernary() != nil:
			f.kind, f.a, f.b = ternary, fm.GetTernary().Value, fm.GetTernary().Mask
		case fm.GetRange() != nil:
			f.kind, f.a, f.b = rng, fm.GetRange().Low, fm.GetRange().High
		}
		v.matches = append(v.matches, f)
	}
	switch t := te.Action.GetType().(type) {
	case *p4v1.TableAction_ActionProfileMemberId:
		v.member, v.memberSet = t.ActionProfileMemberId, true
	case *p4v1.TableAction_ActionProfileGroupId:
		v.group, v.groupSet = t.ActionProfileGroupId, true
	}
	if a := te.Action.GetAction(); a != nil {
		v.direct, v.actionID = true, a.ActionId
		for _, p := range a.Params {
			v.params = append(v.params, paramView{p.ParamId, p.Value})
		}
	}
}

// errSlowPath: the bytes are valid protobuf that the view does not take as is.
var errSlowPath = errors.New("not a plain table entry")

// fields calls fn for every field of a message; fn gets the field's value bytes
// (BytesType) or its varint. A malformed message is an error.
func fields(b []byte, fn func(num protowire.Number, typ protowire.Type, val []byte, x uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var val []byte
		var x uint64
		switch typ {
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			val, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := fn(num, typ, val, x); err != nil {
			return err
		}
	}
	return nil
}

// parseUpdate reads an Update: a table entry into v or a meter or counter entry
// into c when the view takes it as is (kind says which), otherwise entity is the
// unmarshalled entity.
func parseUpdate(b []byte, v *tableView, c *cellView) (typ p4v1.Update_Type, kind entityKind, entity *p4v1.Entity, err error) {
	var ent []byte
	nEnt := 0
	err = fields(b, func(num protowire.Number, wt protowire.Type, val []byte, x uint64) error {
		switch {
		case num == fUpdateType && wt == protowire.VarintType:
			typ = p4v1.Update_Type(int32(x))
		case num == fUpdateEntity && wt == protowire.BytesType:
			ent, nEnt = val, nEnt+1
		}
		return nil
	})
	if err != nil {
		return typ, kindParsed, nil, err
	}
	if nEnt == 1 {
		if kind, err = parseEntity(ent, typ == p4v1.Update_DELETE, v, c); err == nil {
			return typ, kind, nil, nil
		}
		if err != errSlowPath {
			return typ, kindParsed, nil, err
		}
	}
	var u p4v1.Update
	if err = proto.Unmarshal(b, &u); err != nil {
		return typ, kindParsed, nil, err
	}
	if u.Entity == nil {
		u.Entity = &p4v1.Entity{}
	}
	return u.Type, kindParsed, u.Entity, nil
}

// parseEntity: a DELETE's table entry is read without its action, which a deletion ignores (its match is the
// entry's identity).
func parseEntity(b []byte, isDelete bool, v *tableView, c *cellView) (entityKind, error) {
	var msg []byte
	var num protowire.Number
	n := 0
	err := fields(b, func(fn protowire.Number, wt protowire.Type, val []byte, _ uint64) error {
		n++
		if wt == protowire.BytesType {
			msg, num = val, fn
		}
		return nil
	})
	if err != nil {
		return kindParsed, err
	}
	if n != 1 || msg == nil {
		return kindParsed, errSlowPath
	}
	switch num {
	case fEntityTable:
		return kindTable, parseTableEntry(msg, isDelete, v)
	case fEntityMeter:
		return kindMeter, parseCell(msg, 4, c)
	case fEntityCounter:
		return kindCounter, parseCell(msg, 2, c)
	}
	return kindParsed, errSlowPath
}

func parseTableEntry(b []byte, skipAction bool, v *tableView) error {
	*v = tableView{matches: v.matches[:0], params: v.params[:0]}
	return fields(b, func(num protowire.Number, wt protowire.Type, val []byte, x uint64) error {
		switch {
		case wt == protowire.VarintType && num == fTableID:
			v.tableID = uint32(x)
		case wt == protowire.VarintType && num == fTablePrio:
			v.priority = int32(x)
		case wt == protowire.VarintType && num == fTableDefault:
			v.isDefault = x != 0
		case wt == protowire.BytesType && num == fTableMatch:
			var f fieldView
			if err := parseFieldMatch(val, &f); err != nil {
				return err
			}
			v.matches = append(v.matches, f)
		case wt == protowire.BytesType && num == fTableAction:
			if v.hasAction {
				return errSlowPath // a second TableAction merges into the first
			}
			v.hasAction = true
			if skipAction {
				return nil
			}
			return parseTableAction(val, v)
		}
		return nil
	})
}

func parseFieldMatch(b []byte, f *fieldView) error {
	kinds := 0
	err := fields(b, func(num protowire.Number, wt protowire.Type, val []byte, x uint64) error {
		if num == fMatchID && wt == protowire.VarintType {
			f.id = uint32(x)
			return nil
		}
		switch num {
		case fMatchExact, fMatchTernary, fMatchLPM, fMatchRange, fMatchOptional, fMatchOther:
			kinds++ // a member of the oneof field_match_type
		}
		if wt != protowire.BytesType {
			return nil
		}
		switch num {
		case fMatchExact:
			f.kind = exact
			return fields(val, pair(&f.a, nil, nil))
		case fMatchTernary:
			f.kind = ternary
			return fields(val, pair(&f.a, &f.b, nil))
		case fMatchLPM:
			f.kind = lpm
			return fields(val, pair(&f.a, nil, &f.plen))
		case fMatchRange:
			f.kind = rng
			return fields(val, pair(&f.a, &f.b, nil))
		}
		return nil
	})
	if err == nil && kinds > 1 {
		return errSlowPath
	}
	return err
}

// pair reads the match messages: bytes fields 1 and 2, or bytes 1 and int32 2 (LPM).
func pair(one, two *[]byte, n *int32) func(protowire.Number, protowire.Type, []byte, uint64) error {
	return func(num protowire.Number, wt protowire.Type, val []byte, x uint64) error {
		switch {
		case num == 1 && wt == protowire.BytesType:
			*one = val
		case num == 2 && wt == protowire.BytesType && two != nil:
			*two = val
		case num == 2 && wt == protowire.VarintType && n != nil:
			*n = int32(x)
		}
		return nil
	}
}

func parseTableAction(b []byte, v *tableView) error {
	members := 0
	err := fields(b, func(num protowire.Number, wt protowire.Type, val []byte, x uint64) error {
		if num >= 1 && num <= 4 {
			members++
		}
		switch {
		case num == fTableActionMember && wt == protowire.VarintType:
			v.member, v.memberSet = uint32(x), true
		case num == fTableActionGroup && wt == protowire.VarintType:
			v.group, v.groupSet = uint32(x), true
		}
		if num != fTableActionAction || wt != protowire.BytesType {
			return nil
		}
		v.direct = true
		return fields(val, func(num protowire.Number, wt protowire.Type, val []byte, x uint64) error {
			switch {
			case num == fActionID && wt == protowire.VarintType:
				v.actionID = uint32(x)
			case num == fActionParams && wt == protowire.BytesType:
				var p paramView
				err := fields(val, func(num protowire.Number, wt protowire.Type, val []byte, x uint64) error {
					switch {
					case num == fParamID && wt == protowire.VarintType:
						p.id = uint32(x)
					case num == fParamValue && wt == protowire.BytesType:
						p.value = val
					}
					return nil
				})
				v.params = append(v.params, p)
				return err
			}
			return nil
		})
	})
	if err == nil && members > 1 {
		return errSlowPath // a oneof set twice: protobuf keeps the last
	}
	return err
}
