package p4rt

// End-to-end test of --port-rate with two forwarding lcores (the bed of e2e_test.go: root and
// build/hupf-backend, skipped without them).

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"strings"
	"syscall"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// e2eLcore is the forwarding lcore, of n, that io.c's pick_worker gives a UE: rte_hash_crc_4byte(ue, 0) % n,
// CRC-32C without the initial and final inversions over the address's four bytes in host (little-endian) order.
func e2eLcore(ue uint32, n int) int {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], ue)
	return int(^crc32.Update(^uint32(0), crc32.MakeTable(crc32.Castagnoli), b[:]) % uint32(n))
}

// e2ePortStats is a port of the backend's stats line (dp.PortStats as JSON).
type e2ePortStats struct {
	P4Port                      int
	RX, TX, RXMissed, TXDropped uint64
	RateBps                     uint64
	QueueDropped                *[8]uint64
}

// stats has the backend log a stats line (SIGUSR1) and returns its ports by P4 port.
func (b *bed) stats() map[int]e2ePortStats {
	const tag = `"msg":"stats"`
	before := strings.Count(b.log.String(), tag)
	if err := b.proc.Process.Signal(syscall.SIGUSR1); err != nil {
		b.t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		seen := 0
		for _, l := range strings.Split(b.log.String(), "\n") {
			if !strings.Contains(l, tag) {
				continue
			}
			if seen++; seen <= before || !strings.HasSuffix(l, "}") {
				continue
			}
			var line struct{ Ports []e2ePortStats }
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				b.t.Fatalf("stats line %q: %v", l, err)
			}
			out := map[int]e2ePortStats{}
			for _, p := range line.Ports {
				out[p.P4Port] = p
			}
			return out
		}
	}
	b.t.Fatal("no stats line within 5 s of SIGUSR1")
	return nil
}

// recvQuiet returns the frames that arrive on port until none has arrived for quiet (within limit).
func (b *bed) recvQuiet(port int, quiet, limit time.Duration) [][]byte {
	var out [][]byte
	last := time.Now()
	for end := last.Add(limit); time.Now().Before(end) && time.Since(last) < quiet; {
		if got := b.recv(port, 100*time.Millisecond, 1); len(got) > 0 {
			out = append(out, got...)
			last = time.Now()
		}
	}
	return out
}

