package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/anypb"

	"hupf/backend/agent/internal/p4const"
)

// The backend's changed-cells read (docs/PIPELINE_CONTRACT.md, "Counter changes").
const (
	externCounterChanges = 0x81
	counterChangesURL    = "type.googleapis.com/hupf.p4rt.CounterChanges"
)

// changedReads times reads of the pre- and post-QoS counters' changed cells, both in one ReadRequest as the
// standalone host's poll sends them, bounded to the cells the sessions use: the first (complete) one, then
// reads with the last answer's token, as an idle poll makes them. With pid, the backend's CPU per idle read
// (over all of them: /proc counts in ticks of 10 ms).
func changedReads(cli p4v1.P4RuntimeClient, info *p4cfg.P4Info, cells uint64, reads, pid int) error {
	var ids []uint32
	for _, c := range info.Counters {
		if c.Preamble.Name == p4const.HupfIngressUpfPreQosCounter || c.Preamble.Name == p4const.HupfEgressUpfPostQosCounter {
			ids = append(ids, c.Preamble.Id)
		}
	}
	if len(ids) != 2 {
		return fmt.Errorf("the P4Info lacks the pre- and post-QoS counters")
	}
	tokens := make([]uint64, len(ids))
	var walls []float64
	var cpu0 float64
	for r := 0; r <= reads; r++ {
		req := &p4v1.ReadRequest{DeviceId: 1}
		for i, id := range ids {
			b := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), tokens[i])
			b = protowire.AppendVarint(protowire.AppendTag(b, 3, protowire.VarintType), cells)
			req.Entities = append(req.Entities, &p4v1.Entity{Entity: &p4v1.Entity_ExternEntry{ExternEntry: &p4v1.ExternEntry{
				ExternTypeId: externCounterChanges, ExternId: id, Entry: &anypb.Any{TypeUrl: counterChangesURL, Value: b}}}})
		}
		if r == 1 {
			cpu0 = processCPU(pid)
		}
		t0 := time.Now()
		got, err := readAll(cli, req)
		if err != nil {
			return err
		}
		wall := time.Since(t0).Seconds() * 1e3
		for _, e := range got {
			if x := e.GetExternEntry(); x != nil {
				for i, id := range ids {
					if x.ExternId == id {
						tokens[i] = tokenOf(x.Entry.GetValue())
					}
				}
			}
		}
		if r == 0 {
			fmt.Printf("changed read, complete: %d entities, %.1f ms wall\n", len(got), wall)
			continue
		}
		if len(got) != len(ids) {
			return fmt.Errorf("an idle read answered %d entities", len(got))
		}
		walls = append(walls, wall)
	}
	fmt.Printf("changed read, idle, %d cells each counter, %d reads: wall ms min / median / max %s; backend CPU %.3f ms per read\n",
		cells, reads, spread(walls), (processCPU(pid)-cpu0)*1e3/float64(reads))
	return nil
}

func readAll(cli p4v1.P4RuntimeClient, req *p4v1.ReadRequest) ([]*p4v1.Entity, error) {
	rc, err := cli.Read(context.Background(), req)
	if err != nil {
		return nil, err
	}
	var out []*p4v1.Entity
	for {
		m, err := rc.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, m.Entities...)
	}
}

func tokenOf(b []byte) uint64 {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0
		}
		b = b[n:]
		n = protowire.ConsumeFieldValue(num, typ, b)
		if num == 1 && typ == protowire.VarintType {
			v, _ := protowire.ConsumeVarint(b)
			return v
		}
		if n < 0 {
			return 0
		}
		b = b[n:]
	}
	return 0
}

// processCPU is the user + system CPU seconds of process pid (0: none, 0 s).
func processCPU(pid int) float64 {
	if pid == 0 {
		return 0
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ, 100 on Linux
}

func spread(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	sort.Float64s(v)
	return fmt.Sprintf("%.2f / %.2f / %.2f", v[0], v[len(v)/2], v[len(v)-1])
}
