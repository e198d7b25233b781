// Package dp binds the C data plane (backend/dp) through cgo. The Makefile
// passes the include path, the static data plane and DPDK's libraries.
package dp

/*
#include <stdlib.h>
#include "hupf_dp.h"

// By-value forms of the calls every PFCP operation makes: a Go variable whose address is passed to C escapes to
// the heap, an allocation per call (Go before 1.24 has no #cgo noescape); a struct passed or returned by value
// stays on the stack.
static int dp_ul_term_v(int op, uint32_t ue, uint8_t app, struct dp_term t) { return dp_ul_term(op, ue, app, &t); }
static int dp_dl_term_v(int op, uint32_t ue, uint8_t app, struct dp_term t) { return dp_dl_term(op, ue, app, &t); }
static int dp_meter_set_v(int which, uint32_t idx, struct dp_meter_cfg c) { return dp_meter_set(which, idx, &c); }
struct dp_exact_got { int rc; struct dp_exact_entry e; };
static struct dp_exact_got dp_exact_get_v(int table, uint64_t key)
{
	struct dp_exact_got g;
	g.rc = dp_exact_get(table, key, &g.e);
	return g;
}
*/
import "C"

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	"hupf/backend/agent/internal/p4rt"
)

// Port maps a P4 port number to a DPDK device spec (see dp_boot in io.c); RateBps > 0 sends
// through an egress scheduler at that rate (dp/egress.h).
type Port struct {
	P4Port  uint16
	Dev     string
	RateBps uint64
}

type BootConfig struct {
	Workers  int
	Ports    []Port
	Mbufs    int
	MemMB    int
	ExtraEAL string
	// IdleSleepUS: an idle forwarding lcore sleeps this long between polls (0: busy-poll).
	IdleSleepUS int
	// IdleSleepMaxUS: each further empty nap doubles the sleep up to this (below IdleSleepUS: no growth).
	IdleSleepMaxUS int
}

// Boot starts EAL, the ports and the forwarding lcores.
func Boot(c BootConfig) error {
	var b C.struct_dp_boot
	if len(c.Ports) > C.DP_MAX_PORTS {
		return fmt.Errorf("at most %d ports", C.DP_MAX_PORTS)
	}
	b.nworkers = C.uint(c.Workers)
	b.nports = C.uint(len(c.Ports))
	b.mbufs = C.uint(c.Mbufs)
	b.mem_mb = C.uint(c.MemMB)
	b.idle_sleep_us = C.uint(c.IdleSleepUS)
	b.idle_sleep_max_us = C.uint(c.IdleSleepMaxUS)
	for i, p := range c.Ports {
		b.ports[i].p4_port = C.uint16_t(p.P4Port)
		b.ports[i].rate_bps = C.uint64_t(p.RateBps)
		if len(p.Dev) >= len(b.ports[i].dev) {
			return fmt.Errorf("port %d: device spec too long", p.P4Port)
		}
		for j := 0; j < len(p.Dev); j++ {
			b.ports[i].dev[j] = C.char(p.Dev[j])
		}
	}
	if len(c.ExtraEAL) >= len(b.extra_eal) {
		return fmt.Errorf("EAL arguments too long")
	}
	for j := 0; j < len(c.ExtraEAL); j++ {
		b.extra_eal[j] = C.char(c.ExtraEAL[j])
	}
	var msg [256]C.char
	if rc := C.dp_boot(&b, &msg[0], C.uint(len(msg))); rc != 0 {
		return fmt.Errorf("%s", strings.TrimSpace(C.GoString(&msg[0])))
	}
	return nil
}

func Shutdown() { C.dp_shutdown() }

// SetClock switches the data plane to its test clock and sets it (dp_clock_set).
func SetClock(ns uint64) { C.dp_clock_set(C.uint64_t(ns)) }

// Stats is the data plane's runtime counters, for logs on demand.
type Stats struct {
	Ports                                   []PortStats
	ToCPU, ToCPUDropped, PktOut, NoPipeline uint64
	IPv4Fragments                           uint64 // dropped: the data plane does not reassemble
	// The forwarding lcores' naps, those as long as IdleSleepMaxUS, and the polls that found work right after
	// one (their packets waited up to IdleSleepMaxUS).
	IdleNaps, IdleNapsCapped, WorkAfterCapped uint64
}

