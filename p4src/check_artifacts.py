#!/usr/bin/env python3
"""Compare the committed P4 artifacts with a fresh compile of the same sources.

When the fresh compile comes from the p4c recorded with the committed artifacts (p4c-version.txt),
the files must be identical. From another p4c, bytes may legitimately differ (action bodies, source
info, id order in the JSON), so what the control plane and the tests depend on is compared: the
P4Info entities with their ids, match fields, parameters, sizes and widths, and in the bmv2 JSON the
tables, actions, registers, counters, meters and header types. Either way the report names both
compilers.

  check_artifacts.py [--profiles hw,sw] COMMITTED_DIR FRESH_DIR   (each holds p4c-version.txt and <profile>/bmv2/)
  check_artifacts.py --same-program [--profiles hw,sw] DIR_A DIR_B
      two compiles by one p4c of sources that must be the same program (a file split, a move): the P4Info
      identical, the bmv2 JSON identical but for its source locations (source_info, the file names it records)
"""
import argparse
import json
import os
import re
import sys

PROFILES = ("hw", "sw")
VERSION_FILE = "p4c-version.txt"


def version(d):
    try:
        with open(os.path.join(d, VERSION_FILE)) as f:
            return " ".join(f.read().split()) or "unrecorded"
    except OSError:
        return "unrecorded"


def p4info_view(text):
    """{entity: description} of a P4Info: what P4Runtime clients and the generated constants use."""
    from gen_p4_constants import parse_p4info
    info = parse_p4info(text)
    view = {}
    for t in info.tables:
        view["table " + t.preamble.name] = (
            t.preamble.id, [(m.id, m.name, m.bitwidth, m.match_type) for m in t.match_fields],
            sorted((r.id, r.scope) for r in t.action_refs), t.size, t.const_default_action_id,
            t.implementation_id, sorted(t.direct_resource_ids), t.is_const_table)
    for a in info.actions:
        view["action " + a.preamble.name] = (a.preamble.id, [(p.id, p.name, p.bitwidth) for p in a.params])
    for kind in ("counters", "meters", "direct_counters", "direct_meters"):
        for c in getattr(info, kind):
            view["%s %s" % (kind[:-1], c.preamble.name)] = (c.preamble.id, c.spec.unit, getattr(c, "size", 0))
    for r in info.registers:
        view["register " + r.preamble.name] = (r.preamble.id, r.size, r.type_spec.bitstring.bit.bitwidth)
    for p in info.action_profiles:
        view["action_profile " + p.preamble.name] = (p.preamble.id, sorted(p.table_ids), p.with_selector, p.size)
    for m in info.controller_packet_metadata:
        view["packet_metadata " + m.preamble.name] = (m.preamble.id,
                                                      [(x.id, x.name, x.bitwidth) for x in m.metadata])
    return view


def bmv2_view(text):
    """{object: description} of a bmv2 JSON: tables, actions, stateful objects and header types."""
    j = json.loads(text)
    view = {}
    for h in j.get("header_types", []):
        view["header_type " + h["name"]] = [tuple(f) for f in h["fields"]]
    for a in j.get("actions", []):
        view["action %s/%d" % (a["name"], a["id"])] = [(r["name"], r["bitwidth"]) for r in a["runtime_data"]]
    for kind in ("register_arrays", "counter_arrays", "meter_arrays"):
        for r in j.get(kind, []):
            view["%s %s" % (kind, r["name"])] = (r.get("size"), r.get("bitwidth"), r.get("is_direct"))
    for p in j.get("pipelines", []):
        for t in p["tables"]:
            view["table " + t["name"]] = ([(k["match_type"], k["name"]) for k in t["key"]], t["actions"],
                                          t["max_size"], t["match_type"])
    return view


def diff(what, a, b):
    out = []
    for key in sorted(set(a) | set(b)):
        if key not in b:
            out.append("%s: %s only in the committed artifact" % (what, key))
        elif key not in a:
            out.append("%s: %s only in the fresh compile" % (what, key))
        elif a[key] != b[key]:
            out.append("%s: %s differs: committed %s, fresh %s" % (what, key, a[key], b[key]))
    return out


