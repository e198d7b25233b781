package p4rt

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime"
	"syscall"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"
)

// benchDP accepts every write the PFCP batches make without recording it: the
// benchmarks measure the agent alone.
type benchDP struct{ nopDP }

func (*benchDP) IGPeer(Op, uint8, uint32) error                 { return nil }
func (*benchDP) EGPeer(Op, uint8, uint32, uint32, uint16) error { return nil }
func (*benchDP) SetMeter(int, uint32, *MeterCfg) error          { return nil }
func (*benchDP) WriteCounter(int, uint32, uint64, uint64) error { return nil }
func (*benchDP) Commit()                                        {}

// pfcpBatches are the WriteRequests the Java runner sends for n PFCP sessions
// merged into one batch (P4RuntimeUpfDevice.write, SessionManager.program):
// establishment (the gNB's tunnel peer written once before, as the runner does),
// deletion, and the establishment of a runner that sent the peer with every
// session: the same with the peer's INSERTs (answered ALREADY_EXISTS) and a second
// request that sends them again as MODIFYs.
type pfcpBatches struct {
	peers, establish, establishPeers, peerModify, delete []byte
	updates                                              [4]int // establish, establishPeers, peerModify, delete
}

func (h *harness) pfcpBatches(n int) pfcpBatches {
	sc := h.schema()
	meterID := sc.meters[mSessionMeter].Preamble.Id
	pre, post := sc.counters[cPreQos].Preamble.Id, sc.counters[cPostQos].Preamble.Id
	const n3, gnb, peer = 0x0a000001, 0x0a000002, 1
	est := &p4v1.WriteRequest{DeviceId: 1, ElectionId: &p4v1.Uint128{Low: 1}}
	estPeers := &p4v1.WriteRequest{DeviceId: 1, ElectionId: est.ElectionId}
	peersOnce := &p4v1.WriteRequest{DeviceId: 1, ElectionId: est.ElectionId}
	mods := &p4v1.WriteRequest{DeviceId: 1, ElectionId: est.ElectionId}
	dels := &p4v1.WriteRequest{DeviceId: 1, ElectionId: est.ElectionId}
	for i := 0; i < n; i++ {
		ue, teid, cell := uint64(0x10000000+i), uint64(i+1), int64(2*i%1024)
		counter := func(id uint32, cell int64) *p4v1.Update {
			return &p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
				CounterId: id, Index: &p4v1.Index{Index: cell}, Data: &p4v1.CounterData{}}}}}
		}
		peers := []*p4v1.Update{
			upd(ins, h.entry(tIGPeers, []*p4v1.FieldMatch{exactM(1, peer, 8)}, aSetRouteDst, 0, gnb)),
			upd(ins, h.entry(tEGPeers, []*p4v1.FieldMatch{exactM(1, peer, 8)}, aLoadTunnel, 0, n3, gnb, 2152)),
		}
		meter := &p4v1.Update{Type: mod, Entity: &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{
			MeterId: meterID, Index: &p4v1.Index{Index: int64(i % 1024)},
			Config: &p4v1.MeterConfig{Cir: 125000, Cburst: 15000, Pir: 250000, Pburst: 30000}}}}}
		tables := []*p4v1.TableEntry{
			h.entry(tULSess, []*p4v1.FieldMatch{exactM(1, n3, 32), exactM(2, teid, 32)}, aULSess, 0, ue, uint64(i%1024)),
			h.entry(tDLSess, []*p4v1.FieldMatch{exactM(1, ue, 32)}, aDLSess, 0, peer, uint64(i%1024)),
			h.entry(tULTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 0, 8)}, aULTermFwd, 0, uint64(cell), 0, 0),
			h.entry(tDLTerm, []*p4v1.FieldMatch{exactM(1, ue, 32), exactM(2, 0, 8)}, aDLTermFwd, 0, uint64(cell+1), teid, 9, 0, 0),
		}
		if i == 0 {
			peersOnce.Updates = peers
		}
		cells := []*p4v1.Update{counter(pre, cell), counter(post, cell), counter(pre, cell+1), counter(post, cell+1)}
		est.Updates = append(est.Updates, cells...)
		est.Updates = append(est.Updates, meter)
		estPeers.Updates = append(estPeers.Updates, cells...)
		estPeers.Updates = append(estPeers.Updates, peers...)
		estPeers.Updates = append(estPeers.Updates, meter)
		for _, te := range tables {
			est.Updates = append(est.Updates, upd(ins, te))
			estPeers.Updates = append(estPeers.Updates, upd(ins, te))
		}
		for _, p := range peers {
			mods.Updates = append(mods.Updates, &p4v1.Update{Type: mod, Entity: p.Entity})
		}
		for j := len(tables) - 1; j >= 0; j-- { // dependents first, with their actions as the runner sends them
			dels.Updates = append(dels.Updates, upd(del, tables[j]))
		}
	}
	var out pfcpBatches
	for i, r := range []*p4v1.WriteRequest{est, estPeers, mods, dels, peersOnce} {
		b, err := proto.Marshal(r)
		if err != nil {
			h.t.Fatal(err)
		}
		*[]*[]byte{&out.establish, &out.establishPeers, &out.peerModify, &out.delete, &out.peers}[i] = b
		if i < len(out.updates) {
			out.updates[i] = len(r.Updates)
		}
	}
	return out
}

