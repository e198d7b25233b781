package p4rt

// End-to-end tests of the real binary: hupf-backend on af_packet ports whose peers
// sit in a network namespace of the test's own, driven over P4Runtime with the
// contract P4Info. They need root and build/hupf-backend, and skip without them.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"hupf/backend/agent/internal/p4const"
)

const (
	e2eN3, e2eGNB, e2eApp = 0x0a000001, 0x0a000064, 0x08080808
	e2eUEBase             = 0xac100001
)

var e2eSwitchMAC, e2eGnbMAC, e2eDnMAC = []byte{0, 0xaa, 0, 0, 0, 1}, []byte{0, 0, 0, 0, 0xa, 1}, []byte{0, 0, 0, 0, 0xb, 1}

type bed struct {
	t     *testing.T
	ns    string
	socks map[int]int // P4 port -> AF_PACKET socket on the peer end
	ifidx map[int]int
	links []string
	proc  *exec.Cmd
	h     *harness
	clock io.Writer      // --test-clock: the backend's stdin
	ack   *bufio.Scanner // and its acknowledgements
	log   logBuffer      // the backend's stderr (also copied to the test's)
}

// logBuffer keeps what the backend writes to stderr, for a test to read while it runs.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

var bedSeq int

func backendBinary() string {
	if b := os.Getenv("HUPF_BACKEND"); b != "" {
		return b
	}
	return "../../../build/hupf-backend"
}

func sh(t *testing.T, args ...string) {
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %v: %s", args, err, out)
	}
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// newBed creates the namespace, two veth pairs (P4 ports 1 and 2), starts the
// backend with lcores forwarding lcores (and extra arguments) and pushes the
// fixture pipeline.
func newBed(t *testing.T, lcores int, extra ...string) *bed {
	return newBedSquatted(t, lcores, 0, extra...)
}

// newBedSquatted is newBed with the af_packet fanout group of P4 port squat (if not 0) taken by another
// device's group before the backend opens it (e2e_fanout_test.go).
func newBedSquatted(t *testing.T, lcores, squat int, extra ...string) *bed {
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: end-to-end tests need root (network namespace, veth)")
	}
	bin := backendBinary()
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("SKIPPED: no backend binary at %s (make -C backend)", bin)
	}
	bedSeq++
	id := os.Getpid()%10000*10 + bedSeq%10
	b := &bed{t: t, ns: fmt.Sprintf("hupfe2e%d", id), socks: map[int]int{}, ifidx: map[int]int{}}
	sh(t, "ip", "netns", "add", b.ns)
	t.Cleanup(b.close)
	var ports []string
	squatIf := ""
	for p := 1; p <= 2; p++ {
		sw, peer := fmt.Sprintf("hb%ds%d", id, p), fmt.Sprintf("hb%dh%d", id, p)
		if p == squat {
			squatIf = sw
		}
		sh(t, "ip", "link", "add", sw, "type", "veth", "peer", "name", peer)
		b.links = append(b.links, sw)
		sh(t, "ip", "link", "set", peer, "netns", b.ns)
		sh(t, "sysctl", "-qw", "net.ipv6.conf."+sw+".disable_ipv6=1")
		sh(t, "ip", "link", "set", sw, "up")
		sh(t, "ip", "netns", "exec", b.ns, "sysctl", "-qw", "net.ipv6.conf."+peer+".disable_ipv6=1")
		sh(t, "ip", "-n", b.ns, "link", "set", peer, "up")
		ports = append(ports, "--port", fmt.Sprintf("%d=%s", p, sw))
		b.openSocket(p, peer)
	}
	lis, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := lis.Addr().String()
	lis.Close()
	args := append([]string{"--grpc-addr", addr, "--device-id", "1", "--lcores", fmt.Sprint(lcores), "--mem", "512",
		"--sessions", "1024"}, append(ports, extra...)...)
	b.proc = exec.Command(bin, args...)
	if squatIf != "" {
		b.proc = fanoutSquatter(squatIf, bin, args)
	}
	b.proc.Stderr = io.MultiWriter(os.Stderr, &b.log)
	if slices.Contains(extra, "--test-clock") {
		var err error
		if b.clock, err = b.proc.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		out, err := b.proc.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		b.ack = bufio.NewScanner(out)
	}
	if err := b.proc.Start(); err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.Dial(addr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithBlock(),
		grpc.WithTimeout(20*time.Second))
	if err != nil {
		t.Fatalf("backend did not come up: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	b.h = &harness{t: t, info: fixtureP4Info(), cli: p4v1.NewP4RuntimeClient(conn)}
	if _, arb := b.h.open(10); arb.Status.Code != 0 {
		t.Fatalf("not primary: %v", arb.Status)
	}
	if err := b.h.setPipeline(b.h.info); err != nil {
		t.Fatal(err)
	}
	return b
}

// openSocket binds a raw socket to an interface inside the namespace: setns on a
// locked thread that is then discarded (the socket keeps its namespace).
func (b *bed) openSocket(port int, ifname string) {
	type res struct {
		fd, idx int
		err     error
	}
	ch := make(chan res)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		f, err := os.Open("/var/run/netns/" + b.ns)
		if err != nil {
			ch <- res{err: err}
			return
		}
		defer f.Close()
		if _, _, e := syscall.RawSyscall(308 /* SYS_SETNS */, f.Fd(), syscall.CLONE_NEWNET, 0); e != 0 {
			ch <- res{err: e}
			return
		}
		ifc, err := net.InterfaceByName(ifname)
		if err != nil {
			ch <- res{err: err}
			return
		}
		fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW, int(htons(syscall.ETH_P_ALL)))
		if err == nil {
			err = syscall.Bind(fd, &syscall.SockaddrLinklayer{Protocol: htons(syscall.ETH_P_ALL), Ifindex: ifc.Index})
		}
		ch <- res{fd, ifc.Index, err}
	}()
	r := <-ch
	if r.err != nil {
		b.t.Fatalf("socket on %s: %v", ifname, r.err)
	}
	tv := syscall.NsecToTimeval(int64(100 * time.Millisecond))
	syscall.SetsockoptTimeval(r.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	b.socks[port], b.ifidx[port] = r.fd, r.idx
}