def without_source_locations(bmv2_json):
    """A bmv2 JSON with every source_info object and the program's file name left out, and the names p4c makes
    from a source location (`<file><line>`, `tbl_<file><line>`: an apply block's statements as hidden actions and
    tables) renamed in order of appearance."""
    j = json.loads(bmv2_json)
    files = set()

    def strip(node):
        if isinstance(node, dict):
            if "filename" in node.get("source_info", {}):
                files.add(os.path.splitext(os.path.basename(node["source_info"]["filename"]))[0])
            return {k: strip(v) for k, v in node.items() if k not in ("source_info", "program")}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node
    stripped = strip(j)
    located = re.compile(r"^(tbl_)?((?:%s)\d+)$" % "|".join(map(re.escape, sorted(files, key=len, reverse=True))))
    renamed = {}

    def rename(node):
        if isinstance(node, dict):
            return {rename(k): rename(v) for k, v in node.items()}
        if isinstance(node, list):
            return [rename(v) for v in node]
        m = located.match(node) if isinstance(node, str) and files else None
        if not m:
            return node
        return (m.group(1) or "") + renamed.setdefault(m.group(2), "located%d" % len(renamed))
    return rename(stripped)


def same_program(dir_a, dir_b, profiles=PROFILES):
    """[differences] between two compiles (one p4c) that must be the same program."""
    problems = []
    for profile in profiles:
        texts = {}
        for name in ("p4info.txt", "bmv2.json"):
            for d in (dir_a, dir_b):
                with open(os.path.join(d, profile, "bmv2", name)) as f:
                    texts[(name, d)] = f.read()
        if texts[("p4info.txt", dir_a)] != texts[("p4info.txt", dir_b)]:
            problems.append("%s/bmv2/p4info.txt: not identical" % profile)
        if without_source_locations(texts[("bmv2.json", dir_a)]) != \
                without_source_locations(texts[("bmv2.json", dir_b)]):
            problems.append("%s/bmv2/bmv2.json: differs beyond source locations" % profile)
    return problems


def compare(committed, fresh, profiles=PROFILES):
    """(same compiler, [differences])."""
    same = version(committed) == version(fresh)
    problems = []
    for profile in profiles:
        for name, view in (("p4info.txt", p4info_view), ("bmv2.json", bmv2_view)):
            paths = [os.path.join(d, profile, "bmv2", name) for d in (committed, fresh)]
            texts = []
            for p in paths:
                with open(p) as f:
                    texts.append(f.read())
            what = "%s/bmv2/%s" % (profile, name)
            if same:
                if texts[0] != texts[1]:
                    problems.append("%s: not identical" % what)
                    problems += diff(what, view(texts[0]), view(texts[1]))
            else:
                problems += diff(what, view(texts[0]), view(texts[1]))
    return same, problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profiles", default=",".join(PROFILES), help="comma separated (. for DIR/bmv2 itself)")
    ap.add_argument("--same-program", action="store_true")
    ap.add_argument("dirs", nargs=2)
    args = ap.parse_args(argv)
    profiles = args.profiles.split(",")
    if args.same_program:
        if version(args.dirs[0]) != version(args.dirs[1]):
            print("check: --same-program needs one compiler: %s and %s" % tuple(map(version, args.dirs)))
            return 1
        problems = same_program(*args.dirs, profiles=profiles)
        for p in problems:
            print("  " + p)
        print("check: %s (%s; compiled by %s)" % ("FAILED" if problems else "the same program",
                                                  ", ".join(profiles), version(args.dirs[0])))
        return 1 if problems else 0
    committed, fresh = args.dirs
    same, problems = compare(committed, fresh, profiles)
    how = ("byte for byte (same compiler)" if same else
           "P4Info entities, ids and widths and bmv2 tables, actions, registers, header types "
           "(bytes not compared: another compiler)")
    print("check: committed artifacts compiled by: %s" % version(committed))
    print("check: fresh compile by:                %s" % version(fresh))
    if problems:
        print("check: FAILED, compared %s:" % how)
        for p in problems:
            print("  " + p)
        print("check: recompile with `make -C p4src` and commit the artifacts, constants and p4c-version.txt")
        return 1
    print("check: committed P4 artifacts match a fresh compile, compared %s" % how)
    return 0


if __name__ == "__main__":
    sys.exit(main())
