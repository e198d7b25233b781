package p4rt

import (
	"sort"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"hupf/backend/agent/internal/p4const"
)

// steering is the hw profile's backends table with its action selector: members
// (one backend each), groups of members, and one entry per slice that points at a
// member or a group. Each member gets the lowest free handle when it is inserted, as
// bmv2 numbers its members, and a group's members are handed to the data plane in
// handle order, so that crc16(UE) % n picks the member bmv2 picks. A member of weight
// w is handed over w times in a row: it takes w shares of the slice's UE hash (bmv2's
// PI does the same with copies of the member, whose handles may differ from these).
type steering struct {
	profileID uint32
	size      int // members the action profile holds
	members   map[uint32]*apMember
	groups    map[uint32]*apGroup
	entries   map[uint8]apRef // slice -> what its backends entry points at
	handles   []bool          // handle -> in use
}

type apMember struct {
	handle int
	port   uint16
	mac    uint64
}

type apGroup struct {
	members []uint32 // as written
	weights []int32  // members[i]'s weight
	maxSize int32
}

type apRef struct {
	id    uint32
	group bool
}

// profile is the P4 profile the server runs (Config.Profile; sw when unset).
func (s *Server) profile() *profile {
	if p := Profiles[s.cfg.Profile]; p != nil {
		return p
	}
	return swProfile
}

func newSteering(sc *Schema) *steering {
	st := &steering{members: map[uint32]*apMember{}, groups: map[uint32]*apGroup{}, entries: map[uint8]apRef{}}
	for _, ap := range sc.Info.ActionProfiles {
		if ap.Preamble.Name == apBackendSelector {
			st.profileID, st.size = ap.Preamble.Id, int(ap.Size)
		}
	}
	return st
}

func (st *steering) refCount(r apRef) int {
	n := 0
	for _, e := range st.entries {
		if e == r {
			n++
		}
	}
	return n
}

func (st *steering) writeMember(s *Server, op Op, m *p4v1.ActionProfileMember) error {
	if m.ActionProfileId != st.profileID {
		return errf(codes.NotFound, "unknown action profile id %d", m.ActionProfileId)
	}
	cur, have := st.members[m.MemberId]
	if err := presence(op, have, apBackendSelector+" member", m.MemberId, len(st.members), st.size); err != nil {
		return err
	}
	if op == OpDelete {
		for gid, g := range st.groups {
			for _, id := range g.members {
				if id == m.MemberId {
					return errf(codes.FailedPrecondition, "member %d is in group %d", id, gid)
				}
			}
		}
		if st.refCount(apRef{m.MemberId, false}) > 0 {
			return errf(codes.FailedPrecondition, "member %d is used by a %s entry", m.MemberId, tBackends)
		}
		st.handles[cur.handle] = false
		delete(st.members, m.MemberId)
		return nil
	}
	var v tableView
	viewOf(&p4v1.TableEntry{Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: m.Action}}}, &v)
	p := s.pipe
	ti := p.tables[p.schema.tables[tBackends].Preamble.Id]
	_, params, err := p.schema.decodeAction(ti, &v, false, nil)
	if err != nil {
		return err
	}
	if op == OpInsert {
		cur = &apMember{handle: st.freeHandle()}
		st.members[m.MemberId] = cur
	}
	cur.port, cur.mac = uint16(params[p4const.ParamHupfIngressSteeringSteerToBackendPort]),
		params[p4const.ParamHupfIngressSteeringSteerToBackendDstMac]
	return st.push(s.dp)
}

// presence refuses an INSERT of what exists or does not fit (size) and a MODIFY or
// DELETE of what does not exist.
func presence(op Op, have bool, what string, id uint32, n, size int) error {
	switch {
	case op == OpInsert && have:
		return errf(codes.AlreadyExists, "%s %d exists", what, id)
	case op != OpInsert && !have:
		return errf(codes.NotFound, "no %s %d", what, id)
	case op == OpInsert && n >= size:
		return errf(codes.ResourceExhausted, "%s %d: full (%d)", what, id, size)
	}
	return nil
}

