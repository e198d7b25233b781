package p4rt

import (
	"errors"

	"google.golang.org/grpc/codes"

	"hupf/backend/agent/internal/p4const"
)

func mac(v uint64) (m [6]byte) {
	for i := 5; i >= 0; i-- {
		m[i] = byte(v)
		v >>= 8
	}
	return
}

// dpStatus maps a data-plane errno to the P4Runtime canonical code.
func dpStatus(err error) error {
	if err == nil {
		return nil // before de, which escapes to the heap: no allocation per successful write
	}
	var de *DPError
	if !errors.As(err, &de) {
		return err
	}
	code := map[int]codes.Code{ENOENT: codes.NotFound, EEXIST: codes.AlreadyExists, ENOSPC: codes.ResourceExhausted,
		EINVAL: codes.InvalidArgument, ENODEV: codes.FailedPrecondition, ENOMEM: codes.ResourceExhausted,
		EOPNOTSUPP: codes.Unimplemented}[de.Errno]
	if code == codes.OK {
		code = codes.Internal
	}
	return errf(code, "data plane: %s", de.Error())
}

// applyExact writes one entry of a table the data plane keys exactly (or by LPM).
// Ternary tables are rebuilt whole at the end of the batch instead (applyRuleSets).
func applyExact(dp Dataplane, op Op, e *entry) error {
	m, p := e.matches, e.params
	term := func(fwd, drop string) Term {
		switch e.action {
		case fwd:
			if fwd == aULTermFwd {
				return Term{Action: TermFwd, CtrIdx: uint32(p[p4const.ParamHupfIngressUpfUplinkTermFwdCtrIdx]),
					TC:          uint8(p[p4const.ParamHupfIngressUpfUplinkTermFwdTc]),
					AppMeterIdx: uint32(p[p4const.ParamHupfIngressUpfUplinkTermFwdAppMeterIdx])}
			}
			return Term{Action: TermFwd, CtrIdx: uint32(p[p4const.ParamHupfIngressUpfDownlinkTermFwdCtrIdx]),
				TEID:        uint32(p[p4const.ParamHupfIngressUpfDownlinkTermFwdTeid]),
				QFI:         uint8(p[p4const.ParamHupfIngressUpfDownlinkTermFwdQfi]),
				TC:          uint8(p[p4const.ParamHupfIngressUpfDownlinkTermFwdTc]),
				AppMeterIdx: uint32(p[p4const.ParamHupfIngressUpfDownlinkTermFwdAppMeterIdx])}
		case drop:
			if drop == aULTermDrop {
				return Term{Action: TermDrop, CtrIdx: uint32(p[p4const.ParamHupfIngressUpfUplinkTermDropCtrIdx])}
			}
			return Term{Action: TermDrop, CtrIdx: uint32(p[p4const.ParamHupfIngressUpfDownlinkTermDropCtrIdx])}
		}
		return Term{}
	}
	switch e.table.spec.name {
	case tInterfaces:
		kind, slicePos := uint8(IfaceAccess), p4const.ParamHupfIngressUpfIfaceAccessSliceId
		if e.action == aIfaceCore {
			kind, slicePos = IfaceCore, p4const.ParamHupfIngressUpfIfaceCoreSliceId
		}
		var slice uint8
		if len(p) > 0 {
			slice = uint8(p[slicePos])
		}
		addr := m[p4const.FieldHupfIngressUpfInterfacesIpv4DstAddr]
		return dp.Interface(op, uint32(addr.value), uint8(addr.plen), uint8(m[p4const.FieldHupfIngressUpfInterfacesGtpuIsValid].value), kind,
			slice)
	case tULSess:
		act, ue, meter := uint8(SessDrop), uint32(0), uint32(0)
		if e.action == aULSess {
			act, ue, meter = SessFwd, uint32(p[p4const.ParamHupfIngressUpfSetUplinkSessionUeAddr]),
				uint32(p[p4const.ParamHupfIngressUpfSetUplinkSessionSessionMeterIdx])
		}
		return dp.ULSession(op, uint32(m[p4const.FieldHupfIngressUpfUplinkSessionsTunnelIpv4Dst].value),
			uint32(m[p4const.FieldHupfIngressUpfUplinkSessionsTeid].value), act, ue, meter)
	case tDLSess:
		act, peer, meter := uint8(SessDrop), uint8(0), uint32(0)
		switch e.action {
		case aDLSess:
			act, peer, meter = SessFwd, uint8(p[p4const.ParamHupfIngressUpfSetDownlinkSessionTunPeerId]),
				uint32(p[p4const.ParamHupfIngressUpfSetDownlinkSessionSessionMeterIdx])
		case aDLSessBuf:
			act, meter = SessBuf, uint32(p[p4const.ParamHupfIngressUpfSetDownlinkSessionBufSessionMeterIdx])
		}
		return dp.DLSession(op, uint32(m[p4const.FieldHupfIngressUpfDownlinkSessionsUeAddr].value), act, peer, meter)
	case tULTerm:
		return dp.ULTerm(op, uint32(m[p4const.FieldHupfIngressUpfUplinkTerminationsUeSessionId].value),
			uint8(m[p4const.FieldHupfIngressUpfUplinkTerminationsAppId].value), term(aULTermFwd, aULTermDrop))
	case tDLTerm:
		return dp.DLTerm(op, uint32(m[p4const.FieldHupfIngressUpfDownlinkTerminationsUeSessionId].value),
			uint8(m[p4const.FieldHupfIngressUpfDownlinkTerminationsAppId].value), term(aDLTermFwd, aDLTermDrop))
	case tIGPeers:
		var dst uint32
		if len(p) > 0 {
			dst = uint32(p[p4const.ParamHupfIngressUpfSetRoutingIpv4DstTunDstAddr])
		}
		if e.action == aIGNop && op != OpDelete {
			return errf(codes.InvalidArgument, "%s: nop is the default action only", tIGPeers)
		}
		return dp.IGPeer(op, uint8(m[p4const.FieldHupfIngressUpfIgTunnelPeersTunPeerId].value), dst)
	case tEGPeers:
		if e.action == aEGNop && op != OpDelete {
			return errf(codes.InvalidArgument, "%s: nop is the default action only", tEGPeers)
		}
		var src, dst uint32
		var sport uint16
		if len(p) == 3 {
			src, dst, sport = uint32(p[p4const.ParamHupfEgressUpfLoadTunnelParamsTunnelSrcAddr]),
				uint32(p[p4const.ParamHupfEgressUpfLoadTunnelParamsTunnelDstAddr]),
				uint16(p[p4const.ParamHupfEgressUpfLoadTunnelParamsTunnelSrcPort])
		}
		return dp.EGPeer(op, uint8(m[p4const.FieldHupfEgressUpfEgTunnelPeersTunPeerId].value), src, dst, sport)
	case tRoutes:
		var sm, dm [6]byte
		var port uint16
		if len(p) == 3 {
			sm, dm, port = mac(p[p4const.ParamHupfIngressRoutingRouteSrcMac]),
				mac(p[p4const.ParamHupfIngressRoutingRouteDstMac]), uint16(p[p4const.ParamHupfIngressRoutingRoutePort])
		}
		dst := m[p4const.FieldHupfIngressRoutingRoutesV4Ipv4Dst]
		return dp.Route(op, uint32(dst.value), uint8(dst.plen), sm, dm, port)
	case tTenants:
		if e.action == aTenantMiss && op != OpDelete {
			return errf(codes.InvalidArgument, "%s: tenant_miss is the default action only", tTenants)
		}
		var id, tc, dscp uint8
		if len(p) == 3 {
			id, tc, dscp = uint8(p[p4const.ParamHupfIngressTenantSetTenantTenantId]),
				uint8(p[p4const.ParamHupfIngressTenantSetTenantTc]), uint8(p[p4const.ParamHupfIngressTenantSetTenantDscp])
		}
		return dp.Tenant(op, uint32(m[p4const.FieldHupfIngressTenantTenantsVni].value),
			uint32(m[p4const.FieldHupfIngressTenantTenantsVtepIpv4Dst].value), id, tc, dscp)
	case tSlices:
		if e.action == aSliceNop && op != OpDelete {
			return errf(codes.InvalidArgument, "%s: slice_nop is the default action only", tSlices)
		}
		var tc, dscp uint8
		if len(p) == 2 {
			tc, dscp = uint8(p[p4const.ParamHupfIngressTenantSetSliceTc]), uint8(p[p4const.ParamHupfIngressTenantSetSliceDscp])
		}
		return dp.Slice(op, uint8(m[p4const.FieldHupfIngressTenantSlicesTenantId].value),
			uint8(m[p4const.FieldHupfIngressTenantSlicesQfi].value), tc, dscp)
	case tPeerVxlan:
		if e.action == aVxlanNop && op != OpDelete {
			return errf(codes.InvalidArgument, "%s: nop is the default action only", tPeerVxlan)
		}
		var v VxPeer
		if len(p) == 5 {
			v = VxPeer{VNI: uint32(p[p4const.ParamHupfEgressTenantVxlanEncapVni]),
				VtepSrc:     uint32(p[p4const.ParamHupfEgressTenantVxlanEncapVtepSrcAddr]),
				VtepDst:     uint32(p[p4const.ParamHupfEgressTenantVxlanEncapVtepDstAddr]),
				InnerSrcMAC: mac(p[p4const.ParamHupfEgressTenantVxlanEncapInnerSrcMac]),
				InnerDstMAC: mac(p[p4const.ParamHupfEgressTenantVxlanEncapInnerDstMac])}
		}
		return dp.VxPeer(op, uint8(m[p4const.FieldHupfEgressTenantPeerVxlanTunPeerId].value), v)
	case tBackendPorts:
		return dp.BackendPort(op, uint16(m[p4const.FieldHupfIngressSteeringBackendPortsIgPort].value))
	case tBackendClass:
		if e.action == aSteeringNop && op != OpDelete {
			return errf(codes.InvalidArgument, "%s: nop is the default action only", tBackendClass)
		}
		var tc uint8
		if len(p) == 1 {
			tc = uint8(p[p4const.ParamHupfIngressSteeringSetBackendClassTc])
		}
		return dp.BackendClass(op, uint8(m[p4const.FieldHupfIngressSteeringBackendClassesDscp].value), tc)
	case tRPSFlows:
		return applyRPSFlow(dp, op, e)
	case tQueues:
		var qid uint8
		if len(p) == 1 {
			qid = uint8(p[p4const.ParamHupfIngressQosSetQueueQid])
		}
		return dp.Queue(op, uint8(m[p4const.FieldHupfIngressQosQueuesTc].value), qid)
	case tClassToTC:
		return nil // MATADOR's class is not turned into a traffic class on the backend: kept for Read only
	}
	return errf(codes.Internal, "no writer for table %s", e.table.spec.name)
}

