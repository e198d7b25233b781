package p4rt

import (
	"encoding/binary"
	"strings"

	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"

	"hupf/backend/agent/internal/p4const"
)

// exactTables are the tables whose entries the agent reads back from the data
// plane instead of keeping them: the four that grow with the sessions.
var exactTables = map[string]ExactTable{tULSess: ExactULSess, tDLSess: ExactDLSess, tULTerm: ExactULTerm,
	tDLTerm: ExactDLTerm}

// ulMeterHeld is the largest uplink session meter index the data plane holds as
// written (it keeps 31 bits, see ul_sess_val in dp_int.h).
const ulMeterHeld = 0x7fffffff

// dpStore answers an exact table's reads from the data plane's table: its key is
// the table's storeKey (big-endian match values) as an integer, and its value is
// rendered back into the action and params that were written. The only state
// kept here is the rare value the data plane holds narrower than written (an
// uplink meter index above ulMeterHeld), so that Read returns what was written.
type dpStore struct {
	dp     Dataplane
	table  ExactTable
	keyLen int
	sc     *Schema
	wider  map[string][]byte
}

func newDPStore(dp Dataplane, t ExactTable, ti *tableInfo, sc *Schema) *dpStore {
	return &dpStore{dp: dp, table: t, keyLen: keyLen(ti), sc: sc, wider: map[string][]byte{}}
}

func (d *dpStore) dpKey(k string) uint64 {
	var v uint64
	for i := 0; i < len(k); i++ {
		v = v<<8 | uint64(k[i])
	}
	return v
}

func (d *dpStore) storeKey(key uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], key)
	return string(b[8-d.keyLen:])
}

// check leaves the existence and capacity checks to the data plane's write, which
// makes them on the table itself (-EEXIST, -ENOENT, -ENOSPC): one call per entry.
func (d *dpStore) check(Op, string, uint32, string) error { return nil }

func (d *dpStore) get(k string) ([]byte, bool) {
	if v, ok := d.wider[k]; ok {
		return v, true
	}
	e, ok, err := d.dp.ExactGet(d.table, d.dpKey(k))
	if err != nil || !ok {
		return nil, false
	}
	return d.value(&e), true
}

func (d *dpStore) len() int {
	n, _ := d.dp.ExactCount(d.table)
	return n
}

// put is called after the data plane took the entry; it keeps only what the data
// plane cannot give back.
func (d *dpStore) put(k string, a *p4cfg.Action, params []uint64) {
	if d.table == ExactULSess && a.Preamble.Name == aULSess &&
		params[p4const.ParamHupfIngressUpfSetUplinkSessionSessionMeterIdx] > ulMeterHeld {
		d.wider[strings.Clone(k)] = storeValue(a, params)
	} else {
		d.del(k)
	}
}

func (d *dpStore) del(k string) {
	if len(d.wider) > 0 {
		delete(d.wider, k)
	}
}

func (d *dpStore) each(fn func(k string, v []byte)) {
	_ = d.dp.ExactEach(d.table, func(e *ExactEntry) {
		k := d.storeKey(e.Key)
		if v, ok := d.wider[k]; ok {
			fn(k, v)
		} else {
			fn(k, d.value(e))
		}
	})
}

// value is the inverse of applyExact: the action and params an entry was written with.
func (d *dpStore) value(e *ExactEntry) []byte {
	act := func(name string, params ...uint64) []byte { return storeValue(d.sc.actions[name], params) }
	t := &e.Term
	switch d.table {
	case ExactULSess:
		if e.Action == SessDrop {
			return act(aULSessDrop)
		}
		return act(aULSess, uint64(e.UE), uint64(e.Meter))
	case ExactDLSess:
		switch e.Action {
		case SessFwd:
			return act(aDLSess, uint64(e.Peer), uint64(e.Meter))
		case SessBuf:
			return act(aDLSessBuf, uint64(e.Meter))
		}
		return act(aDLSessDrop)
	case ExactULTerm:
		if t.Action == TermFwd {
			return act(aULTermFwd, uint64(t.CtrIdx), uint64(t.TC), uint64(t.AppMeterIdx))
		}
		return act(aULTermDrop, uint64(t.CtrIdx))
	}
	if t.Action == TermFwd {
		return act(aDLTermFwd, uint64(t.CtrIdx), uint64(t.TEID), uint64(t.QFI), uint64(t.TC), uint64(t.AppMeterIdx))
	}
	return act(aDLTermDrop, uint64(t.CtrIdx))
}
