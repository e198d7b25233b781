// Package p4rt is the backend's P4Runtime server: it checks that a P4Info is the
// profile the backend runs, sw or hw (docs/PIPELINE_CONTRACT.md), resolves names to the ids that P4Info
// chose, and translates entities into data-plane operations.
package p4rt

import (
	"fmt"
	"sort"

	p4cfg "github.com/p4lang/p4runtime/go/p4/config/v1"

	"hupf/backend/agent/internal/p4const"
)

type matchKind = p4cfg.MatchField_MatchType

const (
	exact   = p4cfg.MatchField_EXACT
	lpm     = p4cfg.MatchField_LPM
	ternary = p4cfg.MatchField_TERNARY
	rng     = p4cfg.MatchField_RANGE
)

type fieldSpec struct {
	name  string
	kind  matchKind
	width int32
}

type paramSpec struct {
	name  string
	width int32
}

type actionSpec struct {
	name   string
	params []paramSpec
}

type tableSpec struct {
	name    string
	fields  []fieldSpec
	actions []string // every action the table must offer (entry and default actions)
}

// Names of the sw profile, as the contract fixes them (generated from the P4Info: p4const).
const (
	tInterfaces = p4const.HupfIngressUpfInterfaces
	tULSess     = p4const.HupfIngressUpfUplinkSessions
	tDLSess     = p4const.HupfIngressUpfDownlinkSessions
	tApps       = p4const.HupfIngressUpfApplications
	tULTerm     = p4const.HupfIngressUpfUplinkTerminations
	tDLTerm     = p4const.HupfIngressUpfDownlinkTerminations
	tIGPeers    = p4const.HupfIngressUpfIgTunnelPeers
	tEGPeers    = p4const.HupfEgressUpfEgTunnelPeers
	tEncap      = p4const.HupfEgressUpfGtpuEncap
	tRoutes     = p4const.HupfIngressRoutingRoutesV4
	tACL        = p4const.HupfIngressAclAcl
	tQueues     = p4const.HupfIngressQosQueues
	tTenants    = p4const.HupfIngressTenantTenants
	tPeerVxlan  = p4const.HupfEgressTenantPeerVxlan
	tSlices     = p4const.HupfIngressTenantSlices

	aIfaceAccess  = p4const.HupfIngressUpfIfaceAccess
	aIfaceCore    = p4const.HupfIngressUpfIfaceCore
	aIfaceMiss    = p4const.HupfIngressUpfIfaceMiss
	aULSess       = p4const.HupfIngressUpfSetUplinkSession
	aULSessDrop   = p4const.HupfIngressUpfSetUplinkSessionDrop
	aULSessMiss   = p4const.HupfIngressUpfSetUplinkSessionMiss
	aDLSess       = p4const.HupfIngressUpfSetDownlinkSession
	aDLSessBuf    = p4const.HupfIngressUpfSetDownlinkSessionBuf
	aDLSessDrop   = p4const.HupfIngressUpfSetDownlinkSessionDrop
	aDLSessMiss   = p4const.HupfIngressUpfSetDownlinkSessionMiss
	aSetAppID     = p4const.HupfIngressUpfSetAppId
	aULTermFwd    = p4const.HupfIngressUpfUplinkTermFwd
	aULTermDrop   = p4const.HupfIngressUpfUplinkTermDrop
	aDLTermFwd    = p4const.HupfIngressUpfDownlinkTermFwd
	aDLTermDrop   = p4const.HupfIngressUpfDownlinkTermDrop
	aTermMiss     = p4const.HupfIngressUpfUpfTermMiss
	aSetRouteDst  = p4const.HupfIngressUpfSetRoutingIpv4Dst
	aIGNop        = p4const.HupfIngressUpfNop
	aLoadTunnel   = p4const.HupfEgressUpfLoadTunnelParams
	aEGNop        = p4const.HupfEgressUpfNop
	aGtpuOnly     = p4const.HupfEgressUpfGtpuOnly
	aGtpuWithPsc  = p4const.HupfEgressUpfGtpuWithPsc
	aRoute        = p4const.HupfIngressRoutingRoute
	aRouteDrop    = p4const.HupfIngressRoutingDrop
	aPunt         = p4const.HupfIngressAclPuntToCpu
	aCopy         = p4const.HupfIngressAclCopyToCpu
	aACLDrop      = p4const.HupfIngressAclDrop
	aACLNop       = p4const.HupfIngressAclNopAcl
	aSetQueue     = p4const.HupfIngressQosSetQueue
	cPreQos       = p4const.HupfIngressUpfPreQosCounter
	cPostQos      = p4const.HupfEgressUpfPostQosCounter
	cDropReasons  = p4const.HupfIngressUpfDropReasons
	mSessionMeter = p4const.HupfIngressUpfSessionMeter
	mAppMeter     = p4const.HupfIngressUpfAppMeter
	aSetTenant    = p4const.HupfIngressTenantSetTenant
	aTenantMiss   = p4const.HupfIngressTenantTenantMiss
	aVxlanEncap   = p4const.HupfEgressTenantVxlanEncap
	aVxlanNop     = p4const.HupfEgressTenantNop
	cTenant       = p4const.HupfIngressTenantTenantCounter
	mTenant       = p4const.HupfIngressTenantTenantMeter
	aSetSlice     = p4const.HupfIngressTenantSetSlice
	aSliceNop     = p4const.HupfIngressTenantSliceNop
	cSlice        = p4const.HupfIngressTenantSliceCounter
	mSlice        = p4const.HupfIngressTenantSliceMeter
	pktIn         = "packet_in"
	pktOut        = "packet_out"
)

