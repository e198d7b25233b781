package p4rt

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

type localAnswer struct {
	code    codes.Code
	msg     string
	updates []codes.Code
	msgs    []string
	final   []byte
}

// serveLocal serves h's local writes on a socket in a temporary directory and returns its path.
func (h *harness) serveLocal() string {
	path := filepath.Join(h.t.TempDir(), "backend.sock")
	l, err := ListenLocalWrites(path)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { l.Close() })
	go h.srv.ServeLocalWrites(l)
	return path
}

func dialLocal(t *testing.T, path string) net.Conn {
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// localFrame encodes a request frame of updates for device 1 from election id low.
func localFrame(t *testing.T, low uint64, flags uint32, ups ...*p4v1.Update) []byte {
	var raw [][]byte
	for _, u := range ups {
		b, err := proto.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, b)
	}
	return rawFrame(low, flags, raw...)
}

func rawFrame(low uint64, flags uint32, ups ...[]byte) []byte {
	body := make([]byte, localHeader)
	le := binary.LittleEndian
	le.PutUint64(body, 1)
	le.PutUint64(body[16:], low)
	le.PutUint32(body[24:], flags)
	le.PutUint32(body[28:], uint32(len(ups)))
	for _, b := range ups {
		body = le.AppendUint32(body, uint32(len(b)))
		body = append(body, b...)
	}
	return append(le.AppendUint32(nil, uint32(len(body))), body...)
}

func readAnswer(t *testing.T, c net.Conn) localAnswer {
	var size [4]byte
	if _, err := io.ReadFull(c, size[:]); err != nil {
		t.Fatalf("no answer: %v", err)
	}
	b := make([]byte, binary.LittleEndian.Uint32(size[:]))
	if _, err := io.ReadFull(c, b); err != nil {
		t.Fatalf("truncated answer: %v", err)
	}
	u32 := func() uint32 {
		v := binary.LittleEndian.Uint32(b)
		b = b[4:]
		return v
	}
	str := func() string {
		l := u32()
		s := string(b[:l])
		b = b[l:]
		return s
	}
	var a localAnswer
	a.code = codes.Code(u32())
	a.msg = str()
	for i, count := 0, int(u32()); i < count; i++ {
		a.updates = append(a.updates, codes.Code(u32()))
		a.msgs = append(a.msgs, str())
	}
	n := u32()
	if int(n) != len(b) {
		t.Fatalf("final counts of %d bytes in %d", n, len(b))
	}
	a.final = b
	return a
}

func (h *harness) localWrite(c net.Conn, low uint64, flags uint32, ups ...*p4v1.Update) localAnswer {
	if _, err := c.Write(localFrame(h.t, low, flags, ups...)); err != nil {
		h.t.Fatal(err)
	}
	return readAnswer(h.t, c)
}

func (h *harness) entries(table string) int {
	return len(h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: h.tableID(table)}}}))
}