func (st *steering) freeHandle() int {
	for h, used := range st.handles {
		if !used {
			st.handles[h] = true
			return h
		}
	}
	st.handles = append(st.handles, true)
	return len(st.handles) - 1
}

func (st *steering) writeGroup(s *Server, op Op, g *p4v1.ActionProfileGroup) error {
	if g.ActionProfileId != st.profileID {
		return errf(codes.NotFound, "unknown action profile id %d", g.ActionProfileId)
	}
	_, have := st.groups[g.GroupId]
	if err := presence(op, have, apBackendSelector+" group", g.GroupId, len(st.groups), st.size); err != nil {
		return err
	}
	switch {
	case op == OpDelete && st.refCount(apRef{g.GroupId, true}) > 0:
		return errf(codes.FailedPrecondition, "group %d is used by a %s entry", g.GroupId, tBackends)
	case op == OpDelete:
		delete(st.groups, g.GroupId)
		return nil
	}
	ng := &apGroup{maxSize: g.MaxSize}
	seen := map[uint32]bool{}
	sum := 0
	for _, m := range g.Members {
		if st.members[m.MemberId] == nil {
			return errf(codes.NotFound, "group %d: no member %d", g.GroupId, m.MemberId)
		}
		if seen[m.MemberId] {
			return errf(codes.InvalidArgument, "group %d: member %d twice", g.GroupId, m.MemberId)
		}
		if m.Weight < 1 {
			return errf(codes.InvalidArgument, "group %d: member %d has weight %d, weights are positive", g.GroupId, m.MemberId, m.Weight)
		}
		seen[m.MemberId] = true
		sum += int(m.Weight)
		ng.members = append(ng.members, m.MemberId)
		ng.weights = append(ng.weights, m.Weight)
	}
	// max_size bounds the sum of the members' weights; the data plane holds maxBackendShares.
	switch {
	case g.MaxSize > 0 && int(g.MaxSize) < sum:
		return errf(codes.ResourceExhausted, "group %d: weights sum to %d, max_size %d", g.GroupId, sum, g.MaxSize)
	case sum > maxBackendShares:
		return errf(codes.ResourceExhausted, "group %d: weights sum to %d, the data plane splits among %d", g.GroupId, sum, maxBackendShares)
	}
	st.groups[g.GroupId] = ng
	return st.push(s.dp)
}

// writeEntry writes a backends entry (e holds its decoded slice_id).
func (st *steering) writeEntry(s *Server, op Op, v *tableView, e *entry) error {
	slice := uint8(e.matches[p4const.FieldHupfIngressSteeringBackendsSliceId].value)
	_, have := st.entries[slice]
	capacity := int(s.pipe.capacity[e.table.t.Preamble.Id])
	if err := presence(op, have, tBackends+" entry for slice", uint32(slice), len(st.entries), capacity); err != nil {
		return err
	}
	if op == OpDelete {
		delete(st.entries, slice)
		return dpStatus(s.dp.SetBackends(slice, nil))
	}
	var ref apRef
	switch {
	case v.memberSet && st.members[v.member] != nil:
		ref = apRef{v.member, false}
	case v.groupSet && st.groups[v.group] != nil:
		ref = apRef{v.group, true}
	case v.memberSet || v.groupSet:
		return errf(codes.NotFound, "%s: the entry's member or group does not exist", tBackends)
	default:
		return errf(codes.InvalidArgument, "%s: entries take an action profile member or group", tBackends)
	}
	st.entries[slice] = ref
	return dpStatus(s.dp.SetBackends(slice, st.backends(ref)))
}

// maxBackendShares is how many shares of a slice's UE hash the data plane holds
// (DP_BACKENDS_MAX): the sum of a group's weights.
const maxBackendShares = 256

