"""Tree -> range/decision tables -> JSON -> the reference model's lookup gives the tree's answers."""
import json

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from hupf_tools import classifier, compiler, dataset, traces
from hupf_tools.model.features import FEATURES, MASK32, ClsParams

PARAMS = ClsParams()
ROOMY = compiler.TableSizes(64, 100000, 16)


@pytest.fixture(scope="module")
def windows():
    trace = traces.generate(21, flows_per_class=5, duration_s=6)
    X, owner = dataset.flow_windows(trace, PARAMS)
    names = sorted(set(trace.labels))
    y = np.array([names.index(trace.labels[f]) for f in owner])
    train, test = dataset.split_flows(trace.labels, 0.4, np.random.default_rng(3))
    return X, y, np.isin(owner, train), np.isin(owner, test), names


def through_json(model):
    return compiler.validate(json.loads(json.dumps(model)))


def test_compiled_tables_predict_exactly_like_the_tree(windows):
    X, y, tr, te, names = windows
    tree = DecisionTreeClassifier(max_depth=5, random_state=0).fit(X[tr], y[tr])
    model = through_json(compiler.compile_tree(tree, names, classifier.DEFAULT_TC, PARAMS))
    assert np.array_equal(compiler.predict(model, X[te]), tree.predict(X[te]) + 1)
    assert np.array_equal(compiler.predict(model, X[tr]), tree.predict(X[tr]) + 1)


def test_exact_on_wide_random_integers_and_cut_boundaries():
    rng = np.random.default_rng(5)
    X = np.exp(rng.uniform(0, np.log(MASK32), (3000, 6))).astype(np.int64)
    y = (X[:, 0] > 1000).astype(int) + 2 * (X[:, 3] % 7 > 3) + (X[:, 5] < X[:, 4])
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X[:2000], y[:2000])
    model = through_json(compiler.compile_tree(tree, ["a", "b", "c", "d"], {}, PARAMS))
    probe = np.vstack([X[2000:], X[2000:] + 1, X[2000:] - 1])
    # Values right at and next to every cut must go the tree's way too.
    for f, name in enumerate(FEATURES):
        for cut in compiler.cut_points(tree)[name]:
            for v in (cut - 1, cut, cut + 1):
                row = X[2000].copy()
                row[f] = v
                probe = np.vstack([probe, row])
    probe = np.clip(probe, 0, MASK32)
    assert np.array_equal(compiler.predict(model, probe), tree.predict(probe) + 1)


def test_ranges_cover_the_whole_32_bit_space_without_overlap(windows):
    X, y, tr, _, names = windows
    tree = DecisionTreeClassifier(max_depth=6, random_state=0).fit(X[tr], y[tr])
    model = compiler.compile_tree(tree, names, {}, PARAMS)
    cuts = compiler.cut_points(tree)
    assert any(not cuts[f] for f in FEATURES) and any(cuts[f] for f in FEATURES)
    for f in FEATURES:
        entries = model["feature_tables"][f]
        if not cuts[f]:
            # Unused by the tree: no entry, the table's default code 0 (a full-range match is illegal).
            assert entries == []
            continue
        assert entries[0]["lo"] == 0 and entries[-1]["hi"] == MASK32
        assert all(b["lo"] == a["hi"] + 1 for a, b in zip(entries, entries[1:]))
        assert [e["code"] for e in entries] == list(range(len(entries)))
    assert len(model["decision"]) == compiler.grid_size(cuts)


def test_integer_cut_sends_equal_value_left():
    tree = DecisionTreeClassifier().fit([[5, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0]], [0, 1])
    model = compiler.compile_tree(tree, ["low", "high"], {}, PARAMS)
    assert [(e["lo"], e["hi"]) for e in model["feature_tables"]["pkts_up"]] == [(0, 5), (6, MASK32)]
    assert list(compiler.predict(model, [[5, 9, 9, 9, 9, 9], [6, 0, 0, 0, 0, 0]])) == [1, 2]


