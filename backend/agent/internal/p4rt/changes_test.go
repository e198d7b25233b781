package p4rt

import (
	"context"
	"io"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
)

func changesEntity(ctrID uint32, token uint64) *p4v1.Entity {
	return &p4v1.Entity{Entity: &p4v1.Entity_ExternEntry{ExternEntry: &p4v1.ExternEntry{
		ExternTypeId: ExternCounterChanges, ExternId: ctrID, Entry: counterChanges{token: token}.any()}}}
}

// readChanges returns the answer's token and completeness, and its cells as index -> {pkts, bytes}.
func readChanges(t *testing.T, h *harness, ctrID uint32, token uint64) (counterChanges, map[int64][2]int64) {
	t.Helper()
	got := h.read(changesEntity(ctrID, token))
	if len(got) == 0 || got[0].GetExternEntry() == nil || got[0].GetExternEntry().ExternId != ctrID {
		t.Fatalf("no CounterChanges header first: %v", got)
	}
	head, err := parseCounterChanges(got[0].GetExternEntry().Entry)
	if err != nil || head.token == 0 || head.token == token {
		t.Fatalf("header %+v (%v) after token %d", head, err, token)
	}
	cells := map[int64][2]int64{}
	for _, e := range got[1:] {
		c := e.GetCounterEntry()
		if c == nil || c.CounterId != ctrID {
			t.Fatalf("not a cell of counter %d: %v", ctrID, e)
		}
		if _, dup := cells[c.Index.Index]; dup {
			t.Fatalf("cell %d twice", c.Index.Index)
		}
		cells[c.Index.Index] = [2]int64{c.Data.PacketCount, c.Data.ByteCount}
	}
	return head, cells
}

func counterID(h *harness, name string) uint32 {
	return h.schema().counters[name].Preamble.Id
}

func sameCells(t *testing.T, what string, got, want map[int64][2]int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i, v := range want {
		if got[i] != v {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

// Each change the data plane counts is returned once, to the reader whose token names the last snapshot;
// any other token gets every non-zero cell, flagged complete.
func TestCounterChangesReturnEachChangeOnce(t *testing.T) {
	h, _ := primed(t)
	pre, post := counterID(h, cPreQos), counterID(h, cPostQos)
	h.fake.WriteCounter(CtrPostQos, 3, 2, 200)
	h.fake.WriteCounter(CtrPostQos, 1023, 1, 90)
	h.fake.WriteCounter(CtrPreQos, 5, 1, 10)

	head, cells := readChanges(t, h, post, 0)
	if !head.complete {
		t.Fatal("a first read is not complete")
	}
	sameCells(t, "first read", cells, map[int64][2]int64{3: {2, 200}, 1023: {1, 90}})

	head2, cells := readChanges(t, h, post, head.token)
	if head2.complete || len(cells) != 0 {
		t.Fatalf("nothing changed: complete %v, %v", head2.complete, cells)
	}
	// A wildcard read of the same counter, and the other counter's changed read, leave this reader's snapshot.
	if n := len(h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: post}}})); n != 1024 {
		t.Fatalf("wildcard read: %d cells", n)
	}
	if _, c := readChanges(t, h, pre, 0); len(c) != 1 || c[5] != [2]int64{1, 10} {
		t.Fatalf("pre-QoS changes: %v", c)
	}

	h.fake.WriteCounter(CtrPostQos, 3, 5, 500)  // counted
	h.fake.WriteCounter(CtrPostQos, 1023, 0, 0) // zeroed for a new session
	h.fake.WriteCounter(CtrPostQos, 7, 1, 60)
	head3, cells := readChanges(t, h, post, head2.token)
	if head3.complete {
		t.Fatal("a read after the last one is complete")
	}
	sameCells(t, "changes", cells, map[int64][2]int64{3: {5, 500}, 1023: {0, 0}, 7: {1, 60}})
	if head3, cells = readChanges(t, h, post, head3.token); len(cells) != 0 {
		t.Fatalf("changes returned twice: %v", cells)
	}

	// A scan bounded to the cells the reader uses leaves the others to a later read.
	h.fake.WriteCounter(CtrPostQos, 700, 1, 70)
	h.fake.WriteCounter(CtrPostQos, 3, 6, 600)
	bounded := h.read(&p4v1.Entity{Entity: &p4v1.Entity_ExternEntry{ExternEntry: &p4v1.ExternEntry{
		ExternTypeId: ExternCounterChanges, ExternId: post, Entry: counterChanges{token: head3.token, cells: 8}.any()}}})
	if len(bounded) != 2 || bounded[1].GetCounterEntry().Index.Index != 3 {
		t.Fatalf("read of cells below 8: %v", bounded)
	}
	head3, _ = parseCounterChanges(bounded[0].GetExternEntry().Entry)
	if _, cells = readChanges(t, h, post, head3.token); len(cells) != 1 || cells[700] != [2]int64{1, 70} {
		t.Fatalf("cell 700 after the bounded read: %v", cells)
	}
	h.fake.WriteCounter(CtrPostQos, 700, 0, 0)

	// An older token (a reader that lost an answer) or another reader's: every non-zero cell.
	head4, cells := readChanges(t, h, post, head2.token)
	if !head4.complete {
		t.Fatal("a stale token got a partial read")
	}
	sameCells(t, "stale token", cells, map[int64][2]int64{3: {6, 600}, 7: {1, 60}})

	// A new pipeline starts without snapshots.
	if err := h.setPipeline(h.info); err != nil {
		t.Fatal(err)
	}
	if head5, _ := readChanges(t, h, post, head4.token); !head5.complete {
		t.Fatal("a read after a new pipeline is not complete")
	}
}

