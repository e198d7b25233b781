package dp

/*
#include "hupf_dp.h"

// dp_counter_read with its counts returned by value (dp.go: no escape to the heap).
struct dp_counter_got { int rc; uint64_t pkts, bytes; };
static struct dp_counter_got dp_counter_read_v(int which, uint32_t idx)
{
	struct dp_counter_got g;
	g.rc = dp_counter_read(which, idx, &g.pkts, &g.bytes);
	return g;
}
*/
import "C"

import (
	"unsafe"

	"hupf/backend/agent/internal/p4rt"
)

// The counters' reads and writes: the usage counters' cells, their change marks and the drop reasons.

func (DP) ReadCounter(which int, idx uint32) (uint64, uint64, error) {
	g := C.dp_counter_read_v(C.int(which), C.uint32_t(idx))
	return uint64(g.pkts), uint64(g.bytes), rc(g.rc)
}

func (DP) ReadCounters(which int, lo uint32, pkts, bytes []uint64) error {
	if len(pkts) == 0 {
		return nil
	}
	return rc(C.dp_counter_read_range(C.int(which), C.uint32_t(lo), C.uint32_t(len(pkts)),
		(*C.uint64_t)(unsafe.Pointer(&pkts[0])), (*C.uint64_t)(unsafe.Pointer(&bytes[0]))))
}

func (DP) ReadCounterCells(cells []uint32, counts []uint64) error {
	if len(cells) == 0 {
		return nil
	}
	return rc(C.dp_counter_read_cells((*C.uint32_t)(unsafe.Pointer(&cells[0])), C.uint32_t(len(cells)),
		(*C.uint64_t)(unsafe.Pointer(&counts[0]))))
}

// The data plane's block of marked counter cells is the agent's (both differences are unsigned constants).
const _ = uint(C.DP_CTR_BLOCK-p4rt.CounterBlock) + uint(p4rt.CounterBlock-C.DP_CTR_BLOCK)

func (DP) HarvestCounterMarks(bits []uint64) error {
	if len(bits) == 0 {
		return nil
	}
	return rc(C.dp_counter_harvest((*C.uint64_t)(unsafe.Pointer(&bits[0])), C.uint32_t(len(bits))))
}

func (DP) WriteCounter(which int, idx uint32, pkts, bytes uint64) error {
	return rc(C.dp_counter_write(C.int(which), C.uint32_t(idx), C.uint64_t(pkts), C.uint64_t(bytes)))
}

func (DP) ReadDrops(reason uint32) (uint64, error) {
	var n C.uint64_t
	err := rc(C.dp_drop_read(C.uint32_t(reason), &n))
	return uint64(n), err
}
