// hupf-p4rt-bench measures the P4Runtime insert rate of a running hupf-backend:
// N sessions as 4 table entries each (uplink/downlink session and termination),
// written in batches by concurrent writers of one primary client; requests are
// encoded before the clock starts.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"hupf/backend/agent/internal/p4const"
)

type resolver struct {
	tables  map[string]*p4cfg.Table
	actions map[string]*p4cfg.Action
}

func be(v uint64, width int32) []byte {
	b := make([]byte, (width+7)/8)
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return b
}

// entry builds an exact-match entry; keys and params are in P4Info order.
func (r *resolver) entry(table, action string, keys []uint64, params ...uint64) *p4v1.Update {
	t, a := r.tables[table], r.actions[action]
	te := &p4v1.TableEntry{TableId: t.Preamble.Id}
	for i, f := range t.MatchFields {
		te.Match = append(te.Match, &p4v1.FieldMatch{FieldId: f.Id, FieldMatchType: &p4v1.FieldMatch_Exact_{
			Exact: &p4v1.FieldMatch_Exact{Value: be(keys[i], f.Bitwidth)}}})
	}
	act := &p4v1.Action{ActionId: a.Preamble.Id}
	for i, p := range a.Params {
		act.Params = append(act.Params, &p4v1.Action_Param{ParamId: p.Id, Value: be(params[i], p.Bitwidth)})
	}
	te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: act}}
	return &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}}
}

func (r *resolver) session(i uint64) []*p4v1.Update {
	const n3, ueBase = 0x0a000001, 0x10000000
	ue := ueBase + i
	return []*p4v1.Update{
		r.entry(p4const.HupfIngressUpfUplinkSessions, p4const.HupfIngressUpfSetUplinkSession, []uint64{n3, i + 1}, ue, 0),
		r.entry(p4const.HupfIngressUpfDownlinkSessions, p4const.HupfIngressUpfSetDownlinkSession, []uint64{ue}, 1, 0),
		// Every termination its own counter cells (the backend has one per termination).
		r.entry(p4const.HupfIngressUpfUplinkTerminations, p4const.HupfIngressUpfUplinkTermFwd, []uint64{ue, 0}, 2*i, 0, 0),
		r.entry(p4const.HupfIngressUpfDownlinkTerminations, p4const.HupfIngressUpfDownlinkTermFwd, []uint64{ue, 0},
			2*i+1, i+1, 9, 0, 0),
	}
}

func main() {
	addr := flag.String("addr", "127.0.0.1:9559", "P4Runtime address of hupf-backend")
	infoPath := flag.String("p4info", "", "sw profile P4Info (text format)")
	sessions := flag.Uint64("sessions", 100000, "sessions to insert (4 entries each)")
	batch := flag.Int("batch", 1000, "updates per Write")
	writers := flag.Int("writers", 4, "concurrent Write RPCs")
	chunk := flag.Uint64("chunk", 250000, "sessions whose requests are built at once (the client needs ~1 GB per 250,000)")
	reads := flag.Int("changed-reads", 0, "then time this many idle changed-cells reads of the sessions' cells")
	pid := flag.Int("pid", 0, "the backend's process id: its CPU per changed read")
	flag.Parse()
	if err := run(*addr, *infoPath, *sessions, max(*chunk, 1), *batch, *writers, *reads, *pid); err != nil {
		fmt.Fprintln(os.Stderr, "hupf-p4rt-bench:", err)
		os.Exit(1)
	}
}

func run(addr, infoPath string, sessions, chunk uint64, batch, writers, reads, pid int) error {
	raw, err := os.ReadFile(infoPath)
	if err != nil {
		return err
	}
	info := &p4cfg.P4Info{}
	if err := prototext.Unmarshal(raw, info); err != nil {
		return err
	}
	r := &resolver{tables: map[string]*p4cfg.Table{}, actions: map[string]*p4cfg.Action{}}
	for _, t := range info.Tables {
		r.tables[t.Preamble.Name] = t
	}
	for _, a := range info.Actions {
		r.actions[a.Preamble.Name] = a
	}
	conn, err := grpc.Dial(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(64<<20)))
	if err != nil {
		return err
	}
	defer conn.Close()
	cli := p4v1.NewP4RuntimeClient(conn)
	ctx := context.Background()
	st, err := cli.StreamChannel(ctx)
	if err != nil {
		return err
	}
	elec := &p4v1.Uint128{Low: 1}
	if err := st.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Arbitration{
		Arbitration: &p4v1.MasterArbitrationUpdate{DeviceId: 1, ElectionId: elec}}}); err != nil {
		return err
	}
	if m, err := st.Recv(); err != nil || m.GetArbitration().GetStatus().GetCode() != 0 {
		return fmt.Errorf("arbitration failed: %v %v", m, err)
	}
	if _, err := cli.SetForwardingPipelineConfig(ctx, &p4v1.SetForwardingPipelineConfigRequest{DeviceId: 1,
		ElectionId: elec, Action: p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
		Config: &p4v1.ForwardingPipelineConfig{P4Info: info}}); err != nil {
		return err
	}
	// Requests are built and encoded before the clock starts (the rate is the
	// server's: on a small machine the client's encoding would take CPU from it), a
	// chunk of sessions at a time so that the client's memory stays bounded.
	var el time.Duration
	for lo := uint64(0); lo < sessions; lo += chunk {
		d, err := writeChunk(conn, elec, r, lo, min(lo+chunk, sessions), batch, writers)
		if err != nil {
			return err
		}
		el += d
	}
	n := 4 * sessions
	fmt.Printf("| %d | %d | %d | %d | %.1f | %.0f |\n", sessions, n, batch, writers, el.Seconds(), float64(n)/el.Seconds())
	if reads > 0 {
		return changedReads(cli, info, 2*sessions, reads, pid) // every session's two cells
	}
	return nil
}

// encoded is a message already in protobuf's wire format; preEncoded sends it as is.
type encoded []byte

type preEncoded struct{}

func (preEncoded) Name() string { return "proto" }
func (preEncoded) Marshal(v any) ([]byte, error) {
	if b, ok := v.(encoded); ok {
		return b, nil
	}
	return proto.Marshal(v.(proto.Message))
}
func (preEncoded) Unmarshal(b []byte, v any) error { return proto.Unmarshal(b, v.(proto.Message)) }

// writeChunk writes sessions [lo, hi) and returns the time the writes took.
func writeChunk(conn *grpc.ClientConn, elec *p4v1.Uint128, r *resolver, lo, hi uint64, batch, writers int) (time.Duration, error) {
	ctx := context.Background()
	var reqs []encoded
	cur := &p4v1.WriteRequest{DeviceId: 1, ElectionId: elec}
	for i := lo; i < hi; i++ {
		cur.Updates = append(cur.Updates, r.session(i)...)
		if len(cur.Updates) >= batch || i == hi-1 {
			b, err := proto.Marshal(cur)
			if err != nil {
				return 0, err
			}
			reqs = append(reqs, b)
			cur = &p4v1.WriteRequest{DeviceId: 1, ElectionId: elec}
		}
	}
	work := make(chan encoded, len(reqs))
	for _, q := range reqs {
		work <- q
	}
	close(work)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	t0 := time.Now()
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for q := range work {
				err := conn.Invoke(ctx, p4v1.P4Runtime_Write_FullMethodName, q, &p4v1.WriteResponse{},
					grpc.ForceCodec(preEncoded{}))
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(t0)
	select {
	case err := <-errs:
		return el, err
	default:
	}
	return el, nil
}
