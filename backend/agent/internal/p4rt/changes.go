package p4rt

import (
	"math/rand"
	"sync"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/anypb"
)

// The changed-cells read (docs/PIPELINE_CONTRACT.md, "Counter changes"): an ExternEntry read of this
// target-specific extern type (P4Info's range for other externs, 0x80-0xfe), whose extern_id is a
// counter's id and whose entry is a CounterChanges. The answer is an ExternEntry with a new token, then
// the cells whose counts differ from the snapshot the request's token names, as CounterEntries: an idle
// poll of a million sessions costs a scan of the data plane's arrays, not a million messages.
const (
	ExternCounterChanges = 0x81
	counterChangesURL    = "type.googleapis.com/hupf.p4rt.CounterChanges"
	changesChunk         = 4096 // cells per data plane call
)

// counterChanges is CounterChanges { uint64 token = 1; bool complete = 2; uint64 cells = 3; }: the
// request's token names the reader's last snapshot (0: none); the answer's is the new one, complete when the
// request's did not name the current snapshot, so that every non-zero cell follows (a new reader, a
// restarted agent or pipeline, another reader since). The request's cells bounds the scan to the cells the
// reader uses (0: all): the scan, not the answer, is what an idle poll costs.
type counterChanges struct {
	token    uint64
	complete bool
	cells    uint64
}

func (m counterChanges) any() *anypb.Any {
	b := protowire.AppendTag(nil, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, m.token)
	if m.complete {
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	if m.cells > 0 {
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, m.cells)
	}
	return &anypb.Any{TypeUrl: counterChangesURL, Value: b}
}

func parseCounterChanges(a *anypb.Any) (counterChanges, error) {
	var m counterChanges
	if a == nil || a.TypeUrl != counterChangesURL {
		return m, errf(codes.InvalidArgument, "a counter changes read carries a %s", counterChangesURL)
	}
	for b := a.Value; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return m, errf(codes.InvalidArgument, "malformed CounterChanges")
		}
		b = b[n:]
		if typ != protowire.VarintType {
			n = protowire.ConsumeFieldValue(num, typ, b)
		} else {
			var v uint64
			v, n = protowire.ConsumeVarint(b)
			switch num {
			case 1:
				m.token = v
			case 2:
				m.complete = v != 0
			case 3:
				m.cells = v
			}
		}
		if n < 0 {
			return m, errf(codes.InvalidArgument, "malformed CounterChanges")
		}
		b = b[n:]
	}
	return m, nil
}

// counterShadows are the snapshots of the last changed-cells read, one per counter, for one reader
// (the primary's poll). They live in the pipeline state: a new pipeline starts without any.
type counterShadows struct {
	mu sync.Mutex
	by map[uint32]*shadow
}

// shadow is a counter's cells as last returned. It is as long as the highest non-zero cell seen: the
// cells past it are zero, so memory follows the cells in use, not the counter's size.
type shadow struct {
	token     uint64
	pkts, bys []uint64
}

func isCounterChanges(ent *p4v1.Entity) bool {
	x := ent.GetExternEntry()
	return x != nil && x.ExternTypeId == ExternCounterChanges
}

// readCounterChanges holds only the shadows' lock besides the caller's pipeline read lock: concurrent
// changed reads run one after the other, Writes are not held up.
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
	pkts, bys := make([]uint64, changesChunk), make([]uint64, changesChunk)
	for lo := int64(0); lo < cells; lo += changesChunk {
		n := min(cells-lo, changesChunk)
		if err := s.dp.ReadCounters(which, uint32(lo), pkts[:n], bys[:n]); err != nil {
			return out, dpStatus(err)
		}
		for i := int64(0); i < n; i++ {
			out = last.compare(x.ExternId, lo+i, pkts[i], bys[i], out)
		}
	}
	return out, nil
}

// compare appends cell i if it differs from the shadow, which it then updates.
func (sh *shadow) compare(id uint32, i int64, pk, by uint64, out []*p4v1.Entity) []*p4v1.Entity {
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
	return append(out, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
		CounterId: id, Index: &p4v1.Index{Index: i},
		Data: &p4v1.CounterData{PacketCount: int64(pk), ByteCount: int64(by)}}}})
}
