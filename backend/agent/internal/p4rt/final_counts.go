// A deletion's final usage in the Write's own answer (docs/PIPELINE_CONTRACT.md, "Final counts of a
// deletion"): a client that asks for it with the request header FinalCountsHeader gets, in the Write's trailer
// FinalCountsTrailer, a p4.v1.ReadResponse with the pre- and post-QoS counts of the counter cell of every
// termination the Write deleted, read under the Write's lock after the data plane's commit (no packet counts on
// a removed entry after it): what a Read of those cells sent after the Write would answer, without its round trip.

package p4rt

import (
	"context"
	"slices"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protowire"
)

const (
	FinalCountsHeader  = "hupf-final-counts"
	FinalCountsTrailer = "hupf-final-counts-bin"
)

// finalCountsWanted reports whether the Write's client asked for its deletions' final counts.
func finalCountsWanted(ctx context.Context) bool {
	md, ok := metadata.FromIncomingContext(ctx)
	return ok && len(md.Get(FinalCountsHeader)) > 0
}

// noteDeletedCell records the counter cell of a termination about to be deleted, when the Write's client asked
// for final counts. The entry is looked up before the data plane removes it.
func (s *Server) noteDeletedCell(ti *tableInfo, store entryStore, key string) {
	if !s.finalWanted || (ti.spec.name != tULTerm && ti.spec.name != tDLTerm) {
		return
	}
	ds, ok := store.(*dpStore)
	if !ok {
		return
	}
	if e, found, err := s.dp.ExactGet(ds.table, ds.dpKey(key)); err == nil && found {
		s.finalCells = append(s.finalCells, e.Term.CtrIdx)
	}
}

// finalCounts returns the final counts of the cells noted, as a marshalled p4.v1.ReadResponse (nil if none), in
// a buffer the next Write reuses: both counters of every cell read in one data-plane call, encoded straight into
// the answer as proto.Marshal encodes it (no message per cell). The callers copy it under the write lock.
func (s *Server) finalCounts() []byte {
	cells := s.finalCells
	if len(cells) == 0 {
		return nil
	}
	p := s.pipe
	ids := [2]uint32{p.schema.counters[cPreQos].Preamble.Id, p.schema.counters[cPostQos].Preamble.Id}
	s.finalRead = slices.Grow(s.finalRead[:0], 4*len(cells))[:4*len(cells)]
	counts := s.finalRead
	if err := s.dp.ReadCounterCells(cells, counts); err != nil {
		return s.finalCountsCellByCell(ids)
	}
	out := s.finalAnswer[:0]
	for i, cell := range cells {
		for w, id := range ids {
			out = appendCounterEntity(out, id, int64(cell), counts[4*i+2*w], counts[4*i+2*w+1])
		}
	}
	s.finalAnswer = out
	return out
}

// finalCountsCellByCell reads the cells one by one when a cell is past a counter's end: that cell is left out and
// the client reads what is missing.
func (s *Server) finalCountsCellByCell(ids [2]uint32) []byte {
	out := s.finalAnswer[:0]
	for _, cell := range s.finalCells {
		for _, id := range ids {
			if pk, by, err := s.dp.ReadCounter(s.pipe.ctrWhich[id], cell); err == nil {
				out = appendCounterEntity(out, id, int64(cell), pk, by)
			}
		}
	}
	s.finalAnswer = out
	if len(out) == 0 {
		return nil
	}
	return out
}

// appendCounterEntity appends one ReadResponse.entities element: an Entity whose counter_entry has the counter's
// id, the cell's Index and its CounterData, fields as proto.Marshal writes them (zero scalars left out, the Index
// and CounterData messages present even when empty).
func appendCounterEntity(out []byte, id uint32, index int64, pk, by uint64) []byte {
	varintField := func(x uint64) int {
		if x == 0 {
			return 0
		}
		return 1 + protowire.SizeVarint(x)
	}
	idx := varintField(uint64(index))
	data := varintField(by) + varintField(pk)
	entry := varintField(uint64(id)) + 1 + protowire.SizeVarint(uint64(idx)) + idx +
		1 + protowire.SizeVarint(uint64(data)) + data
	entity := 1 + protowire.SizeVarint(uint64(entry)) + entry
	out = protowire.AppendTag(out, 1, protowire.BytesType) // ReadResponse.entities
	out = protowire.AppendVarint(out, uint64(entity))
	out = protowire.AppendTag(out, fEntityCounter, protowire.BytesType)
	out = protowire.AppendVarint(out, uint64(entry))
	out = appendVarintField(out, fCellID, uint64(id))
	out = protowire.AppendTag(out, fCellIndex, protowire.BytesType)
	out = protowire.AppendVarint(out, uint64(idx))
	out = appendVarintField(out, fIndex, uint64(index))
	out = protowire.AppendTag(out, fCellData, protowire.BytesType)
	out = protowire.AppendVarint(out, uint64(data))
	out = appendVarintField(out, 1, by)  // CounterData.byte_count
	return appendVarintField(out, 2, pk) // CounterData.packet_count
}

// appendVarintField appends a varint field, left out when zero as proto.Marshal leaves it out.
func appendVarintField(out []byte, num protowire.Number, x uint64) []byte {
	if x == 0 {
		return out
	}
	return protowire.AppendVarint(protowire.AppendTag(out, num, protowire.VarintType), x)
}

// sendFinalCounts sets the Write's trailer to the final counts, if any.
func (s *Server) sendFinalCounts(ctx context.Context, final []byte) {
	if final == nil {
		return
	}
	if err := grpc.SetTrailer(ctx, metadata.Pairs(FinalCountsTrailer, string(final))); err != nil {
		s.log.Warn("final counts not sent", "err", err)
	}
}
