package t4p4s

import (
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"testing"

	"hupf/backend/agent/internal/p4rt"
)

// fakeCounters is a switch's counter side as hupf's T4P4S build answers P4T_READ_COUNTER: the cells of each
// counter by name (32 bits each), in answers of up to maxCellsPerAnswer cells, count 0 for cells it lacks.
type fakeCounters struct {
	mu    sync.Mutex
	cells map[string][][2]uint32
	reads []readRequest
	// silent: read requests are taken and never answered.
	silent bool
	// seen gets a token for each read request taken; msgs every other message.
	seen chan struct{}
	msgs chan []byte
}

type readRequest struct {
	xid          uint32
	name         string
	index, count uint32
}

func (f *fakeCounters) set(name string, idx int, pkts, bytes uint32) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.cells[name]) <= idx {
		f.cells[name] = append(f.cells[name], [2]uint32{})
	}
	f.cells[name][idx] = [2]uint32{pkts, bytes}
}

func (f *fakeCounters) answer(conn net.Conn, r readRequest) {
	f.mu.Lock()
	cells := f.cells[r.name]
	if uint64(r.index)+uint64(r.count) > uint64(len(cells)) || r.count == 0 {
		cells = nil
	} else {
		cells = append([][2]uint32(nil), cells[r.index:r.index+r.count]...)
	}
	f.mu.Unlock()
	lo := r.index
	for first := true; first || len(cells) > 0; first = false {
		n := min(len(cells), maxCellsPerAnswer)
		msg := make([]byte, counterValuesHead+16*n)
		putHeader(msg, msgCounterValues)
		binary.BigEndian.PutUint32(msg[4:], r.xid)
		binary.BigEndian.PutUint32(msg[headerSize:], lo)
		binary.BigEndian.PutUint32(msg[headerSize+4:], uint32(n))
		for i, c := range cells[:n] {
			binary.BigEndian.PutUint64(msg[counterValuesHead+16*i:], uint64(c[0]))
			binary.BigEndian.PutUint64(msg[counterValuesHead+16*i+8:], uint64(c[1]))
		}
		if _, err := conn.Write(msg); err != nil {
			return
		}
		cells, lo = cells[n:], lo+uint32(n)
	}
}

// serve answers the adapter's counter reads until the connection closes; other messages go to msgs.
func (f *fakeCounters) serve(conn net.Conn) {
	for {
		msg, err := readMsg(conn)
		if err != nil {
			return
		}
		if msg[1] != msgReadCounter || len(msg) != readCounterSize {
			f.msgs <- msg
			continue
		}
		r := readRequest{xid: binary.BigEndian.Uint32(msg[4:]), name: cstr(msg[headerSize : headerSize+nameLen]),
			index: binary.BigEndian.Uint32(msg[headerSize+nameLen:]),
			count: binary.BigEndian.Uint32(msg[headerSize+nameLen+4:])}
		f.mu.Lock()
		f.reads = append(f.reads, r)
		silent := f.silent
		f.mu.Unlock()
		f.seen <- struct{}{}
		if !silent {
			f.answer(conn, r)
		}
	}
}

// withCounters is a Switch with the fake switch connected and a pipeline set (its counters zeroed: the drop
// reasons and cell 0 of the pre- and post-QoS counters read once each).
func withCounters(t *testing.T) (*Switch, *fakeCounters, net.Conn) {
	t.Helper()
	return withCountersSized(t, StockHashEntries, p4rt.Sizes{ULSessions: 1, DLTerms: 4, ULTerms: 4})
}

