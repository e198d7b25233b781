package t4p4s

import (
	"encoding/binary"
	"fmt"
	"log/slog"
	"net"
	"sync"

	"hupf/backend/agent/internal/p4rt"
)

// T4P4S's names of the sw profile's tables and actions (the P4 names, control instance first).
const (
	tInterfaces = "HupfIngress.upf.interfaces"
	tULSess     = "HupfIngress.upf.uplink_sessions"
	tDLSess     = "HupfIngress.upf.downlink_sessions"
	tULTerm     = "HupfIngress.upf.uplink_terminations"
	tDLTerm     = "HupfIngress.upf.downlink_terminations"
	tIGPeers    = "HupfIngress.upf.ig_tunnel_peers"
	tRoutes     = "HupfIngress.routing.routes_v4"
	tQueues     = "HupfIngress.qos.queues"
	tEGPeers    = "HupfEgress.upf.eg_tunnel_peers"
	tEncap      = "HupfEgress.upf.gtpu_encap"
)

// The prefix length T4P4S adds to an LPM field's (its generated key setup adds the field's width in bytes),
// taken off what it is told.
const lpmAddedBytes = 4

// StockHashEntries is the number of keys each exact table of a T4P4S build holds unless its compile set
// HASH_ENTRIES otherwise (dpdk_tables.h; docs/BACKENDS.md "T4P4S", build step 5).
const StockHashEntries = 1024

// hashedTables are the tables T4P4S keeps in a DPDK hash of HASH_ENTRIES keys (its exact tables), whatever their P4
// size. A key stays in the hash once written (T4P4S deletes nothing: a deletion writes the miss action), and an
// insert into a full hash ends the switch: the adapter counts the keys and refuses a new one past the size.
var hashedTables = map[string]bool{tULSess: true, tDLSess: true, tULTerm: true, tDLTerm: true, tIGPeers: true,
	tEGPeers: true, tQueues: true}

var _ p4rt.Dataplane = (*Switch)(nil)

// Switch is a p4rt.Dataplane that programs a T4P4S switch over its controller protocol. The switch connects to
// it (T4P4S's controller port is compiled into the switch); writes wait for that connection. T4P4S has no delete,
// no table read and no acknowledgement: a deletion overwrites the entry with the table's miss action, and the
// exact tables are answered from what was written here. Counters are read from the switch (counters.go).
type Switch struct {
	log   *slog.Logger
	mu    sync.Mutex
	conn  net.Conn
	ready chan struct{}
	sizes p4rt.Sizes
	exact [4]map[uint64]p4rt.ExactEntry
	sent  uint64
	// sent when the last Commit had the switch apply everything before it
	committed uint64
	// What was written and not yet overwritten by a miss (table and key -> that miss), and the tables whose
	// default was changed: what a new pipeline undoes.
	undo     map[string][]byte
	defaults map[string]bool
	// The keys in each hashed table's DPDK hash (every key ever written to it) and how many it holds.
	hashed      map[string]map[string]bool
	hashEntries uint32
	ctr         counterState
}

