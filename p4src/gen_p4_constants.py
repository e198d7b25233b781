#!/usr/bin/env python3
"""Generate HupfConstants.java and hupf_p4const.py from the hw and sw P4Info files.

Names come from the P4Info (text format), enumerated values (packet-in reasons, drop
reasons, ...) from the `const` declarations of p4src/include/define.p4, so that no
table, action, field name or reason code is typed by hand outside the P4 sources.
Standard library only: the P4Info text format is read with a small tokenizer.
"""
import argparse
import re
import sys

# (P4Info top-level message, Java type, name prefix for the constant)
ENTITY_KINDS = [
    ("tables", "PiTableId", ""),
    ("actions", "PiActionId", ""),
    ("counters", "PiCounterId", ""),
    ("meters", "PiMeterId", ""),
    ("registers", "PiRegisterId", ""),
    ("action_profiles", "PiActionProfileId", ""),
]
# define.p4 constants exported, by name prefix.
EXPORTED_CONST_PREFIXES = ("PKTIN_", "DROP_", "HH_KEY_", "HH_FLAG_", "CPU_CLONE_SESSION_ID",
                           "V1MODEL_CPU_PORT", "GTPU_", "HH_REPORT_TRUNC_LEN", "STATE_READ_PORT",
                           "ETHERTYPE_HUPF_STATE")

_TOKEN = re.compile(r'\s*(?:(#[^\n]*)|("(?:[^"\\]|\\.)*")|([{}:<>\[\],])|([^\s{}:<>\[\],"]+))')


def parse_textproto(text):
    """Parse protobuf text format into {field: [values]}; messages become dicts."""
    tokens = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError("p4info: cannot tokenize at offset %d: %r" % (pos, text[pos:pos + 30]))
        pos = m.end()
        comment, string, punct, word = m.groups()
        if comment:
            continue
        if string is not None:
            tokens.append(("str", bytes(string[1:-1], "utf-8").decode("unicode_escape")))
        elif punct is not None:
            tokens.append(("p", punct))
        elif word is not None:
            tokens.append(("w", word))
    msg, end = _parse_message(tokens, 0, closing=None)
    if end != len(tokens):
        raise ValueError("p4info: unexpected token %r" % (tokens[end],))
    return msg


def _parse_message(tokens, i, closing):
    msg = {}
    while i < len(tokens):
        kind, val = tokens[i]
        if kind == "p" and val == closing:
            return msg, i + 1
        if kind != "w":
            raise ValueError("p4info: expected a field name, got %r" % (val,))
        name = val
        i += 1
        if tokens[i] == ("p", ":"):
            i += 1
        if tokens[i] in (("p", "{"), ("p", "<")):
            sub, i = _parse_message(tokens, i + 1, "}" if tokens[i][1] == "{" else ">")
            msg.setdefault(name, []).append(sub)
        else:
            msg.setdefault(name, []).append(tokens[i][1])
            i += 1
    if closing is not None:
        raise ValueError("p4info: missing %r" % closing)
    return msg, i


def java_name(name):
    """'HupfIngress.upf.interfaces' -> 'HUPF_INGRESS_UPF_INTERFACES'."""
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper()


def collect(p4infos):
    """Union of names per kind over all P4Infos, each kind sorted."""
    out = {kind: set() for kind, _, _ in ENTITY_KINDS}
    out["match_fields"] = set()
    out["action_params"] = set()
    out["packet_metadata"] = set()
    for info in p4infos:
        for kind, _, _ in ENTITY_KINDS:
            for entity in info.get(kind, []):
                out[kind].add(entity["preamble"][0]["name"][0])
        for table in info.get("tables", []):
            for mf in table.get("match_fields", []):
                out["match_fields"].add(mf["name"][0])
        for action in info.get("actions", []):
            for param in action.get("params", []):
                out["action_params"].add(param["name"][0])
        for cpm in info.get("controller_packet_metadata", []):
            for md in cpm.get("metadata", []):
                out["packet_metadata"].add(md["name"][0])
    return {k: sorted(v) for k, v in out.items()}


