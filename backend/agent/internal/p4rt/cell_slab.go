package p4rt

import p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

// counterCell is one CounterEntry of a read's answer with every message it points to, so that a read's cells
// are allocated together, a slab at a time, instead of five messages a cell.
type counterCell struct {
	ent   p4v1.Entity
	oneof p4v1.Entity_CounterEntry
	ce    p4v1.CounterEntry
	idx   p4v1.Index
	data  p4v1.CounterData
}

// cellSlab hands out the cells of one read's answer.
type cellSlab []counterCell

// entity is a CounterEntry entity from the slab; an empty slab is refilled with want cells (at least one).
func (s *cellSlab) entity(want int64, id uint32, i int64, pk, by uint64) *p4v1.Entity {
	if len(*s) == 0 {
		*s = make([]counterCell, max(want, 1))
	}
	c := &(*s)[0]
	*s = (*s)[1:]
	c.idx.Index = i
	c.data.PacketCount, c.data.ByteCount = int64(pk), int64(by)
	c.ce.CounterId, c.ce.Index, c.ce.Data = id, &c.idx, &c.data
	c.oneof.CounterEntry = &c.ce
	c.ent.Entity = &c.oneof
	return &c.ent
}