// A frame is applied as a gRPC Write of the same updates: the same per-update codes and messages, the same
// entries stored, and a deletion's final counts as the gRPC trailer carries them.
func TestLocalWriteAnswersAsTheGRPCWrite(t *testing.T) {
	viaGRPC, _ := primed(t)
	local, _ := primed(t)
	c := dialLocal(t, local.serveLocal())
	batch := func(h *harness) []*p4v1.Update {
		sess := func(teid uint64) *p4v1.TableEntry {
			return h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, 1, 32), exactM(2, teid, 32)}, aULSess, 0, 5, 0)
		}
		tooWide := h.entry(tIGPeers, []*p4v1.FieldMatch{exactM(1, 1, 8)}, aSetRouteDst, 0, 1)
		tooWide.Match[0].GetExact().Value = []byte{1, 0}
		return []*p4v1.Update{upd(ins, sess(1)), upd(ins, sess(1)), upd(del, sess(2)), upd(ins, tooWide)}
	}
	st := status.Convert(viaGRPC.write(batch(viaGRPC)...))
	a := local.localWrite(c, 10, LocalFinalCounts, batch(local)...)
	if a.code != st.Code() || a.msg != st.Message() || len(a.updates) != len(st.Details()) {
		t.Fatalf("local answer %+v, gRPC %v", a, st.Proto())
	}
	for i, d := range st.Details() {
		e := d.(*p4v1.Error)
		if a.updates[i] != codes.Code(e.CanonicalCode) || a.msgs[i] != e.Message {
			t.Errorf("update %d: local %v %q, gRPC %v %q", i, a.updates[i], a.msgs[i], codes.Code(e.CanonicalCode), e.Message)
		}
	}
	if n := local.entries(tULSess); n != 1 {
		t.Errorf("%d entries stored, want the 1 that succeeded", n)
	}
	if a := local.localWrite(c, 10, 0, upd(ins, local.entry(tULSess, []*p4v1.FieldMatch{exactM(1, 1, 32),
		exactM(2, 7, 32)}, aULSess, 0, 5, 0))); a.code != codes.OK || len(a.updates) != 0 || len(a.final) != 0 {
		t.Errorf("a frame of updates that all apply: %+v", a)
	}

	ue := uint64(0xac100005)
	term := func(h *harness, action string) *p4v1.TableEntry {
		return h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 1, 8)}, action, 0, 12)
	}
	for _, h := range []*harness{viaGRPC, local} {
		if err := h.write(upd(ins, term(h, aULTermDrop))); err != nil {
			t.Fatal(err)
		}
		h.fake.mu.Lock()
		h.fake.counters[[2]uint32{CtrPreQos, 12}] = [2]uint64{7, 700}
		h.fake.mu.Unlock()
	}
	want, err := viaGRPC.writeWithTrailer(true, upd(del, term(viaGRPC, "")))
	if err != nil || want == nil {
		t.Fatalf("gRPC deletion: %v, final counts %v", err, want)
	}
	a = local.localWrite(c, 10, LocalFinalCounts, upd(del, term(local, "")))
	got := &p4v1.ReadResponse{}
	if err := proto.Unmarshal(a.final, got); a.code != codes.OK || err != nil || !proto.Equal(got, want) {
		t.Errorf("local deletion %v: final counts %v (%v), want %v", a.code, got, err, want)
	}
}

