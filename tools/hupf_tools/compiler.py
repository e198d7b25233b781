"""Decision tree -> the hw profile's MATADOR tables, as a JSON model (docs/IDENTIFICATION.md).

Every split threshold of the tree cuts its feature's value range; the intervals between
cuts become the range entries of that feature's table (interval -> code), and every cell
of the grid of codes gets one exact decision entry (codes -> class id) holding the tree's
prediction for that cell. Features are integers, so `x <= t` is `x <= floor(t)`, and any
member of a cell takes the same path through the tree: the tables reproduce the tree
exactly. Class id 0 is the P4's "not classified yet" (decision default), so trained
classes get ids from 1.
"""
from itertools import product
import json
import math
import pathlib
import re

import numpy as np

from hupf_tools.model.features import FEATURES, MASK32, ClsParams, CodeTables

SCHEMA = "hupf-classifier/1"
REPO = pathlib.Path(__file__).resolve().parents[2]
HW_P4INFO = REPO / "pipeconf/src/main/resources/p4c-out/hw/bmv2/p4info.txt"
HW_SIZES = REPO / "p4src/include/size_hw.p4"
TC_MAX = 3  # tc is bit<2>


class TableSizes:
    """Capacities of the classifier tables: feature range table, decision table, classes."""

    def __init__(self, feature, decision, classes):
        self.feature, self.decision, self.classes = feature, decision, classes

    @classmethod
    def from_p4info(cls, path):
        from google.protobuf import text_format
        from p4.config.v1 import p4info_pb2
        info = text_format.Parse(pathlib.Path(path).read_text(), p4info_pb2.P4Info())
        size = {t.preamble.name.rsplit(".", 1)[-1]: t.size for t in info.tables
                if ".classifier." in t.preamble.name}
        try:
            return cls(min(size["feature_" + f] for f in FEATURES), size["decision"], size["class_to_tc"])
        except KeyError as e:
            raise ValueError("%s: no classifier table %s" % (path, e)) from None

    @classmethod
    def from_size_header(cls, path):
        defs = dict(re.findall(r"#define\s+(\w+)\s+(\d+)", pathlib.Path(path).read_text()))
        try:
            return cls(int(defs["CLS_FEATURE_TABLE_SIZE"]), int(defs["CLS_DECISION_SIZE"]),
                       int(defs["CLS_CLASSES"]))
        except KeyError as e:
            raise ValueError("%s: no #define %s" % (path, e)) from None

    @classmethod
    def default(cls):
        """From the committed hw P4Info when built, else from the hw size header it comes from."""
        return cls.from_p4info(HW_P4INFO) if HW_P4INFO.exists() else cls.from_size_header(HW_SIZES)


def cut_points(tree):
    """Per feature, the sorted integer cuts c (x <= c goes left) of a fitted sklearn tree."""
    t = tree.tree_
    cuts = {i: set() for i in range(len(FEATURES))}
    for node in range(t.node_count):
        if t.children_left[node] != t.children_right[node]:
            cuts[t.feature[node]].add(min(max(math.floor(t.threshold[node]), -1), MASK32))
    # A cut below 0 or at the top sends every value one way: it is no cut.
    return {FEATURES[i]: sorted(c for c in cs if 0 <= c < MASK32) for i, cs in cuts.items()}


def intervals(cuts):
    """[(lo, hi)] covering 0..2^32-1, split after each cut."""
    bounds = [-1] + list(cuts) + [MASK32]
    return [(bounds[i] + 1, bounds[i + 1]) for i in range(len(bounds) - 1)]


def grid_size(cuts):
    return int(np.prod([len(cuts[f]) + 1 for f in FEATURES], dtype=object))


def fits(cuts, sizes):
    return (all(len(cuts[f]) + 1 <= min(sizes.feature, 256) for f in FEATURES)
            and grid_size(cuts) <= sizes.decision)