// withCountersSized is withCounters for a switch built with hashEntries and a pipeline of sizes.
func withCountersSized(t *testing.T, hashEntries uint32, sizes p4rt.Sizes) (*Switch, *fakeCounters, net.Conn) {
	t.Helper()
	s, lis, err := Listen("127.0.0.1:0", hashEntries, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lis.Close() })
	conn, err := net.Dial("tcp", lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if first, err := readMsg(conn); err != nil || first[1] != msgCtrlInitialized || len(first) != headerSize {
		t.Fatalf("first message %v (%v), want P4T_CTRL_INITIALIZED", first, err)
	}
	<-s.Connected()
	f := &fakeCounters{cells: map[string][][2]uint32{}, seen: make(chan struct{}, 64), msgs: make(chan []byte, 64)}
	f.set(counterNames[p4rt.CtrPreQos], 0, 0, 0)
	f.set(counterNames[p4rt.CtrPostQos], 0, 0, 0)
	f.set(counterNames[whichDrops], dropReasonCells-1, 0, 0)
	go f.serve(conn)
	if err := s.SetPipeline(sizes); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2+dropReasonCells; i++ {
		<-f.seen
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reads) != 2+dropReasonCells {
		t.Fatalf("%d reads zeroing the counters, want %d", len(f.reads), 2+dropReasonCells)
	}
	f.reads = nil
	return s, f, conn
}

