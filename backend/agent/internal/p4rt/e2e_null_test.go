package p4rt

// End-to-end test of a null port (the bed of e2e_test.go: root and build/hupf-backend, skipped without them).

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lcoreStatus returns a field of /proc's status of the backend's forwarding lcore (its thread rte-worker-1).
func (b *bed) lcoreStatus(field string) string {
	dir := fmt.Sprintf("/proc/%d/task", b.proc.Process.Pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		b.t.Fatal(err)
	}
	for _, task := range tasks {
		comm, err := os.ReadFile(dir + "/" + task.Name() + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "rte-worker-1" {
			continue
		}
		status, err := os.ReadFile(dir + "/" + task.Name() + "/status")
		if err != nil {
			b.t.Fatal(err)
		}
		for _, l := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(l, field+":"); ok {
				return strings.TrimSpace(v)
			}
		}
		b.t.Fatalf("no %s in the status of rte-worker-1", field)
	}
	b.t.Fatalf("no thread rte-worker-1 in %s", dir)
	return ""
}

// lcoreSwitches returns the voluntary context switches of the backend's forwarding lcore: each nap of an idle
// lcore is one.
func (b *bed) lcoreSwitches() uint64 {
	n, err := strconv.ParseUint(b.lcoreStatus("voluntary_ctxt_switches"), 10, 64)
	if err != nil {
		b.t.Fatal(err)
	}
	return n
}

// TestE2ENullPortIsASink: a null port receives nothing and keeps no lcore busy. DPDK's null PMD answers every
// RX poll with a full burst of frames: polled, it gave the lcore work on every poll, so the lcore never napped
// and took a whole CPU. The ONOS suite's backends each have a null port 2 and pin their lcore to the same CPU:
// one of two such lcores was seen runnable and off the CPU for at least 1.38 s, the packets of its real port
// held in their ring meanwhile (docs/BACKENDS.md). Frames sent to it are dropped; the real ports still forward.
func TestE2ENullPortIsASink(t *testing.T) {
	b := newBed(t, 1, "--port", "3=null")
	b.base(1)
	time.Sleep(300 * time.Millisecond)
	before := b.lcoreSwitches()
	time.Sleep(time.Second)
	naps := b.lcoreSwitches() - before
	st := b.stats()
	if st[3].RX != 0 {
		t.Errorf("the null port received %d frames", st[3].RX)
	}
	// Idle, the lcore naps thousands of times a second (--idle-sleep-us 50 after 256 empty polls); one kept
	// busy never does.
	if naps < 100 {
		t.Errorf("the idle forwarding lcore napped %d times in 1 s", naps)
	}
	// Still forwarding between the veth ports.
	b.send(1, gtpuFrame(0x100, userPkt(e2eUEBase, e2eApp, 64, 1)))
	if got := b.recv(2, 2*time.Second, 1); len(got) != 1 {
		t.Fatalf("uplink with a null port beside: %d frames", len(got))
	}
}

// TestE2ELcorePlacementFromEAL: EAL arguments that place the lcores replace hupf-backend's own placement, which
// puts lcore 1 on CPU 1 whenever the machine has two CPUs or more: several backends on one machine then all
// forward on CPU 1 (docs/BACKENDS.md). Both placements at once, EAL refuses: the backend did not start.
func TestE2ELcorePlacementFromEAL(t *testing.T) {
	b := newBed(t, 1, "--eal", "--lcores=0@0,1@0")
	if got := b.lcoreStatus("Cpus_allowed_list"); got != "0" {
		t.Errorf("the forwarding lcore may run on CPUs %s, placed on CPU 0", got)
	}
	b.base(1)
	b.send(1, gtpuFrame(0x100, userPkt(e2eUEBase, e2eApp, 64, 1)))
	if got := b.recv(2, 2*time.Second, 1); len(got) != 1 {
		t.Fatalf("uplink with the lcores placed by EAL arguments: %d frames", len(got))
	}
}