var swActions = []actionSpec{
	{aIfaceAccess, []paramSpec{{"slice_id", 4}}},
	{aIfaceCore, []paramSpec{{"slice_id", 4}}},
	{aIfaceMiss, nil},
	{aULSess, []paramSpec{{"ue_addr", 32}, {"session_meter_idx", 32}}},
	{aULSessDrop, nil},
	{aULSessMiss, nil},
	{aDLSess, []paramSpec{{"tun_peer_id", 8}, {"session_meter_idx", 32}}},
	{aDLSessBuf, []paramSpec{{"session_meter_idx", 32}}},
	{aDLSessDrop, nil},
	{aDLSessMiss, nil},
	{aSetAppID, []paramSpec{{"app_id", 8}}},
	{aULTermFwd, []paramSpec{{"ctr_idx", 32}, {"tc", 2}, {"app_meter_idx", 32}}},
	{aULTermDrop, []paramSpec{{"ctr_idx", 32}}},
	{aDLTermFwd, []paramSpec{{"ctr_idx", 32}, {"teid", 32}, {"qfi", 6}, {"tc", 2}, {"app_meter_idx", 32}}},
	{aDLTermDrop, []paramSpec{{"ctr_idx", 32}}},
	{aTermMiss, nil},
	{aSetRouteDst, []paramSpec{{"tun_dst_addr", 32}}},
	{aIGNop, nil},
	{aLoadTunnel, []paramSpec{{"tunnel_src_addr", 32}, {"tunnel_dst_addr", 32}, {"tunnel_src_port", 16}}},
	{aEGNop, nil},
	{aGtpuOnly, nil},
	{aGtpuWithPsc, nil},
	{aRoute, []paramSpec{{"src_mac", 48}, {"dst_mac", 48}, {"port", 9}}},
	{aRouteDrop, nil},
	{aPunt, nil},
	{aCopy, nil},
	{aACLDrop, nil},
	{aACLNop, nil},
	{aSetQueue, []paramSpec{{"qid", 3}}},
	{aSetTenant, []paramSpec{{"tenant_id", 8}, {"tc", 2}, {"dscp", 6}}},
	{aTenantMiss, nil},
	{aVxlanEncap, []paramSpec{{"vni", 24}, {"vtep_src_addr", 32}, {"vtep_dst_addr", 32}, {"inner_src_mac", 48},
		{"inner_dst_mac", 48}}},
	{aVxlanNop, nil},
	{aSetSlice, []paramSpec{{"tc", 2}, {"dscp", 6}}},
	{aSliceNop, nil},
}