def compile_tree(tree, class_names, class_tc, params):
    """The JSON model of a fitted tree; tree.classes_ are indices into class_names."""
    cuts = cut_points(tree)
    ranges = {f: intervals(cuts[f]) for f in FEATURES}
    cells = list(product(*(range(len(ranges[f])) for f in FEATURES)))
    # One representative value per cell (its intervals' lower bounds) takes the cell's path.
    reps = np.array([[ranges[f][c][0] for f, c in zip(FEATURES, cell)] for cell in cells], dtype=np.float64)
    pred = tree.predict(reps) if cells else []
    classes = []
    for i, name in enumerate(class_names):
        tc = class_tc.get(name)
        if tc is not None and not 0 <= tc <= TC_MAX:
            raise ValueError("class %s: tc %r outside 0..%d" % (name, tc, TC_MAX))
        classes.append({"class_id": i + 1, "name": name, "tc": tc})
    return {
        "schema": SCHEMA,
        "params": {"window_us": params.window_us, "alpha_shift": params.alpha_shift},
        "features": list(FEATURES),
        # A feature the tree never splits on needs no entry: the table's default code 0 covers it
        # (and P4Runtime forbids a range match spanning the whole field: it must be a wildcard).
        "feature_tables": {f: [{"lo": lo, "hi": hi, "code": code} for code, (lo, hi) in enumerate(ranges[f])]
                           if cuts[f] else [] for f in FEATURES},
        "decision": [{"codes": list(cell), "class_id": int(p) + 1} for cell, p in zip(cells, pred)],
        "classes": classes,
    }


def validate(model, sizes=None):
    """Raises ValueError naming the first thing wrong with a model dict; returns it."""
    if model.get("schema") != SCHEMA:
        raise ValueError("schema must be %r, got %r" % (SCHEMA, model.get("schema")))
    if model.get("features") != list(FEATURES):
        raise ValueError("features must be %s in this order" % list(FEATURES))
    ClsParams(**model["params"])
    ids = {c["class_id"] for c in model["classes"]}
    if len(ids) != len(model["classes"]) or not all(1 <= i <= 255 for i in ids):
        raise ValueError("class ids must be distinct and in 1..255")
    for c in model["classes"]:
        if c["tc"] is not None and not 0 <= c["tc"] <= TC_MAX:
            raise ValueError("class %s: tc %r outside 0..%d" % (c["name"], c["tc"], TC_MAX))
    for d in model["decision"]:
        if d["class_id"] not in ids:
            raise ValueError("decision %s -> unknown class id %r" % (d["codes"], d["class_id"]))
    tables = code_tables(model)
    for f in FEATURES:
        spans = sorted(tables.ranges[f])
        if any(b[0] <= a[1] for a, b in zip(spans, spans[1:])):
            raise ValueError("feature %s: overlapping ranges" % f)
    if sizes is not None:
        for f in FEATURES:
            if len(tables.ranges[f]) > sizes.feature:
                raise ValueError("feature %s: %d ranges > table size %d" % (f, len(tables.ranges[f]), sizes.feature))
        if len(model["decision"]) > sizes.decision:
            raise ValueError("%d decision entries > table size %d" % (len(model["decision"]), sizes.decision))
        if len(model["classes"]) > sizes.classes:
            raise ValueError("%d classes > class_to_tc size %d" % (len(model["classes"]), sizes.classes))
    return model


def code_tables(model):
    """The reference model's run-time tables (tools/hupf_tools/model/features.py) for a model."""
    ranges = {f: [(e["lo"], e["hi"], e["code"]) for e in model["feature_tables"][f]] for f in FEATURES}
    decisions = {}
    for d in model["decision"]:
        codes = tuple(d["codes"])
        if codes in decisions:
            raise ValueError("duplicate decision entry for codes %s" % list(codes))
        decisions[codes] = d["class_id"]
    return CodeTables(ranges, decisions)


def predict(model, X):
    """Class ids the switch's tables give to feature rows X (via the reference model)."""
    tables = code_tables(model)
    return np.array([tables.classify(tuple(int(v) for v in row)) for row in X], dtype=np.int64)


def load(path, sizes=None):
    with open(path) as f:
        try:
            model = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError("%s: not JSON (%s)" % (path, e)) from None
    try:
        return validate(model, sizes)
    except (KeyError, TypeError) as e:
        raise ValueError("%s: malformed model (%s: %s)" % (path, type(e).__name__, e)) from None
