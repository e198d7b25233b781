package p4rt

import (
	"math/bits"
	"math/rand"
	"sync"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
)

// CounterBlock is the data plane's DP_CTR_BLOCK: the pre- and post-QoS counters' cells are marked in
// blocks of this many when counted in or written (Dataplane.HarvestCounterMarks).
const CounterBlock = 16

// counterShadows are the snapshots of the last changed-cells read, one per counter, for one reader
// (the primary's poll). They live in the pipeline state: a new pipeline starts without any.
type counterShadows struct {
	mu sync.Mutex
	by map[uint32]*shadow
	// pending[which] holds, for the pre- and post-QoS counters, the blocks marked since that counter's last
	// changed read: a harvest takes the data plane's marks, shared by both counters, into both. A cell that
	// differs from its counter's shadow is in a block marked here or still marked in the data plane.
	pending   [2][]uint64
	harvested []uint64
	pkts, bys []uint64 // the scan's buffer, changesChunk cells
	slab      cellSlab
}

// shadow is a counter's cells as last returned. It is as long as the highest non-zero cell seen: the
// cells past it are zero, so memory follows the cells in use, not the counter's size.
type shadow struct {
	token     uint64
	pkts, bys []uint64
}

// readCounterChanges holds only the shadows' lock besides the caller's pipeline read lock: concurrent
// changed reads run one after the other, Writes are not held up. The pre- and post-QoS counters scan only
// the blocks marked since their last read (a complete answer scans every cell); the tenant and slice
// counters, a few thousand cells, are scanned whole.
func (s *Server) readCounterChanges(x *p4v1.ExternEntry, out []*p4v1.Entity) ([]*p4v1.Entity, error) {
	p := s.pipe
	which, ok := p.ctrWhich[x.ExternId]
	if !ok {
		return out, errf(codes.InvalidArgument, "counter id %d has no changed-cells read", x.ExternId)
	}
	req, err := parseCounterChanges(x.Entry)
	if err != nil {
		return out, err
	}
	sh := &p.changes
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.by == nil {
		sh.by = map[uint32]*shadow{}
		sh.pkts, sh.bys = make([]uint64, changesChunk), make([]uint64, changesChunk)
	}
	last := sh.by[x.ExternId]
	complete := last == nil || req.token == 0 || req.token != last.token
	if complete {
		last = &shadow{}
		sh.by[x.ExternId] = last
	}
	// The token is replaced before the scan, so that a failed scan leaves no reader with a valid one.
	last.token = rand.Uint64() | 1
	out = append(out, &p4v1.Entity{Entity: &p4v1.Entity_ExternEntry{ExternEntry: &p4v1.ExternEntry{
		ExternTypeId: ExternCounterChanges, ExternId: x.ExternId,
		Entry: counterChanges{token: last.token, complete: complete}.any()}}})
	cells := p.ctrCells[x.ExternId]
	if req.cells > 0 && req.cells < uint64(cells) {
		cells = int64(req.cells)
	}
	if which != CtrPreQos && which != CtrPostQos {
		return s.scanCells(sh, x.ExternId, which, last, 0, cells, out)
	}
	// Marks first: a count after the harvest marks its block again for the next read.
	if err := sh.harvest(s.dp, cells); err != nil {
		return out, dpStatus(err)
	}
	marks := sh.pending[which]
	if complete {
		out, err = s.scanCells(sh, x.ExternId, which, last, 0, cells, out)
	} else {
		out, err = s.scanMarked(sh, x.ExternId, which, last, marks, cells, out)
	}
	if err == nil {
		clearBlocks(marks, cells/CounterBlock)
	}
	return out, err
}

// harvest moves the data plane's marks of the blocks below cells into both counters' pending marks. The
// marks grow with the cells the readers use.
func (sh *counterShadows) harvest(dp Dataplane, cells int64) error {
	n := int((cells + 64*CounterBlock - 1) / (64 * CounterBlock))
	if grow := n - len(sh.harvested); grow > 0 {
		sh.harvested = append(sh.harvested, make([]uint64, grow)...)
		sh.pending[0] = append(sh.pending[0], make([]uint64, grow)...)
		sh.pending[1] = append(sh.pending[1], make([]uint64, grow)...)
	}
	h := sh.harvested[:n]
	clear(h)
	if err := dp.HarvestCounterMarks(h); err != nil {
		return err
	}
	for i, w := range h {
		if w != 0 {
			sh.pending[0][i] |= w
			sh.pending[1][i] |= w
		}
	}
	return nil
}

// scanCells compares cells lo .. hi-1 with the shadow, changesChunk cells a data plane call.
func (s *Server) scanCells(sh *counterShadows, id uint32, which int, last *shadow, lo, hi int64,
	out []*p4v1.Entity) ([]*p4v1.Entity, error) {
	for ; lo < hi; lo += changesChunk {
		n := min(hi-lo, changesChunk)
		if err := s.dp.ReadCounters(which, uint32(lo), sh.pkts[:n], sh.bys[:n]); err != nil {
			return out, dpStatus(err)
		}
		for i := int64(0); i < n; i++ {
			out = last.compare(id, lo+i, sh.pkts[i], sh.bys[i], &sh.slab, out)
		}
	}
	return out, nil
}

// scanMarked compares the cells of the marked blocks below cells, a run of consecutive marked blocks in one
// data plane call.
func (s *Server) scanMarked(sh *counterShadows, id uint32, which int, last *shadow, marks []uint64, cells int64,
	out []*p4v1.Entity) ([]*p4v1.Entity, error) {
	runLo, runHi := int64(0), int64(0)
	var err error
	for wi, w := range marks {
		for ; w != 0; w &= w - 1 {
			lo := (int64(wi)*64 + int64(bits.TrailingZeros64(w))) * CounterBlock
			if lo >= cells {
				break
			}
			hi := min(lo+CounterBlock, cells)
			if lo == runHi && hi-runLo <= changesChunk {
				runHi = hi
				continue
			}
			if out, err = s.scanCells(sh, id, which, last, runLo, runHi, out); err != nil {
				return out, err
			}
			runLo, runHi = lo, hi
		}
	}
	return s.scanCells(sh, id, which, last, runLo, runHi, out)
}

// clearBlocks clears the marks of blocks 0 .. n-1.
func clearBlocks(marks []uint64, n int64) {
	full := min(int(n/64), len(marks))
	clear(marks[:full])
	if full < len(marks) && n%64 != 0 {
		marks[full] &^= 1<<(n%64) - 1
	}
}

// compare appends cell i if it differs from the shadow, which it then updates.
func (sh *shadow) compare(id uint32, i int64, pk, by uint64, slab *cellSlab, out []*p4v1.Entity) []*p4v1.Entity {
	if i >= int64(len(sh.pkts)) {
		if pk == 0 && by == 0 {
			return out
		}
		grow := int(i) + 1 - len(sh.pkts)
		sh.pkts = append(sh.pkts, make([]uint64, grow)...)
		sh.bys = append(sh.bys, make([]uint64, grow)...)
	}
	if sh.pkts[i] == pk && sh.bys[i] == by {
		return out
	}
	sh.pkts[i], sh.bys[i] = pk, by
	return append(out, slab.entity(cellSlabChanges, id, i, pk, by))
}
