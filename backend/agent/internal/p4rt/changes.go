package p4rt

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/anypb"
)

// The changed-cells read (docs/PIPELINE_CONTRACT.md, "Counter changes"): an ExternEntry read of this
// target-specific extern type (P4Info's range for other externs, 0x80-0xfe), whose extern_id is a
// counter's id and whose entry is a CounterChanges. The answer is an ExternEntry with a new token, then
// the cells whose counts differ from the snapshot the request's token names, as CounterEntries: an idle
// poll of a million sessions costs a look at the data plane's marks of the blocks counted in
// (changes_scan.go), not a million messages nor a scan of two million cells.
const (
	ExternCounterChanges = 0x81
	counterChangesURL    = "type.googleapis.com/hupf.p4rt.CounterChanges"
	changesChunk         = 4096 // cells per data plane call
	cellSlabChanges      = 64   // changed cells allocated at once
)

// counterChanges is CounterChanges { uint64 token = 1; bool complete = 2; uint64 cells = 3; }: the
// request's token names the reader's last snapshot (0: none); the answer's is the new one, complete when the
// request's did not name the current snapshot, so that every non-zero cell follows (a new reader, a
// restarted agent or pipeline, another reader since). The request's cells bounds the scan to the cells the
// reader uses (0: all).
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

func isCounterChanges(ent *p4v1.Entity) bool {
	x := ent.GetExternEntry()
	return x != nil && x.ExternTypeId == ExternCounterChanges
}
