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

// profile is what a P4Info must hold, exactly, to be run by the backend.
type profile struct {
	name     string
	actions  []actionSpec
	tables   []tableSpec
	counters []string
	meters   []string
}

var (
	swProfile = contractProfile("sw", func(inSW, _ bool) bool { return inSW })
	hwProfile = contractProfile("hw", func(_, inHW bool) bool { return inHW })
)

// Profiles are the P4 profiles the backend runs, by the name --profile takes.
var Profiles = map[string]*profile{"sw": swProfile, "hw": hwProfile}

// contractProfile is the profile's part of the generated contract (p4const.Tables): its tables, the actions
// they offer, its counters and meters.
func contractProfile(name string, in func(inSW, inHW bool) bool) *profile {
	p := &profile{name: name}
	offered := map[string]bool{}
	for _, t := range p4const.Tables {
		if !in(t.InSW, t.InHW) {
			continue
		}
		ts := tableSpec{name: t.Name, actions: t.Actions}
		for _, f := range t.Fields {
			ts.fields = append(ts.fields, fieldSpec{f.Name, f.Kind, f.Width})
		}
		p.tables = append(p.tables, ts)
		for _, a := range t.Actions {
			offered[a] = true
		}
	}
	for _, a := range p4const.Actions {
		if offered[a.Name] {
			as := actionSpec{name: a.Name}
			for _, pa := range a.Params {
				as.params = append(as.params, paramSpec{pa.Name, pa.Width})
			}
			p.actions = append(p.actions, as)
		}
	}
	for _, c := range p4const.Counters {
		if in(c.InSW, c.InHW) {
			p.counters = append(p.counters, c.Name)
		}
	}
	for _, m := range p4const.Meters {
		if in(m.InSW, m.InHW) {
			p.meters = append(p.meters, m.Name)
		}
	}
	return p
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
	pktIn         = p4const.PktHdrPacketIn
	pktOut        = p4const.PktHdrPacketOut
)

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
	for _, pm := range []struct{ hdr, field string }{{pktIn, p4const.PktMetaIngressPort}, {pktIn, p4const.PktMetaReason},
		{pktOut, p4const.PktMetaEgressPort}} {
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