def read_consts(define_p4):
    consts = []
    for m in re.finditer(r"const\s+bit<\d+>\s+(\w+)\s*=\s*([^;]+);", define_p4):
        name, expr = m.group(1), m.group(2).strip()
        if not name.startswith(EXPORTED_CONST_PREFIXES):
            continue
        if not re.fullmatch(r"[0-9a-fA-Fx+\s]+", expr):
            raise ValueError("define.p4: %s is not a plain number: %r" % (name, expr))
        consts.append((name, sum(int(t, 0) for t in expr.split("+"))))
    return consts


def groups(names):
    """(title, java type, [(constant name, p4 name)]) in output order."""
    res = []
    for kind, jtype, prefix in ENTITY_KINDS:
        res.append((kind, jtype, [(prefix + java_name(n), n) for n in names[kind]]))
    res.append(("match_fields", "PiMatchFieldId", [("HDR_" + java_name(n), n) for n in names["match_fields"]]))
    res.append(("action_params", "PiActionParamId", [(java_name(n), n) for n in names["action_params"]]))
    res.append(("packet_metadata", "PiPacketMetadataId",
                [("PKT_META_" + java_name(n), n) for n in names["packet_metadata"]]))
    seen = {}
    for title, _, entries in res:
        for const, p4name in entries:
            if const in seen and seen[const] != (title, p4name):
                raise ValueError("constant %s would name both %s and %s" % (const, seen[const], (title, p4name)))
            seen[const] = (title, p4name)
    return res


HEADER = "Generated by p4src/gen_p4_constants.py from the hw and sw P4Info. Do not edit."


def render_java(grps, consts):
    lines = ["// " + HEADER, "package org.hupf.pipeconf;", ""]
    for _, jtype, entries in grps:
        if entries:
            lines.append("import org.onosproject.net.pi.model.%s;" % jtype)
    lines += ["", "/**", " * Names of the hupf P4 pipeline, from its P4Info.", " */",
              "public final class HupfConstants {", "", "    private HupfConstants() {", "    }"]
    for title, jtype, entries in grps:
        if not entries:
            continue
        lines += ["", "    // %s" % title]
        for const, p4name in entries:
            lines.append("    public static final %s %s =" % (jtype, const))
            lines.append("            %s.of(\"%s\");" % (jtype, p4name))
    lines += ["", "    // constants of p4src/include/define.p4"]
    for name, value in consts:
        lines.append("    public static final int %s = %d;" % (name, value))
    lines += ["}", ""]
    return "\n".join(lines)


def render_python(grps, consts):
    lines = ['"""%s"""' % HEADER, ""]
    for title, _, entries in grps:
        lines += ["# %s" % title]
        for const, p4name in entries:
            lines.append('%s = "%s"' % (const, p4name))
        lines.append("")
    lines.append("# constants of p4src/include/define.p4")
    for name, value in consts:
        lines.append("%s = %d" % (name, value))
    lines.append("")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--p4info", action="append", required=True, help="P4Info text file (repeatable)")
    ap.add_argument("--define", required=True, help="p4src/include/define.p4")
    ap.add_argument("--java", required=True, help="output HupfConstants.java")
    ap.add_argument("--python", required=True, help="output hupf_p4const.py")
    args = ap.parse_args(argv)
    try:
        infos = []
        for path in args.p4info:
            with open(path) as f:
                infos.append(parse_textproto(f.read()))
        with open(args.define) as f:
            consts = read_consts(f.read())
        grps = groups(collect(infos))
    except (OSError, ValueError, KeyError, IndexError) as e:
        print("gen_p4_constants: %s" % e, file=sys.stderr)
        return 1
    with open(args.java, "w") as f:
        f.write(render_java(grps, consts))
    with open(args.python, "w") as f:
        f.write(render_python(grps, consts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
