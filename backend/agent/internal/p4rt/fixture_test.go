package p4rt

import (
	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// fixtureP4Info is a TEST FIXTURE: a P4Info built from the contract's names,
// standing in for p4c's output where it is not available. The real P4Info is
// checked too when present (TestRealP4Info).
func fixtureP4Info() *p4cfg.P4Info {
	info := &p4cfg.P4Info{}
	actID := map[string]uint32{}
	for i, a := range swProfile.actions {
		id := uint32(0x01000000 + i + 1)
		actID[a.name] = id
		pa := &p4cfg.Action{Preamble: &p4cfg.Preamble{Id: id, Name: a.name}}
		for j, p := range a.params {
			pa.Params = append(pa.Params, &p4cfg.Action_Param{Id: uint32(j + 1), Name: p.name, Bitwidth: p.width})
		}
		info.Actions = append(info.Actions, pa)
	}
	for i, t := range swProfile.tables {
		pt := &p4cfg.Table{Preamble: &p4cfg.Preamble{Id: uint32(0x02000000 + i + 1), Name: t.name}, Size: 1024}
		for j, f := range t.fields {
			pt.MatchFields = append(pt.MatchFields, &p4cfg.MatchField{Id: uint32(j + 1), Name: f.name,
				Bitwidth: f.width, Match: &p4cfg.MatchField_MatchType_{MatchType: f.kind}})
		}
		for _, a := range t.actions {
			pt.ActionRefs = append(pt.ActionRefs, &p4cfg.ActionRef{Id: actID[a]})
		}
		// As p4c reports `const default_action`: the last listed action, except gtpu_encap's.
		if t.name != tEncap {
			pt.ConstDefaultActionId = actID[t.actions[len(t.actions)-1]]
		}
		info.Tables = append(info.Tables, pt)
	}
	for i, c := range swProfile.counters {
		info.Counters = append(info.Counters, &p4cfg.Counter{Preamble: &p4cfg.Preamble{Id: uint32(0x12000000 + i + 1), Name: c},
			Spec: &p4cfg.CounterSpec{Unit: p4cfg.CounterSpec_BOTH}, Size: 1024})
	}
	for i, m := range swProfile.meters {
		info.Meters = append(info.Meters, &p4cfg.Meter{Preamble: &p4cfg.Preamble{Id: uint32(0x13000000 + i + 1), Name: m},
			Spec: &p4cfg.MeterSpec{Unit: p4cfg.MeterSpec_BYTES}, Size: 1024})
	}
	info.ControllerPacketMetadata = []*p4cfg.ControllerPacketMetadata{
		{Preamble: &p4cfg.Preamble{Id: 0x40000001, Name: pktOut}, Metadata: []*p4cfg.ControllerPacketMetadata_Metadata{
			{Id: 1, Name: "egress_port", Bitwidth: 9}, {Id: 2, Name: "_pad0", Bitwidth: 7}}},
		{Preamble: &p4cfg.Preamble{Id: 0x40000002, Name: pktIn}, Metadata: []*p4cfg.ControllerPacketMetadata_Metadata{
			{Id: 1, Name: "ingress_port", Bitwidth: 9}, {Id: 2, Name: "_pad0", Bitwidth: 7}, {Id: 3, Name: "reason", Bitwidth: 8}}},
	}
	return info
}

func fixtureTable(info *p4cfg.P4Info, name string) *p4cfg.Table {
	for _, t := range info.Tables {
		if t.Preamble.Name == name {
			return t
		}
	}
	return nil
}

func fixtureAction(info *p4cfg.P4Info, name string) *p4cfg.Action {
	for _, a := range info.Actions {
		if a.Preamble.Name == name {
			return a
		}
	}
	return nil
}