var swTables = []tableSpec{
	{tInterfaces, []fieldSpec{{"ipv4_dst_addr", lpm, 32}, {"gtpu_is_valid", exact, 1}},
		[]string{aIfaceAccess, aIfaceCore, aIfaceMiss}},
	{tULSess, []fieldSpec{{"tunnel_ipv4_dst", exact, 32}, {"teid", exact, 32}},
		[]string{aULSess, aULSessDrop, aULSessMiss}},
	{tDLSess, []fieldSpec{{"ue_addr", exact, 32}},
		[]string{aDLSess, aDLSessBuf, aDLSessDrop, aDLSessMiss}},
	{tApps, []fieldSpec{{"slice_id", exact, 4}, {"app_ipv4_addr", lpm, 32}, {"app_l4_port", rng, 16},
		{"app_ip_proto", ternary, 8}}, []string{aSetAppID}},
	{tULTerm, []fieldSpec{{"ue_session_id", exact, 32}, {"app_id", exact, 8}},
		[]string{aULTermFwd, aULTermDrop, aTermMiss}},
	{tDLTerm, []fieldSpec{{"ue_session_id", exact, 32}, {"app_id", exact, 8}},
		[]string{aDLTermFwd, aDLTermDrop, aTermMiss}},
	{tIGPeers, []fieldSpec{{"tun_peer_id", exact, 8}}, []string{aSetRouteDst, aIGNop}},
	{tEGPeers, []fieldSpec{{"tun_peer_id", exact, 8}}, []string{aLoadTunnel, aEGNop}},
	{tEncap, nil, []string{aGtpuOnly, aGtpuWithPsc}},
	{tRoutes, []fieldSpec{{"ipv4_dst", lpm, 32}}, []string{aRoute, aRouteDrop}},
	{tACL, []fieldSpec{{"ig_port", ternary, 9}, {"eth_src", ternary, 48}, {"eth_dst", ternary, 48},
		{"eth_type", ternary, 16}, {"ipv4_src", ternary, 32}, {"ipv4_dst", ternary, 32},
		{"ip_proto", ternary, 8}, {"l4_sport", ternary, 16}, {"l4_dport", ternary, 16}},
		[]string{aPunt, aCopy, aACLDrop, aACLNop}},
	{tQueues, []fieldSpec{{"tc", exact, 2}}, []string{aSetQueue}},
	{tTenants, []fieldSpec{{"vni", exact, 24}, {"vtep_ipv4_dst", exact, 32}}, []string{aSetTenant, aTenantMiss}},
	{tPeerVxlan, []fieldSpec{{"tun_peer_id", exact, 8}}, []string{aVxlanEncap, aVxlanNop}},
	{tSlices, []fieldSpec{{"tenant_id", exact, 8}, {"qfi", exact, 6}}, []string{aSetSlice, aSliceNop}},
}

var swCounters = []string{cPreQos, cPostQos, cDropReasons, cTenant, cSlice}
var swMeters = []string{mSessionMeter, mAppMeter, mTenant, mSlice}

// Schema is a validated P4Info of one profile with its name -> id resolution.
type Schema struct {
	Info     *p4cfg.P4Info
	prof     *profile
	tables   map[string]*p4cfg.Table
	byID     map[uint32]*p4cfg.Table
	actions  map[string]*p4cfg.Action
	actByID  map[uint32]*p4cfg.Action
	counters map[string]*p4cfg.Counter
	ctrByID  map[uint32]*p4cfg.Counter
	meters   map[string]*p4cfg.Meter
	mtrByID  map[uint32]*p4cfg.Meter
	pktMeta  map[string]map[string]*p4cfg.ControllerPacketMetadata_Metadata
}

// NewSchema is NewProfileSchema for the sw profile.
func NewSchema(info *p4cfg.P4Info) (*Schema, error) { return NewProfileSchema(info, swProfile) }

// NewProfileSchema accepts a P4Info only if its tables, actions, counters and meters
// are exactly the profile's (names, match kinds, bit widths); extra tables (for the
// sw profile, the hw profile's steering, HK-IPG, MATADOR) are refused.
func NewProfileSchema(info *p4cfg.P4Info, prof *profile) (*Schema, error) {
	if info == nil {
		return nil, fmt.Errorf("no P4Info in the pipeline config")
	}
	s := &Schema{Info: info, prof: prof, pktMeta: map[string]map[string]*p4cfg.ControllerPacketMetadata_Metadata{}}
	s.tables, s.byID = index(info.Tables, (*p4cfg.Table).GetPreamble)
	s.actions, s.actByID = index(info.Actions, (*p4cfg.Action).GetPreamble)
	s.counters, s.ctrByID = index(info.Counters, (*p4cfg.Counter).GetPreamble)
	s.meters, s.mtrByID = index(info.Meters, (*p4cfg.Meter).GetPreamble)
	for _, cpm := range info.ControllerPacketMetadata {
		md := map[string]*p4cfg.ControllerPacketMetadata_Metadata{}
		for _, m := range cpm.Metadata {
			md[m.Name] = m
		}
		s.pktMeta[cpm.Preamble.Name] = md
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("P4Info is not the hupf %s profile: %w", prof.name, err)
	}
	return s, nil
}

