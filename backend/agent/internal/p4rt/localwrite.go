// Local writes (docs/PIPELINE_CONTRACT.md, "Local writes"): the primary client on the same host sends its
// Writes' updates over a Unix domain socket in frames of hupf's own, without gRPC, HTTP/2 and their per-call
// headers. A frame is applied as a gRPC Write is (the same arbitration rule, lock, batch and final counts), and
// answered with the same per-update codes and messages. Reads, counters, arbitration, the pipeline and packet
// I/O stay on P4Runtime over gRPC.
//
// SOCK_STREAM, not SEQPACKET: Java's SocketChannel (the runner's side) has no SEQPACKET, and a burst of a few
// thousand updates is larger than the socket buffers a SEQPACKET record must fit in.
//
// Every integer is little-endian. A request frame:
//
//	u32 length of what follows
//	u64 device id, u64 election id high, u64 election id low
//	u32 flags (bit 0: answer the final counts of the terminations deleted)
//	u32 count, then count times: u32 length, an encoded p4.v1.Update
//
// An answer frame:
//
//	u32 length of what follows
//	u32 the Write's canonical code (0: every update applied; 2 UNKNOWN: the per-update statuses say which
//	    failed; any other: the whole frame refused, nothing applied), u32 length, its message
//	u32 count of per-update statuses (0 unless the code is UNKNOWN), then count times: u32 code, u32 length,
//	    message
//	u32 length, the final counts: a p4.v1.ReadResponse, as the gRPC Write's FinalCountsTrailer carries it

package p4rt

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
)

const (
	// MaxLocalFrame is the largest request frame: the gRPC server's message limit (cmd/hupf-backend).
	MaxLocalFrame      = 64 << 20
	localHeader        = 32
	LocalFinalCounts   = 1 // request flag
	keptFrameBufferMax = 1 << 20
	localReadBuffer    = 64 << 10
)

// ListenLocalWrites binds path (a socket already there is replaced) with mode 0600: bound under a temporary
// name, its mode set, then renamed, so that no other user can connect in between.
func ListenLocalWrites(path string) (net.Listener, error) {
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.%d", filepath.Base(path), os.Getpid()))
	_ = os.Remove(tmp)
	l, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, err
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := os.Chmod(tmp, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket == 0 {
		l.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("%s exists and is not a socket", path)
	}
	if err := os.Rename(tmp, path); err != nil {
		l.Close()
		os.Remove(tmp)
		return nil, err
	}
	return l, nil
}

// ServeLocalWrites answers the frames of every connection accepted on l, each connection on its own
// goroutine, until l is closed.
func (s *Server) ServeLocalWrites(l net.Listener) error {
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go s.serveLocalConn(c)
	}
}

// serveLocalConn reads a whole frame before it takes the write lock: a client that sent half a frame holds up
// nobody. A connection that ends mid-frame has nothing of that frame applied. Reads go through a buffer, so that
// a frame's length and its updates come in one system call.
func (s *Server) serveLocalConn(c net.Conn) {
	defer c.Close()
	r := bufio.NewReaderSize(c, localReadBuffer)
	var lenBuf [4]byte
	var frame, answer []byte
	var ups [][]byte
	for {
		if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
			return
		}
		n := binary.LittleEndian.Uint32(lenBuf[:])
		if n > MaxLocalFrame {
			// The rest of the stream cannot be framed: answered, then closed.
			answer = appendRefusal(answer[:0], errf(codes.ResourceExhausted,
				"frame of %d bytes is larger than the limit of %d", n, MaxLocalFrame))
			_, _ = c.Write(answer)
			return
		}
		if cap(frame) < int(n) {
			frame = make([]byte, n)
		}
		frame = frame[:n]
		if _, err := io.ReadFull(r, frame); err != nil {
			return
		}
		answer, ups = s.localWrite(frame, ups[:0], answer[:0])
		clear(ups)
		if cap(frame) > keptFrameBufferMax {
			frame = nil
		}
		if _, err := c.Write(answer); err != nil {
			return
		}
	}
}

