package t4p4s

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"hupf/backend/agent/internal/p4rt"
)

// Counter reads over the controller protocol as hupf's T4P4S build extends it (docs/BACKENDS.md "T4P4S", build
// step 5): P4T_READ_COUNTER asks for cells of a counter by name, the switch answers P4T_COUNTER_VALUES messages
// of the same xid, each with up to maxCellsPerAnswer cells.
const (
	msgReadCounter   = 111
	msgCounterValues = 112

	readCounterSize   = headerSize + nameLen + 8                   // header, counter name, index, count
	counterValuesHead = headerSize + 8                             // header, index, count
	maxCellsPerAnswer = (maxMessage - counterValuesHead) / (2 * 8) // packets and bytes, 64 bits each
	// How long a read waits for the switch's answer (a switch that does not answer is as good as gone).
	readTimeout = 10 * time.Second
)

// whichDrops is the drop-reason counter, read through the same path as the counters the contract numbers; it
// has dropReasonCells cells (hupf_v1model.p4's DROP_REASONS_SIZE).
const (
	whichDrops      = -1
	dropReasonCells = 16
)

// T4P4S's names of the sw profile's counters (its generated read_counter_value_by_name).
var counterNames = map[int]string{
	p4rt.CtrPreQos:  "HupfIngress.upf.pre_qos_counter",
	p4rt.CtrPostQos: "HupfEgress.upf.post_qos_counter",
	p4rt.CtrTenant:  "HupfIngress.tenant.tenant_counter",
	p4rt.CtrSlice:   ".HupfIngress.tenant.slice_counter",
	whichDrops:      ".HupfIngress.upf.drop_reasons",
}

// counterValues is one P4T_COUNTER_VALUES message.
type counterValues struct {
	xid, index  uint32
	pkts, bytes []uint32
}

// cell is what the adapter keeps of one counter cell: T4P4S counts in 32 bits, the contract in 64. The raw
// values last read extend to 64 bits across wraps (a cell read at least once per 2^32 of its count), and base
// is what a write of the contract's set the cell to (T4P4S's cells cannot be written).
type cell struct {
	rawP, rawB   uint32
	p, b         uint64
	baseP, baseB uint64
}

// counterState is the switch's counter side: one read at a time, the cells seen, the blocks written since the
// last harvest.
type counterState struct {
	readMu  sync.Mutex // one read in flight: answers are matched by xid
	mu      sync.Mutex
	xid     uint32
	waiting *pendingRead
	gone    chan struct{}
	cells   map[int64]*cell
	written map[uint32]bool
}

type pendingRead struct {
	xid uint32
	got chan counterValues
}

func cellKey(which int, idx uint32) int64 { return int64(which)<<32 | int64(idx) }

func readCounterMsg(xid uint32, name string, index, count uint32) ([]byte, error) {
	msg := make([]byte, readCounterSize)
	putHeader(msg, msgReadCounter)
	binary.BigEndian.PutUint32(msg[4:], xid)
	if err := putName(msg[headerSize:headerSize+nameLen], name); err != nil {
		return nil, err
	}
	binary.BigEndian.PutUint32(msg[headerSize+nameLen:], index)
	binary.BigEndian.PutUint32(msg[headerSize+nameLen+4:], count)
	return msg, nil
}

func parseCounterValues(msg []byte) (counterValues, error) {
	if len(msg) < counterValuesHead {
		return counterValues{}, fmt.Errorf("t4p4s: counter values of %d bytes", len(msg))
	}
	v := counterValues{xid: binary.BigEndian.Uint32(msg[4:]), index: binary.BigEndian.Uint32(msg[headerSize:])}
	n := int(binary.BigEndian.Uint32(msg[headerSize+4:]))
	if n > maxCellsPerAnswer || len(msg) != counterValuesHead+16*n {
		return counterValues{}, fmt.Errorf("t4p4s: counter values: %d cells in %d bytes", n, len(msg))
	}
	v.pkts, v.bytes = make([]uint32, n), make([]uint32, n)
	for i := 0; i < n; i++ {
		at := msg[counterValuesHead+16*i:]
		// The switch's cells are 32 bits wide; the message carries them in 64.
		v.pkts[i] = uint32(binary.BigEndian.Uint64(at))
		v.bytes[i] = uint32(binary.BigEndian.Uint64(at[8:]))
	}
	return v, nil
}