type PortStats struct {
	P4Port                      uint16
	RX, TX, RXMissed, TXDropped uint64
	RateBps                     uint64     `json:",omitempty"` // the egress scheduler's rate (--port-rate)
	QueueDropped                *[8]uint64 `json:",omitempty"` // its full queues' drops, by v1model priority
	QueueStallDropped           *[8]uint64 `json:",omitempty"` // of those, the drops in a stall's backlog
	SentBelowFull, LongestGapUS uint64     `json:",omitempty"` // sent while a higher queue was full; owner's absence
	QueueBacklog                *uint64    `json:",omitempty"` // packets its queues hold now (0 included)
}

func GetStats() Stats {
	var s C.struct_dp_stats
	C.dp_stats_get(&s)
	out := Stats{ToCPU: uint64(s.to_cpu), ToCPUDropped: uint64(s.to_cpu_dropped), PktOut: uint64(s.pkt_out),
		NoPipeline: uint64(s.no_pipeline), IPv4Fragments: uint64(s.ipv4_fragments), IdleNaps: uint64(s.idle_naps),
		IdleNapsCapped: uint64(s.idle_naps_capped), WorkAfterCapped: uint64(s.work_after_capped)}
	for i := 0; i < int(s.nports); i++ {
		p := s.port[i]
		ps := PortStats{P4Port: uint16(p.p4_port), RX: uint64(p.rx), TX: uint64(p.tx), RXMissed: uint64(p.rx_missed),
			TXDropped: uint64(p.tx_dropped)}
		if p.rate_bps > 0 {
			ps.RateBps, ps.SentBelowFull, ps.LongestGapUS = uint64(p.rate_bps), uint64(p.sent_below_full), uint64(p.longest_gap_us)
			ps.QueueDropped, ps.QueueStallDropped = new([8]uint64), new([8]uint64)
			backlog := uint64(p.queue_backlog)
			ps.QueueBacklog = &backlog
			for k := range ps.QueueDropped {
				ps.QueueDropped[k], ps.QueueStallDropped[k] = uint64(p.queue_dropped[k]), uint64(p.queue_stall_dropped[k])
			}
		}
		out.Ports = append(out.Ports, ps)
	}
	return out
}

// DP implements p4rt.Dataplane over the C functions.
type DP struct{}

func rc(r C.int) error {
	if r < 0 {
		return &p4rt.DPError{Errno: int(-r)}
	}
	return nil
}

func (DP) SetPipeline(s p4rt.Sizes) error {
	sz := C.struct_dp_sizes{
		interfaces: C.uint32_t(s.Interfaces), ul_sessions: C.uint32_t(s.ULSessions),
		dl_sessions: C.uint32_t(s.DLSessions), applications: C.uint32_t(s.Applications),
		ul_terms: C.uint32_t(s.ULTerms), dl_terms: C.uint32_t(s.DLTerms), routes: C.uint32_t(s.Routes),
		acl: C.uint32_t(s.ACL), pre_qos_ctr: C.uint32_t(s.PreQosCtr), post_qos_ctr: C.uint32_t(s.PostQosCtr),
		session_meter: C.uint32_t(s.SessionMeter), app_meter: C.uint32_t(s.AppMeter),
		meter_states: C.uint32_t(s.MeterStates), tenants: C.uint32_t(s.Tenants),
		tenant_cells: C.uint32_t(s.TenantCells), slices: C.uint32_t(s.Slices), slice_cells: C.uint32_t(s.SliceCells),
	}
	if s.HW {
		sz.hw = 1
		sz.hh_slots = C.uint32_t(s.HHSlots)
		sz.cls_slots = C.uint32_t(s.ClsSlots)
		sz.rps_buffer = C.uint32_t(s.RPSBuffer)
		sz.rps_flows = C.uint32_t(s.RPSFlows)
		sz.rps_flow_entries = C.uint32_t(s.RPSFlowEntries)
		sz.rps_track_depth = C.uint32_t(s.RPSTrackDepth)
	}
	return rc(C.dp_pipeline_set(&sz))
}

