"""MATADOR training pipeline: traces -> window features -> decision tree -> switch tables.

  python -m hupf_tools.classifier train --generate --seed 1 --out reports/classifier/
  python -m hupf_tools.classifier train --pcap cloud_gaming=cg.pcap --pcap web_browsing=web.pcap \
      --ue-net 10.0.0.0/8 --out reports/classifier/
  python -m hupf_tools.classifier evaluate --model reports/classifier/model.json --pcap cloud_gaming=x.pcap

`train` writes model.json (the tables the app installs, schema in docs/IDENTIFICATION.md),
report.json, report.md and confusion.png. Scores are those of the compiled tables run by
the reference model, i.e. of the switch; the tree's own predictions must agree exactly.
"""
import argparse
import json
import pathlib
import sys

import numpy as np

from hupf_tools import compiler, dataset, pcapio, traces
from hupf_tools.model.features import FEATURES, ClsParams

# Latency-sensitive classes get the higher traffic classes (tc 3 is served first by the
# default qos.queues configuration); override with --tc NAME=TC.
DEFAULT_TC = {"cloud_gaming": 3, "video_conferencing": 2, "video_streaming": 1,
              "web_browsing": 1, "bulk_download": 0}


def load_traces(args):
    """One trace from --generate or from the --pcap arguments, every flow labelled."""
    if args.generate:
        return traces.generate(args.seed, args.flows_per_class, args.duration)
    if not args.pcap:
        raise ValueError("give --generate or at least one --pcap [LABEL=]PATH")
    parts = []
    for spec in args.pcap:
        label, sep, path = spec.rpartition("=")
        trace, skipped = pcapio.read_pcap(path, args.ue_net, label if sep else None)
        if not sep:
            labels_path = path + ".labels.csv"
            if not pathlib.Path(labels_path).exists():
                raise ValueError("%s: no LABEL= given and no %s" % (path, labels_path))
            known = pcapio.read_labels(labels_path)
            trace.labels = [known.get(str(k)) for k in trace.flows]
        unlabelled = sum(label is None for label in trace.labels)
        if unlabelled:
            raise ValueError("%s: %d flows without a label" % (path, unlabelled))
        if skipped:
            print("%s: skipped %s" % (path, ", ".join("%d %s" % (n, r) for r, n in sorted(skipped.items()))))
        parts.append(trace)
    return traces.Trace.merge(parts)


def fit_tree(X, y, max_depth, sizes, seed):
    """The deepest tree (up to max_depth) whose compiled tables fit the switch's sizes."""
    from sklearn.tree import DecisionTreeClassifier
    leaves = None
    while True:
        tree = DecisionTreeClassifier(max_depth=max_depth, max_leaf_nodes=leaves,
                                      class_weight="balanced", random_state=seed).fit(X, y)
        if compiler.fits(compiler.cut_points(tree), sizes) or tree.get_n_leaves() <= 2:
            return tree
        leaves = tree.get_n_leaves() - 1


def scores(y_true, y_pred, names):
    """Accuracy, per-class precision/recall/F1/support and the confusion matrix (ids 1..n)."""
    from sklearn.metrics import accuracy_score, confusion_matrix, precision_recall_fscore_support
    ids = list(range(1, len(names) + 1))
    p, r, f, s = precision_recall_fscore_support(y_true, y_pred, labels=ids, zero_division=0)
    return {
        "accuracy": float(accuracy_score(y_true, y_pred)),
        "per_class": {n: {"precision": float(p[i]), "recall": float(r[i]), "f1": float(f[i]),
                          "support": int(s[i])} for i, n in enumerate(names)},
        "labels": list(names),
        "confusion": confusion_matrix(y_true, y_pred, labels=[0] + ids)[1:].tolist(),
    }


def write_markdown(report, path):
    lines = ["# MATADOR classifier report", "",
             "Accuracy of the compiled switch tables on the test flows' windows: **%.4f**"
             % report["test"]["accuracy"], "",
             "| class | precision | recall | F1 | test windows |", "|---|---|---|---|---|"]
    for name, m in report["test"]["per_class"].items():
        lines.append("| %s | %.3f | %.3f | %.3f | %d |" % (name, m["precision"], m["recall"], m["f1"], m["support"]))
    lines += ["", "Confusion (rows: true class, columns: unclassified, then predicted class):", "",
              "| true \\ predicted | none | " + " | ".join(report["test"]["labels"]) + " |",
              "|---" * (len(report["test"]["labels"]) + 2) + "|"]
    for name, row in zip(report["test"]["labels"], report["test"]["confusion"]):
        lines.append("| %s | %s |" % (name, " | ".join(str(v) for v in row)))
    t = report["tables"]
    lines += ["", "Tree: depth %d, %d leaves. Tables: %s range entries (of %d each), %d decision entries "
              "(of %d), %d classes (of %d)." % (report["tree"]["depth"], report["tree"]["leaves"],
                                                 "/".join(str(n) for n in t["feature_entries"].values()),
                                                 t["feature_size"], t["decision_entries"], t["decision_size"],
                                                 t["classes"], t["classes_size"]),
              "Data: %s. Compiled tables agree with the tree on %.4f of the test windows." % (
                  report["data"]["source"], report["tree_agreement"]), ""]
    pathlib.Path(path).write_text("\n".join(lines))