// applyRuleSets pushes the applications and ACL tables, in match order.
func applyRuleSets(dp Dataplane, apps, acl []*entry) error {
	if apps != nil {
		byPriority(apps)
		rules := make([]AppRule, len(apps))
		for i, e := range apps {
			m := e.matches
			addr, port := m[p4const.FieldHupfIngressUpfApplicationsAppIpv4Addr], m[p4const.FieldHupfIngressUpfApplicationsAppL4Port]
			proto := m[p4const.FieldHupfIngressUpfApplicationsAppIpProto]
			rules[i] = AppRule{SliceID: uint8(m[p4const.FieldHupfIngressUpfApplicationsSliceId].value),
				Addr: uint32(addr.value), AddrMask: uint32(addr.mask), PortLo: uint16(port.lo), PortHi: uint16(port.hi),
				Proto: uint8(proto.value), ProtoMask: uint8(proto.mask), AppID: uint8(e.params[p4const.ParamHupfIngressUpfSetAppIdAppId])}
		}
		if err := dp.ReplaceApps(rules); err != nil {
			return err
		}
	}
	if acl != nil {
		byPriority(acl)
		rules := make([]ACLRule, len(acl))
		for i, e := range acl {
			m := e.matches
			port, src, dst := m[p4const.FieldHupfIngressAclAclIgPort], m[p4const.FieldHupfIngressAclAclEthSrc], m[p4const.FieldHupfIngressAclAclEthDst]
			typ, ipSrc, ipDst := m[p4const.FieldHupfIngressAclAclEthType], m[p4const.FieldHupfIngressAclAclIpv4Src], m[p4const.FieldHupfIngressAclAclIpv4Dst]
			proto, sport, dport := m[p4const.FieldHupfIngressAclAclIpProto], m[p4const.FieldHupfIngressAclAclL4Sport], m[p4const.FieldHupfIngressAclAclL4Dport]
			r := ACLRule{Port: uint16(port.value), PortMask: uint16(port.mask),
				EthSrc: mac(src.value), EthSrcMask: mac(src.mask), EthDst: mac(dst.value), EthDstMask: mac(dst.mask),
				EthType: uint16(typ.value), EthTypeMask: uint16(typ.mask),
				IPSrc: uint32(ipSrc.value), IPSrcMask: uint32(ipSrc.mask), IPDst: uint32(ipDst.value), IPDstMask: uint32(ipDst.mask),
				Proto: uint8(proto.value), ProtoMask: uint8(proto.mask), Sport: uint16(sport.value), SportMask: uint16(sport.mask),
				Dport: uint16(dport.value), DportMask: uint16(dport.mask)}
			r.Action = map[string]uint8{aPunt: ACLPunt, aCopy: ACLCopy, aACLDrop: ACLDrop, aACLNop: ACLNop}[e.action]
			rules[i] = r
		}
		return dp.ReplaceACL(rules)
	}
	return nil
}