// TestE2EPortRateAcrossLcores: with two forwarding lcores a port rate is accepted (it was refused
// before: the scheduler is single-threaded). The DN port's scheduler is owned by lcore 0 (the first
// rate-limited port's owner); lcore 1 hands it the packets of its UEs over the scheduler's ring. At
// 1 Mbit/s (~8.2 ms per 1,002-byte frame) 60 low-priority frames of two UEs, one on each lcore, then
// 16 high-priority frames of another UE on lcore 1, then 40 low-priority ones again, are sent back to
// back: the high-priority frames overtake the low-priority queue that both lcores filled (first in,
// first out, all of the first 60 would leave before them; here only those the port sent before the
// high-priority frames reached the scheduler, through two rings and lcores that share two CPUs with
// the test: fewer than a quarter), each UE's frames stay in order, and every frame sent is forwarded
// or counted: in the port's QueueDropped under its priority, or in port 1's RXMissed (a loaded machine).
func TestE2EPortRateAcrossLcores(t *testing.T) {
	const lcores, rateMbps, payload = 2, 1, 960
	b := newBed(t, lcores, "--port-rate", "2=1")
	const nue = 8
	b.base(nue)
	var on [lcores][]uint64 // UE indexes by lcore
	for i := uint64(0); i < nue; i++ {
		l := e2eLcore(uint32(e2eUEBase+i), lcores)
		on[l] = append(on[l], i)
	}
	if len(on[0]) < 1 || len(on[1]) < 2 {
		t.Fatalf("UEs by lcore %v: want one on lcore 0 and two on lcore 1", on)
	}
	lowOwner, lowOther, high := on[0][0], on[1][0], on[1][1]
	h := b.h
	if err := h.write( // the high UE's uplink class 1, which qos.queues gives priority 7
		upd(ins, h.entry(tQueues, []*p4v1.FieldMatch{exactM(1, 1, 2)}, aSetQueue, 0, 7)),
		upd(mod, h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, e2eUEBase+high, 32), exactM(2, 0, 8)}, aULTermFwd, 0,
			10+2*high, 1, 0))); err != nil {
		t.Fatal(err)
	}
	seq := map[uint64]uint32{}
	send := func(ue uint64) {
		p := make([]byte, payload)
		binary.BigEndian.PutUint32(p, seq[ue])
		b.send(1, gtpuFrame(uint32(0x100+ue), ipv4(uint32(e2eUEBase+ue), e2eApp, 17, 64, udp(4000, 53, p))))
		seq[ue]++
	}
	const lowFirst, highN, lowThen = 60, 16, 40
	missedBefore := b.stats()[1].RXMissed
	start := time.Now()
	for i := 0; i < lowFirst; i++ {
		send([]uint64{lowOwner, lowOther}[i%2])
	}
	for i := 0; i < highN; i++ {
		send(high)
	}
	sending := time.Since(start)
	for i := 0; i < lowThen; i++ {
		send([]uint64{lowOwner, lowOther}[i%2])
	}
	got := b.recvQuiet(2, 1500*time.Millisecond, 30*time.Second)

	next := map[uint32]uint32{}
	highs, lastHigh, lowBefore := 0, -1, 0
	for i, f := range got {
		ue, s := binary.BigEndian.Uint32(f[26:]), binary.BigEndian.Uint32(f[42:])
		if s < next[ue] {
			t.Fatalf("UE %08x: frame %d after %d", ue, s, next[ue]-1)
		}
		next[ue] = s + 1
		if ue == uint32(e2eUEBase+high) {
			highs, lastHigh = highs+1, i
		}
	}
	for _, f := range got[:lastHigh+1] {
		if binary.BigEndian.Uint32(f[26:]) != uint32(e2eUEBase+high) {
			lowBefore++
		}
	}
	frameTime := time.Duration(float64(14+20+8+payload+24) * 8 / rateMbps * float64(time.Microsecond))
	t.Logf("%d frames forwarded of %d; %d high, the last at %d, after %d low (sent in %v, %v a frame at the rate)",
		len(got), lowFirst+highN+lowThen, highs, lastHigh, lowBefore, sending, frameTime)
	st := b.stats()
	in, dn := st[1], st[2]
	if dn.RateBps != rateMbps*1_000_000 || dn.QueueDropped == nil {
		t.Fatalf("port 2 stats %+v: want its rate and queue drops", dn)
	}
	// Port 1's receive ring overflows when its lcore waits for a CPU (a loaded machine): those frames, of any
	// priority, are counted there.
	missed := in.RXMissed - missedBefore
	if uint64(highs)+missed < highN {
		t.Fatalf("%d of %d high-priority frames forwarded, %d frames missed on port 1", highs, highN, missed)
	}
	if lowBefore >= lowFirst/4 {
		t.Errorf("%d low-priority frames left before the last high-priority one, want fewer than %d", lowBefore, lowFirst/4)
	}
	qd := *dn.QueueDropped
	if qd[0]+uint64(len(got))+missed != lowFirst+highN+lowThen || qd[7] != 0 || dn.TX != uint64(len(got)) {
		t.Errorf("sent %d = forwarded %d (port 2 TX %d) + queue drops %v + missed on port 1 %d?",
			lowFirst+highN+lowThen, len(got), dn.TX, qd, missed)
	}
	for p := 1; p < 7; p++ {
		if qd[p] != 0 {
			t.Errorf("queue drops %v: priority %d sent nothing", qd, p)
		}
	}
}
