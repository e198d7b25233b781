"""The one-command training pipeline, end to end on small data."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

import hupf_tools
from hupf_tools import classifier, compiler, pcapio, traces

SMALL = ["--flows-per-class", "3", "--duration", "4"]


def run(*argv):
    return classifier.main(list(argv))


def test_train_on_generated_data_writes_model_report_and_plot(tmp_path):
    report = run("train", "--generate", "--seed", "4", *SMALL, "--out", str(tmp_path))
    model = compiler.load(tmp_path / "model.json", compiler.TableSizes.default())
    on_disk = json.loads((tmp_path / "report.json").read_text())
    assert on_disk == json.loads(json.dumps(report))
    assert (tmp_path / "confusion.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (tmp_path / "report.md").read_text()
    assert "%.4f" % report["test"]["accuracy"] in md
    assert report["tree_agreement"] == 1.0
    assert [c["name"] for c in model["classes"]] == sorted(traces.CLASSES)
    assert {c["name"]: c["tc"] for c in model["classes"]} == classifier.DEFAULT_TC
    cm = report["test"]["confusion"]
    assert sum(map(sum, cm)) == sum(m["support"] for m in report["test"]["per_class"].values())
    correct = sum(cm[i][i + 1] for i in range(len(cm)))
    assert report["test"]["accuracy"] == pytest.approx(correct / sum(map(sum, cm)))


def test_train_from_pcaps_then_evaluate(tmp_path, capsys):
    pcap = tmp_path / "mix.pcap"
    pcapio.main(["--seed", "9", "--flows-per-class", "3", "--duration", "4", "--classes",
                 "cloud_gaming,bulk_download", "--gtpu", "--out", str(pcap)])
    out = tmp_path / "model"
    report = run("train", "--pcap", str(pcap), "--ue-net", "10.0.0.0/8", "--tc", "bulk_download=1",
                 "--out", str(out))
    assert report["data"]["flows"] == 6
    model = compiler.load(out / "model.json")
    assert {c["name"]: c["tc"] for c in model["classes"]} == {"bulk_download": 1, "cloud_gaming": 3}
    # A fresh capture of the same two classes, one label per file.
    cg = tmp_path / "cg.pcap"
    pcapio.main(["--seed", "10", "--flows-per-class", "2", "--duration", "3", "--classes", "cloud_gaming",
                 "--out", str(cg)])
    capsys.readouterr()
    result = run("evaluate", "--model", str(out / "model.json"), "--pcap", "cloud_gaming=%s" % cg)
    assert result["per_class"]["cloud_gaming"]["support"] > 0
    assert json.loads(capsys.readouterr().out) == result


def test_evaluate_on_data_without_a_finished_window(tmp_path):
    run("train", "--generate", "--seed", "4", *SMALL, "--out", str(tmp_path))
    short = tmp_path / "short.pcap"
    pcapio.main(["--seed", "1", "--flows-per-class", "1", "--duration", "0.5", "--out", str(short)])
    with pytest.raises(SystemExit) as e:
        run("evaluate", "--model", str(tmp_path / "model.json"), "--pcap", str(short))
    assert "no flow in the data lasts past one window" in str(e.value)


@pytest.mark.parametrize("argv, message", [
    (["train", "--out", "X"], "give --generate or at least one --pcap"),
    (["train", "--pcap", "/nonexistent.pcap", "--out", "X"], "not a readable pcap"),
    (["train", "--generate", *SMALL, "--tc", "cloud_gaming=fast", "--out", "X"], "NAME=TC"),
])
def test_bad_input_exits_with_a_precise_message(tmp_path, argv, message):
    argv = [str(tmp_path / a) if a == "X" else a for a in argv]
    with pytest.raises(SystemExit) as e:
        run(*argv)
    assert message in str(e.value)


def test_module_entry_point(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(hupf_tools.__file__).parents[1]))
    proc = subprocess.run([sys.executable, "-m", "hupf_tools.classifier", "train", "--generate", *SMALL,
                           "--seed", "2", "--out", str(tmp_path)], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "classifier: accuracy" in proc.stdout
    assert {p.name for p in tmp_path.iterdir()} == {"model.json", "report.json", "report.md", "confusion.png"}


def test_same_seed_same_model(tmp_path):
    for d in ("a", "b"):
        run("train", "--generate", "--seed", "6", *SMALL, "--out", str(tmp_path / d))
    assert (tmp_path / "a" / "model.json").read_text() == (tmp_path / "b" / "model.json").read_text()