// Listen accepts the switch's connection on addr (loopback) in the background; hashEntries is the HASH_ENTRIES
// the switch was compiled with.
func Listen(addr string, hashEntries uint32, log *slog.Logger) (*Switch, net.Listener, error) {
	if hashEntries == 0 {
		return nil, nil, fmt.Errorf("t4p4s: exact tables of 0 entries")
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	s := &Switch{log: log, ready: make(chan struct{}), undo: map[string][]byte{}, defaults: map[string]bool{},
		hashed: map[string]map[string]bool{}, hashEntries: hashEntries,
		ctr: counterState{gone: make(chan struct{}), cells: map[int64]*cell{}, written: map[uint32]bool{}}}
	for table := range hashedTables {
		s.hashed[table] = map[string]bool{}
	}
	for i := range s.exact {
		s.exact[i] = map[uint64]p4rt.ExactEntry{}
	}
	go s.accept(lis)
	return s, lis, nil
}

func (s *Switch) accept(lis net.Listener) {
	conn, err := lis.Accept()
	if err != nil {
		s.log.Error("t4p4s: no switch connected", "err", err)
		return
	}
	s.log.Info("t4p4s: switch connected", "from", conn.RemoteAddr().String())
	// The switch takes entries only once told that the controller is initialized.
	if _, err := conn.Write(ctrlInitialized()); err != nil {
		s.log.Error("t4p4s: switch connection", "err", err)
		conn.Close()
		return
	}
	go s.receive(conn)
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	close(s.ready)
}

// Connected is closed once the switch is connected.
func (s *Switch) Connected() <-chan struct{} { return s.ready }

// Sent is the number of table messages written to the switch (counter reads not included).
func (s *Switch) Sent() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

func unsupported(what string) error {
	return fmt.Errorf("t4p4s: %s: %w", what, &p4rt.DPError{Errno: p4rt.EOPNOTSUPP})
}

func invalid(format string, a ...any) error {
	return fmt.Errorf("t4p4s: "+format+": %w", append(a, &p4rt.DPError{Errno: p4rt.EINVAL})...)
}

// send writes table messages to the switch (s.mu held).
func (s *Switch) send(msgs ...[]byte) error {
	for _, m := range msgs {
		if err := s.write(m); err != nil {
			return err
		}
		s.sent++
	}
	return nil
}

// write writes one message to the switch (s.mu held).
func (s *Switch) write(m []byte) error {
	if s.conn == nil {
		return fmt.Errorf("t4p4s: no switch connected: %w", &p4rt.DPError{Errno: p4rt.ENODEV})
	}
	if _, err := s.conn.Write(m); err != nil {
		return fmt.Errorf("t4p4s: %v: %w", err, &p4rt.DPError{Errno: p4rt.ENODEV})
	}
	return nil
}

// missAction is each written table's miss: what a deletion, and a new pipeline, overwrite an entry with.
var missAction = map[string]action{
	tInterfaces: {name: "HupfIngress.upf.iface_miss"},
	tULSess:     {name: "HupfIngress.upf.set_uplink_session_miss"},
	tDLSess:     {name: "HupfIngress.upf.set_downlink_session_miss"},
	tULTerm:     {name: "HupfIngress.upf.upf_term_miss"},
	tDLTerm:     {name: "HupfIngress.upf.upf_term_miss"},
	tIGPeers:    {name: "HupfIngress.upf.nop"},
	tEGPeers:    {name: "HupfEgress.upf.nop"},
	tRoutes:     {name: "HupfIngress.routing.drop"},
	tQueues:     {name: "HupfIngress.qos.set_queue", params: []param{{"qid", 3, le(0)}}},
}

// defaultAction is the P4 default of each table whose default the adapter sets.
var defaultAction = map[string]action{
	tRoutes: {name: "HupfIngress.routing.drop"},
	tEncap:  {name: "HupfEgress.upf.gtpu_only"},
}

// add writes an entry and notes how to undo it (the same key with the miss action) until a miss is written.
func (s *Switch) add(table string, ms []match, a action) error {
	msg, err := addEntry(table, ms, a)
	if err != nil {
		return invalid("%v", err)
	}
	undo, err := addEntry(table, ms, missAction[table])
	if err != nil {
		return invalid("%v", err)
	}
	key := string(undo[:addEntrySize+len(ms)*fieldSize])
	keys, isHashed := s.hashed[table]
	if isHashed && !keys[key] && uint32(len(keys)) >= s.hashEntries {
		return fmt.Errorf("t4p4s: %s holds %d keys (the switch's HASH_ENTRIES), every one ever written: %w",
			table, s.hashEntries, &p4rt.DPError{Errno: p4rt.ENOSPC})
	}
	if err := s.send(msg); err != nil {
		return err
	}
	if isHashed {
		keys[key] = true
	}
	if a.name == missAction[table].name {
		delete(s.undo, key)
	} else {
		s.undo[key] = undo
	}
	return nil
}

// setDefaultAction sets a table's default and notes it until the P4 default is set again.
func (s *Switch) setDefaultAction(table string, a action) error {
	msg, err := setDefault(table, a)
	if err != nil {
		return invalid("%v", err)
	}
	if err := s.send(msg); err != nil {
		return err
	}
	if a.name == defaultAction[table].name {
		delete(s.defaults, table)
	} else {
		s.defaults[table] = true
	}
	return nil
}

// exactWrite applies op to the entry the agent reads back, checking it as the data plane does, then writes the
// switch's entry: a deletion's is the miss action.
func (s *Switch) exactWrite(t p4rt.ExactTable, capacity uint32, op p4rt.Op, e p4rt.ExactEntry, write func(del bool) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, have := s.exact[t][e.Key]
	switch {
	case op == p4rt.OpInsert && have:
		return &p4rt.DPError{Errno: p4rt.EEXIST}
	case op != p4rt.OpInsert && !have:
		return &p4rt.DPError{Errno: p4rt.ENOENT}
	case op == p4rt.OpInsert && uint32(len(s.exact[t])) >= capacity:
		return &p4rt.DPError{Errno: p4rt.ENOSPC}
	}
	if err := write(op == p4rt.OpDelete); err != nil {
		return err
	}
	if op == p4rt.OpDelete {
		delete(s.exact[t], e.Key)
	} else {
		s.exact[t][e.Key] = e
	}
	return nil
}

func (s *Switch) SetPipeline(sz p4rt.Sizes) error {
	if sz.HW {
		return unsupported("the hw profile (T4P4S runs the sw profile)")
	}
	s.mu.Lock()
	counted := s.countedCells()
	connected := s.conn != nil
	err := s.clearTables(sz)
	s.mu.Unlock()
	if err != nil || !connected {
		return err
	}
	// T4P4S keeps its counts too: a new pipeline's counters start from zero only as the adapter reads them.
	return s.zeroCounters(counted)
}

// clearTables overwrites what was written with each table's miss or default (s.mu held).
func (s *Switch) clearTables(sz p4rt.Sizes) error {
	s.sizes = sz
	for i := range s.exact {
		s.exact[i] = map[uint64]p4rt.ExactEntry{}
	}
	// T4P4S keeps its tables: a new pipeline starts empty only once what was written is overwritten.
	for key, undo := range s.undo {
		if err := s.send(undo); err != nil {
			return err
		}
		delete(s.undo, key)
	}
	for table := range s.defaults {
		if err := s.setDefaultAction(table, defaultAction[table]); err != nil {
			return err
		}
	}
	return nil
}

// Interface writes interfaces, an LPM table of more than 4 key bytes for T4P4S (rte_lpm6): the GTP-U validity
// byte, then the address in network order (T4P4S changed to put it so, docs/BACKENDS.md "T4P4S"); the prefix
// covers the whole first byte.
func (s *Switch) Interface(op p4rt.Op, prefix uint32, plen, gtpuValid, iface, slice uint8) error {
	if plen > 32 {
		return invalid("interfaces prefix /%d", plen)
	}
	a := action{name: "HupfIngress.upf.iface_access", params: []param{{"slice_id", 8, le(uint32(slice))}}}
	if iface == p4rt.IfaceCore {
		a.name = "HupfIngress.upf.iface_core"
	}
	if op == p4rt.OpDelete {
		a = action{name: "HupfIngress.upf.iface_miss"}
	}
	addr := make([]byte, 4)
	binary.BigEndian.PutUint32(addr, prefix)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(tInterfaces, []match{
		{"gtpu_is_valid", matchExact, 1, []byte{gtpuValid}},
		{"ipv4_dst_addr", matchLPM, 8 + uint16(plen) - lpmAddedBytes, addr},
	}, a)
}

func (s *Switch) ULSession(op p4rt.Op, tunDst, teid uint32, act uint8, ue, meter uint32) error {
	e := p4rt.ExactEntry{Key: uint64(tunDst)<<32 | uint64(teid), Action: act, UE: ue, Meter: meter}
	return s.exactWrite(p4rt.ExactULSess, s.sizes.ULSessions, op, e, func(del bool) error {
		a := action{name: "HupfIngress.upf.set_uplink_session",
			params: []param{{"ue_addr", 32, le(ue)}, {"session_meter_idx", 32, le(meter)}}}
		switch {
		case del:
			a = action{name: "HupfIngress.upf.set_uplink_session_miss"}
		case act == p4rt.SessDrop:
			a = action{name: "HupfIngress.upf.set_uplink_session_drop"}
		}
		return s.add(tULSess, []match{{"tunnel_ipv4_dst", matchExact, 32, le(tunDst)}, {"teid", matchExact, 32, le(teid)}}, a)
	})
}

func (s *Switch) DLSession(op p4rt.Op, ue uint32, act, peer uint8, meter uint32) error {
	e := p4rt.ExactEntry{Key: uint64(ue), Action: act, Peer: peer, Meter: meter}
	return s.exactWrite(p4rt.ExactDLSess, s.sizes.DLSessions, op, e, func(del bool) error {
		var a action
		switch {
		case del:
			a = action{name: "HupfIngress.upf.set_downlink_session_miss"}
		case act == p4rt.SessFwd:
			a = action{name: "HupfIngress.upf.set_downlink_session",
				params: []param{{"tun_peer_id", 8, le(uint32(peer))}, {"session_meter_idx", 32, le(meter)}}}
		case act == p4rt.SessBuf:
			a = action{name: "HupfIngress.upf.set_downlink_session_buf", params: []param{{"session_meter_idx", 32, le(meter)}}}
		default:
			a = action{name: "HupfIngress.upf.set_downlink_session_drop"}
		}
		return s.add(tDLSess, []match{{"ue_addr", matchExact, 32, le(ue)}}, a)
	})
}

func termKey(ue uint32, appID uint8) []match {
	return []match{{"ue_session_id", matchExact, 32, le(ue)}, {"app_id", matchExact, 8, le(uint32(appID))}}
}

func (s *Switch) ULTerm(op p4rt.Op, ue uint32, appID uint8, t p4rt.Term) error {
	e := p4rt.ExactEntry{Key: uint64(ue)<<8 | uint64(appID), Term: t}
	return s.exactWrite(p4rt.ExactULTerm, s.sizes.ULTerms, op, e, func(del bool) error {
		a := action{name: "HupfIngress.upf.uplink_term_fwd", params: []param{{"ctr_idx", 32, le(t.CtrIdx)},
			{"tc", 8, le(uint32(t.TC))}, {"app_meter_idx", 32, le(t.AppMeterIdx)}}}
		switch {
		case del:
			a = action{name: "HupfIngress.upf.upf_term_miss"}
		case t.Action == p4rt.TermDrop:
			a = action{name: "HupfIngress.upf.uplink_term_drop", params: []param{{"ctr_idx", 32, le(t.CtrIdx)}}}
		}
		return s.add(tULTerm, termKey(ue, appID), a)
	})
}

func (s *Switch) DLTerm(op p4rt.Op, ue uint32, appID uint8, t p4rt.Term) error {
	e := p4rt.ExactEntry{Key: uint64(ue)<<8 | uint64(appID), Term: t}
	return s.exactWrite(p4rt.ExactDLTerm, s.sizes.DLTerms, op, e, func(del bool) error {
		a := action{name: "HupfIngress.upf.downlink_term_fwd", params: []param{{"ctr_idx", 32, le(t.CtrIdx)},
			{"teid", 32, le(t.TEID)}, {"qfi", 8, le(uint32(t.QFI))}, {"tc", 8, le(uint32(t.TC))},
			{"app_meter_idx", 32, le(t.AppMeterIdx)}}}
		switch {
		case del:
			a = action{name: "HupfIngress.upf.upf_term_miss"}
		case t.Action == p4rt.TermDrop:
			a = action{name: "HupfIngress.upf.downlink_term_drop", params: []param{{"ctr_idx", 32, le(t.CtrIdx)}}}
		}
		return s.add(tDLTerm, termKey(ue, appID), a)
	})
}

func (s *Switch) IGPeer(op p4rt.Op, peer uint8, dst uint32) error {
	a := action{name: "HupfIngress.upf.set_routing_ipv4_dst", params: []param{{"tun_dst_addr", 32, le(dst)}}}
	if op == p4rt.OpDelete {
		a = action{name: "HupfIngress.upf.nop"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(tIGPeers, []match{{"tun_peer_id", matchExact, 8, le(uint32(peer))}}, a)
}

func (s *Switch) EGPeer(op p4rt.Op, peer uint8, src, dst uint32, sport uint16) error {
	a := action{name: "HupfEgress.upf.load_tunnel_params", params: []param{{"tunnel_src_addr", 32, le(src)},
		{"tunnel_dst_addr", 32, le(dst)}, {"tunnel_src_port", 16, le(uint32(sport))}}}
	if op == p4rt.OpDelete {
		a = action{name: "HupfEgress.upf.nop"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(tEGPeers, []match{{"tun_peer_id", matchExact, 8, le(uint32(peer))}}, a)
}

// Route writes routes_v4. A /0 route is the table's default action (T4P4S cannot be told a prefix shorter than
// the 4 it adds); /1 to /3 cannot be written.
func (s *Switch) Route(op p4rt.Op, prefix uint32, plen uint8, srcMAC, dstMAC [6]byte, port uint16) error {
	a := action{name: "HupfIngress.routing.route", params: []param{{"src_mac", 48, mac(srcMAC)},
		{"dst_mac", 48, mac(dstMAC)}, {"port", 9, le(uint32(port))}}}
	if op == p4rt.OpDelete {
		a = action{name: "HupfIngress.routing.drop"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case plen == 0:
		return s.setDefaultAction(tRoutes, a)
	case plen < lpmAddedBytes || plen > 32:
		return invalid("routes_v4 prefix /%d: T4P4S takes /0 or /%d to /32", plen, lpmAddedBytes)
	}
	return s.add(tRoutes, []match{{"ipv4_dst", matchLPM, uint16(plen) - lpmAddedBytes, le(prefix)}}, a)
}

func (s *Switch) SetEncapPSC(on bool) error {
	a := action{name: "HupfEgress.upf.gtpu_only"}
	if on {
		a = action{name: "HupfEgress.upf.gtpu_with_psc"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.setDefaultAction(tEncap, a)
}

func (s *Switch) Queue(op p4rt.Op, tc, qid uint8) error {
	if op == p4rt.OpDelete {
		qid = 0 // the table's default
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(tQueues, []match{{"tc", matchExact, 8, le(uint32(tc))}},
		action{name: "HupfIngress.qos.set_queue", params: []param{{"qid", 3, le(uint32(qid))}}})
}
