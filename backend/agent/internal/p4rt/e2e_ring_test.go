package p4rt

// End-to-end test of the af_packet ports' receive-ring accounting (the bed of e2e_test.go: root and
// build/hupf-backend, skipped without them).

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// peerTxDropped is the tx_dropped count of P4 port port's veth peer, in the bed's namespace: frames the
// veth could not hand to the backend's side (its backlog was full).
func (b *bed) peerTxDropped(port int) uint64 {
	peer := strings.Replace(b.links[port-1], "s", "h", 1)
	out, err := exec.Command("ip", "netns", "exec", b.ns, "cat",
		fmt.Sprintf("/sys/class/net/%s/statistics/tx_dropped", peer)).Output()
	if err != nil {
		b.t.Fatalf("tx_dropped of %s: %v", peer, err)
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		b.t.Fatal(err)
	}
	return n
}

// TestE2ERingOverflowIsCounted: while the backend is stopped (as a busy machine's scheduler stops it), the
// frames its port's af_packet ring has no room for are dropped by the kernel; each is in the port's RXMissed.
// Every frame sent is received by the port, counted missed by it, or counted dropped by the sending veth.
func TestE2ERingOverflowIsCounted(t *testing.T) {
	b := newBed(t, 1)
	before, vethBefore := b.stats()[1], b.peerTxDropped(1)
	frame := ether([]byte{2, 0, 0, 0, 0, 1}, []byte{2, 0, 0, 0, 0, 2}, 0x0800, userPkt(0x0afa0001, 0x08080808, 64, 1))
	// Three rings' worth (a ring holds 16 MiB of frames, 8,192 at this MTU).
	const sent = 3 * 8192
	if err := b.proc.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < sent; i++ {
		b.send(1, frame)
	}
	if err := b.proc.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	var rx, missed, veth uint64
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		now := b.stats()[1]
		rx, missed, veth = now.RX-before.RX, now.RXMissed-before.RXMissed, b.peerTxDropped(1)-vethBefore
		if rx+missed+veth >= sent || time.Now().After(deadline) {
			break
		}
	}
	if rx+missed+veth != sent {
		t.Fatalf("sent %d = received %d + missed %d + veth dropped %d + %d nobody counted", sent, rx, missed,
			veth, int64(sent)-int64(rx+missed+veth))
	}
	if missed == 0 {
		t.Fatalf("the ring never overflowed (received %d, veth dropped %d): nothing was tested", rx, veth)
	}
}