func (DP) Interface(op p4rt.Op, prefix uint32, plen, gtpu, iface, slice uint8) error {
	return rc(C.dp_interface(C.int(op), C.uint32_t(prefix), C.uint8_t(plen), C.uint8_t(gtpu), C.uint8_t(iface),
		C.uint8_t(slice)))
}

func (DP) ULSession(op p4rt.Op, tunDst, teid uint32, action uint8, ue, meter uint32) error {
	return rc(C.dp_ul_session(C.int(op), C.uint32_t(tunDst), C.uint32_t(teid), C.uint8_t(action), C.uint32_t(ue),
		C.uint32_t(meter)))
}

func (DP) DLSession(op p4rt.Op, ue uint32, action, peer uint8, meter uint32) error {
	return rc(C.dp_dl_session(C.int(op), C.uint32_t(ue), C.uint8_t(action), C.uint8_t(peer), C.uint32_t(meter)))
}

func cTerm(t p4rt.Term) C.struct_dp_term {
	return C.struct_dp_term{action: C.uint8_t(t.Action), tc: C.uint8_t(t.TC), qfi: C.uint8_t(t.QFI),
		ctr_idx: C.uint32_t(t.CtrIdx), teid: C.uint32_t(t.TEID), app_meter_idx: C.uint32_t(t.AppMeterIdx)}
}

func (DP) ULTerm(op p4rt.Op, ue uint32, app uint8, t p4rt.Term) error {
	return rc(C.dp_ul_term_v(C.int(op), C.uint32_t(ue), C.uint8_t(app), cTerm(t)))
}

func (DP) DLTerm(op p4rt.Op, ue uint32, app uint8, t p4rt.Term) error {
	return rc(C.dp_dl_term_v(C.int(op), C.uint32_t(ue), C.uint8_t(app), cTerm(t)))
}

func (DP) IGPeer(op p4rt.Op, peer uint8, dst uint32) error {
	return rc(C.dp_ig_peer(C.int(op), C.uint8_t(peer), C.uint32_t(dst)))
}

func (DP) EGPeer(op p4rt.Op, peer uint8, src, dst uint32, sport uint16) error {
	return rc(C.dp_eg_peer(C.int(op), C.uint8_t(peer), C.uint32_t(src), C.uint32_t(dst), C.uint16_t(sport)))
}

func (DP) Route(op p4rt.Op, prefix uint32, plen uint8, src, dst [6]byte, port uint16) error {
	return rc(C.dp_route(C.int(op), C.uint32_t(prefix), C.uint8_t(plen), (*C.uint8_t)(unsafe.Pointer(&src[0])),
		(*C.uint8_t)(unsafe.Pointer(&dst[0])), C.uint16_t(port)))
}

func (DP) SetEncapPSC(on bool) error {
	v := 0
	if on {
		v = 1
	}
	return rc(C.dp_set_encap_psc(C.int(v)))
}

func (DP) Tenant(op p4rt.Op, vni, vtep uint32, id, tc, dscp uint8) error {
	t := C.struct_dp_tenant{vni: C.uint32_t(vni), vtep: C.uint32_t(vtep), tenant_id: C.uint8_t(id), tc: C.uint8_t(tc),
		dscp: C.uint8_t(dscp)}
	return rc(C.dp_tenant(C.int(op), &t))
}

func (DP) Slice(op p4rt.Op, id, qfi, tc, dscp uint8) error {
	s := C.struct_dp_slice{tenant_id: C.uint8_t(id), qfi: C.uint8_t(qfi), tc: C.uint8_t(tc), dscp: C.uint8_t(dscp)}
	return rc(C.dp_slice(C.int(op), &s))
}

func (DP) Queue(op p4rt.Op, tc, qid uint8) error {
	return rc(C.dp_queue(C.int(op), C.uint8_t(tc), C.uint8_t(qid)))
}