// receive reads the switch's messages until its end closes: counter values go to the read waiting for them,
// anything else (digests: the sw profile has none) is dropped.
func (s *Switch) receive(conn net.Conn) {
	defer close(s.ctr.gone)
	r := bufio.NewReader(conn)
	for {
		hdr := make([]byte, headerSize)
		if _, err := io.ReadFull(r, hdr); err != nil {
			s.log.Warn("t4p4s: switch disconnected", "err", err)
			return
		}
		n := int(binary.BigEndian.Uint16(hdr[2:]))
		if n < headerSize {
			s.log.Error("t4p4s: switch sent a message shorter than its header", "length", n)
			conn.Close()
			return
		}
		msg := append(hdr, make([]byte, n-headerSize)...)
		if _, err := io.ReadFull(r, msg[headerSize:]); err != nil {
			s.log.Warn("t4p4s: switch disconnected", "err", err)
			return
		}
		if msg[1] != msgCounterValues {
			continue
		}
		v, err := parseCounterValues(msg)
		if err != nil {
			s.log.Error("t4p4s: switch", "err", err)
			conn.Close()
			return
		}
		s.ctr.mu.Lock()
		if w := s.ctr.waiting; w != nil && w.xid == v.xid {
			select {
			case w.got <- v:
			default: // more answers than asked for: the read sees too few cells and fails
			}
		}
		s.ctr.mu.Unlock()
	}
}

// readRaw reads cells lo .. lo+n-1 of a counter from the switch.
func (s *Switch) readRaw(name string, lo, n uint32) (pkts, bytes []uint32, err error) {
	s.ctr.readMu.Lock()
	defer s.ctr.readMu.Unlock()
	s.ctr.mu.Lock()
	s.ctr.xid++
	w := &pendingRead{xid: s.ctr.xid, got: make(chan counterValues, (n+maxCellsPerAnswer-1)/maxCellsPerAnswer+1)}
	s.ctr.waiting = w
	s.ctr.mu.Unlock()
	defer func() {
		s.ctr.mu.Lock()
		s.ctr.waiting = nil
		s.ctr.mu.Unlock()
	}()
	msg, err := readCounterMsg(w.xid, name, lo, n)
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	err = s.write(msg)
	s.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	pkts, bytes = make([]uint32, 0, n), make([]uint32, 0, n)
	timeout := time.NewTimer(readTimeout)
	defer timeout.Stop()
	for uint32(len(pkts)) < n {
		select {
		case v := <-w.got:
			if len(v.pkts) == 0 {
				return nil, nil, invalid("counter %s has no cells %d..%d", name, lo, lo+n-1)
			}
			if v.index != lo+uint32(len(pkts)) {
				return nil, nil, invalid("counter %s: cells from %d answered where %d was next", name, v.index,
					lo+uint32(len(pkts)))
			}
			pkts, bytes = append(pkts, v.pkts...), append(bytes, v.bytes...)
		case <-s.ctr.gone:
			return nil, nil, fmt.Errorf("t4p4s: switch gone reading %s: %w", name, &p4rt.DPError{Errno: p4rt.ENODEV})
		case <-timeout.C:
			return nil, nil, fmt.Errorf("t4p4s: no answer reading %s in %v: %w", name, readTimeout,
				&p4rt.DPError{Errno: p4rt.ENODEV})
		}
	}
	if uint32(len(pkts)) != n {
		return nil, nil, invalid("counter %s: %d cells answered, %d asked for", name, len(pkts), n)
	}
	return pkts, bytes, nil
}

// readCells reads cells lo .. lo+len(pkts)-1 of counter which as the contract sees them (s.ctr.mu not held).
func (s *Switch) readCells(which int, lo uint32, pkts, bytes []uint64) error {
	name, ok := counterNames[which]
	if !ok {
		return invalid("no counter %d", which)
	}
	if len(pkts) == 0 {
		return nil
	}
	rawP, rawB, err := s.readRaw(name, lo, uint32(len(pkts)))
	if err != nil {
		return err
	}
	s.ctr.mu.Lock()
	defer s.ctr.mu.Unlock()
	for i := range pkts {
		key := cellKey(which, lo+uint32(i))
		c := s.ctr.cells[key]
		if c == nil {
			if rawP[i] == 0 && rawB[i] == 0 {
				pkts[i], bytes[i] = 0, 0
				continue
			}
			c = &cell{}
			s.ctr.cells[key] = c
		}
		c.p += uint64(rawP[i] - c.rawP)
		c.b += uint64(rawB[i] - c.rawB)
		c.rawP, c.rawB = rawP[i], rawB[i]
		pkts[i], bytes[i] = c.p-c.baseP, c.b-c.baseB
	}
	return nil
}

