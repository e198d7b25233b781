package p4rt

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/encoding/protowire"
)

// A PFCP establishment resets its terminations' counter cells and configures its
// session meter: most of its updates are CounterEntry and MeterEntry. Like table
// entries they are read in place into a reused cellView, when every field they
// carry is one the view holds and none is repeated; anything else goes through
// proto.Unmarshal, so the result is the same as protobuf's.

// Field numbers of p4/v1/p4runtime.proto (P4Runtime 1.4).
const (
	fEntityMeter   = 5
	fEntityCounter = 7

	fCellID    = 1 // MeterEntry.meter_id, CounterEntry.counter_id
	fCellIndex = 2
	fCellData  = 3 // MeterEntry.config, CounterEntry.data
	fIndex     = 1
)

// entityKind is what parseUpdate found: a view it filled, or a parsed entity.
type entityKind int

const (
	kindParsed entityKind = iota
	kindTable
	kindMeter
	kindCounter
)

// cellView is a MeterEntry or CounterEntry as the server reads it.
type cellView struct {
	id       uint32
	index    int64
	hasIndex bool
	hasData  bool     // MeterEntry.config or CounterEntry.data is present
	data     [4]int64 // config: cir, cburst, pir, pburst; data: byte_count, packet_count
}

func meterViewOf(me *p4v1.MeterEntry, c *cellView) {
	*c = cellView{id: me.MeterId, hasIndex: me.Index != nil, index: me.Index.GetIndex(), hasData: me.Config != nil}
	if cfg := me.Config; cfg != nil {
		c.data = [4]int64{cfg.Cir, cfg.Cburst, cfg.Pir, cfg.Pburst}
	}
}

func counterViewOf(ce *p4v1.CounterEntry, c *cellView) {
	*c = cellView{id: ce.CounterId, hasIndex: ce.Index != nil, index: ce.Index.GetIndex(), hasData: ce.Data != nil}
	if d := ce.Data; d != nil {
		c.data = [4]int64{d.ByteCount, d.PacketCount}
	}
}

// once records field num in seen and refuses a second one (protobuf would merge it).
func once(seen *uint32, num protowire.Number) error {
	if *seen>>num&1 != 0 {
		return errSlowPath
	}
	*seen |= 1 << num
	return nil
}

// parseCell reads a MeterEntry (dataFields 4: the config's rates and bursts) or a
// CounterEntry (2: the data's byte and packet counts) into c.
func parseCell(b []byte, dataFields protowire.Number, c *cellView) error {
	*c = cellView{}
	var seen uint32
	return fields(b, func(num protowire.Number, wt protowire.Type, val []byte, x uint64) error {
		if num > fCellData {
			return errSlowPath
		}
		if err := once(&seen, num); err != nil {
			return err
		}
		switch {
		case num == fCellID && wt == protowire.VarintType:
			c.id = uint32(x)
			return nil
		case num == fCellIndex && wt == protowire.BytesType:
			c.hasIndex = true
			return varints(val, fIndex, func(_ protowire.Number, x uint64) { c.index = int64(x) })
		case num == fCellData && wt == protowire.BytesType:
			c.hasData = true
			return varints(val, dataFields, func(num protowire.Number, x uint64) { c.data[num-1] = int64(x) })
		}
		return errSlowPath
	})
}

// varints reads a message of varint fields 1..last, each at most once, into fn.
func varints(b []byte, last protowire.Number, fn func(num protowire.Number, x uint64)) error {
	var seen uint32
	return fields(b, func(num protowire.Number, wt protowire.Type, _ []byte, x uint64) error {
		if num < 1 || num > last || wt != protowire.VarintType {
			return errSlowPath
		}
		if err := once(&seen, num); err != nil {
			return err
		}
		fn(num, x)
		return nil
	})
}
