#!/usr/bin/env python3
"""Sums a p4c-barefoot resource report (pipe/logs/resources.json, written with -g) over the MAU stages of
one pipe, for the stage and resource table in docs/TOFINO.md: the units used of each resource and the units
there, then what each stage uses and what each part of hupf (HK-IPG, MATADOR, the rest of ingress, egress)
uses, in which stages. `make tna` writes this summary to p4c-out/hw/<target>/resources.md.

    python3 p4src/tna_resources.py path/to/resources.json
"""
import json
import sys

# resource: (key of the stage's entry, list of what is used, capacity from the entry's sizes)
RESOURCES = [
    ("SRAM blocks", "rams", "srams", lambda r: r["nRows"] * r["nColumns"]),
    ("TCAM blocks", "tcams", "tcams", lambda r: r["nRows"] * r["nColumns"]),
    ("map RAMs", "map_rams", "maprams", lambda r: r["nRows"] * r["nUnits"]),
    ("hash distribution units", "hash_distribution_units", "units", lambda r: r["nHashIds"] * r["nUnitIds"]),
    ("hash bits", "hash_bits", "bits", lambda r: r["nBits"] * r["nFunctions"]),
    ("meter ALUs (stateful, meters, LPFs)", "meter_alus", "meters", lambda r: r["nAlus"]),
    ("statistics ALUs", "statistic_alus", "stats", lambda r: r["nAlus"]),
    ("logical tables", "logical_tables", "ids", lambda r: r["size"]),
    ("gateway rows", "gateways", "gateways", lambda r: r["nRows"] * r["nUnits"]),
    ("input crossbar bytes", "xbar_bytes", "bytes", lambda r: r["size"]),
    ("VLIW instructions", "vliw", "instructions", lambda r: r["size"]),
]

# The columns of the per-stage and per-part tables.
BREAKDOWN = ["SRAM blocks", "TCAM blocks", "map RAMs", "hash distribution units", "hash bits",
             "meter ALUs (stateful, meters, LPFs)", "logical tables"]
BREAKDOWN_HEADINGS = ["SRAM", "TCAM", "map RAM", "hash dist. units", "hash bits", "meter ALUs", "logical tables"]

# The rest of ingress: the UPF with the ACL, routing, steering, QoS and the TNA top's own tables; other:
# gateways and tables p4c makes (tbl_act*) that name no source.
HKIPG, MATADOR, INGRESS, EGRESS, OTHER = "HK-IPG", "MATADOR", "UPF ingress", "UPF egress", "other"
PARTS = [HKIPG, MATADOR, INGRESS, EGRESS, OTHER]


def part(name, gress):
    """The part of hupf a table, register or filter belongs to: by the control instance in its name or, for a
    table p4c makes for statements, by the source file in its name (tbl_<file><line>) and its gress."""
    if name.startswith(("HupfIngress.hh.", "HupfIngress.hh_prep.", "tbl_hh")):
        return HKIPG
    if name.startswith(("HupfIngress.classifier", "HupfIngress.cls_prep.", "tbl_classifier")):
        return MATADOR
    if name.startswith("HupfEgress.") or gress.get(name) == "egress":
        return EGRESS
    if name.startswith("HupfIngress.") or (name.startswith("tbl_") and not name.startswith("tbl_act")):
        return INGRESS
    return OTHER


def users(key, item):
    """Who uses one unit of a resource (the report's two shapes)."""
    if "usages" in item:
        return [u.get("used_by") or item.get("used_by_table") for u in item["usages"]]
    return [item.get("table_name") or item.get("used_by_table")]


def gresses(stages):
    """Table name -> ingress or egress, from the VLIW instructions of its actions."""
    gress = {}
    for s in stages:
        for instr in s["vliw"]["instructions"]:
            for color in instr["color_usages"]:
                for u in color["usages"]:
                    gress[u["used_by"]] = color["gress"]
    return gress


def summary(report):
    """[(resource, used, there)] over the pipe's stages. The report lists the stages the program uses; every
    stage of a pipe has the same units, so what is there is one stage's units times the pipe's stages."""
    mau = report["resources"]["mau"]
    stages = mau["mau_stages"]
    rows = [("stages with tables", sum(1 for s in stages if s["logical_tables"]["ids"]), mau["nStages"])]
    for name, key, used, capacity in RESOURCES:
        rows.append((name, sum(len(s[key][used]) for s in stages), capacity(stages[0][key]) * mau["nStages"]))
    return rows


def breakdown(report):
    """{stage: {part: {resource: units}}}: each unit counted for the part of its first user."""
    stages = report["resources"]["mau"]["mau_stages"]
    gress = gresses(stages)
    spec = {name: (key, used) for name, key, used, _ in RESOURCES}
    out = {}
    for s in stages:
        per_part = out.setdefault(s["stage_number"], {})
        for name in BREAKDOWN:
            key, used = spec[name]
            for item in s[key][used]:
                p = part(users(key, item)[0] or "", gress)
                per_part.setdefault(p, dict.fromkeys(BREAKDOWN, 0))[name] += 1
    return out


def markdown(report):
    lines = ["%s, p4c-barefoot %s" % (report.get("program_name"), report.get("compiler_version")), "",
             "| resource | used | there | % |", "|---|---|---|---|"]
    totals = {}
    for name, used, there in summary(report):
        totals[name] = there
        lines.append("| %s | %d | %d | %.1f %% |" % (name, used, there, 100.0 * used / there))
    per_stage = breakdown(report)
    lines += ["", "| stage | parts with tables | " + " | ".join(BREAKDOWN_HEADINGS) + " |",
              "|---" * (2 + len(BREAKDOWN)) + "|"]
    for stage in sorted(per_stage):
        parts = per_stage[stage]
        with_tables = [p for p in PARTS if parts.get(p, {}).get("logical tables")]
        lines.append("| %d | %s | %s |" % (stage, ", ".join(with_tables) or "-", " | ".join(
            str(sum(parts[p][r] for p in parts)) for r in BREAKDOWN)))
    lines += ["", "| part (units, % of the pipe's) | stages | " + " | ".join(BREAKDOWN_HEADINGS) + " |",
              "|---" * (2 + len(BREAKDOWN)) + "|"]
    for p in PARTS:
        in_stages = [st for st in sorted(per_stage) if per_stage[st].get(p, {}).get("logical tables")]
        used = [sum(per_stage[st].get(p, {}).get(r, 0) for st in per_stage) for r in BREAKDOWN]
        lines.append("| %s | %d (%s) | %s |" % (p, len(in_stages), ", ".join(map(str, in_stages)), " | ".join(
            "%d (%.1f %%)" % (u, 100.0 * u / totals[r]) for u, r in zip(used, BREAKDOWN))))
    return "\n".join(lines)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        print(markdown(json.load(f)))


if __name__ == "__main__":
    main(sys.argv)
