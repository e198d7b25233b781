"""A small JSON description of PFCP messages and the scapy packets it stands for.

Shared by the golden-vector generator and the SMF emulator: a message spec is
{"type", "seid" (None for node messages), "seq", "ies": [ie...]}, an IE spec is
{"t": type, "kind": ..., fields} or {"t": type, "children": [...]}. The Java codec test
builds the same spec with hupf's encoders and must produce the very bytes scapy made.
"""
from scapy.contrib import pfcp as P
from scapy.fields import BitField, BitEnumField, XBitField, ConditionalField

MSG_CLASSES = {
    1: P.PFCPHeartbeatRequest, 2: P.PFCPHeartbeatResponse,
    5: P.PFCPAssociationSetupRequest, 6: P.PFCPAssociationSetupResponse,
    7: P.PFCPAssociationUpdateRequest, 8: P.PFCPAssociationUpdateResponse,
    9: P.PFCPAssociationReleaseRequest, 10: P.PFCPAssociationReleaseResponse,
    11: P.PFCPVersionNotSupportedResponse,
    50: P.PFCPSessionEstablishmentRequest, 51: P.PFCPSessionEstablishmentResponse,
    52: P.PFCPSessionModificationRequest, 53: P.PFCPSessionModificationResponse,
    54: P.PFCPSessionDeletionRequest, 55: P.PFCPSessionDeletionResponse,
    56: P.PFCPSessionReportRequest, 57: P.PFCPSessionReportResponse,
}

# Leaf IEs carried as unsigned integers: IE type -> (scapy field, width in bytes).
UINT_FIELDS = {
    19: ("cause", 1), 29: ("precedence", 4), 40: ("type", 2), 56: ("id", 2), 64: ("period", 4),
    67: ("duration", 4), 75: ("timestamp", 4), 76: ("timestamp", 4), 81: ("id", 4), 88: ("id", 1),
    95: ("header", 1), 96: ("timestamp", 4), 104: ("number", 4), 108: ("id", 4), 109: ("id", 4),
}


def _bit_kwargs(cls, value):
    """Spread an integer (octet i in bits 8i..8i+7) over the bit fields of a flags IE."""
    kwargs, pos = {}, 0
    for f in cls.fields_desc[2:]:
        fld = f.fld if isinstance(f, ConditionalField) else f
        if not isinstance(fld, (BitField, BitEnumField, XBitField)):
            break
        octet, bit_in_octet = divmod(pos, 8)
        shift = 8 * octet + (8 - bit_in_octet - fld.size)
        kwargs[fld.name] = (value >> shift) & ((1 << fld.size) - 1)
        pos += fld.size
    return kwargs


def build_ie(spec):
    t = spec["t"]
    cls = P.ietypecls[t]
    if "children" in spec:
        return cls(IE_list=[build_ie(c) for c in spec["children"]])
    kind = spec["kind"]
    if kind == "uint":
        name, _ = UINT_FIELDS[t]
        return cls(**{name: spec["v"]})
    if kind == "flags":
        return cls(**_bit_kwargs(cls, spec["v"]))
    if kind == "nodeid":
        if spec["idType"] == 0:
            return cls(id_type=0, ipv4=spec["value"])
        return cls(id_type=2, id=spec["value"].encode())
    if kind == "fseid":
        return cls(v4=1, seid=spec["seid"], ipv4=spec["ipv4"])
    if kind == "fteid":
        if spec.get("choose"):
            return cls(CH=1, CHID=int(spec.get("chooseId") is not None),
                       choose_id=spec.get("chooseId") or 0)
        return cls(V4=1, TEID=spec["teid"], ipv4=spec["ipv4"])
    if kind == "ueip":
        return cls(V4=1, SD=int(spec["sd"]), ipv4=spec["ipv4"])
    if kind == "ohc":
        return cls(GTPUUDPIPV4=1, TEID=spec["teid"], ipv4=spec["ipv4"])
    if kind == "sdf":
        kw = {"FD": 1, "flow_description": spec["fd"].encode()}
        if spec.get("id") is not None:
            kw.update(BID=1, sdf_filter_id=spec["id"])
        return cls(**kw)
    if kind == "bitrate":
        return cls(ul=spec["ul"], dl=spec["dl"])
    if kind == "volume":
        kw = {}
        for key, flag, field in (("total", "TOVOL", "total"), ("ul", "ULVOL", "uplink"),
                                 ("dl", "DLVOL", "downlink")):
            if spec.get(key) is not None:
                kw[flag], kw[field] = 1, spec[key]
        return cls(**kw)
    if kind == "qfi":
        return cls(QFI=spec["v"])
    if kind == "apn":
        return cls(instance=spec["v"].encode())
    if kind == "failedrule":
        return cls(type=spec["ruleType"], **{["pdr_id", "far_id", "qer_id", "urr_id", "bar_id"]
                                             [spec["ruleType"]]: spec["v"]})
    raise ValueError("unknown IE kind %r" % kind)


def build_enterprise(spec):
    return P.IE_EnterpriseSpecific(ietype=spec["t"], enterprise_id=spec["eid"],
                                   data=bytes.fromhex(spec["hex"]))


def build_message(spec):
    ies = [build_enterprise(i) if i.get("kind") == "enterprise" else build_ie(i) for i in spec["ies"]]
    s = spec.get("seid")
    hdr = P.PFCP(version=1, S=int(s is not None), seid=s or 0, seq=spec["seq"],
                 message_type=spec["type"])
    return hdr / MSG_CLASSES[spec["type"]](IE_list=ies)


# Short constructors for specs.
def uint(t, v):
    return {"t": t, "kind": "uint", "v": v}


def flags(t, v, n=1):
    return {"t": t, "kind": "flags", "v": v, "n": n}


def group(t, *children):
    return {"t": t, "children": list(children)}


def node_ipv4(addr):
    return {"t": 60, "kind": "nodeid", "idType": 0, "value": addr}


def node_fqdn(name):
    return {"t": 60, "kind": "nodeid", "idType": 2, "value": name}


def fseid(seid, ipv4):
    return {"t": 57, "kind": "fseid", "seid": seid, "ipv4": ipv4}


def fteid(teid, ipv4):
    return {"t": 21, "kind": "fteid", "teid": teid, "ipv4": ipv4}


def fteid_choose(choose_id=None):
    return {"t": 21, "kind": "fteid", "choose": True, "chooseId": choose_id}


def ue_ip(ipv4, dst):
    return {"t": 93, "kind": "ueip", "ipv4": ipv4, "sd": dst}


def ohc(teid, ipv4):
    return {"t": 84, "kind": "ohc", "teid": teid, "ipv4": ipv4}


def sdf(fd, fid=None):
    return {"t": 23, "kind": "sdf", "fd": fd, "id": fid}


def bitrate(t, ul, dl):
    return {"t": t, "kind": "bitrate", "ul": ul, "dl": dl}


def volume(t, total=None, ul=None, dl=None):
    return {"t": t, "kind": "volume", "total": total, "ul": ul, "dl": dl}


def qfi(v):
    return {"t": 124, "kind": "qfi", "v": v}


def network_instance(name):
    return {"t": 22, "kind": "apn", "v": name}


def failed_rule(rule_type, v):
    return {"t": 114, "kind": "failedrule", "ruleType": rule_type, "v": v}


def message(mtype, seq, ies, seid=None):
    return {"type": mtype, "seq": seq, "seid": seid, "ies": ies}