func (DP) VxPeer(op p4rt.Op, peer uint8, v p4rt.VxPeer) error {
	c := C.struct_dp_vx_peer{vni: C.uint32_t(v.VNI), vtep_src: C.uint32_t(v.VtepSrc), vtep_dst: C.uint32_t(v.VtepDst)}
	for i := 0; i < 6; i++ {
		c.inner_src_mac[i], c.inner_dst_mac[i] = C.uint8_t(v.InnerSrcMAC[i]), C.uint8_t(v.InnerDstMAC[i])
	}
	return rc(C.dp_vx_peer(C.int(op), C.uint8_t(peer), &c))
}

func (DP) BackendClass(op p4rt.Op, dscp, tc uint8) error {
	return rc(C.dp_backend_class(C.int(op), C.uint8_t(dscp), C.uint8_t(tc)))
}

func (DP) BackendPort(op p4rt.Op, port uint16) error {
	return rc(C.dp_backend_port(C.int(op), C.uint16_t(port)))
}

func (DP) SetBackends(slice uint8, members []p4rt.Backend) error {
	if len(members) == 0 {
		return rc(C.dp_backends_set(C.uint8_t(slice), nil, 0))
	}
	cm := make([]C.struct_dp_backend, len(members))
	for i, m := range members {
		cm[i].port = C.uint16_t(m.Port)
		for j := range m.DstMAC {
			cm[i].dst_mac[j] = C.uint8_t(m.DstMAC[j])
		}
	}
	return rc(C.dp_backends_set(C.uint8_t(slice), &cm[0], C.uint32_t(len(cm))))
}

func (DP) SetHHParams(h p4rt.HHParams) error {
	c := C.struct_dp_hh_params{tau_th: C.uint16_t(h.TauTh), ipg_init: C.uint32_t(h.IPGInit), ipg_th: C.uint32_t(h.IPGTh),
		decay_k: C.uint32_t(h.DecayK), timeslot_us: C.uint32_t(h.TimeslotUS), alpha_shift: C.uint8_t(h.AlphaShift),
		key_mode: C.uint8_t(h.KeyMode)}
	return rc(C.dp_hh_config(&c))
}

// cRanges is r for C (nil when empty).
func cRanges(r []p4rt.Range) (*C.struct_dp_range, C.uint32_t) {
	if len(r) == 0 {
		return nil, 0
	}
	cr := make([]C.struct_dp_range, len(r))
	for i, t := range r {
		cr[i] = C.struct_dp_range{lo: C.uint32_t(t.Lo), hi: C.uint32_t(t.Hi), value: C.uint16_t(t.Value)}
	}
	return &cr[0], C.uint32_t(len(cr))
}

func (DP) ReplaceTau(r []p4rt.Range) error { return rc(C.dp_tau_replace(cRanges(r))) }

func (DP) ReplaceFeature(f int, r []p4rt.Range) error {
	p, n := cRanges(r)
	return rc(C.dp_cls_ranges_replace(C.uint(f), p, n))
}

func (DP) SetClsParams(c p4rt.ClsParams) error {
	cp := C.struct_dp_cls_params{window_us: C.uint32_t(c.WindowUS), alpha_shift: C.uint8_t(c.AlphaShift)}
	return rc(C.dp_cls_config(&cp))
}

func (DP) ReplaceDecisions(d []p4rt.Decision) error {
	if len(d) == 0 {
		return rc(C.dp_cls_decisions_replace(nil, 0))
	}
	cd := make([]C.struct_dp_decision, len(d))
	for i, x := range d {
		for j, c := range x.Codes {
			cd[i].codes[j] = C.uint8_t(c)
		}
		cd[i].cls = C.uint8_t(x.Class)
	}
	return rc(C.dp_cls_decisions_replace(&cd[0], C.uint32_t(len(cd))))
}

func (DP) ClsSlot(idx uint32) (p4rt.ClsSlot, error) {
	var s C.struct_dp_cls_slot
	if err := rc(C.dp_cls_slot_read(C.uint32_t(idx), &s)); err != nil {
		return p4rt.ClsSlot{}, err
	}
	return p4rt.ClsSlot{PktsUp: uint32(s.pkts_up), PktsDn: uint32(s.pkts_dn), PSUp: uint32(s.ps_up),
		PSDn: uint32(s.ps_dn), IPGUp: uint32(s.ipg_up), IPGDn: uint32(s.ipg_dn), LastUp: uint32(s.last_up),
		LastDn: uint32(s.last_dn), WinStart: uint32(s.win_start), Class: uint8(s.cls)}, nil
}

