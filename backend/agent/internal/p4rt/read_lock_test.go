package p4rt

import (
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// A bulk counter read (the controller's usage poll) is served while a Write holds
// the write lock; a table read, which sees what writes change, waits for it.
func TestCounterReadsDoNotWaitForWrites(t *testing.T) {
	h, _ := primed(t)
	var ctrID, tableID uint32
	for _, c := range h.info.Counters {
		if c.Preamble.Name == cPostQos {
			ctrID = c.Preamble.Id
		}
	}
	tableID = h.info.Tables[0].Preamble.Id
	h.fake.WriteCounter(CtrPostQos, 3, 2, 200)
	h.srv.mu.Lock() // as a Write does for as long as it applies its updates
	counters := make(chan []*p4v1.Entity, 1)
	go func() {
		counters <- h.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: ctrID}}})
	}()
	table := make(chan []*p4v1.Entity, 1)
	go func() {
		table <- h.read(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tableID}}})
	}()
	select {
	case got := <-counters:
		if len(got) != 1024 || got[3].GetCounterEntry().Data.ByteCount != 200 {
			t.Errorf("counter read during a write: %d cells, cell 3 %v", len(got), got[3])
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a counter read waited for the write lock")
	}
	select {
	case <-table:
		t.Fatal("a table read did not wait for the write in progress")
	case <-time.After(200 * time.Millisecond):
	}
	h.srv.mu.Unlock()
	select {
	case <-table:
	case <-time.After(5 * time.Second):
		t.Fatal("the table read did not complete after the write")
	}
}