def test_fit_tree_shrinks_the_tree_until_the_tables_fit(windows):
    X, y, tr, _, names = windows
    small = compiler.TableSizes(feature=3, decision=12, classes=16)
    tree = classifier.fit_tree(X[tr], y[tr], 8, small, 0)
    model = compiler.compile_tree(tree, names, {}, PARAMS)
    compiler.validate(model, small)
    assert len(model["decision"]) <= 12
    with pytest.raises(ValueError, match="> table size"):
        big = classifier.fit_tree(X[tr], y[tr], 8, ROOMY, 0)
        compiler.validate(compiler.compile_tree(big, names, {}, PARAMS), small)


def good_model():
    tree = DecisionTreeClassifier().fit([[5, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0]], [0, 1])
    return compiler.compile_tree(tree, ["low", "high"], {"low": 1}, PARAMS)


@pytest.mark.parametrize("breakage, message", [
    (lambda m: m.update(schema="other/9"), "schema must be"),
    (lambda m: m["features"].reverse(), "features must be"),
    (lambda m: m["params"].update(alpha_shift=40), "alpha_shift"),
    (lambda m: m["decision"][0].update(class_id=9), "unknown class id"),
    (lambda m: m["classes"][0].update(tc=4), "tc 4 outside"),
    (lambda m: m["classes"][1].update(class_id=1), "distinct"),
    (lambda m: m["feature_tables"]["pkts_up"][1].update(lo=3), "overlapping"),
    (lambda m: m["feature_tables"]["ps_dn"].append({"lo": 9, "hi": 2, "code": 1}), "bad range entry"),
    (lambda m: m["decision"].append(dict(m["decision"][0])), "duplicate decision"),
])
def test_validate_names_what_is_wrong(breakage, message):
    model = good_model()
    breakage(model)
    with pytest.raises(ValueError, match=message):
        compiler.validate(model)


def test_load_reports_malformed_files(tmp_path):
    (tmp_path / "a.json").write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        compiler.load(tmp_path / "a.json")
    model = good_model()
    del model["decision"]
    (tmp_path / "b.json").write_text(json.dumps(model))
    with pytest.raises(ValueError, match="malformed model"):
        compiler.load(tmp_path / "b.json")


def test_table_sizes_from_size_header(tmp_path):
    header = tmp_path / "size.p4"
    header.write_text("#define CLS_FEATURE_TABLE_SIZE 32\n#define CLS_DECISION_SIZE 512\n#define CLS_CLASSES 8\n")
    s = compiler.TableSizes.from_size_header(header)
    assert (s.feature, s.decision, s.classes) == (32, 512, 8)
    header.write_text("#define CLS_DECISION_SIZE 512\n")
    with pytest.raises(ValueError, match="CLS_FEATURE_TABLE_SIZE"):
        compiler.TableSizes.from_size_header(header)
    d = compiler.TableSizes.default()
    assert min(d.feature, d.decision, d.classes) > 0


def test_table_sizes_from_p4info(tmp_path):
    from google.protobuf import text_format
    from p4.config.v1 import p4info_pb2
    info = p4info_pb2.P4Info()
    sizes = {"feature_" + f: 48 - i for i, f in enumerate(FEATURES)}
    sizes.update(decision=700, class_to_tc=12)
    for name, size in sizes.items():
        t = info.tables.add()
        t.preamble.name = "HupfIngress.classifier." + name
        t.size = size
    info.tables.add().preamble.name = "HupfIngress.upf.interfaces"
    (tmp_path / "p4info.txt").write_text(text_format.MessageToString(info))
    s = compiler.TableSizes.from_p4info(tmp_path / "p4info.txt")
    assert (s.feature, s.decision, s.classes) == (48 - len(FEATURES) + 1, 700, 12)
    del info.tables[0]
    (tmp_path / "p4info.txt").write_text(text_format.MessageToString(info))
    with pytest.raises(ValueError, match="no classifier table 'feature_pkts_up'"):
        compiler.TableSizes.from_p4info(tmp_path / "p4info.txt")
