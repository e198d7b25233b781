// Package t4p4s drives a T4P4S switch (hupf's sw profile compiled by T4P4S, docs/BACKENDS.md "T4P4S") as the
// data plane of the contract's P4Runtime server: each table write becomes a message of T4P4S's controller
// protocol (its src/hardware_dep/shared/ctrl_plane/messages.h).
package t4p4s

import (
	"encoding/binary"
	"fmt"
)

// Message types and match kinds of the protocol (messages.h: p4_type_t, p4_field_match_type_t).
const (
	msgCtrlInitialized  = 5
	msgSetDefaultAction = 103
	msgAddTableEntry    = 104

	matchExact = 0
	matchLPM   = 2
)

// Sizes of the protocol's C structs as the switch's compiler lays them out (x86-64, natural alignment).
const (
	nameLen       = 128
	fieldBitmap   = 256
	paramBitmap   = 128
	headerSize    = 8                                     // version, type, length (network order), xid
	addEntrySize  = 140                                   // header, table name, match count, padding
	fieldSize     = 388                                   // name, kind, padding, length or prefix, bitmap
	actionSize    = 130                                   // action type, name, parameter count
	paramSize     = 260                                   // name, bit length (network order), bitmap
	setDefaultLen = headerSize + nameLen + actionSize + 2 // and padding to 4
	// The switch reads a message into a buffer of this size (P4_BG_MEM_CELL_SIZE, raised from T4P4S's 2048 for
	// downlink_terminations' five parameters: docs/BACKENDS.md "T4P4S"); a longer one would desynchronise it.
	maxMessage = 4096
)

// match is one key field as the switch reads it: key bytes in the order of the generated key setup.
type match struct {
	name   string
	kind   uint8
	bits   uint16 // exact: the field's width; LPM: the prefix length as the switch is to be told
	bitmap []byte
}

// param is one action parameter: the bytes the switch copies into the entry.
type param struct {
	name   string
	bits   uint32
	bitmap []byte
}

// action is an action by its P4 name with its parameters in declaration order (the switch copies them by
// position).
type action struct {
	name   string
	params []param
}

// le is a value of up to 32 bits as T4P4S takes keys and parameters of that width: the value's bytes in host
// (little-endian) order, as its generated code reads them into a uint8/16/32 and compares them with the packet's
// field read by GET32.
func le(v uint32) []byte {
	b := make([]byte, 4)
	binary.LittleEndian.PutUint32(b, v)
	return b
}

// mac is a 48-bit parameter: copied into the entry as bytes and written to the header in network order.
func mac(m [6]byte) []byte { return m[:] }

func putName(b []byte, name string) error {
	if len(name) >= nameLen {
		return fmt.Errorf("t4p4s: name %q longer than %d bytes", name, nameLen-1)
	}
	copy(b, name)
	return nil
}

func putHeader(msg []byte, kind uint8) {
	msg[0] = 1 // P4_VERSION
	msg[1] = kind
	binary.BigEndian.PutUint16(msg[2:], uint16(len(msg)))
}

func putAction(b []byte, a action) error {
	// b[0]: P4_ACTION_TYPE_REGULAR (0)
	if err := putName(b[1:1+nameLen], a.name); err != nil {
		return err
	}
	b[1+nameLen] = uint8(len(a.params))
	return nil
}

func putParams(b []byte, ps []param) error {
	for i, p := range ps {
		at := b[i*paramSize:]
		if err := putName(at[:nameLen], p.name); err != nil {
			return err
		}
		if len(p.bitmap) > paramBitmap {
			return fmt.Errorf("t4p4s: parameter %s: %d bytes", p.name, len(p.bitmap))
		}
		binary.BigEndian.PutUint32(at[nameLen:], p.bits)
		copy(at[nameLen+4:nameLen+4+paramBitmap], p.bitmap)
	}
	return nil
}

// addEntry is P4T_ADD_TABLE_ENTRY: the table, its key fields in the switch's order, the action.
func addEntry(table string, ms []match, a action) ([]byte, error) {
	n := addEntrySize + len(ms)*fieldSize + actionSize + len(a.params)*paramSize
	if n > maxMessage {
		return nil, fmt.Errorf("t4p4s: %s entry of %d bytes, over the switch's %d", table, n, maxMessage)
	}
	msg := make([]byte, n)
	putHeader(msg, msgAddTableEntry)
	if err := putName(msg[headerSize:headerSize+nameLen], table); err != nil {
		return nil, err
	}
	msg[headerSize+nameLen] = uint8(len(ms))
	for i, m := range ms {
		at := msg[addEntrySize+i*fieldSize:]
		if err := putName(at[:nameLen], m.name); err != nil {
			return nil, err
		}
		if len(m.bitmap) > fieldBitmap {
			return nil, fmt.Errorf("t4p4s: field %s: %d bytes", m.name, len(m.bitmap))
		}
		at[nameLen] = m.kind
		binary.BigEndian.PutUint16(at[nameLen+2:], m.bits)
		copy(at[nameLen+4:nameLen+4+fieldBitmap], m.bitmap)
	}
	at := msg[addEntrySize+len(ms)*fieldSize:]
	if err := putAction(at, a); err != nil {
		return nil, err
	}
	return msg, putParams(at[actionSize:], a.params)
}

// setDefault is P4T_SET_DEFAULT_ACTION: the action a table takes on a miss.
func setDefault(table string, a action) ([]byte, error) {
	base := (setDefaultLen + 3) &^ 3
	msg := make([]byte, base+len(a.params)*paramSize)
	putHeader(msg, msgSetDefaultAction)
	if err := putName(msg[headerSize:headerSize+nameLen], table); err != nil {
		return nil, err
	}
	if err := putAction(msg[headerSize+nameLen:], a); err != nil {
		return nil, err
	}
	return msg, putParams(msg[base:], a.params)
}

// ctrlInitialized tells the switch that the controller has given its initial entries.
func ctrlInitialized() []byte {
	msg := make([]byte, headerSize)
	putHeader(msg, msgCtrlInitialized)
	return msg
}
