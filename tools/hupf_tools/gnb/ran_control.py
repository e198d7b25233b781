"""The RAN control plane's stand-in for hupf's gNB (docs/GNB.md, "Control"): a JSON config of the gNB and its
UEs (their TEIDs, MACs, DRB and keys) turned into what programs the gNB's user plane: the switch's table
entries (the contract's tables, fields and actions: gnb-switch's --entries, the same entries a P4Runtime
client writes to bmv2) and the crypto service's UE file (gnb-svc's --ues, written 0600; the only place keys
go: they are never logged or printed, errors name the UE and field).

  python -m hupf_tools.gnb.ran_control CONFIG.json --entries OUT.txt --ues OUT_KEYS.txt

CONFIG: {"gnb": {"n3": {"port", "addr", "mac", "upfMac"}, "cryptoPort", "baasPort", "airMac"},
         "ues": [{"ue", "port", "mac", "lcid", "drb", "snBits", "dlTeid", "ulTeid", "qfi", "upfAddr",
                  "kUpEnc", ["kUpInt"]}]}
"""
import argparse
import ipaddress
import json
import os
import re
import sys

from . import p4const as C

MAC = re.compile(r"^([0-9a-f]{2}:){5}[0-9a-f]{2}$")
KEY = re.compile(r"^[0-9a-fA-F]{32}$")


class ConfigError(ValueError):
    pass


def _int(obj, name, where, lo, hi):
    v = obj.get(name)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ConfigError("%s.%s: an integer %d..%d is needed" % (where, name, lo, hi))
    return v


def _mac(obj, name, where):
    v = obj.get(name)
    if not isinstance(v, str) or not MAC.match(v.lower()):
        raise ConfigError("%s.%s: a MAC address aa:bb:cc:dd:ee:ff is needed" % (where, name))
    return v.lower()


def _ipv4(obj, name, where):
    try:
        return str(ipaddress.IPv4Address(obj.get(name)))
    except ValueError:
        raise ConfigError("%s.%s: an IPv4 address is needed" % (where, name)) from None


def _key(obj, name, where, required=True):
    v = obj.get(name)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not KEY.match(v):
        raise ConfigError("%s.%s: a 128-bit key in hex (32 digits) is needed" % (where, name))
    return v.lower()


def compile_config(cfg):
    """(entries, ue_lines): the switch's entries and gnb-svc's UE file lines (with keys) of a config."""
    if not isinstance(cfg, dict) or not isinstance(cfg.get("gnb"), dict) or not isinstance(cfg.get("ues"), list):
        raise ConfigError("config: an object with 'gnb' (object) and 'ues' (list) is needed")
    g = cfg["gnb"]
    n3 = g.get("n3")
    if not isinstance(n3, dict):
        raise ConfigError("gnb.n3: an object is needed")
    n3_port = _int(n3, "port", "gnb.n3", 0, 510)
    crypto = _int(g, "cryptoPort", "gnb", 0, 510)
    baas = _int(g, "baasPort", "gnb", 0, 510)
    air_mac = _mac(g, "airMac", "gnb")
    roles = {n3_port: C.PORT_ROLE_N3, crypto: C.PORT_ROLE_CRYPTO, baas: C.PORT_ROLE_BAAS}
    if len(roles) != 3:
        raise ConfigError("gnb: n3.port, cryptoPort and baasPort must be three different ports")
    entries = [
        "services set_services crypto=%d baas=%d n3=%d gnb_n3_addr=%s gnb_n3_mac=%s upf_n3_mac=%s" % (
            crypto, baas, n3_port, _ipv4(n3, "addr", "gnb.n3"), _mac(n3, "mac", "gnb.n3"),
            _mac(n3, "upfMac", "gnb.n3")),
        "clone_session replica id=%d port=%d" % (C.BAAS_CLONE_SESSION_ID, baas),
    ]
    ue_lines, seen = [], {"ue": set(), "dlTeid": set(), "air": set()}
    for i, u in enumerate(cfg["ues"]):
        where = "ues[%d]" % i
        if not isinstance(u, dict):
            raise ConfigError("%s: an object is needed" % where)
        ue = _int(u, "ue", where, 0, 2**32 - 1)
        port = _int(u, "port", where, 0, 510)
        if roles.setdefault(port, C.PORT_ROLE_UE) != C.PORT_ROLE_UE:
            raise ConfigError("%s.port: port %d is the gNB's N3 or a service's" % (where, port))
        mac = _mac(u, "mac", where)
        lcid = _int(u, "lcid", where, 4, 32)            # TS 38.321 Table 6.2.1-1: DRB logical channels
        drb = _int(u, "drb", where, 1, 32)              # BEARER = DRB identity - 1 (TS 38.323 §5.8)
        sn_bits = u.get("snBits")
        if sn_bits not in (12, 18):
            raise ConfigError("%s.snBits: 12 or 18" % where)
        dl_teid = _int(u, "dlTeid", where, 1, 2**32 - 1)
        for kind, value in (("ue", ue), ("dlTeid", dl_teid), ("air", (port, mac))):
            if value in seen[kind]:
                raise ConfigError("%s.%s: given to another UE too" % (where, "mac" if kind == "air" else kind))
            seen[kind].add(value)
        sn18 = int(sn_bits == 18)
        entries += [
            "dl_ues set_dl_ue teid=%d ue=%d sn18=%d" % (dl_teid, ue, sn18),
            "air set_air ue=%d port=%d ue_mac=%s gnb_mac=%s lcid=%d" % (ue, port, mac, air_mac, lcid),
            "ul_ues set_ul_ue port=%d ue_mac=%s ue=%d lcid=%d" % (port, mac, ue, lcid),
            "ul_tunnels set_ul_tunnel ue=%d teid=%d qfi=%d upf_addr=%s sn18=%d" % (
                ue, _int(u, "ulTeid", where, 1, 2**32 - 1), _int(u, "qfi", where, 0, 63),
                _ipv4(u, "upfAddr", where), sn18),
        ]
        keys = [_key(u, "kUpEnc", where), _key(u, "kUpInt", where, required=False)]
        ue_lines.append(" ".join([str(ue), str(drb - 1), str(sn_bits)] + [k for k in keys if k]))
    entries = ["ports set_port_role port=%d role=%d" % (p, r) for p, r in sorted(roles.items())] + entries
    return entries, ue_lines


def write_outputs(cfg, entries_path, ues_path):
    entries, ue_lines = compile_config(cfg)
    with open(entries_path, "w") as f:
        f.write("# gNB switch entries (hupf_tools.gnb.ran_control)\n" + "\n".join(entries) + "\n")
    fd = os.open(ues_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write("# UE BEARER SN_BITS K_UPenc [K_UPint] (hupf_tools.gnb.ran_control)\n" + "\n".join(ue_lines) + "\n")
    return len(entries), len(ue_lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config")
    ap.add_argument("--entries", required=True)
    ap.add_argument("--ues", required=True)
    args = ap.parse_args(argv)
    try:
        with open(args.config) as f:
            cfg = json.load(f)
        n_entries, n_ues = write_outputs(cfg, args.entries, args.ues)
    except (OSError, ValueError) as e:
        print("ran_control: %s" % e, file=sys.stderr)
        return 1
    print("ran_control: %d UEs, %d switch entries" % (n_ues, n_entries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