// benchServer is a server with the fixture pipeline on benchDP, primary election id 1.
func benchServer(h *harness) *Server {
	srv := NewServer(Config{DeviceID: 1, Sessions: 1 << 20}, &benchDP{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	sc := h.schema()
	srv.pipe = newPipeState(sc, &p4v1.ForwardingPipelineConfig{P4Info: h.info}, srv.sizes(sc), srv.dp)
	srv.arb.primary = &stream{election: &p4v1.Uint128{Low: 1}}
	return srv
}

// BenchmarkWritePFCP: what Write costs per update for the Java runner's merged
// batches of 32 to 2048 sessions, from the request's bytes (the server's codec)
// to the status it answers; the data plane does nothing. establish-peers is the
// per-update error path (ALREADY_EXISTS), the runner's before it wrote the peer once.
func BenchmarkWritePFCP(b *testing.B) {
	for _, n := range []int{32, 256, 2048} {
		h := &harness{t: &testing.T{}, info: fixtureP4Info()}
		batches := h.pfcpBatches(n)
		for _, phase := range []struct {
			name    string
			reqs    [][]byte
			updates int
		}{
			{"establish", [][]byte{batches.establish}, batches.updates[0]},
			{"establish-peers", [][]byte{batches.establishPeers, batches.peerModify}, batches.updates[1] + batches.updates[2]},
			{"delete", [][]byte{batches.delete}, batches.updates[3]},
		} {
			b.Run(fmt.Sprintf("%s/sessions=%d", phase.name, n), func(b *testing.B) {
				srv := benchServer(h)
				write := func() {
					for _, raw := range phase.reqs {
						req := &p4v1.WriteRequest{}
						if err := (codec{}).Unmarshal(raw, req); err != nil {
							b.Fatal(err)
						}
						srv.Write(context.Background(), req) // establish-peers: ALREADY_EXISTS for the peers' INSERTs
					}
				}
				req := &p4v1.WriteRequest{}
				if err := (codec{}).Unmarshal(batches.peers, req); err != nil {
					b.Fatal(err)
				}
				if _, err := srv.Write(context.Background(), req); err != nil {
					b.Fatal(err)
				}
				write() // the tunnel peer exists, as it does in a run
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					write()
				}
				b.StopTimer()
				runtime.ReadMemStats(&after)
				per := float64(b.N * phase.updates)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/update")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/update")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/per, "allocs/update")
			})
		}
	}
}

