package p4rt

import "hupf/backend/agent/internal/p4const"

// Names the hw profile adds to the sw profile's (docs/PIPELINE_CONTRACT.md, hw).
const (
	tBackendPorts = p4const.HupfIngressSteeringBackendPorts
	tBackendClass = p4const.HupfIngressSteeringBackendClasses
	tBackends     = p4const.HupfIngressSteeringBackends
	tHHConfig     = p4const.HupfIngressHhHhConfig
	tTauTable     = p4const.HupfIngressHhTauTable
	tClsConfig    = p4const.HupfIngressClassifierClsConfig
	tDecision     = p4const.HupfIngressClassifierDecision
	tClassToTC    = p4const.HupfIngressClassifierClassToTc
	tRPSConfig    = p4const.HupfIngressRpsConfig
	tRPSFlows     = p4const.HupfIngressRpsFlows

	aFromBackend   = p4const.HupfIngressSteeringFromBackend
	aSteeringNop   = p4const.HupfIngressSteeringNop
	aBackendClass  = p4const.HupfIngressSteeringSetBackendClass
	aSteer         = p4const.HupfIngressSteeringSteerToBackend
	aSetHHParams   = p4const.HupfIngressHhSetHhParams
	aSetTau        = p4const.HupfIngressHhSetTau
	aSetClsParams  = p4const.HupfIngressClassifierSetClsParams
	aSetClass      = p4const.HupfIngressClassifierSetClass
	aSetTC         = p4const.HupfIngressClassifierSetTc
	aClsNop        = p4const.HupfIngressClassifierNop
	aRPSSetConfig  = p4const.HupfIngressRpsSetConfig
	aRPSSetFlow    = p4const.HupfIngressRpsSetFlow
	aRPSNotSampled = p4const.HupfIngressRpsNotSampled

	apBackendSelector = p4const.HupfIngressSteeringBackendSelector
)

// featureTables: the classifier's range tables and their set_code actions.
var featureTables = [][2]string{
	{p4const.HupfIngressClassifierFeaturePktsUp, p4const.HupfIngressClassifierSetCodePktsUp},
	{p4const.HupfIngressClassifierFeaturePktsDn, p4const.HupfIngressClassifierSetCodePktsDn},
	{p4const.HupfIngressClassifierFeaturePsUp, p4const.HupfIngressClassifierSetCodePsUp},
	{p4const.HupfIngressClassifierFeaturePsDn, p4const.HupfIngressClassifierSetCodePsDn},
	{p4const.HupfIngressClassifierFeatureIpgUp, p4const.HupfIngressClassifierSetCodeIpgUp},
	{p4const.HupfIngressClassifierFeatureIpgDn, p4const.HupfIngressClassifierSetCodeIpgDn},
}

var hwOnlyActions = func() []actionSpec {
	as := []actionSpec{
		{aFromBackend, nil},
		{aSteeringNop, nil},
		{aBackendClass, []paramSpec{{"tc", 2}}},
		{aSteer, []paramSpec{{"port", 9}, {"dst_mac", 48}}},
		{aSetHHParams, []paramSpec{{"tau_th", 16}, {"ipg_init", 32}, {"ipg_th", 32}, {"decay_k", 32},
			{"timeslot_us", 32}, {"alpha_shift", 8}, {"key_mode", 8}}},
		{aSetTau, []paramSpec{{"tau", 16}}},
		{aSetClsParams, []paramSpec{{"window_us", 32}, {"alpha_shift", 8}}},
		{aSetClass, []paramSpec{{"class_id", 8}}},
		{aSetTC, []paramSpec{{"tc", 2}}},
		{aClsNop, nil},
		{aRPSSetConfig, []paramSpec{{"mode", 8}, {"quiet_us", 32}, {"select_threshold", 32}, {"buffer_len", 32}}},
		{aRPSSetFlow, []paramSpec{{"flow_id", 16}, {"disc_threshold", 32}}},
		{aRPSNotSampled, nil},
	}
	for _, ft := range featureTables {
		as = append(as, actionSpec{ft[1], []paramSpec{{"code", 8}}})
	}
	return as
}()

var hwOnlyTables = func() []tableSpec {
	ts := []tableSpec{
		{tBackendPorts, []fieldSpec{{"ig_port", exact, 9}}, []string{aFromBackend, aSteeringNop}},
		{tBackendClass, []fieldSpec{{"dscp", exact, 6}}, []string{aBackendClass, aSteeringNop}},
		{tBackends, []fieldSpec{{"slice_id", exact, 4}}, []string{aSteer}},
		{tHHConfig, nil, []string{aSetHHParams}},
		{tTauTable, []fieldSpec{{"ipg_ewma", rng, 32}}, []string{aSetTau}},
		{tClsConfig, nil, []string{aSetClsParams}},
		{tDecision, []fieldSpec{{"code_pkts_up", exact, 8}, {"code_pkts_dn", exact, 8}, {"code_ps_up", exact, 8},
			{"code_ps_dn", exact, 8}, {"code_ipg_up", exact, 8}, {"code_ipg_dn", exact, 8}}, []string{aSetClass}},
		{tClassToTC, []fieldSpec{{"class_id", exact, 8}}, []string{aSetTC, aClsNop}},
		{tRPSConfig, nil, []string{aRPSSetConfig}},
		{tRPSFlows, []fieldSpec{{"ue_addr", lpm, 32}, {"direction", exact, 1}}, []string{aRPSSetFlow, aRPSNotSampled}},
	}
	for _, ft := range featureTables {
		ts = append(ts, tableSpec{ft[0], []fieldSpec{{"value", rng, 32}}, []string{ft[1]}})
	}
	return ts
}()

// profile is what a P4Info must hold, exactly, to be run by the backend.
type profile struct {
	name     string
	actions  []actionSpec
	tables   []tableSpec
	counters []string
	meters   []string
}

var (
	swProfile = &profile{"sw", swActions, swTables, swCounters, swMeters}
	hwProfile = &profile{"hw", append(append([]actionSpec{}, swActions...), hwOnlyActions...),
		append(append([]tableSpec{}, swTables...), hwOnlyTables...), swCounters, swMeters}
)

// Profiles are the P4 profiles the backend runs, by the name --profile takes.
var Profiles = map[string]*profile{"sw": swProfile, "hw": hwProfile}