func (DP) SetRPSParams(r p4rt.RPSParams) error {
	c := C.struct_dp_rps_params{mode: C.uint8_t(r.Mode), quiet_us: C.uint32_t(r.QuietUS),
		select_threshold: C.uint32_t(r.SelectThreshold), buffer_len: C.uint32_t(r.BufferLen)}
	return rc(C.dp_rps_config(&c))
}

func (DP) RPSFlow(op p4rt.Op, prefix uint32, plen, direction uint8, flowID uint16, discThreshold uint32) error {
	return rc(C.dp_rps_flow(C.int(op), C.uint32_t(prefix), C.uint8_t(plen), C.uint8_t(direction), C.uint16_t(flowID),
		C.uint32_t(discThreshold)))
}

func (DP) ReadRPSEvents(idx uint32) (uint64, error) {
	var n C.uint64_t
	err := rc(C.dp_rps_events_read(C.uint32_t(idx), &n))
	return uint64(n), err
}

func (DP) WriteRPSEvents(idx uint32, pkts uint64) error {
	return rc(C.dp_rps_events_write(C.uint32_t(idx), C.uint64_t(pkts)))
}

func (DP) HHSlot(idx uint32) (p4rt.HHSlot, error) {
	var s C.struct_dp_hh_slot
	if err := rc(C.dp_hh_slot_read(C.uint32_t(idx), &s)); err != nil {
		return p4rt.HHSlot{}, err
	}
	return p4rt.HHSlot{FlowID: uint32(s.flow_id), IPGEWMA: uint32(s.ipg_ewma), LastTS: uint64(s.last_ts),
		Tau: uint16(s.tau), Reported: uint8(s.reported)}, nil
}

func (DP) ReplaceApps(rules []p4rt.AppRule) error {
	arr := make([]C.struct_dp_app_rule, len(rules)+1) // +1: &arr[0] exists when empty
	for i, r := range rules {
		arr[i] = C.struct_dp_app_rule{slice_id: C.uint8_t(r.SliceID), addr: C.uint32_t(r.Addr),
			addr_mask: C.uint32_t(r.AddrMask), port_lo: C.uint16_t(r.PortLo), port_hi: C.uint16_t(r.PortHi),
			proto: C.uint8_t(r.Proto), proto_mask: C.uint8_t(r.ProtoMask), app_id: C.uint8_t(r.AppID)}
	}
	return rc(C.dp_apps_replace(&arr[0], C.uint32_t(len(rules))))
}

func cMAC(m [6]byte) (o [6]C.uint8_t) {
	for i := range m {
		o[i] = C.uint8_t(m[i])
	}
	return
}

func (DP) ReplaceACL(rules []p4rt.ACLRule) error {
	arr := make([]C.struct_dp_acl_rule, len(rules)+1)
	for i, r := range rules {
		arr[i] = C.struct_dp_acl_rule{port: C.uint16_t(r.Port), port_mask: C.uint16_t(r.PortMask),
			eth_src: cMAC(r.EthSrc), eth_src_mask: cMAC(r.EthSrcMask), eth_dst: cMAC(r.EthDst),
			eth_dst_mask: cMAC(r.EthDstMask), eth_type: C.uint16_t(r.EthType), eth_type_mask: C.uint16_t(r.EthTypeMask),
			ip_src: C.uint32_t(r.IPSrc), ip_src_mask: C.uint32_t(r.IPSrcMask), ip_dst: C.uint32_t(r.IPDst),
			ip_dst_mask: C.uint32_t(r.IPDstMask), proto: C.uint8_t(r.Proto), proto_mask: C.uint8_t(r.ProtoMask),
			sport: C.uint16_t(r.Sport), sport_mask: C.uint16_t(r.SportMask), dport: C.uint16_t(r.Dport),
			dport_mask: C.uint16_t(r.DportMask), action: C.uint8_t(r.Action)}
	}
	return rc(C.dp_acl_replace(&arr[0], C.uint32_t(len(rules))))
}