// Commit returns once the switch has applied every table message written before it: T4P4S acknowledges none,
// but it takes its controller's messages in order on one thread, so the answer to a counter read written after
// them comes once they are in (a Write answered before would race the packets sent after it).
func (s *Switch) Commit() {
	s.mu.Lock()
	pending := s.conn != nil && s.sent != s.committed
	s.committed = s.sent
	s.mu.Unlock()
	if !pending {
		return
	}
	if _, _, err := s.readRaw(counterNames[whichDrops], 0, 1); err != nil {
		s.log.Error("t4p4s: the switch did not confirm the writes", "err", err)
	}
}

// countedCells are the pre- and post-QoS cells that may hold counts: those of the terminations written and
// those read or written before (s.mu held).
func (s *Switch) countedCells() map[uint32]bool {
	cells := map[uint32]bool{0: true} // a packet with no termination counts in cell 0
	for _, t := range []p4rt.ExactTable{p4rt.ExactULTerm, p4rt.ExactDLTerm} {
		for _, e := range s.exact[t] {
			cells[e.Term.CtrIdx] = true
		}
	}
	s.ctr.mu.Lock()
	for key := range s.ctr.cells {
		if which := int(key >> 32); which == p4rt.CtrPreQos || which == p4rt.CtrPostQos {
			cells[uint32(key)] = true
		}
	}
	s.ctr.mu.Unlock()
	return cells
}

// zeroCounters makes the given pre- and post-QoS cells and every drop-reason cell read zero from now on.
func (s *Switch) zeroCounters(cells map[uint32]bool) error {
	for idx := range cells {
		for _, which := range []int{p4rt.CtrPreQos, p4rt.CtrPostQos} {
			if err := s.WriteCounter(which, idx, 0, 0); err != nil {
				return err
			}
		}
	}
	for reason := uint32(0); reason < dropReasonCells; reason++ {
		if err := s.WriteCounter(whichDrops, reason, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

func (s *Switch) ReadCounter(which int, idx uint32) (uint64, uint64, error) {
	p, b := make([]uint64, 1), make([]uint64, 1)
	err := s.readCells(which, idx, p, b)
	return p[0], b[0], err
}

func (s *Switch) ReadCounters(which int, lo uint32, pkts, bytes []uint64) error {
	return s.readCells(which, lo, pkts, bytes)
}

func (s *Switch) ReadCounterCells(cells []uint32, counts []uint64) error {
	for i, cell := range cells {
		for w, which := range []int{p4rt.CtrPreQos, p4rt.CtrPostQos} {
			if err := s.readCells(which, cell, counts[4*i+2*w:4*i+2*w+1], counts[4*i+2*w+1:4*i+2*w+2]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Switch) ReadDrops(reason uint32) (uint64, error) {
	p, _, err := s.ReadCounter(whichDrops, reason)
	return p, err
}

// WriteCounter sets what the cell reads as from now on: its current count becomes the base that reads subtract.
func (s *Switch) WriteCounter(which int, idx uint32, pkts, bytes uint64) error {
	if _, _, err := s.ReadCounter(which, idx); err != nil {
		return err
	}
	s.ctr.mu.Lock()
	defer s.ctr.mu.Unlock()
	key := cellKey(which, idx)
	c := s.ctr.cells[key]
	if c == nil {
		c = &cell{}
		s.ctr.cells[key] = c
	}
	c.baseP, c.baseB = c.p-pkts, c.b-bytes
	if which == p4rt.CtrPreQos || which == p4rt.CtrPostQos {
		s.ctr.written[idx/p4rt.CounterBlock] = true
	}
	return nil
}

// HarvestCounterMarks marks the blocks of every cell a termination written here counts in (T4P4S keeps no
// marks: any of them may have counted since) and of the cells written since the last harvest.
func (s *Switch) HarvestCounterMarks(bits []uint64) error {
	mark := func(block uint32) {
		if w := int(block / 64); w < len(bits) {
			bits[w] |= 1 << (block % 64)
		}
	}
	s.mu.Lock()
	for _, t := range []p4rt.ExactTable{p4rt.ExactULTerm, p4rt.ExactDLTerm} {
		for _, e := range s.exact[t] {
			mark(e.Term.CtrIdx / p4rt.CounterBlock)
		}
	}
	s.mu.Unlock()
	s.ctr.mu.Lock()
	for block := range s.ctr.written {
		mark(block)
	}
	clear(s.ctr.written)
	s.ctr.mu.Unlock()
	return nil
}