def plot_confusion(report, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = report["test"]["labels"]
    cm = np.array(report["test"]["confusion"], dtype=float)[:, 1:]
    norm = cm / np.maximum(cm.sum(axis=1, keepdims=True), 1)
    fig, ax = plt.subplots(figsize=(1.3 * len(names) + 2, 1.1 * len(names) + 1.5))
    ax.imshow(norm, cmap="Blues", vmin=0, vmax=1)
    for i in range(len(names)):
        for j in range(len(names)):
            ax.text(j, i, "%d" % cm[i, j], ha="center", va="center",
                    color="white" if norm[i, j] > 0.5 else "black")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("predicted (switch tables)")
    ax.set_ylabel("true")
    ax.set_title("MATADOR confusion, accuracy %.3f" % report["test"]["accuracy"])
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def train(args):
    params = ClsParams(args.window_us, args.alpha_shift)
    sizes = compiler.TableSizes.from_p4info(args.p4info) if args.p4info else compiler.TableSizes.default()
    trace = load_traces(args)
    X, owner = dataset.flow_windows(trace, params)
    names = sorted(set(trace.labels))
    if len(names) < 2:
        raise ValueError("need at least two classes, got %s" % names)
    if len(names) > sizes.classes:
        raise ValueError("%d classes > class_to_tc size %d" % (len(names), sizes.classes))
    y = np.array([names.index(trace.labels[f]) for f in owner], dtype=np.int64)
    train_f, test_f = dataset.split_flows(trace.labels, args.test_share, np.random.default_rng(args.seed))
    tr, te = np.isin(owner, train_f), np.isin(owner, test_f)
    if not tr.any() or not te.any():
        raise ValueError("too little data: %d training and %d test windows" % (tr.sum(), te.sum()))
    tree = fit_tree(X[tr], y[tr], args.max_depth, sizes, args.seed)
    tc = dict(DEFAULT_TC, **dict(parse_tc(s) for s in args.tc))
    model = compiler.validate(compiler.compile_tree(tree, names, tc, params), sizes)
    switch = compiler.predict(model, X[te])
    agreement = float(np.mean(switch == tree.predict(X[te]) + 1))
    report = {
        "data": {"source": "generated (seed %d)" % args.seed if args.generate else ", ".join(args.pcap),
                 "packets": len(trace), "flows": len(trace.flows),
                 "windows": {n: int((y == i).sum()) for i, n in enumerate(names)},
                 "train_flows": len(train_f), "test_flows": len(test_f)},
        "params": model["params"],
        "tree": {"depth": int(tree.get_depth()), "leaves": int(tree.get_n_leaves()), "max_depth": args.max_depth},
        "tables": {"feature_entries": {f: len(model["feature_tables"][f]) for f in FEATURES},
                   "feature_size": sizes.feature, "decision_entries": len(model["decision"]),
                   "decision_size": sizes.decision, "classes": len(names), "classes_size": sizes.classes},
        "tree_agreement": agreement,
        "test": scores(y[te] + 1, switch, names),
        "train": {"accuracy": float(np.mean(compiler.predict(model, X[tr]) == y[tr] + 1))},
    }
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "model.json").write_text(json.dumps(model, indent=1) + "\n")
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    write_markdown(report, out / "report.md")
    plot_confusion(report, out / "confusion.png")
    print("classifier: accuracy %.4f on %d test windows (%d flows), tree agreement %.4f; wrote %s"
          % (report["test"]["accuracy"], int(te.sum()), len(test_f), agreement, out))
    return report


def evaluate(args):
    model = compiler.load(args.model)
    names = {c["name"]: c["class_id"] for c in model["classes"]}
    trace = load_traces(args)
    unknown = set(trace.labels) - set(names)
    if unknown:
        raise ValueError("labels %s are not classes of the model (%s)" % (sorted(unknown), ", ".join(names)))
    X, owner = dataset.flow_windows(trace, ClsParams(**model["params"]))
    if not len(X):
        raise ValueError("no flow in the data lasts past one window (%d us)" % model["params"]["window_us"])
    y = np.array([names[trace.labels[f]] for f in owner], dtype=np.int64)
    result = scores(y, compiler.predict(model, X), [c["name"] for c in model["classes"]])
    print(json.dumps(result, indent=1))
    return result


def parse_tc(spec):
    name, sep, tc = spec.partition("=")
    if not sep or not tc.isdigit():
        raise ValueError("--tc wants NAME=TC, got %r" % spec)
    return name, int(tc)


def parser():
    ap = argparse.ArgumentParser(prog="python -m hupf_tools.classifier", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("train", "evaluate"):
        p = sub.add_parser(name)
        p.add_argument("--generate", action="store_true", help="use a synthetic labelled trace")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--flows-per-class", type=int, default=16)
        p.add_argument("--duration", type=float, default=20.0, help="seconds per generated flow")
        p.add_argument("--pcap", action="append", default=[],
                       help="[LABEL=]PATH; without LABEL, labels come from PATH.labels.csv")
        p.add_argument("--ue-net", default="10.0.0.0/8", help="UE address pool: decides up/downlink")
    t = sub.choices["train"]
    t.add_argument("--out", required=True, help="directory for model.json, report.*, confusion.png")
    t.add_argument("--window-us", type=int, default=ClsParams().window_us)
    t.add_argument("--alpha-shift", type=int, default=ClsParams().alpha_shift)
    t.add_argument("--max-depth", type=int, default=6)
    t.add_argument("--test-share", type=float, default=0.3, help="share of each class's flows held out")
    t.add_argument("--tc", action="append", default=[], help="NAME=TC traffic class of a class")
    t.add_argument("--p4info", help="hw P4Info (text) for the table sizes; default: the committed one")
    sub.choices["evaluate"].add_argument("--model", required=True)
    return ap


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return train(args) if args.cmd == "train" else evaluate(args)
    except ValueError as e:
        sys.exit("classifier: error: %s" % e)


if __name__ == "__main__":
    main()