func (b *bed) close() {
	if b.proc != nil && b.proc.Process != nil {
		b.proc.Process.Signal(syscall.SIGTERM)
		b.proc.Wait()
	}
	for _, fd := range b.socks {
		syscall.Close(fd)
	}
	for _, l := range b.links {
		exec.Command("ip", "link", "del", l).Run()
	}
	exec.Command("ip", "netns", "del", b.ns).Run()
}

func (b *bed) send(port int, frame []byte) {
	if err := syscall.Sendto(b.socks[port], frame, 0, &syscall.SockaddrLinklayer{Ifindex: b.ifidx[port]}); err != nil {
		b.t.Fatal(err)
	}
}

// recv returns the frames that arrive on port within d (not those the peer sent).
func (b *bed) recv(port int, d time.Duration, want int) [][]byte {
	var out [][]byte
	buf := make([]byte, 4096)
	for end := time.Now().Add(d); time.Now().Before(end) && len(out) < want; {
		n, from, err := syscall.Recvfrom(b.socks[port], buf, 0)
		if err != nil {
			continue
		}
		if ll, ok := from.(*syscall.SockaddrLinklayer); ok && ll.Pkttype == syscall.PACKET_OUTGOING {
			continue
		}
		out = append(out, append([]byte(nil), buf[:n]...))
	}
	return out
}

// setClock sets the backend's test clock and waits for its acknowledgement.
func (b *bed) setClock(ns uint64) {
	fmt.Fprintf(b.clock, "%d\n", ns)
	want := fmt.Sprintf("clock %d", ns)
	for b.ack.Scan() {
		if b.ack.Text() == want {
			return
		}
	}
	b.t.Fatalf("test clock %d not acknowledged: %v", ns, b.ack.Err())
}

// ---- frames ----

func ipv4(src, dst uint32, proto byte, ttl byte, payload []byte) []byte {
	h := make([]byte, 20, 20+len(payload))
	h[0], h[8], h[9] = 0x45, ttl, proto
	binary.BigEndian.PutUint16(h[2:], uint16(20+len(payload)))
	binary.BigEndian.PutUint32(h[12:], src)
	binary.BigEndian.PutUint32(h[16:], dst)
	binary.BigEndian.PutUint16(h[10:], cksum(h))
	return append(h, payload...)
}