// A frame refused as a whole is answered with the gRPC Write's code and message and changes nothing; the
// connection goes on with the next frame.
func TestLocalWriteRefusals(t *testing.T) {
	h := newHarness(t)
	c := dialLocal(t, h.serveLocal())
	sess := upd(ins, h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, 1, 32), exactM(2, 1, 32)}, aULSess, 0, 5, 0))
	if a := h.localWrite(c, 10, 0, sess); a.code != codes.PermissionDenied {
		t.Errorf("no primary: %+v", a)
	}
	_, arb := h.open(10)
	if arb.Status.Code != 0 {
		t.Fatal("not primary")
	}
	grpcNoPipe := status.Convert(h.write(sess))
	if a := h.localWrite(c, 10, 0, sess); a.code != codes.FailedPrecondition || a.msg != grpcNoPipe.Message() {
		t.Errorf("no pipeline: %+v, gRPC %v", a, grpcNoPipe)
	}
	if err := h.setPipeline(h.info); err != nil {
		t.Fatal(err)
	}
	grpcNotPrimary := status.Convert(func() error {
		_, err := h.cli.Write(context.Background(), &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 9},
			Updates: []*p4v1.Update{sess}})
		return err
	}())
	if a := h.localWrite(c, 9, 0, sess); a.code != codes.PermissionDenied || a.msg != grpcNotPrimary.Message() {
		t.Errorf("wrong election id: %+v, gRPC %v", a, grpcNotPrimary)
	}
	frame := localFrame(t, 10, 0, sess)
	binary.LittleEndian.PutUint64(frame[4:], 2)
	if _, err := c.Write(frame); err != nil {
		t.Fatal(err)
	}
	if a := readAnswer(t, c); a.code != codes.NotFound {
		t.Errorf("wrong device: %+v", a)
	}
	malformed := map[string][]byte{}
	short := localFrame(t, 10, 0)[:20]
	binary.LittleEndian.PutUint32(short, 16)
	malformed["header cut short"] = short
	twoClaimed := localFrame(t, 10, 0, sess)
	binary.LittleEndian.PutUint32(twoClaimed[32:], 2)
	malformed["count larger than the updates"] = twoClaimed
	longer := localFrame(t, 10, 0, sess)
	binary.LittleEndian.PutUint32(longer[36:], binary.LittleEndian.Uint32(longer[36:])+1)
	malformed["update longer than the frame"] = longer
	trailing := append(localFrame(t, 10, 0, sess), 0)
	binary.LittleEndian.PutUint32(trailing, binary.LittleEndian.Uint32(trailing)+1)
	malformed["bytes after the updates"] = trailing
	for name, f := range malformed {
		if _, err := c.Write(f); err != nil {
			t.Fatal(err)
		}
		if a := readAnswer(t, c); a.code != codes.InvalidArgument || len(a.updates) != 0 {
			t.Errorf("%s: %+v", name, a)
		}
	}
	if n := h.entries(tULSess); n != 0 {
		t.Errorf("%d entries written by refused frames", n)
	}
	// An update that is not a p4.v1.Update fails alone, as in a gRPC Write.
	good, _ := proto.Marshal(sess)
	if a := readAnswerOf(t, c, rawFrame(10, 0, good, []byte{0xff})); a.code != codes.Unknown ||
		len(a.updates) != 2 || a.updates[0] != codes.OK || a.updates[1] != codes.InvalidArgument {
		t.Errorf("garbage update: %+v", a)
	}
	if n := h.entries(tULSess); n != 1 {
		t.Errorf("%d entries, want the good update's", n)
	}
}

func readAnswerOf(t *testing.T, c net.Conn, frame []byte) localAnswer {
	if _, err := c.Write(frame); err != nil {
		t.Fatal(err)
	}
	return readAnswer(t, c)
}

// A frame over the limit is refused and its connection closed (the stream cannot be framed past it); the
// socket is the owner's only.
func TestLocalWriteOversizeAndMode(t *testing.T) {
	h, _ := primed(t)
	path := h.serveLocal()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Errorf("socket %v, %v: want a socket of mode 0600", fi.Mode(), err)
	}
	c := dialLocal(t, path)
	if _, err := c.Write(binary.LittleEndian.AppendUint32(nil, MaxLocalFrame+1)); err != nil {
		t.Fatal(err)
	}
	if a := readAnswer(t, c); a.code != codes.ResourceExhausted {
		t.Errorf("oversize frame: %+v", a)
	}
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("connection after an oversize frame: %v, want EOF", err)
	}
}

// A client that sent half a frame holds up no other client; when it goes, nothing of its frame is applied.
func TestLocalWriteHalfFrameStallsNobody(t *testing.T) {
	h, _ := primed(t)
	path := h.serveLocal()
	half := dialLocal(t, path)
	whole := dialLocal(t, path)
	sess := func(teid uint64) *p4v1.Update {
		return upd(ins, h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, 1, 32), exactM(2, teid, 32)}, aULSess, 0, 5, 0))
	}
	f := localFrame(t, 10, 0, sess(1))
	if _, err := half.Write(f[:len(f)/2]); err != nil {
		t.Fatal(err)
	}
	if a := h.localWrite(whole, 10, 0, sess(2)); a.code != codes.OK {
		t.Fatalf("the other client: %+v", a)
	}
	if err := h.write(sess(3)); err != nil {
		t.Fatalf("a gRPC Write beside the half frame: %v", err)
	}
	half.Close()
	if a := h.localWrite(whole, 10, 0, sess(4)); a.code != codes.OK {
		t.Fatalf("after the half frame: %+v", a)
	}
	if n := h.entries(tULSess); n != 3 {
		t.Errorf("%d entries, want the 3 whole frames' and Write's", n)
	}
}
