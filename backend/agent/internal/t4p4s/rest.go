package t4p4s

import (
	"hupf/backend/agent/internal/p4rt"
)

// What the sw profile has but the adapter does not write to T4P4S yet, what T4P4S cannot do (packet I/O),
// and the hw profile's parts. docs/PIPELINE_CONTRACT.md, "T4P4S", lists them.

func (s *Switch) Tenant(p4rt.Op, uint32, uint32, uint8, uint8, uint8) error {
	return unsupported("tenants")
}
func (s *Switch) Slice(p4rt.Op, uint8, uint8, uint8, uint8) error { return unsupported("slices") }
func (s *Switch) VxPeer(p4rt.Op, uint8, p4rt.VxPeer) error        { return unsupported("VXLAN peers") }
func (s *Switch) BackendPort(p4rt.Op, uint16) error               { return unsupported("hw profile") }
func (s *Switch) BackendClass(p4rt.Op, uint8, uint8) error        { return unsupported("hw profile") }
func (s *Switch) SetBackends(uint8, []p4rt.Backend) error         { return unsupported("hw profile") }
func (s *Switch) SetHHParams(p4rt.HHParams) error                 { return unsupported("hw profile") }
func (s *Switch) ReplaceTau([]p4rt.Range) error                   { return unsupported("hw profile") }
func (s *Switch) HHSlot(uint32) (p4rt.HHSlot, error)              { return p4rt.HHSlot{}, unsupported("hw profile") }
func (s *Switch) SetClsParams(p4rt.ClsParams) error               { return unsupported("hw profile") }
func (s *Switch) ReplaceFeature(int, []p4rt.Range) error          { return unsupported("hw profile") }
func (s *Switch) ReplaceDecisions([]p4rt.Decision) error          { return unsupported("hw profile") }
func (s *Switch) ClsSlot(uint32) (p4rt.ClsSlot, error) {
	return p4rt.ClsSlot{}, unsupported("hw profile")
}
func (s *Switch) SetRPSParams(p4rt.RPSParams) error { return unsupported("hw profile") }
func (s *Switch) RPSFlow(p4rt.Op, uint32, uint8, uint8, uint16, uint32) error {
	return unsupported("hw profile")
}
func (s *Switch) ReadRPSEvents(uint32) (uint64, error) { return 0, unsupported("hw profile") }
func (s *Switch) WriteRPSEvents(uint32, uint64) error  { return unsupported("hw profile") }

// ReplaceApps: T4P4S gives the applications table one match kind (LPM), so its range and ternary fields cannot
// be written as the contract has them; the empty set (every packet app 0, the table's default) is what it holds.
func (s *Switch) ReplaceApps(r []p4rt.AppRule) error {
	if len(r) > 0 {
		return unsupported("application filters (T4P4S's applications table has no range or ternary match)")
	}
	return nil
}

// ReplaceACL: T4P4S makes the ACL an exact table (no wildcards); the empty set is its default (no ACL action).
func (s *Switch) ReplaceACL(r []p4rt.ACLRule) error {
	if len(r) > 0 {
		return unsupported("ACL rules (T4P4S's acl table has no ternary match)")
	}
	return nil
}

// SetMeter is taken: T4P4S's v1model meters never colour a packet, so every packet passes whatever the
// configuration (docs/PIPELINE_CONTRACT.md, "T4P4S").
func (s *Switch) SetMeter(int, uint32, *p4rt.MeterCfg) error { return nil }

func (s *Switch) ExactGet(t p4rt.ExactTable, key uint64) (p4rt.ExactEntry, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.exact[t][key]
	return e, ok, nil
}

func (s *Switch) ExactCount(t p4rt.ExactTable) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.exact[t]), nil
}

func (s *Switch) ExactEach(t p4rt.ExactTable, fn func(*p4rt.ExactEntry)) error {
	s.mu.Lock()
	entries := make([]p4rt.ExactEntry, 0, len(s.exact[t]))
	for _, e := range s.exact[t] {
		entries = append(entries, e)
	}
	s.mu.Unlock()
	for i := range entries {
		fn(&entries[i])
	}
	return nil
}

func (s *Switch) PacketOut(uint16, []byte) error { return unsupported("packet-out") }

func (s *Switch) PacketIn([]byte) (int, uint16, uint8) { return 0, 0, 0 }

func (s *Switch) WaitPacketIn(stop <-chan struct{}) { <-stop }