// The pre- and post-QoS counters' changed reads scan only the blocks the data plane marked since their
// last read: an idle read reads no cell, a count whose mark is not visible yet waits for the next read, and
// a mark taken by one counter's read is kept for the other's.
func TestCounterChangesScanOnlyMarkedBlocks(t *testing.T) {
	h, _ := primed(t)
	pre, post := counterID(h, cPreQos), counterID(h, cPostQos)
	h.fake.WriteCounter(CtrPostQos, 3, 2, 200)
	headPre, _ := readChanges(t, h, pre, 0)
	head, cells := readChanges(t, h, post, 0)
	sameCells(t, "first read", cells, map[int64][2]int64{3: {2, 200}})

	read := h.fake.cellsRead
	head, cells = readChanges(t, h, post, head.token)
	if len(cells) != 0 || h.fake.cellsRead != read {
		t.Fatalf("idle read: %v, %d cells read", cells, h.fake.cellsRead-read)
	}
	h.fake.countUnmarked(CtrPostQos, 40, 1, 64)
	if head, cells = readChanges(t, h, post, head.token); len(cells) != 0 {
		t.Fatalf("a count without a mark read: %v", cells)
	}
	h.fake.WriteCounter(CtrPostQos, 41, 1, 64) // marks 41's block, 40's too
	read = h.fake.cellsRead
	head, cells = readChanges(t, h, post, head.token)
	sameCells(t, "marked block", cells, map[int64][2]int64{40: {1, 64}, 41: {1, 64}})
	if h.fake.cellsRead-read != CounterBlock {
		t.Fatalf("%d cells read for one marked block", h.fake.cellsRead-read)
	}
	// The post-QoS read above harvested 41's mark; the pre-QoS counter's read still scans that block.
	h.fake.countUnmarked(CtrPreQos, 42, 3, 300)
	if _, cells = readChanges(t, h, pre, headPre.token); len(cells) != 1 || cells[42] != [2]int64{3, 300} {
		t.Fatalf("pre-QoS after the post-QoS read's harvest: %v", cells)
	}
	// Two marked blocks apart and a run of two: three scans, each of whole blocks.
	for _, c := range []uint32{100, 500, 516} {
		h.fake.WriteCounter(CtrPostQos, c, 1, uint64(c))
	}
	read = h.fake.cellsRead
	if _, cells = readChanges(t, h, post, head.token); len(cells) != 3 || h.fake.cellsRead-read != 3*CounterBlock {
		t.Fatalf("three marked blocks: %v, %d cells read", cells, h.fake.cellsRead-read)
	}
}

func TestCounterChangesRefusals(t *testing.T) {
	h, _ := primed(t)
	bad := []*p4v1.Entity{
		changesEntity(counterID(h, cDropReasons), 0),
		changesEntity(0x12ffffff, 0),
		{Entity: &p4v1.Entity_ExternEntry{ExternEntry: &p4v1.ExternEntry{ExternTypeId: ExternCounterChanges,
			ExternId: counterID(h, cPostQos), Entry: &anypb.Any{TypeUrl: "type.googleapis.com/other"}}}},
		{Entity: &p4v1.Entity_ExternEntry{ExternEntry: &p4v1.ExternEntry{ExternTypeId: ExternCounterChanges,
			ExternId: counterID(h, cPostQos), Entry: &anypb.Any{TypeUrl: counterChangesURL, Value: []byte{0x08}}}}},
	}
	for _, e := range bad {
		rc, err := h.cli.Read(context.Background(), &p4v1.ReadRequest{DeviceId: 1, Entities: []*p4v1.Entity{e}})
		if err == nil {
			_, err = rc.Recv()
		}
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("%v: %v, want INVALID_ARGUMENT", e, err)
		}
		if err == io.EOF {
			t.Errorf("%v: answered", e)
		}
	}
}

// Like an index read, a changed read takes only the pipeline's read lock: a Write in progress does not hold it up.
func TestCounterChangesDoNotWaitForWrites(t *testing.T) {
	h, _ := primed(t)
	h.fake.WriteCounter(CtrPostQos, 3, 2, 200)
	h.srv.mu.Lock() // as a Write does for as long as it applies its updates
	defer h.srv.mu.Unlock()
	done := make(chan map[int64][2]int64, 1)
	go func() {
		_, cells := readChanges(t, h, counterID(h, cPostQos), 0)
		done <- cells
	}()
	select {
	case cells := <-done:
		sameCells(t, "during a write", cells, map[int64][2]int64{3: {2, 200}})
	case <-time.After(5 * time.Second):
		t.Fatal("a changed read waited for the write lock")
	}
}