// index maps P4Info objects by name and by id.
func index[T any](items []T, pre func(T) *p4cfg.Preamble) (map[string]T, map[uint32]T) {
	byName, byID := map[string]T{}, map[uint32]T{}
	for _, it := range items {
		p := pre(it)
		byName[p.GetName()] = it
		byID[p.GetId()] = it
	}
	return byName, byID
}

func (s *Schema) check() error {
	for _, as := range s.prof.actions {
		a := s.actions[as.name]
		if a == nil {
			return fmt.Errorf("missing action %s", as.name)
		}
		if len(a.Params) != len(as.params) {
			return fmt.Errorf("action %s has %d params, want %d", as.name, len(a.Params), len(as.params))
		}
		for i, ps := range as.params {
			if p := a.Params[i]; p.Name != ps.name || p.Bitwidth != ps.width {
				return fmt.Errorf("action %s param %d is %s bit<%d>, want %s bit<%d>",
					as.name, i, p.Name, p.Bitwidth, ps.name, ps.width)
			}
		}
	}
	want := map[string]bool{}
	for _, ts := range s.prof.tables {
		want[ts.name] = true
		t := s.tables[ts.name]
		if t == nil {
			return fmt.Errorf("missing table %s", ts.name)
		}
		if len(t.MatchFields) != len(ts.fields) {
			return fmt.Errorf("table %s has %d match fields, want %d", ts.name, len(t.MatchFields), len(ts.fields))
		}
		for i, fs := range ts.fields {
			f := t.MatchFields[i]
			if f.Name != fs.name || f.GetMatchType() != fs.kind || f.Bitwidth != fs.width {
				return fmt.Errorf("table %s field %d is %s %v bit<%d>, want %s %v bit<%d>", ts.name, i,
					f.Name, f.GetMatchType(), f.Bitwidth, fs.name, fs.kind, fs.width)
			}
		}
		refs := map[uint32]bool{}
		for _, r := range t.ActionRefs {
			refs[r.Id] = true
		}
		for _, an := range ts.actions {
			if !refs[s.actions[an].Preamble.Id] {
				return fmt.Errorf("table %s does not offer action %s", ts.name, an)
			}
		}
	}
	var extra []string
	for name := range s.tables {
		if !want[name] {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Errorf("tables outside the %s profile: %v", s.prof.name, extra)
	}
	if s.prof == hwProfile && !s.hasSelector() {
		return fmt.Errorf("missing action selector %s of table %s", apBackendSelector, tBackends)
	}
	if s.prof == hwProfile {
		if _, err := s.rpsTrackDepth(); err != nil {
			return err
		}
	}
	for _, c := range s.prof.counters {
		if s.counters[c] == nil {
			return fmt.Errorf("missing counter %s", c)
		}
	}
	for _, m := range s.prof.meters {
		if s.meters[m] == nil {
			return fmt.Errorf("missing meter %s", m)
		}
	}
	for _, pm := range []struct{ hdr, field string }{{pktIn, "ingress_port"}, {pktIn, "reason"}, {pktOut, "egress_port"}} {
		if s.pktMeta[pm.hdr][pm.field] == nil {
			return fmt.Errorf("missing controller metadata %s.%s", pm.hdr, pm.field)
		}
	}
	return nil
}

func (s *Schema) hasSelector() bool {
	for _, ap := range s.Info.ActionProfiles {
		if ap.Preamble.Name == apBackendSelector && ap.WithSelector && ap.Size > 0 &&
			len(ap.TableIds) == 1 && ap.TableIds[0] == s.tables[tBackends].Preamble.Id {
			return true
		}
	}
	return false
}

// HW: the P4Info is the hw profile.
func (s *Schema) HW() bool { return s.prof == hwProfile }

// TableSize is the P4Info size of a table: the backend's capacity for it.
func (s *Schema) TableSize(name string) uint32 { return uint32(s.tables[name].Size) }
