#!/usr/bin/env python3
"""Sums a p4c-barefoot resource report (pipe/logs/resources.json, written with -g; `make tna` keeps it
in p4c-out/hw/tofino/resources/) over the MAU stages of one pipe: units used / units there, per resource,
for the stage and resource table in docs/TOFINO.md.

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


def summary(report):
    mau = report["resources"]["mau"]
    stages = mau["mau_stages"]
    rows = [("stages with tables", sum(1 for s in stages if s["logical_tables"]["ids"]), mau["nStages"])]
    for name, key, used, capacity in RESOURCES:
        rows.append((name, sum(len(s[key][used]) for s in stages), sum(capacity(s[key]) for s in stages)))
    return rows


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        report = json.load(f)
    print("%s, %s %s" % (report.get("program_name"), "p4c-barefoot", report.get("compiler_version")))
    for name, used, there in summary(report):
        print("%-36s %6d / %6d  %5.1f %%" % (name, used, there, 100.0 * used / there))


if __name__ == "__main__":
    main(sys.argv)