// BenchmarkWriteRPC: the process CPU (server and in-process client, getrusage) and allocations per Write RPC
// of one PFCP session's establishment over gRPC, as the runner sends them with few sessions in flight: the
// per-RPC cost that a request pays whatever the agent's own decode and apply cost.
func BenchmarkWriteRPC(b *testing.B) {
	h := &harness{t: &testing.T{}, info: fixtureP4Info()}
	est := h.pfcpBatches(1).establish
	lis := bufconn.Listen(1 << 20)
	g := grpc.NewServer(ServerOptions()...)
	p4v1.RegisterP4RuntimeServer(g, benchServer(h))
	go g.Serve(lis)
	defer g.Stop()
	conn, err := grpc.Dial("bufnet", grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) {
		return lis.Dial()
	}), grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultCallOptions(grpc.ForceCodec(codec{})))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	cli := p4v1.NewP4RuntimeClient(conn)
	req := &p4v1.WriteRequest{}
	if err := (codec{}).Unmarshal(est, req); err != nil {
		b.Fatal(err)
	}
	write := func() {
		// UNKNOWN: the per-update errors of the INSERTs of entries that exist, as in BenchmarkWritePFCP
		if _, err := cli.Write(context.Background(), req); err != nil && status.Code(err) != codes.Unknown {
			b.Fatal(err)
		}
	}
	write()
	cpu0 := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		write()
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/rpc")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// discardReads is a Read stream that counts the entities sent.
type discardReads struct {
	grpc.ServerStream
	entities int
}

func (d *discardReads) Send(r *p4v1.ReadResponse) error {
	d.entities += len(r.Entities)
	return nil
}

// BenchmarkReadDeletedCells: what the agent's Read costs per cell for the final usage of a burst of deleted
// sessions, as the runner reads it (index reads of both counters' two cells of each session, one request):
// wall time, the process's CPU (GC included) and allocations per cell.
func BenchmarkReadDeletedCells(b *testing.B) {
	h := &harness{t: &testing.T{}, info: fixtureP4Info()}
	srv := benchServer(h)
	sc := h.schema()
	pre, post := sc.counters[cPreQos].Preamble.Id, sc.counters[cPostQos].Preamble.Id
	for _, n := range []int{32, 256} {
		req := &p4v1.ReadRequest{DeviceId: 1}
		for i := 0; i < n; i++ {
			for _, id := range []uint32{pre, post} {
				for _, cell := range []int64{int64(2 * i), int64(2*i + 1)} {
					req.Entities = append(req.Entities, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{
						CounterEntry: &p4v1.CounterEntry{CounterId: id, Index: &p4v1.Index{Index: cell}}}})
				}
			}
		}
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			out := &discardReads{}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu0 := processCPU()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := srv.Read(req, out); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			cpu := processCPU() - cpu0
			runtime.ReadMemStats(&after)
			if out.entities != b.N*len(req.Entities) {
				b.Fatalf("%d cells answered, want %d", out.entities, b.N*len(req.Entities))
			}
			per := float64(b.N * len(req.Entities))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/cell")
			b.ReportMetric(float64(cpu.Nanoseconds())/per, "cpu-ns/cell")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/per, "allocs/cell")
		})
	}
}

// BenchmarkFinalCounts: what a Write's deletions' final counts cost the agent per deleted termination, from the
// cells noted to the marshalled answer (both counters' counts of each cell), for bursts of 32 and 256 deletions
// (two terminations each): time, the process's CPU and allocations per termination.
func BenchmarkFinalCounts(b *testing.B) {
	h := &harness{t: &testing.T{}, info: fixtureP4Info()}
	for _, n := range []int{32, 256} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			srv := benchServer(h)
			cells := make([]uint32, 2*n)
			for i := range cells {
				cells[i] = uint32(i)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu0 := processCPU()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				srv.finalCells = append(srv.finalCells[:0], cells...)
				if len(srv.finalCounts()) == 0 {
					b.Fatal("no final counts")
				}
			}
			b.StopTimer()
			cpu := processCPU() - cpu0
			runtime.ReadMemStats(&after)
			per := float64(b.N * len(cells))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/term")
			b.ReportMetric(float64(cpu.Nanoseconds())/per, "cpu-ns/term")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/per, "allocs/term")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/term")
		})
	}
}