func cksum(b []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(b); i += 2 {
		s += uint32(b[i])<<8 | uint32(b[i+1])
	}
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

func udp(sport, dport uint16, payload []byte) []byte {
	h := make([]byte, 8, 8+len(payload))
	binary.BigEndian.PutUint16(h[0:], sport)
	binary.BigEndian.PutUint16(h[2:], dport)
	binary.BigEndian.PutUint16(h[4:], uint16(8+len(payload)))
	return append(h, payload...)
}

func ether(dst, src []byte, typ uint16, payload []byte) []byte {
	h := append(append(append([]byte{}, dst...), src...), byte(typ>>8), byte(typ))
	return append(h, payload...)
}

func userPkt(src, dst uint32, ttl byte, seq uint32) []byte {
	payload := make([]byte, 64)
	binary.BigEndian.PutUint32(payload, seq)
	return ipv4(src, dst, 17, ttl, udp(4000, 53, payload))
}

func gtpuFrame(teid uint32, inner []byte) []byte {
	g := make([]byte, 8, 8+len(inner))
	g[0], g[1] = 0x30, 0xff
	binary.BigEndian.PutUint16(g[2:], uint16(len(inner)))
	binary.BigEndian.PutUint32(g[4:], teid)
	return ether(e2eSwitchMAC, e2eGnbMAC, 0x0800, ipv4(e2eGNB, e2eN3, 17, 64, udp(2152, 2152, append(g, inner...))))
}

// base writes interfaces, routes, the tunnel peer and n sessions (UE i: teid 0x100+i up, 0x200+i down).
func (b *bed) base(n int) {
	h := b.h
	ups := []*p4v1.Update{
		upd(ins, h.entry(tInterfaces, []*p4v1.FieldMatch{lpmM(1, e2eN3, 32), exactM(2, 1, 1)}, aIfaceAccess, 0, 1)),
		upd(ins, h.entry(tInterfaces, []*p4v1.FieldMatch{lpmM(1, 0xac100000, 16), exactM(2, 0, 1)}, aIfaceCore, 0, 1)),
		upd(ins, h.entry(tRoutes, []*p4v1.FieldMatch{lpmM(1, e2eGNB, 32)}, aRoute, 0, 0x00aa00000001, 0x000000000a01, 1)),
		upd(ins, h.entry(tRoutes, []*p4v1.FieldMatch{lpmM(1, 0x08000000, 8)}, aRoute, 0, 0x00aa00000001, 0x000000000b01, 2)),
		upd(ins, h.entry(tIGPeers, []*p4v1.FieldMatch{exactM(1, 1, 8)}, aSetRouteDst, 0, e2eGNB)),
		upd(ins, h.entry(tEGPeers, []*p4v1.FieldMatch{exactM(1, 1, 8)}, aLoadTunnel, 0, e2eN3, e2eGNB, 2152)),
	}
	for i := uint64(0); i < uint64(n); i++ {
		ue := e2eUEBase + i
		ups = append(ups,
			upd(ins, h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, e2eN3, 32), exactM(2, 0x100+i, 32)}, aULSess, 0, ue, 0)),
			upd(ins, h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue, 32)}, aDLSess, 0, 1, 0)),
			upd(ins, h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 0, 8)}, aULTermFwd, 0, 10+2*i, 0, 0)),
			upd(ins, h.entry(tDLTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 0, 8)}, aDLTermFwd, 0, 11+2*i, 0x200+i, 9, 0, 0)))
	}
	if err := h.write(ups...); err != nil {
		b.t.Fatal(err)
	}
}