// backends are what ref selects from, in member-handle order, a member of weight w w times.
func (st *steering) backends(ref apRef) []Backend {
	type share struct {
		m      *apMember
		weight int32
	}
	var ms []share
	if ref.group {
		g := st.groups[ref.id]
		for i, id := range g.members {
			ms = append(ms, share{st.members[id], g.weights[i]})
		}
	} else {
		ms = []share{{st.members[ref.id], 1}}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].m.handle < ms[j].m.handle })
	var out []Backend
	for _, s := range ms {
		for w := int32(0); w < s.weight; w++ {
			out = append(out, Backend{Port: s.m.port, DstMAC: mac(s.m.mac)})
		}
	}
	return out
}

// push gives every slice its backends again after a member or group changed.
func (st *steering) push(dp Dataplane) error {
	for slice, ref := range st.entries {
		if err := dpStatus(dp.SetBackends(slice, st.backends(ref))); err != nil {
			return err
		}
	}
	return nil
}

// Read side: members, groups and backends entries as written.

func (st *steering) readMembers(s *Server, q *p4v1.ActionProfileMember, out []*p4v1.Entity) []*p4v1.Entity {
	ids := make([]uint32, 0, len(st.members))
	for id := range st.members {
		if (q.ActionProfileId == 0 || q.ActionProfileId == st.profileID) && (q.MemberId == 0 || q.MemberId == id) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	a := s.pipe.schema.actions[aSteer]
	for _, id := range ids {
		m := st.members[id]
		act := &p4v1.Action{ActionId: a.Preamble.Id, Params: []*p4v1.Action_Param{
			{ParamId: a.Params[0].Id, Value: canonical(uint64(m.port))}, {ParamId: a.Params[1].Id, Value: canonical(m.mac)}}}
		out = append(out, &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: &p4v1.ActionProfileMember{
			ActionProfileId: st.profileID, MemberId: id, Action: act}}})
	}
	return out
}

func (st *steering) readGroups(q *p4v1.ActionProfileGroup, out []*p4v1.Entity) []*p4v1.Entity {
	ids := make([]uint32, 0, len(st.groups))
	for id := range st.groups {
		if (q.ActionProfileId == 0 || q.ActionProfileId == st.profileID) && (q.GroupId == 0 || q.GroupId == id) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		g := &p4v1.ActionProfileGroup{ActionProfileId: st.profileID, GroupId: id, MaxSize: st.groups[id].maxSize}
		for i, m := range st.groups[id].members {
			g.Members = append(g.Members, &p4v1.ActionProfileGroup_Member{MemberId: m, Weight: st.groups[id].weights[i]})
		}
		out = append(out, &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: g}})
	}
	return out
}

// readBackends answers a read of the backends table (all entries, or one slice's).
func (st *steering) readBackends(ti *tableInfo, q *p4v1.TableEntry, out []*p4v1.Entity) ([]*p4v1.Entity, error) {
	slice := -1
	if len(q.Match) > 0 {
		e, err := decodeMatchOf(ti, q)
		if err != nil {
			return out, err
		}
		slice = int(e.matches[p4const.FieldHupfIngressSteeringBackendsSliceId].value)
	}
	return st.readEntries(ti, slice, out), nil
}

func (st *steering) readEntries(ti *tableInfo, slice int, out []*p4v1.Entity) []*p4v1.Entity {
	slices := make([]int, 0, len(st.entries))
	for sl := range st.entries {
		if slice < 0 || int(sl) == slice {
			slices = append(slices, int(sl))
		}
	}
	sort.Ints(slices)
	for _, sl := range slices {
		ref := st.entries[uint8(sl)]
		ta := &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileMemberId{ActionProfileMemberId: ref.id}}
		if ref.group {
			ta = &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: ref.id}}
		}
		out = append(out, tableEntity(&p4v1.TableEntry{TableId: ti.t.Preamble.Id, Action: ta,
			Match: []*p4v1.FieldMatch{{FieldId: ti.t.MatchFields[0].Id,
				FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: canonical(uint64(sl))}}}}}))
	}
	return out
}