// localWrite applies one request frame (without its length) and appends its answer frame to out.
func (s *Server) localWrite(frame []byte, ups [][]byte, out []byte) ([]byte, [][]byte) {
	if len(frame) < localHeader {
		return appendRefusal(out, errf(codes.InvalidArgument,
			"malformed frame: %d bytes, shorter than the %d-byte header", len(frame), localHeader)), ups
	}
	le := binary.LittleEndian
	device := le.Uint64(frame)
	election := &p4v1.Uint128{High: le.Uint64(frame[8:]), Low: le.Uint64(frame[16:])}
	flags, count := le.Uint32(frame[24:]), le.Uint32(frame[28:])
	ups, err := splitUpdates(frame[localHeader:], count, ups)
	if err == nil {
		err = s.checkDevice(device)
	}
	if err == nil {
		err = s.arb.checkPrimary(election)
	}
	if err == nil {
		err = s.underWriteLock(func() error {
			errs, final := s.applyBatch(ups, flags&LocalFinalCounts != 0)
			out = appendAnswer(out, errs, final)
			return nil
		})
	}
	if err != nil {
		return appendRefusal(out, err), ups
	}
	return out, ups
}

// splitUpdates appends count updates of b, each a u32 length and its bytes, to ups; b must hold exactly them.
func splitUpdates(b []byte, count uint32, ups [][]byte) ([][]byte, error) {
	if uint64(count)*4 > uint64(len(b)) {
		return ups, errf(codes.InvalidArgument, "malformed frame: %d updates cannot fit in %d bytes", count, len(b))
	}
	for i := uint32(0); i < count; i++ {
		if len(b) < 4 {
			return ups, errf(codes.InvalidArgument, "malformed frame: update %d of %d: truncated length", i, count)
		}
		n := binary.LittleEndian.Uint32(b)
		if uint64(n) > uint64(len(b)-4) {
			return ups, errf(codes.InvalidArgument, "malformed frame: update %d of %d: %d bytes, %d left",
				i, count, n, len(b)-4)
		}
		ups = append(ups, b[4:4+n])
		b = b[4+n:]
	}
	if len(b) > 0 {
		return ups, errf(codes.InvalidArgument, "malformed frame: %d bytes after the %d updates", len(b), count)
	}
	return ups, nil
}

// appendAnswer appends the answer of an applied frame: OK, or UNKNOWN with each update's status as batchStatus
// gives it to a gRPC Write.
func appendAnswer(out []byte, errs []error, final []byte) []byte {
	start := len(out)
	out = append(out, 0, 0, 0, 0)
	failed := false
	for _, e := range errs {
		failed = failed || e != nil
	}
	if !failed {
		out = appendStatus(out, codes.OK, "")
		out = binary.LittleEndian.AppendUint32(out, 0)
	} else {
		out = appendStatus(out, codes.Unknown, batchFailedMessage)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(errs)))
		for _, e := range errs {
			if e == nil {
				out = appendStatus(out, codes.OK, "")
				continue
			}
			c, msg := updateStatus(e)
			out = appendStatus(out, c, msg)
		}
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(len(final)))
	out = append(out, final...)
	binary.LittleEndian.PutUint32(out[start:], uint32(len(out)-start-4))
	return out
}

// appendRefusal appends the answer of a frame refused as a whole: nothing of it was applied.
func appendRefusal(out []byte, err error) []byte {
	start := len(out)
	out = append(out, 0, 0, 0, 0)
	c, msg := updateStatus(err)
	out = appendStatus(out, c, msg)
	out = binary.LittleEndian.AppendUint32(out, 0)
	out = binary.LittleEndian.AppendUint32(out, 0)
	binary.LittleEndian.PutUint32(out[start:], uint32(len(out)-start-4))
	return out
}

func appendStatus(out []byte, c codes.Code, msg string) []byte {
	out = binary.LittleEndian.AppendUint32(out, uint32(c))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(msg)))
	return append(out, msg...)
}