func TestE2EForwarding(t *testing.T) {
	b := newBed(t, 1)
	b.base(1)
	inner := userPkt(e2eUEBase, e2eApp, 64, 1)
	b.send(1, gtpuFrame(0x100, inner))
	got := b.recv(2, 3*time.Second, 1)
	wantInner := append([]byte(nil), inner...)
	wantInner[8] = 63
	binary.BigEndian.PutUint16(wantInner[10:], 0)
	binary.BigEndian.PutUint16(wantInner[10:], cksum(wantInner[:20]))
	if len(got) != 1 || !bytes.Equal(got[0], ether(e2eDnMAC, e2eSwitchMAC, 0x0800, wantInner)) {
		t.Fatalf("uplink: got %x\nwant %x", got, ether(e2eDnMAC, e2eSwitchMAC, 0x0800, wantInner))
	}
	b.send(2, ether(e2eSwitchMAC, e2eDnMAC, 0x0800, userPkt(e2eApp, e2eUEBase, 64, 2)))
	got = b.recv(1, 3*time.Second, 1)
	if len(got) != 1 || len(got[0]) != 14+36+92 || binary.BigEndian.Uint32(got[0][46:]) != 0x200 ||
		binary.BigEndian.Uint32(got[0][26:]) != e2eN3 || !bytes.Equal(got[0][:6], e2eGnbMAC) || got[0][50+8] != 63 {
		t.Fatalf("downlink encap: %x", got)
	}
	echo := []byte{0x32, 1, 0, 4, 0, 0, 0, 0, 0, 9, 0, 0}
	b.send(1, ether(e2eSwitchMAC, e2eGnbMAC, 0x0800, ipv4(e2eGNB, e2eN3, 17, 64, udp(2152, 2152, echo))))
	got = b.recv(1, 3*time.Second, 1)
	if len(got) != 1 || got[0][43] != 2 || got[0][54] != 14 || binary.BigEndian.Uint16(got[0][50:]) != 9 {
		t.Fatalf("echo response: %x", got)
	}
	ctr := b.h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
		CounterId: b.h.schema().counters[cPreQos].Preamble.Id, Index: &p4v1.Index{Index: 10}}}})
	if d := ctr[0].GetCounterEntry().Data; d.PacketCount != 1 || d.ByteCount != int64(14+36+len(inner)) {
		t.Errorf("pre-QoS counter %v", d)
	}
	// The changed-cells read scans the data plane's cells: cell 10 once, then nothing.
	head, cells := readChanges(t, b.h, b.h.schema().counters[cPreQos].Preamble.Id, 0)
	if c := cells[10]; !head.complete || c != [2]int64{1, int64(14 + 36 + len(inner))} {
		t.Errorf("changed read: %+v %v", head, cells)
	}
	if head, cells = readChanges(t, b.h, b.h.schema().counters[cPreQos].Preamble.Id, head.token); len(cells) != 0 {
		t.Errorf("changed read with nothing changed: %v", cells)
	}
	// The lcore's count marks cell 10's block: the next changed read has it.
	b.send(1, gtpuFrame(0x100, inner))
	b.recv(2, 3*time.Second, 1)
	if _, cells = readChanges(t, b.h, b.h.schema().counters[cPreQos].Preamble.Id, head.token); len(cells) != 1 ||
		cells[10] != [2]int64{2, 2 * int64(14+36+len(inner))} {
		t.Errorf("changed read after a count: %v", cells)
	}
}

// TestE2EMeterOnTestClock: the binary's meters run on the test clock, so the count
// of frames a burst gets through is exact: a trTCM of 1 kB/s with 2.5 frames of burst
// forwards 2 of 3 back-to-back frames, forwards nothing more while the clock stands
// still, and 2 of 3 again once a second has passed.
func TestE2EMeterOnTestClock(t *testing.T) {
	b := newBed(t, 1, "--test-clock")
	b.base(1)
	h := b.h
	inner := userPkt(e2eUEBase, e2eApp, 64, 1)
	frame := gtpuFrame(0x100, inner)
	burst := int64(len(frame) * 5 / 2)
	meter := &p4v1.MeterEntry{MeterId: h.schema().meters[mSessionMeter].Preamble.Id, Index: &p4v1.Index{Index: 3},
		Config: &p4v1.MeterConfig{Cir: 1000, Cburst: burst, Pir: 1000, Pburst: burst}}
	b.setClock(5_000_000_000)
	if err := h.write(&p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: meter}}},
		upd(mod, h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, e2eN3, 32), exactM(2, 0x100, 32)}, aULSess, 0,
			e2eUEBase, 3))); err != nil {
		t.Fatal(err)
	}
	red := func() int64 {
		c := h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
			CounterId: h.schema().counters[cDropReasons].Preamble.Id, Index: &p4v1.Index{Index: p4const.DropMeterRed}}}})
		return c[0].GetCounterEntry().Data.PacketCount
	}
	for i, want := range []int{2, 0, 2} {
		if i == 2 {
			b.setClock(6_000_000_000)
		}
		before := red()
		for j := 0; j < 3; j++ {
			b.send(1, frame)
		}
		got := len(b.recv(2, 1500*time.Millisecond, 3))
		if got != want || red()-before != int64(3-want) {
			t.Errorf("burst %d: %d forwarded, %d red; want %d and %d", i, got, red()-before, want, 3-want)
		}
	}
}

