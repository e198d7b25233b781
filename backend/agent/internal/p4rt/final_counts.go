// A deletion's final usage in the Write's own answer (docs/PIPELINE_CONTRACT.md, "Final counts of a
// deletion"): a client that asks for it with the request header FinalCountsHeader gets, in the Write's trailer
// FinalCountsTrailer, a p4.v1.ReadResponse with the pre- and post-QoS counts of the counter cell of every
// termination the Write deleted, read under the Write's lock after the data plane's commit (no packet counts on
// a removed entry after it): what a Read of those cells sent after the Write would answer, without its round trip.

package p4rt

import (
	"context"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
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

// finalCounts returns the final counts of the cells noted, as a marshalled p4.v1.ReadResponse; nil if none.
func (s *Server) finalCounts() []byte {
	if len(s.finalCells) == 0 {
		return nil
	}
	p := s.pipe
	ids := [2]uint32{p.schema.counters[cPreQos].Preamble.Id, p.schema.counters[cPostQos].Preamble.Id}
	slab := make(cellSlab, 2*len(s.finalCells))
	out := make([]*p4v1.Entity, 0, 2*len(s.finalCells))
	for _, cell := range s.finalCells {
		for _, id := range ids {
			pk, by, err := s.dp.ReadCounter(p.ctrWhich[id], cell)
			if err != nil {
				// Left out: the client reads what is missing.
				continue
			}
			out = append(out, slab.entity(1, id, int64(cell), pk, by))
		}
	}
	b, err := proto.Marshal(&p4v1.ReadResponse{Entities: out})
	if err != nil {
		return nil
	}
	return b
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