func TestCounterReadsAskTheSwitchByNameAndTakeEveryAnswer(t *testing.T) {
	s, f, _ := withCounters(t)
	const lo, n = 5, 300 // two answers: 255 cells and 45
	for i := 0; i < lo+n; i++ {
		f.set(counterNames[p4rt.CtrPostQos], i, uint32(i), uint32(1000*i))
	}
	pkts, bytes := make([]uint64, n), make([]uint64, n)
	if err := s.ReadCounters(p4rt.CtrPostQos, lo, pkts, bytes); err != nil {
		t.Fatal(err)
	}
	for i := range pkts {
		if pkts[i] != uint64(lo+i) || bytes[i] != uint64(1000*(lo+i)) {
			t.Fatalf("cell %d: %d packets %d bytes", lo+i, pkts[i], bytes[i])
		}
	}
	f.set(".HupfIngress.upf.drop_reasons", 3, 7, 0)
	if d, err := s.ReadDrops(3); err != nil || d != 7 {
		t.Errorf("drops of reason 3: %d, %v", d, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// One request each, in turn (the xids follow the 18 reads of the pipeline's zeroing).
	want := []readRequest{{19, "HupfEgress.upf.post_qos_counter", lo, n}, {20, ".HupfIngress.upf.drop_reasons", 3, 1}}
	if len(f.reads) != 2 || f.reads[0] != want[0] || f.reads[1] != want[1] {
		t.Errorf("requests %+v, want %+v", f.reads, want)
	}
}

func TestCountsGoPast32BitsAndAWriteRebasesTheCell(t *testing.T) {
	s, f, _ := withCounters(t)
	name := counterNames[p4rt.CtrPreQos]
	f.set(name, 9, 0xfffffff0, 0xffffff00)
	if p, b, err := s.ReadCounter(p4rt.CtrPreQos, 9); err != nil || p != 0xfffffff0 || b != 0xffffff00 {
		t.Fatalf("first read %#x %#x %v", p, b, err)
	}
	// T4P4S's 32-bit cells wrapped: the counts go on in 64 bits.
	f.set(name, 9, 0x10, 0x100)
	if p, b, err := s.ReadCounter(p4rt.CtrPreQos, 9); err != nil || p != 0x100000010 || b != 0x100000100 {
		t.Fatalf("after the wrap %#x %#x %v", p, b, err)
	}
	// The runner zeroes a cell for a new owner: reads count from there.
	if err := s.WriteCounter(p4rt.CtrPreQos, 9, 0, 0); err != nil {
		t.Fatal(err)
	}
	f.set(name, 9, 0x15, 0x180)
	if p, b, err := s.ReadCounter(p4rt.CtrPreQos, 9); err != nil || p != 5 || b != 0x80 {
		t.Errorf("after the zeroing %#x %#x %v", p, b, err)
	}
	// A cell never counted in reads zero and needs nothing kept.
	kept := len(s.ctr.cells)
	if p, b, err := s.ReadCounter(p4rt.CtrPreQos, 1); err != nil || p != 0 || b != 0 {
		t.Errorf("cell 1: %d %d %v", p, b, err)
	}
	if len(s.ctr.cells) != kept {
		t.Errorf("%d cells kept after reading a zero cell, %d before", len(s.ctr.cells), kept)
	}
}

func TestCellsTheSwitchLacksAndASilentSwitchAreErrors(t *testing.T) {
	s, f, conn := withCounters(t)
	f.set(counterNames[p4rt.CtrPreQos], 3, 1, 1)
	var de *p4rt.DPError
	if _, _, err := s.ReadCounter(p4rt.CtrPreQos, 4); !errors.As(err, &de) || de.Errno != p4rt.EINVAL {
		t.Errorf("a cell past the counter's end: %v", err)
	}
	if _, _, err := s.ReadCounter(7, 0); !errors.As(err, &de) || de.Errno != p4rt.EINVAL {
		t.Errorf("no counter 7: %v", err)
	}
	// A switch that goes while a read waits fails the read at once.
	f.mu.Lock()
	f.silent = true
	f.mu.Unlock()
	done := make(chan error, 1)
	go func() { _, _, err := s.ReadCounter(p4rt.CtrPreQos, 3); done <- err }()
	for i := 0; i < 2; i++ { // the read of cell 4 above and this one (counter 7 was refused before asking)
		<-f.seen
	}
	conn.Close()
	if err := <-done; !errors.As(err, &de) || de.Errno != p4rt.ENODEV {
		t.Errorf("read when the switch went: %v", err)
	}
}

func TestHarvestMarksTheBlocksOfWrittenTerminationsAndCells(t *testing.T) {
	s, f, _ := withCounters(t)
	f.set(counterNames[p4rt.CtrPostQos], 100, 0, 0)
	bits := make([]uint64, 1)
	if err := s.HarvestCounterMarks(bits); err != nil || bits[0] != 1 { // cell 0, zeroed with the pipeline
		t.Fatalf("first harvest %#x %v", bits[0], err)
	}
	bits[0] = 0
	if err := s.DLTerm(p4rt.OpInsert, 0xac100001, 0, p4rt.Term{Action: p4rt.TermFwd, CtrIdx: 40}); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteCounter(p4rt.CtrPostQos, 100, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.HarvestCounterMarks(bits); err != nil {
		t.Fatal(err)
	}
	if want := uint64(1)<<(40/p4rt.CounterBlock) | 1<<(100/p4rt.CounterBlock); bits[0] != want {
		t.Errorf("marks %#x, want %#x", bits[0], want)
	}
	// The written cell is marked once; the termination's cell as long as the termination is there.
	bits[0] = 0
	if err := s.HarvestCounterMarks(bits); err != nil || bits[0] != 1<<(40/p4rt.CounterBlock) {
		t.Errorf("second harvest %#x %v", bits[0], err)
	}
}

func TestCommitWaitsForTheSwitchToTakeWhatWasWritten(t *testing.T) {
	s, f, _ := withCounters(t)
	var m [6]byte
	if err := s.Route(p4rt.OpInsert, 0x0a000000, 8, m, m, 1); err != nil {
		t.Fatal(err)
	}
	// The fake answers a read only after taking every message before it, as the switch's one control thread.
	s.Commit()
	<-f.seen
	s.Commit() // nothing written since: no read
	f.mu.Lock()
	defer f.mu.Unlock()
	if want := (readRequest{19, counterNames[whichDrops], 0, 1}); len(f.reads) != 1 || f.reads[0] != want {
		t.Errorf("reads %+v, want one %+v", f.reads, want)
	}
	if len(f.msgs) != 1 {
		t.Errorf("%d table messages taken before the read, want 1", len(f.msgs))
	}
}