func (DP) SetMeter(which int, idx uint32, cfg *p4rt.MeterCfg) error {
	if cfg == nil {
		return rc(C.dp_meter_set(C.int(which), C.uint32_t(idx), nil))
	}
	c := C.struct_dp_meter_cfg{cir: C.uint64_t(cfg.CIR), cburst: C.uint64_t(cfg.CBurst), pir: C.uint64_t(cfg.PIR),
		pburst: C.uint64_t(cfg.PBurst)}
	return rc(C.dp_meter_set_v(C.int(which), C.uint32_t(idx), c))
}

func (DP) Commit() { C.dp_commit() }

func (DP) PacketOut(port uint16, data []byte) error {
	if len(data) == 0 {
		return fmt.Errorf("empty packet")
	}
	p := C.CBytes(data)
	defer C.free(p)
	return rc(C.dp_packet_out(C.uint16_t(port), (*C.uint8_t)(p), C.uint32_t(len(data))))
}

func (DP) PacketIn(buf []byte) (int, uint16, uint8) {
	var port C.uint16_t
	var reason C.uint8_t
	n := C.dp_packet_in((*C.uint8_t)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)), &port, &reason)
	return int(n), uint16(port), uint8(reason)
}

// pktInWake is the data plane's packet-in eventfd as a file of Go's poller, so that a goroutine waiting on it
// holds no thread; opened by the first wait (after dp_boot), whose stop channel then also ends the waits.
var pktInWake struct {
	once sync.Once
	f    *os.File
}

// WaitPacketIn returns when a packet-in may be queued or stop closed; it never polls.
func (DP) WaitPacketIn(stop <-chan struct{}) {
	pktInWake.once.Do(func() {
		pktInWake.f = os.NewFile(uintptr(C.dp_packet_in_fd()), "packet-in wake-up")
		go func() {
			<-stop
			C.dp_packet_in_kick()
		}()
	})
	if C.dp_packet_in_arm() > 0 {
		return
	}
	select {
	case <-stop:
		return
	default:
	}
	var b [8]byte
	if _, err := pktInWake.f.Read(b[:]); err != nil {
		panic(fmt.Sprintf("packet-in eventfd: %v", err)) // a closed or broken eventfd is a bug, not an input
	}
}

func goExact(c *C.struct_dp_exact_entry) p4rt.ExactEntry {
	t := c.term
	return p4rt.ExactEntry{Key: uint64(c.key), Action: uint8(c.action), Peer: uint8(c.peer), UE: uint32(c.ue),
		Meter: uint32(c.meter_idx), Term: p4rt.Term{Action: uint8(t.action), TC: uint8(t.tc), QFI: uint8(t.qfi),
			CtrIdx: uint32(t.ctr_idx), TEID: uint32(t.teid), AppMeterIdx: uint32(t.app_meter_idx)}}
}

func (DP) ExactGet(t p4rt.ExactTable, key uint64) (p4rt.ExactEntry, bool, error) {
	g := C.dp_exact_get_v(C.int(t), C.uint64_t(key))
	if g.rc <= 0 {
		return p4rt.ExactEntry{}, false, rc(g.rc)
	}
	return goExact(&g.e), true, nil
}

func (DP) ExactCount(t p4rt.ExactTable) (int, error) {
	n := C.dp_exact_count(C.int(t))
	if n < 0 {
		return 0, rc(C.int(n))
	}
	return int(n), nil
}

// exactChunk entries are copied per cgo call.
const exactChunk = 1024

func (DP) ExactEach(t p4rt.ExactTable, fn func(*p4rt.ExactEntry)) error {
	buf := make([]C.struct_dp_exact_entry, exactChunk)
	for cursor := C.uint32_t(0); cursor != C.UINT32_MAX; {
		n := C.dp_exact_dump(C.int(t), &cursor, &buf[0], exactChunk)
		if n < 0 {
			return rc(n)
		}
		for i := range buf[:n] {
			e := goExact(&buf[i])
			fn(&e)
		}
	}
	return nil
}
