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

// rangeTable is a table the data plane takes whole as ranges: its action and the positions of its range field
// and of the action parameter the data plane keeps.
type rangeTable struct {
	table, action string
	field, param  int
}

var tauRanges = rangeTable{tTauTable, aSetTau, p4const.FieldHupfIngressHhTauTableIpgEwma, p4const.ParamHupfIngressHhSetTauTau}

// featureTables: the classifier's range tables and their set_code actions, in the data plane's feature order.
var featureTables = []rangeTable{
	{p4const.HupfIngressClassifierFeaturePktsUp, p4const.HupfIngressClassifierSetCodePktsUp,
		p4const.FieldHupfIngressClassifierFeaturePktsUpValue, p4const.ParamHupfIngressClassifierSetCodePktsUpCode},
	{p4const.HupfIngressClassifierFeaturePktsDn, p4const.HupfIngressClassifierSetCodePktsDn,
		p4const.FieldHupfIngressClassifierFeaturePktsDnValue, p4const.ParamHupfIngressClassifierSetCodePktsDnCode},
	{p4const.HupfIngressClassifierFeaturePsUp, p4const.HupfIngressClassifierSetCodePsUp,
		p4const.FieldHupfIngressClassifierFeaturePsUpValue, p4const.ParamHupfIngressClassifierSetCodePsUpCode},
	{p4const.HupfIngressClassifierFeaturePsDn, p4const.HupfIngressClassifierSetCodePsDn,
		p4const.FieldHupfIngressClassifierFeaturePsDnValue, p4const.ParamHupfIngressClassifierSetCodePsDnCode},
	{p4const.HupfIngressClassifierFeatureIpgUp, p4const.HupfIngressClassifierSetCodeIpgUp,
		p4const.FieldHupfIngressClassifierFeatureIpgUpValue, p4const.ParamHupfIngressClassifierSetCodeIpgUpCode},
	{p4const.HupfIngressClassifierFeatureIpgDn, p4const.HupfIngressClassifierSetCodeIpgDn,
		p4const.FieldHupfIngressClassifierFeatureIpgDnValue, p4const.ParamHupfIngressClassifierSetCodeIpgDnCode},
}

// decisionCodes: the decision table's match fields of the features' codes, in the data plane's feature order.
var decisionCodes = [len(Decision{}.Codes)]int{
	p4const.FieldHupfIngressClassifierDecisionCodePktsUp,
	p4const.FieldHupfIngressClassifierDecisionCodePktsDn,
	p4const.FieldHupfIngressClassifierDecisionCodePsUp,
	p4const.FieldHupfIngressClassifierDecisionCodePsDn,
	p4const.FieldHupfIngressClassifierDecisionCodeIpgUp,
	p4const.FieldHupfIngressClassifierDecisionCodeIpgDn,
}