// expectPacketIn waits for the next packet-in: payload, ingress port and reason.
func expectPacketIn(t *testing.T, st p4v1.P4Runtime_StreamChannelClient, payload []byte, port, reason byte) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		m, err := st.Recv()
		if err != nil || time.Now().After(deadline) {
			t.Fatalf("no packet-in: %v", err)
		}
		if pi := m.GetPacket(); pi != nil {
			md := pi.Metadata
			if !bytes.Equal(pi.Payload, payload) || md[0].Value[len(md[0].Value)-1] != port ||
				md[2].Value[len(md[2].Value)-1] != reason {
				t.Fatalf("packet-in %v, want port %d reason %d", pi, port, reason)
			}
			return
		}
	}
}

// With two lcores, each UE's packets stay in order (the UE hash picks the lcore).
func TestE2EOrderPerUEAcrossLcores(t *testing.T) {
	b := newBed(t, 2)
	const ues, per = 4, 50
	b.base(ues)
	for s := 0; s < per; s++ {
		for u := uint64(0); u < ues; u++ {
			b.send(1, gtpuFrame(uint32(0x100+u), userPkt(uint32(e2eUEBase+u), e2eApp, 64, uint32(s))))
		}
	}
	got := b.recv(2, 10*time.Second, ues*per)
	if len(got) != ues*per {
		t.Fatalf("%d of %d packets forwarded", len(got), ues*per)
	}
	next := map[uint32]uint32{}
	for _, f := range got {
		ue, seq := binary.BigEndian.Uint32(f[26:]), binary.BigEndian.Uint32(f[42:])
		if seq != next[ue] {
			t.Fatalf("UE %08x: packet %d after %d", ue, seq, next[ue])
		}
		next[ue]++
	}
}

func TestE2EPacketIO(t *testing.T) {
	b := newBed(t, 1)
	b.base(0) // routes, before a second client takes over as primary
	h := b.h
	st, err := h.cli.StreamChannel(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A second stream with a higher election id becomes primary and gets the packet-ins.
	st.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 20}}}})
	if a := recvArb(t, st); a.Status.Code != 0 {
		t.Fatalf("not primary: %v", a)
	}
	acl := h.entry(tACL, []*p4v1.FieldMatch{ternM(4, 0x0806, 0xffff, 16)}, aPunt, 10)
	_, err = h.cli.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 20},
		Updates: []*p4v1.Update{upd(ins, acl)}})
	if err != nil {
		t.Fatal(err)
	}
	arp := ether([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, e2eGnbMAC, 0x0806, make([]byte, 28))
	b.send(1, arp)
	expectPacketIn(t, st, arp, 1, 1)
	// ACL copy (priority above the punt): the packet is routed and a copy as received goes up.
	cp := h.entry(tACL, []*p4v1.FieldMatch{ternM(9, 53, 0xffff, 16)}, aCopy, 20)
	_, err = h.cli.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 20},
		Updates: []*p4v1.Update{upd(ins, cp)}})
	if err != nil {
		t.Fatal(err)
	}
	routed := ether(e2eSwitchMAC, e2eGnbMAC, 0x0800, userPkt(e2eGNB, e2eApp, 64, 3))
	b.send(1, routed)
	expectPacketIn(t, st, routed, 1, 2)
	if got := b.recv(2, 3*time.Second, 1); len(got) != 1 || !bytes.Equal(got[0][:6], e2eDnMAC) {
		t.Fatalf("copied packet not forwarded: %x", got)
	}
	// Copied, then buffered: two packet-ins, each with its own reason.
	buf := h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, e2eUEBase, 32)}, aDLSessBuf, 0, 0)
	_, err = h.cli.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 20},
		Updates: []*p4v1.Update{upd(ins, buf)}})
	if err != nil {
		t.Fatal(err)
	}
	dl := ether(e2eSwitchMAC, e2eDnMAC, 0x0800, userPkt(e2eApp, e2eUEBase, 64, 4))
	b.send(2, dl)
	expectPacketIn(t, st, dl, 2, 2)
	expectPacketIn(t, st, dl, 2, 3)
	out := ether(e2eDnMAC, e2eSwitchMAC, 0x0800, userPkt(e2eApp, e2eUEBase, 64, 7))
	st.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
		Payload: out, Metadata: []*p4v1.PacketMetadata{{MetadataId: 1, Value: []byte{2}}}}}})
	if got := b.recv(2, 3*time.Second, 1); len(got) != 1 || !bytes.Equal(got[0], out) {
		t.Fatalf("packet-out: %x", got)
	}
}
